/**
 * Payroll request → `NominaIndividual` (102) or `NominaIndividualDeAjuste` (103) XML, elements and attributes in
 * the order of DIAN's payroll XSDs (the generated tree walked through src/dian/payroll/plan.ts), with the CUNE,
 * the software security code and the QR computed from the tree that is written. Pure: the clock comes in through
 * the context and is read only when the request has no generation date and time.
 */
import type { Issue } from '../../shared/issues.js';
import { numberText, parseDec, roundHalfEven, toFixed, toText } from '../../shared/money/decimal.js';
import { formatWallClock } from '../../shared/time/fixed-offset.js';
import type { DianSoftware } from '../build/context.js';
import { qrUrl } from '../codes/qr.js';
import { BOGOTA_OFFSET, BOGOTA_OFFSET_MINUTES } from '../spec/codes.js';
import { PAYROLL_XSD } from '../spec/payroll-schema.gen.js';
import type { PayrollXsdNode } from '../spec/payroll-xsd.js';
import { child, el, type UblNode } from '../ubl/tree.js';
import { writeUbl } from '../ubl/write.js';
import { toDianValidationBody, type DianValidationBody } from '../validate/request.js';
import { computePayrollCodes, payrollBody } from './codes.js';
import { bodyNode, entriesOf, textScalar, VALUE_KEY, type PayrollScalar } from './plan.js';
import { CUNE_ALGORITHM, PAYROLL_KINDS, type PayrollKindId } from './table.js';
import { validateDianPayroll, type PayrollRequest } from './validate.js';

/** What the client does not send with a payroll document: the software, the environment and the clock. */
export interface PayrollContext {
  /** The software registered with DIAN (id and PIN) and its provider (NIT and check digit, `ProveedorXML`). */
  software: DianSoftware;
  /** `1` production, `2` habilitación. */
  environment: '1' | '2';
  /** The clock, read only when the request has no `general.generation_date` / `general.generation_time`. */
  now?: () => Date;
}

/** The codes of a built payroll document. */
export interface PayrollBuiltCodes {
  /** The CUNE (SHA-384 hex), `InformacionGeneral/@CUNE`. */
  cune: string;
  /** The exact text hashed. */
  preimage: string;
  /** `ProveedorXML/@SoftwareSC`. */
  securityCode: string;
  /** `CodigoQR`. */
  qr: string;
  /** `NumeroSecuenciaXML/@Numero`. */
  number: string;
}

/** A built document, or the issues with the service's 422 body. */
export type PayrollBuildResult =
  | { ok: true; xml: string; root: UblNode; codes: PayrollBuiltCodes; warnings: Issue[] }
  | { ok: false; issues: Issue[]; body: DianValidationBody };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: unknown, k: string): unknown => (isObj(o) && Object.hasOwn(o, k) ? o[k] : undefined);

/** The namespaces DIAN's payroll samples declare on the root (besides the default one). */
const PAYROLL_PREFIXES = ['ds', 'ext', 'xades', 'xades141', 'xsi'] as const;

/**
 * Validates and builds a payroll document of `kind`. Invalid input is a value (`ok: false`) with every issue.
 *
 * @example
 * const r = buildDianPayroll('payroll', request, { software, environment: '2', now: () => new Date() });
 * if (r.ok) r.codes.cune; // the CUNE written in InformacionGeneral/@CUNE
 */
export function buildDianPayroll(kind: PayrollKindId, request: PayrollRequest, context: PayrollContext): PayrollBuildResult {
  const validation = validateDianPayroll(kind, request);
  const issues = [...validation.issues];
  const number = `${String(own(own(request, 'sequence'), 'prefix') ?? '')}${String(own(own(request, 'sequence'), 'consecutive') ?? '')}`;
  const general = own(request, 'general');
  let date = own(general, 'generation_date') as string | undefined;
  let time = own(general, 'generation_time') as string | undefined;
  if ((date === undefined || time === undefined) && !context.now) {
    issues.push({
      code: 'required',
      path: date === undefined ? 'general.generation_date' : 'general.generation_time',
      message: 'indique la fecha y la hora de generación, o configure un reloj',
      severity: 'error',
    });
  }
  if (issues.some((i) => i.severity === 'error')) return { ok: false, issues, body: toDianValidationBody(number, issues) };
  if (date === undefined || time === undefined) {
    const now = context.now!();
    date ??= formatWallClock(now, BOGOTA_OFFSET_MINUTES, 'yyyy-MM-dd');
    time ??= formatWallClock(now, BOGOTA_OFFSET_MINUTES, 'HH:mm:ss');
  }
  const row = PAYROLL_KINDS[kind];
  const derived = new Map<string, string>([
    ['@SchemaLocation', ''],
    ['NumeroSecuenciaXML@Numero', number],
    ['ProveedorXML@NIT', context.software.provider_nit],
    ['ProveedorXML@DV', context.software.provider_dv],
    ['ProveedorXML@SoftwareID', context.software.id],
    ['ProveedorXML@SoftwareSC', ''],
    ['CodigoQR', ''],
    ['InformacionGeneral@Version', row.version],
    ['InformacionGeneral@Ambiente', context.environment],
    ['InformacionGeneral@TipoXML', row.documentType],
    ['InformacionGeneral@CUNE', ''],
    ['InformacionGeneral@EncripCUNE', CUNE_ALGORITHM],
    ['Periodo@FechaGen', date],
    ['InformacionGeneral@FechaGen', date],
    ['InformacionGeneral@HoraGen', `${time}${BOGOTA_OFFSET}`],
  ]);

  const rootXsd = PAYROLL_XSD[row.root];
  const root = el(row.root, undefined, [['SchemaLocation', '']]);
  root.children.push(extensions());
  if (kind === 'payroll') root.children.push(...buildElement(rootXsd, request, derived).children);
  else {
    const noteType = own(request, 'note_type') as '1' | '2';
    root.children.push(el('TipoNota', noteType));
    const wrapper = bodyNode(kind, noteType)!;
    root.children.push(buildElement(wrapper, request, derived));
  }

  const computed = computePayrollCodes(root, { pin: context.software.pin, softwareId: context.software.id });
  if (!computed.ok) throw new Error(`payroll builder wrote a tree without ${computed.path}`);
  const body = payrollBody(root)!;
  const qr = qrUrl(computed.codes.cune, context.environment);
  setAttr(child(body, 'InformacionGeneral')!, 'CUNE', computed.codes.cune);
  setAttr(child(body, 'ProveedorXML')!, 'SoftwareSC', computed.codes.securityCode);
  child(body, 'CodigoQR')!.text = qr;
  const xml = writeUbl(root, { keepOrder: true, namespace: { uri: row.namespace, prefixes: PAYROLL_PREFIXES } });
  return {
    ok: true,
    xml,
    root,
    codes: { cune: computed.codes.cune, preimage: computed.codes.preimage, securityCode: computed.codes.securityCode, qr, number },
    warnings: issues.filter((i) => i.severity === 'warning'),
  };
}

/** `ext:UBLExtensions` with one extension whose empty `ExtensionContent` is the signature's place. */
function extensions(): UblNode {
  const content = el('ext:ExtensionContent');
  const extension = el('ext:UBLExtension');
  extension.children.push(content);
  const list = el('ext:UBLExtensions');
  list.children.push(extension);
  return list;
}

function setAttr(node: UblNode, name: string, value: string): void {
  const a = node.attrs.find(([k]) => k === name);
  if (a) a[1] = value;
  else node.attrs.push([name, value]);
}

/** One element from its request value (validated), children in XSD order; derived values from `derived`. */
function buildElement(node: PayrollXsdNode, value: unknown, derived: ReadonlyMap<string, string>): UblNode {
  const out = el(node.name);
  if (node.text !== undefined) out.text = formatScalar(node.attrs.length > 0 ? own(value, VALUE_KEY) : value, textScalar(node));
  for (const e of entriesOf(node)) {
    if (e.attr) {
      const text = derived.has(e.ref) ? derived.get(e.ref) : formatOptional(own(value, e.key), e.attr.scalar);
      if (text !== undefined) out.attrs.push([e.attr.name, text]);
      continue;
    }
    const ch = e.child!;
    if (e.derived) {
      out.children.push(el(ch.node.name, derived.get(e.ref) ?? ''));
      continue;
    }
    const v = own(value, e.key);
    if (ch.item) {
      if (Array.isArray(v) && v.length > 0) {
        const wrapper = el(ch.node.name);
        for (const item of v) wrapper.children.push(buildElement(ch.item, item, derived));
        out.children.push(wrapper);
      }
    } else if (ch.list) {
      if (Array.isArray(v)) for (const item of v) out.children.push(buildElement(ch.node, item, derived));
    } else if (v !== undefined && v !== null) out.children.push(buildElement(ch.node, v, derived));
    // An element the XSD requires whose values are all the builder's (ProveedorXML).
    else if (ch.node.min > 0) out.children.push(buildElement(ch.node, {}, derived));
  }
  return out;
}

function formatOptional(v: unknown, s: PayrollScalar): string | undefined {
  return v === undefined || v === null ? undefined : formatScalar(v, s);
}

/** A validated value as the XML writes it: money half-to-even to 2 decimals, rates and hours exactly, times in Bogotá. */
export function formatScalar(v: unknown, s: PayrollScalar): string {
  switch (s.type) {
    case 'number': {
      const d = parseDec(numberText(v as number)!)!;
      return s.decimals === 'money' ? toFixed(roundHalfEven(d, 2), 2) : toText(d, s.decimals ?? 0, 8);
    }
    case 'integer':
      return String(v);
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      return String(v);
  }
}
