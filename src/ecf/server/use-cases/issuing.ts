/**
 * Issuing (`POST /api/v1/documents/{tipo}`), independent of HTTP: the two representations of one resource.
 * Every refusal is a `UseCaseError('invalid')` whose details are the spec's rejected `document` (a 422).
 *
 * - JSON (canonical): validate (all rules, issue date = today in Dominican time) → reserve the next e-NCF and,
 *   in the same storage transaction, build the XML and validate it against the official XSD. Any failure
 *   inside the reservation throws, so the number is not consumed.
 * - XML (passthrough): every check of the spec's passthrough table, then the XSD and the same business rules
 *   as JSON (with the declared `FechaEmision`), then an insert with the XML's own e-NCF, which storage checks
 *   against the issuer's sequences in one transaction. The XML is stored exactly as received.
 * - With an `Idempotency-Key` (issueDocument, see idempotency.ts): a key already held answers its document
 *   before any validation; otherwise the key is claimed in the same storage transaction as the e-NCF.
 */
import {
  checkContext,
  ECF_TABLE,
  ECF_TYPE_INFO,
  EcfValidationError,
  formatDateDO,
  formatDateTimeDO,
  isBelowSummaryThreshold,
  parseEcfXml,
  parseEncf,
  renderEcfXml,
  safeValidateEcfJson,
  toIssueReport,
  type BuildContext,
  type EcfType,
  type Issue,
  type IssuerProfile,
  type SchemaValidationResult,
  type SchemaValidator,
} from '../../index.js';
import { isOffloadError, type Offload } from '../offload/index.js';
import type { DocumentRecord, EncfRefusal, IdempotencyClaim, IdempotencyHit, Issuer, NewDocument, SequenceRecord, Storage } from '../storage/types.js';
import { listedFieldsOf } from '../storage/document-fields.js';
import { IDEMPOTENCY_RETENTION_MS, keyReused, type IdempotentRequest } from './idempotency.js';
import { statusInfo } from '../statuses.js';
import { prescanXml } from '../../index.js';
import { jsonDepthExceeds, TOO_DEEP_MESSAGE } from '../app/body.js';
import { amountText, doToIso, isoToDo } from '../app/record.js';
import { UseCaseError } from './errors.js';

export const ISSUE_MESSAGES = {
  received: 'e-CF recibido y en cola de transmisión. El 202 no significa aceptación de la autoridad tributaria: consulte el estado.',
  validation: 'El e-CF no superó la validación: no se transmitió y el e-NCF no se consumió.',
  noSequence: 'El e-CF no pudo ser recibido.',
  passthrough: 'El XML no superó las verificaciones de recepción: no se transmitió y no se consumió ningún e-NCF.',
  malformedJson: 'El cuerpo no es un JSON válido.',
  invalidUtf8: 'El cuerpo no es texto UTF-8 válido.',
} as const;

/** The 422 `document` of the spec: status 2 plus the reasons; `detailed_errors` only for field validation. */
export function rejectedDocument(errors: string[], detailed?: Record<string, string[]>) {
  const s = statusInfo('rejected_validation');
  return {
    status_code: s.status_code,
    status: s.status,
    status_description: s.description,
    errors,
    ...(detailed ? { detailed_errors: detailed } : {}),
  };
}

export function rejected(message: string, errors: string[], detailed?: Record<string, string[]>): UseCaseError {
  return new UseCaseError('invalid', message, rejectedDocument(errors, detailed));
}

/** Most issues listed in one 422; the rest are counted in a last message (a hostile body can produce millions). */
export const MAX_REPORTED_ISSUES = 1000;

function rejectedIssues(message: string, issues: readonly Issue[]): UseCaseError {
  const errors = issues.filter((i) => i.severity === 'error');
  const shown =
    errors.length <= MAX_REPORTED_ISSUES
      ? errors
      : [
          ...errors.slice(0, MAX_REPORTED_ISSUES),
          {
            code: 'too_many' as const,
            path: '',
            message: `Se muestran los primeros ${MAX_REPORTED_ISSUES} problemas de ${errors.length}.`,
            severity: 'error' as const,
          },
        ];
  const report = toIssueReport(shown);
  return rejected(message, report.errors, report.detailed_errors);
}

export function noSequence(tipo: string): UseCaseError {
  return rejected(ISSUE_MESSAGES.noSequence, [`No existe una secuencia de e-NCF vigente o disponible para el tipo ${tipo}.`]);
}

export function invalidTipo(tipo: string): UseCaseError {
  const r = safeValidateEcfJson(tipo, {});
  return rejectedIssues(ISSUE_MESSAGES.validation, r.success ? [] : r.issues);
}

/** The request-independent parts of an issue. */
export interface IssueDeps {
  storage: Pick<Storage, 'reserveAndInsert' | 'insertWithEncf' | 'findIdempotencyKey'>;
  schemas: SchemaValidator;
  clock: () => Date;
  /** Where the passthrough XML's XSD validation runs (the server: a child process, off the event loop). */
  offload?: Offload;
}

// The sequence expiry exists in the XSD of some types only (not 32, 34): read it from the field table.
const EXPIRY_ROW = ECF_TABLE.rows.find((r) => r.source === 'context' && r.json?.endsWith('fecha_vencimiento_secuencia'));
function carriesSequenceExpiry(tipo: EcfType): boolean {
  return EXPIRY_ROW !== undefined && EXPIRY_ROW.occurs[tipo] !== undefined;
}

/** Types sent as a consumer summary below a threshold (32) keep the full e-CF with up to 10,000 lines. */
// biome-ignore lint/suspicious/noExplicitAny: a canonical JSON document, already checked against the field table before this point
function isSummary(tipo: EcfType, doc: Record<string, any>): boolean {
  if (ECF_TYPE_INFO[tipo].summaryThreshold === undefined) return false;
  const total = doc.totales?.monto_total;
  return typeof total === 'number' && isBelowSummaryThreshold(total);
}

// Array fields of each type with their largest count (the XSD's maxOccurs; `items`: see below),
// shallowest first, read from the field table.
const ARRAYS = new Map<EcfType, { segments: string[]; max: number }[][]>();
function arraysOf(tipo: EcfType): { segments: string[]; max: number }[][] {
  let levels = ARRAYS.get(tipo);
  if (!levels) {
    const info = ECF_TYPE_INFO[tipo];
    const maxLines = Math.max(info.maxLines, info.maxLinesBelowThreshold ?? 0);
    levels = [];
    for (const row of ECF_TABLE.rows) {
      const occurs = row.occurs[tipo];
      if (row.source !== 'doc' || !row.json?.endsWith('[]') || !occurs) continue;
      const segments = row.json.split('.');
      // `items` only beyond twice its largest limit: near it, the validator's rule says precisely which limit applies.
      (levels[segments.length - 1] ??= []).push({ segments, max: row.json === 'items[]' ? 2 * maxLines : occurs[1] });
    }
    ARRAYS.set(tipo, (levels = levels.filter(Boolean)));
  }
  return levels;
}

/**
 * Arrays longer than the type ever admits (`items`: twice that), found before validation. The validator reports every issue of every
 * element, so a body of millions of `{}` lines would otherwise cost seconds of CPU and gigabytes of issues for
 * one 422. Walks the known array fields only, shallowest first (an oversized parent is not walked into).
 */
export function oversizedArrays(tipo: EcfType, doc: unknown): Issue[] {
  const issues: Issue[] = [];
  const visit = (node: unknown, segments: string[], i: number, path: string, max: number): void => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
    const segment = segments[i]!;
    const key = segment.replace(/\[\]$/, '');
    if (!Object.hasOwn(node, key)) return;
    const value = (node as Record<string, unknown>)[key];
    const p = path === '' ? key : `${path}.${key}`;
    if (i === segments.length - 1) {
      if (Array.isArray(value) && value.length > max) {
        issues.push({ code: 'too_many', path: p, message: `Admite como máximo ${max} elemento(s); se recibieron ${value.length}.`, severity: 'error' });
      }
    } else if (!segment.endsWith('[]')) visit(value, segments, i + 1, p, max);
    else if (Array.isArray(value)) for (let k = 0; k < value.length; k++) visit(value[k], segments, i + 1, `${p}.${k}`, max);
  };
  for (const level of arraysOf(tipo)) {
    for (const a of level) visit(doc, a.segments, 0, '', a.max);
    if (issues.length) break;
  }
  return issues;
}

/** Object members that are `null` are dropped (the spec: `null` equals omitting); array slots are kept. */
export function stripNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripNulls);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    // defineProperty, not assignment: a member named `__proto__` stays an own (unknown) member instead of
    // replacing the prototype, so validation sees it and refuses it.
    for (const [k, x] of Object.entries(v)) {
      if (x === null) continue;
      if (k === '__proto__') Object.defineProperty(out, k, { value: stripNulls(x), enumerable: true, writable: true, configurable: true });
      else out[k] = stripNulls(x);
    }
    return out;
  }
  return v;
}

/**
 * The official XSDs end with a required `FechaHoraFirma` and a required `xs:any` (the signature). An unsigned
 * e-CF is validated with stand-ins for both, inserted before `</ECF>`; the stored XML never carries them.
 */
export function withSignaturePlaceholder(xml: string, signingTime: string): string {
  const end = xml.lastIndexOf('</ECF>');
  if (end < 0) return xml;
  const stamp = /<FechaHoraFirma>/.test(xml) ? '' : `<FechaHoraFirma>${signingTime}</FechaHoraFirma>`;
  return `${xml.slice(0, end)}${stamp}<Signature/>${xml.slice(end)}`;
}

function xsdIssues(schemas: SchemaValidator, tipo: EcfType, xml: string, summary: boolean, now: Date): Issue[] {
  return violationIssues(tipo, schemas.validate(withSignaturePlaceholder(xml, formatDateTimeDO(now)), `ECF-${tipo}`, { relaxed32: summary }));
}

/**
 * The passthrough's XSD validation through the offload pool (off the event loop): a validation that exceeds
 * the pool's time budget is a 422 (the document, not the service, is at fault); a full pool a 503.
 */
async function xsdIssuesOffloaded(deps: IssueDeps, tipo: EcfType, xml: string, summary: boolean, now: Date): Promise<Issue[]> {
  if (!deps.offload) return xsdIssues(deps.schemas, tipo, xml, summary, now);
  try {
    return violationIssues(
      tipo,
      await deps.offload.validate(withSignaturePlaceholder(xml, formatDateTimeDO(now)), `ECF-${tipo}`, { relaxed32: summary }, 'request'),
    );
  } catch (e) {
    if (isOffloadError(e) && e.code === 'timeout') {
      throw rejected(ISSUE_MESSAGES.passthrough, ['El XML no pudo validarse contra el esquema XSD dentro del tiempo permitido; revise su tamaño y contenido.']);
    }
    throw e;
  }
}

function violationIssues(tipo: EcfType, r: SchemaValidationResult): Issue[] {
  if (r.valid) return [];
  return r.violations.map((v) => ({
    code: 'xsd' as const,
    path: v.xpath ?? '',
    message: `No cumple el esquema XSD oficial del tipo ${tipo}: ${v.message.trim()}`,
    severity: 'error' as const,
  }));
}

/** Context issues: the issuer profile and the sequence are server data, so say so in the message. */
function contextIssues(tipo: EcfType, ctx: BuildContext): Issue[] {
  return checkContext(tipo, ctx).map((i) => {
    const path = i.path.replace(/^context\./, '');
    if (path.startsWith('emisor')) return { ...i, path, message: `Perfil del emisor: ${i.message}` };
    if (path === 'fecha_vencimiento_secuencia' && ctx.fecha_vencimiento_secuencia === undefined) {
      return { ...i, path, message: `La secuencia autorizada no tiene fecha de vencimiento y el tipo ${tipo} la requiere (FechaVencimientoSecuencia).` };
    }
    return { ...i, path };
  });
}

function issuerProfile(issuer: Issuer): IssuerProfile {
  return { razon_social: issuer.name, ...(issuer.profile as Partial<IssuerProfile>), rnc: issuer.rnc } as IssuerProfile;
}

// biome-ignore lint/suspicious/noExplicitAny: a canonical JSON document, already checked against the field table before this point
function totalsOf(doc: Record<string, any>): { totalAmount: string; totalItbis: string } {
  return { totalAmount: amountText(doc.totales?.monto_total), totalItbis: amountText(doc.totales?.total_itbis) };
}

/** JSON mode. Returns the stored record, or with `idem` a key already held: its document (or a 422 for another request). */
export async function issueJson(deps: IssueDeps, issuer: Issuer, tipo: EcfType, text: string, idem?: IdempotencyClaim): Promise<IssueOutcome> {
  if (jsonDepthExceeds(text)) throw rejected(ISSUE_MESSAGES.malformedJson, [TOO_DEEP_MESSAGE]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    const pos = /position (\d+)/.exec((e as Error).message)?.[1];
    const reason =
      text.trim() === ''
        ? 'El cuerpo está vacío: envíe el e-CF en JSON canónico.'
        : `JSON mal formado${pos !== undefined ? ` cerca de la posición ${pos}` : ''}.`;
    throw rejected(ISSUE_MESSAGES.malformedJson, [reason]);
  }
  // biome-ignore lint/suspicious/noExplicitAny: a canonical JSON document, already checked against the field table before this point
  const doc = stripNulls(parsed) as Record<string, any>;
  const oversized = oversizedArrays(tipo, doc);
  if (oversized.length) throw rejectedIssues(ISSUE_MESSAGES.validation, oversized);
  const now = deps.clock();
  const fecha = formatDateDO(now);
  const result = safeValidateEcfJson(tipo, doc, { fechaEmision: fecha });
  if (!result.success) throw rejectedIssues(ISSUE_MESSAGES.validation, result.issues);
  const summary = isSummary(tipo, doc);
  const emisor = issuerProfile(issuer);

  const make = (encf: string, sequence: SequenceRecord): NewDocument => {
    const ctx: BuildContext = { emisor, encf, fecha_emision: fecha };
    if (carriesSequenceExpiry(tipo) && sequence.expiresOn) ctx.fecha_vencimiento_secuencia = isoToDo(sequence.expiresOn);
    const ctxProblems = contextIssues(tipo, ctx);
    if (ctxProblems.length) throw rejectedIssues(ISSUE_MESSAGES.validation, ctxProblems);
    // Already validated above with the same issue date: render without validating a second time.
    const xml = renderEcfXml(tipo, doc, ctx);
    const problems = xsdIssues(deps.schemas, tipo, xml, summary, now);
    if (problems.length) throw rejectedIssues(ISSUE_MESSAGES.validation, problems);
    return { source: 'json', unsignedXml: xml, summary, issuedAt: fecha, ...totalsOf(doc), ...listedFieldsOf(doc), nextAttemptAt: now.getTime() };
  };
  const record = await deps.storage.reserveAndInsert(issuer.id, tipo, doToIso(fecha), make, idem);
  if (!record) throw noSequence(tipo);
  return outcome(record, idem, result.warnings);
}

/**
 * A stored document, or the one an earlier request with the same key created (`replayed`), with the validation
 * warnings of this request (rules whose severity is a warning: the spec's stricter readings, advice, tolerances;
 * issue 15). A replay carries none: warnings are not stored.
 */
export interface IssueOutcome {
  record: DocumentRecord;
  replayed: boolean;
  warnings: Issue[];
}

function outcome(r: DocumentRecord | IdempotencyHit, idem: IdempotencyClaim | undefined, warnings: Issue[] = []): IssueOutcome {
  if (!('replayOf' in r)) return { record: r, replayed: false, warnings };
  if (!r.sameRequest) throw keyReused(idem?.key ?? '');
  return { record: r.replayOf, replayed: true, warnings: [] };
}

/**
 * `POST /documents/{tipo}` with its body kind and text, and the request's idempotency key when it has one: a
 * key already used (and not expired) answers the earlier document, or refuses a different request, before
 * any validation; otherwise the key is claimed in the issuing transaction.
 */
export async function issueDocument(
  deps: IssueDeps,
  issuer: Issuer,
  tipo: EcfType,
  kind: 'json' | 'xml',
  text: string,
  request?: IdempotentRequest,
): Promise<IssueOutcome> {
  let idem: IdempotencyClaim | undefined;
  if (request) {
    const at = deps.clock().getTime();
    idem = { ...request, at, notBefore: at - IDEMPOTENCY_RETENTION_MS };
    const known = await deps.storage.findIdempotencyKey(issuer.id, request.key, idem.notBefore);
    if (known) return outcome({ replayOf: known.document, sameRequest: known.fingerprint === request.fingerprint }, idem);
  }
  return kind === 'json' ? issueJson(deps, issuer, tipo, text, idem) : issueXml(deps, issuer, tipo, text, idem);
}

const REFUSALS: Record<EncfRefusal, (encf: string, tipo: string) => string> = {
  no_sequence: (_e, t) => `No existe una secuencia de e-NCF autorizada para el tipo ${t}.`,
  outside_sequence: (e, t) => `El e-NCF ${e} no está dentro de ninguna secuencia autorizada del emisor para el tipo ${t}.`,
  expired: (e) => `La secuencia que contiene el e-NCF ${e} está vencida.`,
  inactive: (e) => `La secuencia que contiene el e-NCF ${e} no está activa.`,
  duplicate: (e) => `El e-NCF ${e} ya fue utilizado.`,
  voided: (e) => `El e-NCF ${e} pertenece a un rango anulado (o en proceso de anulación).`,
};

const SIGNATURE_RE = /<(?:[A-Za-z_][\w.-]*:)?Signature[\s>/]/;
const ENCODING_RE = /^\s*<\?xml\b[^>]*?\bencoding\s*=\s*["']([^"']+)["']/;

function check(ok: boolean, reason: string, path?: string): void {
  if (!ok) throw rejected(ISSUE_MESSAGES.passthrough, [reason], path ? { [path]: [reason] } : undefined);
}

/** Passthrough mode. Returns the stored record, or with `idem` a key already held: its document (or a 422 for another request). */
export async function issueXml(deps: IssueDeps, issuer: Issuer, tipo: EcfType, xml: string, idem?: IdempotencyClaim): Promise<IssueOutcome> {
  // The linear pre-scan before any parser: DTDs are refused outright (no entity expansion, no external
  // entities), and values, depth, element and attribute counts beyond what the XSDs allow (issue 13 item 3).
  const refusal = prescanXml(xml);
  if (refusal) check(false, refusal.code === 'not_well_formed' ? `XML mal formado: ${refusal.detail}.` : refusal.message, refusal.path);
  const declared = ENCODING_RE.exec(xml)?.[1];
  check(!declared || /^utf-?8$/i.test(declared), `El XML declara la codificación ${declared}; debe ser UTF-8.`);
  let parsed;
  try {
    parsed = parseEcfXml(xml);
  } catch (e) {
    if (e instanceof EcfValidationError) throw rejectedIssues(ISSUE_MESSAGES.passthrough, e.issues);
    throw e;
  }
  check(parsed.tipo === tipo, `El TipoeCF del XML (${parsed.tipo}) no coincide con el tipo de la ruta (${tipo}).`, '/ECF/Encabezado/IdDoc/TipoeCF');
  const rnc = parsed.context.emisor?.rnc;
  check(
    rnc === issuer.rnc,
    `El RNCEmisor del XML (${rnc || 'ausente'}) no corresponde al emisor de la credencial (${issuer.rnc}).`,
    '/ECF/Encabezado/Emisor/RNCEmisor',
  );
  check(!parsed.signed && !SIGNATURE_RE.test(xml), 'El XML ya está firmado: envíelo sin firma; el servicio agrega la firma digital.', '/ECF/Signature');
  const encf = parsed.context.encf;
  check(parseEncf(encf)?.tipo === tipo, `El eNCF "${encf}" no tiene la estructura E + tipo (${tipo}) + 10 dígitos.`, '/ECF/Encabezado/IdDoc/eNCF');

  const now = deps.clock();
  // biome-ignore lint/suspicious/noExplicitAny: a canonical JSON document, already checked against the field table before this point
  const doc = parsed.document as Record<string, any>;
  // Too many elements (repeated or unknown) to be an e-CF: refuse before the rules and the XSD multiply the issues.
  const oversized = oversizedArrays(tipo, doc);
  if (oversized.length || parsed.issues.length > MAX_REPORTED_ISSUES) throw rejectedIssues(ISSUE_MESSAGES.passthrough, [...oversized, ...parsed.issues]);
  const summary = isSummary(tipo, doc);
  const fechaEmision = parsed.context.fecha_emision;
  const rules = safeValidateEcfJson(tipo, doc, { fechaEmision });
  const issues: Issue[] = [
    ...parsed.issues,
    ...contextIssues(tipo, parsed.context),
    ...(rules.success ? [] : rules.issues),
    ...(await xsdIssuesOffloaded(deps, tipo, xml, summary, now)),
  ];
  if (issues.some((i) => i.severity === 'error')) throw rejectedIssues(ISSUE_MESSAGES.passthrough, issues);

  const res = await deps.storage.insertWithEncf(
    issuer.id,
    tipo,
    encf,
    doToIso(formatDateDO(now)),
    {
      source: 'xml',
      unsignedXml: xml,
      summary,
      issuedAt: fechaEmision,
      ...totalsOf(doc),
      ...listedFieldsOf(doc),
      nextAttemptAt: now.getTime(),
    },
    idem,
  );
  if ('refused' in res) {
    const reason = REFUSALS[res.refused](encf, tipo);
    throw rejected(ISSUE_MESSAGES.passthrough, [reason], { '/ECF/Encabezado/IdDoc/eNCF': [reason] });
  }
  return outcome(res, idem, rules.warnings);
}
