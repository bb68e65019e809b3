/**
 * Payroll XML → request: the builder's description read backwards (src/dian/payroll/plan.ts over the generated XSD
 * tree), typing each value from it. Derived values (provider, codes, literals) come back as the context and the
 * codes, not in the request. Never throws for bad input: the outcome is a value with a Spanish message. Pure.
 */
import { parseDec, toNumber } from '../../shared/money/decimal.js';
import { BOGOTA_OFFSET } from '../spec/codes.js';
import type { PayrollXsdNode } from '../spec/payroll-xsd.js';
import { readUbl } from '../ubl/read.js';
import { attr, child, childrenNamed, type UblNode } from '../ubl/tree.js';
import { payrollBody } from './codes.js';
import { entriesOf, textScalar, VALUE_KEY, type PayrollScalar } from './plan.js';
import { bodyNode } from './plan.js';
import { PAYROLL_KINDS, type PayrollKindId } from './table.js';
import type { PayrollRequest } from './validate.js';

/** A parsed payroll document: its kind, the request it reads as, what the context gave, and the declared codes. */
export type PayrollParseResult =
  | {
      ok: true;
      kind: PayrollKindId;
      request: PayrollRequest;
      /** The software and provider written in `ProveedorXML`, and `InformacionGeneral/@Ambiente`. */
      context: { software: { id?: string; provider_nit?: string; provider_dv?: string }; environment?: string };
      /** The declared CUNE, software security code and QR text. */
      codes: { cune?: string; securityCode?: string; qr?: string; number?: string };
      root: UblNode;
    }
  | { ok: false; message: string };

/**
 * Reads a payroll document (built here, or one of DIAN's samples; a leading BOM is accepted).
 *
 * @example
 * const r = parseDianPayroll(xml);
 * if (r.ok) r.request; // deep-equals the request the document was built from
 */
export function parseDianPayroll(xml: string): PayrollParseResult {
  const read = readUbl(xml);
  if (!read.ok) return { ok: false, message: read.message };
  const root = read.root;
  const kind = (Object.keys(PAYROLL_KINDS) as PayrollKindId[]).find(
    (k) => PAYROLL_KINDS[k].root === root.name && PAYROLL_KINDS[k].namespace === read.namespace,
  );
  if (!kind) return { ok: false, message: `No es un documento de nómina de la DIAN: raíz ${root.name} en el espacio de nombres ${String(read.namespace)}.` };
  const body = payrollBody(root);
  if (!body) return { ok: false, message: 'La nota de ajuste no tiene Reemplazar ni Eliminar.' };
  let request: PayrollRequest;
  if (kind === 'payroll') request = readElement(bodyNode(kind)!, body);
  else {
    const noteType = body.name === 'Reemplazar' ? '1' : '2';
    request = { note_type: child(root, 'TipoNota')?.text?.trim() ?? noteType, ...readElement(bodyNode(kind, noteType)!, body) };
  }
  const provider = child(body, 'ProveedorXML');
  const info = child(body, 'InformacionGeneral');
  const software: { id?: string; provider_nit?: string; provider_dv?: string } = {};
  const id = attr(provider, 'SoftwareID');
  const nit = attr(provider, 'NIT');
  const dv = attr(provider, 'DV');
  if (id !== undefined) software.id = id;
  if (nit !== undefined) software.provider_nit = nit;
  if (dv !== undefined) software.provider_dv = dv;
  const context: { software: typeof software; environment?: string } = { software };
  const env = attr(info, 'Ambiente');
  if (env !== undefined) context.environment = env;
  const codes: { cune?: string; securityCode?: string; qr?: string; number?: string } = {};
  const set = (k: keyof typeof codes, v: string | undefined) => {
    if (v !== undefined) codes[k] = v;
  };
  set('cune', attr(info, 'CUNE'));
  set('securityCode', attr(provider, 'SoftwareSC'));
  set('qr', child(body, 'CodigoQR')?.text?.trim());
  set('number', attr(child(body, 'NumeroSecuenciaXML'), 'Numero'));
  return { ok: true, kind, request, context, codes, root };
}

function readElement(node: PayrollXsdNode, x: UblNode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const e of entriesOf(node)) {
    if (e.derived) continue;
    if (e.attr) {
      const v = attr(x, e.attr.name);
      if (v !== undefined) out[e.key] = readScalar(v, e.attr.scalar);
      continue;
    }
    const ch = e.child!;
    if (ch.item) {
      const wrapper = child(x, ch.node.name);
      if (wrapper) out[e.key] = childrenNamed(wrapper, ch.item.name).map((c) => readValue(ch.item!, ch.form, c));
    } else if (ch.list) {
      const items = childrenNamed(x, ch.node.name);
      if (items.length > 0) out[e.key] = items.map((c) => readValue(ch.node, ch.form, c));
    } else {
      const c = child(x, ch.node.name);
      if (!c) continue;
      const v = readValue(ch.node, ch.form, c);
      // An element whose values are all derived (ProveedorXML without names) reads as nothing.
      if (ch.form === 'object' && Object.keys(v as object).length === 0 && !e.required) continue;
      out[e.key] = v;
    }
  }
  return out;
}

function readValue(node: PayrollXsdNode, form: string, x: UblNode): unknown {
  if (form === 'scalar') return readScalar(x.text ?? '', textScalar(node));
  const out = readElement(node, x);
  if (form === 'valued') return { [VALUE_KEY]: readScalar(x.text ?? '', textScalar(node)), ...out };
  return out;
}

/** The request value of an XML value: numbers as JSON numbers, booleans, times without the Bogotá offset. */
function readScalar(raw: string, s: PayrollScalar): unknown {
  const text = raw.trim();
  switch (s.type) {
    case 'number': {
      const d = parseDec(text);
      return d === null ? text : toNumber(d);
    }
    case 'integer':
      return /^\d+$/.test(text) ? Number(text) : text;
    case 'boolean':
      return text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : text;
    case 'time':
      return text.endsWith(BOGOTA_OFFSET) ? text.slice(0, -BOGOTA_OFFSET.length) : text;
    default:
      return text;
  }
}
