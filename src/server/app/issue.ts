/**
 * `POST /api/v1/documents/{tipo}`: the two representations of one resource.
 *
 * - JSON (canonical): validate (all rules, issue date = today in Dominican time) → reserve the next e-NCF and,
 *   in the same storage transaction, build the XML and validate it against the official XSD. Any failure
 *   inside the reservation throws, so the number is not consumed.
 * - XML (passthrough): every check of the spec's passthrough table, then the XSD and the same business rules
 *   as JSON (with the declared `FechaEmision`), then an insert with the XML's own e-NCF, which storage checks
 *   against the issuer's sequences in one transaction. The XML is stored exactly as received.
 */
import {
  checkContext, ECF_TABLE, ECF_TYPE_INFO, EcfValidationError, formatDateDO, formatDateTimeDO, isBelowSummaryThreshold,
  parseEcfXml, renderEcfXml, safeValidateEcf, toIssueReport,
  type BuildContext, type EcfType, type Issue, type IssuerProfile, type SchemaValidator,
} from '../../index.js';
import type { EncfRefusal, Issuer, NewDocument, SequenceRecord, Storage } from '../storage/types.js';
import { statusInfo } from '../statuses.js';
import { ApiError } from './errors.js';
import { amountText, doToIso, isoToDo } from './record.js';

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

export function rejected(message: string, errors: string[], detailed?: Record<string, string[]>): ApiError {
  return new ApiError(422, message, { document: rejectedDocument(errors, detailed) });
}

function rejectedIssues(message: string, issues: readonly Issue[]): ApiError {
  const report = toIssueReport(issues);
  return rejected(message, report.errors, report.detailed_errors);
}

export function noSequence(tipo: string): ApiError {
  return rejected(ISSUE_MESSAGES.noSequence, [`No existe una secuencia de e-NCF vigente o disponible para el tipo ${tipo}.`]);
}

export function invalidTipo(tipo: string): ApiError {
  const r = safeValidateEcf(tipo, {});
  return rejectedIssues(ISSUE_MESSAGES.validation, r.success ? [] : r.issues);
}

/** The request-independent parts of an issue. */
export interface IssueDeps {
  storage: Storage;
  schemas: SchemaValidator;
  clock: () => Date;
}

// The sequence expiry exists in the XSD of some types only (not 32, 34): read it from the field table.
const EXPIRY_ROW = ECF_TABLE.rows.find((r) => r.source === 'context' && r.json?.endsWith('fecha_vencimiento_secuencia'));
function carriesSequenceExpiry(tipo: EcfType): boolean {
  return EXPIRY_ROW !== undefined && EXPIRY_ROW.occurs[tipo] !== undefined;
}

/** Types sent as a consumer summary below a threshold (32) keep the full e-CF with up to 10,000 lines. */
function isSummary(tipo: EcfType, doc: Record<string, any>): boolean {
  if (ECF_TYPE_INFO[tipo].summaryThreshold === undefined) return false;
  const total = doc.totales?.monto_total;
  return typeof total === 'number' && isBelowSummaryThreshold(total);
}

/** Object members that are `null` are dropped (the spec: `null` equals omitting); array slots are kept. */
export function stripNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripNulls);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = stripNulls(x);
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
  const r = schemas.validate(withSignaturePlaceholder(xml, formatDateTimeDO(now)), `ECF-${tipo}`, { relaxed32: summary });
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

function totalsOf(doc: Record<string, any>): { totalAmount: string; totalItbis: string } {
  return { totalAmount: amountText(doc.totales?.monto_total), totalItbis: amountText(doc.totales?.total_itbis) };
}

/** JSON mode. Returns the stored record. */
export async function issueJson(deps: IssueDeps, issuer: Issuer, tipo: EcfType, text: string) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    const pos = /position (\d+)/.exec((e as Error).message)?.[1];
    const reason = text.trim() === ''
      ? 'El cuerpo está vacío: envíe el e-CF en JSON canónico.'
      : `JSON mal formado${pos !== undefined ? ` cerca de la posición ${pos}` : ''}.`;
    throw rejected(ISSUE_MESSAGES.malformedJson, [reason]);
  }
  const doc = stripNulls(parsed) as Record<string, any>;
  const now = deps.clock();
  const fecha = formatDateDO(now);
  const result = safeValidateEcf(tipo, doc, { fechaEmision: fecha });
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
    return { source: 'json', unsignedXml: xml, summary, issuedAt: fecha, ...totalsOf(doc), nextAttemptAt: now.getTime() };
  };
  const record = await deps.storage.reserveAndInsert(issuer.id, tipo, doToIso(fecha), make);
  if (!record) throw noSequence(tipo);
  return record;
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

/** Passthrough mode. Returns the stored record. */
export async function issueXml(deps: IssueDeps, issuer: Issuer, tipo: EcfType, xml: string) {
  // DTDs are refused outright: no entity expansion (billion laughs) and no external entities (XXE).
  check(!/<!DOCTYPE/i.test(xml) && !/<!ENTITY/i.test(xml), 'El XML no puede contener declaraciones DOCTYPE ni ENTITY.');
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
  check(rnc === issuer.rnc, `El RNCEmisor del XML (${rnc || 'ausente'}) no corresponde al emisor de la credencial (${issuer.rnc}).`, '/ECF/Encabezado/Emisor/RNCEmisor');
  check(!parsed.signed && !SIGNATURE_RE.test(xml), 'El XML ya está firmado: envíelo sin firma; el servicio agrega la firma digital.', '/ECF/Signature');
  const encf = parsed.context.encf;
  check(new RegExp(`^E${tipo}\\d{10}$`).test(encf), `El eNCF "${encf}" no tiene la estructura E + tipo (${tipo}) + 10 dígitos.`, '/ECF/Encabezado/IdDoc/eNCF');

  const now = deps.clock();
  const doc = parsed.document as Record<string, any>;
  const summary = isSummary(tipo, doc);
  const fechaEmision = parsed.context.fecha_emision;
  const rules = safeValidateEcf(tipo, doc, { fechaEmision });
  const issues: Issue[] = [
    ...parsed.issues,
    ...contextIssues(tipo, parsed.context),
    ...(rules.success ? [] : rules.issues),
    ...xsdIssues(deps.schemas, tipo, xml, summary, now),
  ];
  if (issues.some((i) => i.severity === 'error')) throw rejectedIssues(ISSUE_MESSAGES.passthrough, issues);

  const res = await deps.storage.insertWithEncf(issuer.id, tipo, encf, doToIso(formatDateDO(now)), {
    source: 'xml', unsignedXml: xml, summary, issuedAt: fechaEmision, ...totalsOf(doc), nextAttemptAt: now.getTime(),
  });
  if ('refused' in res) {
    const reason = REFUSALS[res.refused](encf, tipo);
    throw rejected(ISSUE_MESSAGES.passthrough, [reason], { '/ECF/Encabezado/IdDoc/eNCF': [reason] });
  }
  return res;
}
