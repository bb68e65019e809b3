/** Storage records → API bodies, and the small date/amount conversions the handlers share. */
import { formatDateTimeDO } from '../../index.js';
import type { FiscalStatus } from '../../dgii/index.js';
import type { Issue } from '../../../shared/issues.js';
import type { DocumentRecord } from '../storage/types.js';
import { statusInfo } from '../statuses.js';

/** A validation warning as the 202 carries it (issue 15). */
export function warningBody(w: Issue) {
  return { path: w.path, code: w.code, ...(w.ruleId ? { rule_id: w.ruleId } : {}), message: w.message };
}

/** The 202 body of an issue: the subset the spec lists for the issue response. */
export function issuedBody(d: DocumentRecord) {
  const s = statusInfo(d.status);
  return {
    document_id: d.id,
    ecf_type_code: d.tipo,
    e_ncf: d.encf,
    track_id: d.trackId,
    status_code: s.status_code,
    status: s.status,
    status_description: s.description,
  };
}

/** The `estado_ecf` answer of the authority about one e-NCF, as the status endpoints return it. */
export function fiscalStatusBody(encf: string, r: FiscalStatus, consultado_en: string) {
  return {
    e_ncf: encf,
    servicio: 'estado_ecf' as const,
    codigo: r.codigo,
    estado: r.estado,
    valido_fiscalmente: r.codigo === 1 || r.codigo === 4,
    rnc_emisor: r.rncEmisor,
    rnc_comprador: r.rncComprador,
    id_extranjero: r.idExtranjero,
    monto_total: r.montoTotal,
    total_itbis: r.totalITBIS,
    fecha_emision: r.fechaEmision,
    fecha_firma: r.fechaFirma,
    codigo_seguridad: r.codigoSeguridad,
    track_id: null,
    secuencia_utilizada: null,
    mensajes: [],
    consultado_en,
  };
}

/** The full record (spec "Issued document record"). */
export function recordBody(d: DocumentRecord) {
  return {
    ...issuedBody(d),
    is_valid_fiscally: d.status === 'accepted_authority',
    security_code: d.securityCode,
    issued_at: d.issuedAt,
    signed_at: d.signedAt,
    total_amount: d.totalAmount,
    total_itbis: d.totalItbis,
    sequence_reusable: d.sequenceReusable,
    errors: d.errors,
  };
}

/** `dd-MM-yyyy` → `yyyy-MM-dd` (storage's calendar dates). */
export function doToIso(date: string): string {
  const [d, m, y] = date.split('-');
  return `${y}-${m}-${d}`;
}

/** `yyyy-MM-dd` → `dd-MM-yyyy`. */
export function isoToDo(date: string): string {
  const [y, m, d] = date.split('-');
  return `${d}-${m}-${y}`;
}

/** True when a `dd-MM-yyyy` string names a real calendar day. */
export function isRealDate(date: string): boolean {
  const m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(date);
  if (!m) return false;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** Epoch ms → `dd-MM-yyyy HH:mm:ss` in Dominican time. */
export function dateTimeDO(ms: number): string {
  return formatDateTimeDO(new Date(ms));
}

/**
 * A canonical-JSON amount (a number with at most 2 decimals, already validated) as a decimal string with
 * exactly 2 places. Works on the number's shortest decimal text, so no binary rounding is involved;
 * absent → `0.00`.
 */
export function amountText(v: unknown): string {
  if (v === undefined || v === null) return '0.00';
  const s = typeof v === 'number' ? (Number.isFinite(v) ? numberToPlain(v) : '0') : String(v).trim();
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m) return '0.00';
  const int = (m[2] || '0').replace(/^0+(?=\d)/, '');
  const frac = ((m[3] ?? '') + '00').slice(0, 2);
  return `${m[1]}${int}.${frac}`;
}

/** Number → plain decimal text (no exponent) from its shortest round-trip representation. */
function numberToPlain(n: number): string {
  const s = String(n);
  if (!/e/i.test(s)) return s;
  const [mant, expText] = s.toLowerCase().split('e');
  const exp = Number(expText);
  const neg = mant!.startsWith('-');
  const digits = mant!.replace('-', '').replace('.', '');
  const point = (mant!.replace('-', '').indexOf('.') === -1 ? mant!.replace('-', '').length : mant!.replace('-', '').indexOf('.')) + exp;
  const out =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (neg ? '-' : '') + out;
}
