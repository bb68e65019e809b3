/**
 * Normalisation of DGII answers (pure). DGII answers JSON when asked for it, XML with PascalCase tags
 * otherwise, and on errors sometimes a bare string or an IIS/ASP.NET HTML page; dates come as
 * US-style `M/d/yyyy h:mm:ss AM` in Dominican time or as ISO instants; `mensajes` come as
 * `{codigo, valor}` objects, plain strings or one string; the directory answers one object or an
 * array (dgii-protocol.md §2.6, §2.8, §3 items 6 and 8). Everything here maps those variants onto
 * the camelCase types of ./types.ts. Unusable 2xx bodies throw `TransportError` `bad_response`.
 */
import type { Element } from '@xmldom/xmldom';
import type { AuthorityMessage } from '../../shared/errors/authority-error.js';
import { TransportError } from '../../shared/errors/transport-error.js';
import { parseXmlRoot, XmlSyntaxError } from '../xml/parse.js';
import { fromWallClock } from '../../shared/time/fixed-offset.js';
import { DO_OFFSET_MINUTES } from '../time.js';
import type {
  ApprovalReceipt,
  AuthorityState,
  AuthorityStateCode,
  AuthToken,
  DirectoryEntry,
  FiscalStatus,
  ReceptionReceipt,
  ServiceAvailability,
  TrackIdEntry,
  TrackResult,
  VoidingReceipt,
} from './types.js';

/** A response body read into a plain value: JSON as parsed, XML as nested objects keyed by tag name. */
export interface ParsedBody {
  kind: 'json' | 'xml' | 'html' | 'text' | 'empty';
  /**
   * json: the parsed value (amounts kept as strings); xml: elements as objects, repeated elements as
   * arrays, leaf text as strings, `ArrayOf…` roots as arrays; html: the page's readable text;
   * text: the trimmed text; empty: null.
   */
  value: unknown;
  /** The body as received. */
  text: string;
}

type Obj = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Bodies

/**
 * Reads a response body, by content type and, because DGII's content types are not reliable, by
 * sniffing its first character. Never throws: what cannot be parsed as JSON or XML is `text`.
 *
 * @example
 * parseBody('<RespuestaConsultaTrackId><TrackId>abc</TrackId><Codigo>1</Codigo></RespuestaConsultaTrackId>').value
 * //=> { TrackId: 'abc', Codigo: '1' }
 * parseBody('"Firma del certificado invalida"').value //=> 'Firma del certificado invalida'
 */
export function parseBody(text: string, contentType?: string | null): ParsedBody {
  const body = text.replace(/^\uFEFF/, '');
  const trimmed = body.trim();
  if (trimmed === '') return { kind: 'empty', value: null, text };
  const type = (contentType ?? '').toLowerCase();
  if (type.includes('html') || looksLikeHtml(trimmed)) return { kind: 'html', value: htmlToText(trimmed), text };
  const first = trimmed[0];
  if (type.includes('json') || first === '{' || first === '[' || first === '"') {
    try {
      return { kind: 'json', value: JSON.parse(quoteAmounts(trimmed)), text };
    } catch {
      // fall through: not JSON after all
    }
  }
  if (first === '<') {
    try {
      return { kind: 'xml', value: xmlValue(trimmed), text };
    } catch {
      return { kind: 'text', value: trimmed, text };
    }
  }
  return { kind: 'text', value: trimmed, text };
}

/**
 * JSON numbers would turn `1180.00` into `1180` (and, for large amounts, lose digits): the amount
 * fields of the status query are quoted before parsing so they stay exact decimal strings.
 */
function quoteAmounts(json: string): string {
  return json.replace(/("(?:montoTotal|totalITBIS)"\s*:\s*)(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/gi, '$1"$2"');
}

function looksLikeHtml(text: string): boolean {
  return /^<!doctype\s+html/i.test(text) || /^<html[\s>]/i.test(text) || (/^</.test(text) && /<(body|head|title)[\s>]/i.test(text.slice(0, 2000)));
}

/** XML → plain value; the root element's own name is dropped, `ArrayOf…` roots become arrays. */
function xmlValue(xml: string): unknown {
  let root: Element;
  try {
    root = parseXmlRoot(xml);
  } catch (e) {
    throw e instanceof XmlSyntaxError ? e : new XmlSyntaxError(String(e));
  }
  const name = root.localName ?? root.nodeName;
  if (/^ArrayOf/i.test(name)) return elementChildren(root).map(elementValue);
  return elementValue(root);
}

function elementChildren(el: Element): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  return out;
}

function elementValue(el: Element): unknown {
  const kids = elementChildren(el);
  if (kids.length === 0) {
    if (/^(true|1)$/.test(el.getAttributeNS('http://www.w3.org/2001/XMLSchema-instance', 'nil') ?? '')) return null;
    return (el.textContent ?? '').trim();
  }
  const grouped = new Map<string, unknown[]>();
  for (const kid of kids) {
    const key = kid.localName ?? kid.nodeName;
    const values = grouped.get(key);
    if (values) values.push(elementValue(kid));
    else grouped.set(key, [elementValue(kid)]);
  }
  const out: Obj = {};
  for (const [key, values] of grouped) out[key] = values.length === 1 ? values[0] : values;
  return out;
}

/**
 * Readable text of an HTML page (IIS and ASP.NET error pages): scripts and styles dropped, tags
 * removed, entities decoded, whitespace collapsed; the title only when the body says nothing.
 *
 * @example
 * htmlToText('<html><head><title>Error</title></head><body><h2>Runtime Error</h2><p>Server&nbsp;error</p></body></html>')
 * //=> 'Runtime Error Server error'
 */
export function htmlToText(html: string): string {
  const withoutCode = html.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<!--[\s\S]*?-->/g, ' ');
  const title = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(withoutCode)?.[1] ?? '';
  const bodyMatch = /<body\b[^>]*>([\s\S]*?)(<\/body\s*>|$)/i.exec(withoutCode);
  const body = bodyMatch ? bodyMatch[1]! : withoutCode.replace(/<head\b[\s\S]*?<\/head\s*>/i, ' ');
  const text = collapse(decodeEntities(body.replace(/<[^>]*>/g, ' ')));
  return (text || collapse(decodeEntities(title.replace(/<[^>]*>/g, ' ')))).slice(0, 2000);
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  aacute: 'á',
  eacute: 'é',
  iacute: 'í',
  oacute: 'ó',
  uacute: 'ú',
  ntilde: 'ñ',
  uuml: 'ü',
  Aacute: 'Á',
  Eacute: 'É',
  Iacute: 'Í',
  Oacute: 'Ó',
  Uacute: 'Ú',
  Ntilde: 'Ñ',
  Uuml: 'Ü',
  iquest: '¿',
  iexcl: '¡',
  laquo: '«',
  raquo: '»',
  copy: '©',
  reg: '®',
  ndash: '–',
  mdash: '—',
  hellip: '…',
};

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return NAMED_ENTITIES[ref] ?? m;
  });
}

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

// ---------------------------------------------------------------------------------------------
// Messages

/**
 * Any shape DGII uses for `mensajes` → `{codigo, valor}[]`: arrays of `{codigo, valor}` (any key
 * case; `valor`/`mensaje`/`message`/`descripcion`), arrays of strings, one string, XML wrappers
 * (`<Mensajes><Mensaje>…</Mensaje></Mensajes>`, `<string>…</string>`) and HTML text. Codes become
 * strings; empty texts are dropped.
 *
 * @example
 * toAuthorityMessages([{ codigo: 3243, valor: 'La longitud del nombre del archivo no es válida' }])
 * //=> [{ codigo: '3243', valor: 'La longitud del nombre del archivo no es válida' }]
 * toAuthorityMessages('Firma del certificado invalida') //=> [{ codigo: null, valor: 'Firma del certificado invalida' }]
 */
export function toAuthorityMessages(value: unknown): AuthorityMessage[] {
  const out: AuthorityMessage[] = [];
  collectMessages(value, out, 0);
  return dedupe(out);
}

function collectMessages(value: unknown, out: AuthorityMessage[], depth: number): void {
  if (value == null || depth > 8) return;
  if (typeof value === 'string') {
    const text = looksLikeHtml(value.trim()) ? htmlToText(value) : collapse(value);
    if (text) out.push({ codigo: null, valor: text });
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) collectMessages(v, out, depth + 1);
    return;
  }
  if (typeof value !== 'object') return;
  const o = value as Obj;
  const valor = pick(o, 'valor', 'mensaje', 'message', 'descripcion', 'description', 'value', 'msg');
  if (typeof valor === 'string' || typeof valor === 'number') {
    const text = collapse(String(valor));
    if (text) out.push({ codigo: codeString(pick(o, 'codigo', 'code')), valor: text });
    return;
  }
  for (const v of Object.values(o)) collectMessages(v, out, depth + 1);
}

function dedupe(messages: AuthorityMessage[]): AuthorityMessage[] {
  const seen = new Set<string>();
  return messages.filter((m) => {
    const key = `${m.codigo ?? ''}\u0000${m.valor}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Keys of error bodies that list the reasons, then keys that summarise them, in the order they are read. */
const ERROR_LIST_KEYS = ['mensajes', 'mensaje', 'errores', 'errors'];
const ERROR_SUMMARY_KEYS = ['error', 'message', 'detail', 'title'];

/**
 * The authority's reasons in an error answer (4xx), whatever its shape: the message-bearing fields
 * of a JSON/XML object (`mensajes`, `mensaje`, `error`, ASP.NET `errors`/`title`…), a bare string,
 * or the text of an HTML page. A summary field that merely repeats the listed reasons (an `error`
 * joining the `mensajes`) is not added twice. Nothing DGII said is lost: with no recognisable field
 * the whole body (truncated) becomes the message.
 *
 * @example
 * errorMessages(parseBody('{"trackId":null,"error":"Solicitud inválida","mensaje":"El certificado no está delegado para el RNC 130000001"}'))
 * //=> [{ codigo: null, valor: 'El certificado no está delegado para el RNC 130000001' }, { codigo: null, valor: 'Solicitud inválida' }]
 */
export function errorMessages(body: ParsedBody): AuthorityMessage[] {
  if (body.kind === 'empty') return [];
  if (body.kind === 'html' || body.kind === 'text') return toAuthorityMessages(body.value);
  const v = body.value;
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const out: AuthorityMessage[] = [];
    for (const key of ERROR_LIST_KEYS) collectMessages(pick(v as Obj, key), out, 0);
    const listed = out.map((m) => m.valor);
    for (const key of ERROR_SUMMARY_KEYS) {
      const summary: AuthorityMessage[] = [];
      collectMessages(pick(v as Obj, key), summary, 0);
      for (const m of summary) {
        const repeats = listed.length > 0 && (listed.every((l) => m.valor.includes(l)) || listed.some((l) => l.includes(m.valor)));
        if (!repeats) out.push(m);
      }
    }
    if (out.length) return dedupe(out);
  }
  const all = toAuthorityMessages(v);
  if (all.length) return all;
  const raw = collapse(body.text).slice(0, 2000);
  return raw ? [{ codigo: null, valor: raw }] : [];
}

// ---------------------------------------------------------------------------------------------
// Scalars

/** Case-insensitive field lookup (DGII mixes `trackId`, `TrackId`, `eNCF`, `encf`). */
function pick(o: Obj, ...names: string[]): unknown {
  for (const name of names) {
    if (name in o) return o[name];
    const lower = name.toLowerCase();
    for (const key of Object.keys(o)) if (key.toLowerCase() === lower) return o[key];
  }
  return undefined;
}

function str(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t === '' ? null : t;
}

function codeString(v: unknown): string | null {
  return str(v);
}

function bool(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const t = v.trim().toLowerCase();
    if (t === 'true' || t === '1') return true;
    if (t === 'false' || t === '0') return false;
  }
  if (v === 1) return true;
  if (v === 0) return false;
  return null;
}

function int(v: unknown): number | null {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) return parseInt(v, 10);
  return null;
}

/**
 * A DGII date → `Date`: `M/d/yyyy h:mm:ss AM|PM` (also 24-hour without AM/PM), `dd-MM-yyyy[ HH:mm:ss]`
 * and ISO 8601. Dates without an offset are Dominican local time (UTC−4). Anything else → `null`.
 *
 * @example
 * parseDgiiDate('5/20/2026 4:38:38 PM')?.toISOString() //=> '2026-05-20T20:38:38.000Z'
 * parseDgiiDate('2026-05-20T21:38:38Z')?.toISOString() //=> '2026-05-20T21:38:38.000Z'
 * parseDgiiDate('2019-03-13T14:33:32.8617792-04:00')?.toISOString() //=> '2019-03-13T18:33:32.861Z'
 */
export function parseDgiiDate(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value !== 'string') return null;
  const s = value.trim();
  let m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.(\d+))?\s*(?:([AaPp])\.?\s*[Mm]\.?)?)?$/.exec(s);
  if (m) {
    let hour = m[4] === undefined ? 0 : Number(m[4]);
    if (m[8]) {
      if (hour < 1 || hour > 12) return null;
      const pm = m[8].toLowerCase() === 'p';
      hour = (hour % 12) + (pm ? 12 : 0);
    }
    return localDate(Number(m[3]), Number(m[1]), Number(m[2]), hour, Number(m[5] ?? 0), Number(m[6] ?? 0), m[7]);
  }
  m = /^(\d{2})-(\d{2})-(\d{4})(?:\s+(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(s);
  if (m) return localDate(Number(m[3]), Number(m[2]), Number(m[1]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0));
  m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(s);
  if (m) {
    let offsetMin = DO_OFFSET_MINUTES;
    const zone = m[8]?.toUpperCase();
    if (zone === 'Z') offsetMin = 0;
    else if (zone) {
      const zm = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
      offsetMin = (zm[1] === '-' ? -1 : 1) * (Number(zm[2]) * 60 + Number(zm[3] ?? 0));
    }
    const local = localDate(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), m[7], offsetMin);
    if (!local || !zone) return local;
    return Math.abs(offsetMin) > 14 * 60 ? null : local;
  }
  return null;
}

/** A wall-clock reading at `offsetMin` (default: Dominican time) → `Date`; null when the fields are out of range. */
function localDate(y: number, mo: number, d: number, h: number, mi: number, s: number, fraction?: string, offsetMin = DO_OFFSET_MINUTES): Date | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d) return null; // 2/30 and friends
  const ms = fraction ? Number(fraction.slice(0, 3).padEnd(3, '0')) : 0;
  return fromWallClock({ year: y, month: mo, day: d, hour: h, minute: mi, second: s, millisecond: ms }, offsetMin);
}

const STATES: Record<string, [AuthorityState, AuthorityStateCode]> = {
  noencontrado: ['No encontrado', 0],
  aceptado: ['Aceptado', 1],
  rechazado: ['Rechazado', 2],
  enproceso: ['En Proceso', 3],
  aceptadocondicional: ['Aceptado Condicional', 4],
};
const BY_CODE: Record<number, AuthorityState> = { 0: 'No encontrado', 1: 'Aceptado', 2: 'Rechazado', 3: 'En Proceso', 4: 'Aceptado Condicional' };

function stateKey(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

/**
 * A state name (any case, spacing or accents: "En proceso", "EN PROCESO") and/or a numeric code →
 * the canonical pair. Names are matched whole, so "Aceptado Condicional" is never "Aceptado". A
 * recognised name wins over the code; `null` when neither is recognised.
 *
 * @example
 * normalizeState('En proceso') //=> { estado: 'En Proceso', codigo: 3 }
 * normalizeState('Aceptado Condicional') //=> { estado: 'Aceptado Condicional', codigo: 4 }
 * normalizeState(undefined, '2') //=> { estado: 'Rechazado', codigo: 2 }
 */
export function normalizeState(estado: unknown, codigo?: unknown): { estado: AuthorityState; codigo: AuthorityStateCode } | null {
  if (typeof estado === 'string') {
    const hit = STATES[stateKey(estado)];
    if (hit) return { estado: hit[0], codigo: hit[1] };
  }
  const code = int(codigo);
  if (code !== null && code in BY_CODE) return { estado: BY_CODE[code]!, codigo: code as AuthorityStateCode };
  return null;
}

// ---------------------------------------------------------------------------------------------
// Operation answers

function bad(what: string, body: ParsedBody, cause?: unknown): TransportError {
  const sample = collapse(body.text).slice(0, 200);
  return new TransportError(`Unexpected ${what} answer from the authority: ${sample || '(empty body)'}`, {
    code: 'bad_response',
    retryable: true,
    cause,
  });
}

function asBody(body: string | ParsedBody, contentType?: string | null): ParsedBody {
  return typeof body === 'string' ? parseBody(body, contentType) : body;
}

function asObject(body: ParsedBody, what: string): Obj {
  let v = body.value;
  if (Array.isArray(v) && v.length === 1) v = v[0];
  if ((body.kind === 'json' || body.kind === 'xml') && v && typeof v === 'object' && !Array.isArray(v)) return v as Obj;
  throw bad(what, body);
}

/**
 * Entries of a list answer: an array, one object (the directory does that), `ArrayOf…` XML, or an
 * object wrapping the list in its only field.
 */
function asList(body: ParsedBody, what: string, isEntry: (o: Obj) => boolean): Obj[] {
  if (body.kind === 'empty') return [];
  if (body.kind !== 'json' && body.kind !== 'xml') throw bad(what, body);
  const walk = (v: unknown, depth: number): Obj[] | null => {
    if (v == null || v === '') return [];
    if (Array.isArray(v)) {
      const out: Obj[] = [];
      for (const item of v) {
        const inner = item && typeof item === 'object' && !Array.isArray(item) && isEntry(item as Obj) ? [item as Obj] : walk(item, depth + 1);
        if (inner === null) return null;
        out.push(...inner);
      }
      return out;
    }
    if (typeof v !== 'object') return null;
    if (isEntry(v as Obj)) return [v as Obj];
    if (depth > 3) return null;
    const values = Object.values(v as Obj);
    return values.length === 1 ? walk(values[0], depth + 1) : null;
  };
  const list = walk(body.value, 0);
  if (list === null) throw bad(what, body);
  return list;
}

/**
 * The token answer of `validarsemilla` (and of a receiver's `validacioncertificado`):
 * `{token, expira, expedido}` in JSON or XML. A missing `expedido` is taken as `expira − 1 h`
 * (DT p. 7: tokens last one hour); a missing or unreadable `expira` is a bad answer.
 *
 * @throws TransportError `bad_response`
 * @example
 * parseAuthToken('{"token":"eyJ…","expira":"2026-05-20T21:38:38Z","expedido":"2026-05-20T20:38:38Z"}')
 * //=> { token: 'eyJ…', expiresAt: 2026-05-20T21:38:38.000Z, issuedAt: 2026-05-20T20:38:38.000Z }
 */
export function parseAuthToken(body: string | ParsedBody, contentType?: string | null): AuthToken {
  const b = asBody(body, contentType);
  const o = asObject(b, 'token');
  const token = str(pick(o, 'token', 'accessToken', 'access_token'));
  const expiresAt = parseDgiiDate(pick(o, 'expira', 'expiration', 'expires'));
  if (!token || !expiresAt) throw bad('token', b);
  const issuedAt = parseDgiiDate(pick(o, 'expedido', 'issued')) ?? new Date(expiresAt.getTime() - 3_600_000);
  return { token, expiresAt, issuedAt };
}

/**
 * Checks that a seed answer is a `SemillaModel` document and returns it without the BOM. The text
 * itself is what gets signed (after whitespace between tags is removed by the caller).
 *
 * @throws TransportError `bad_response`
 * @example
 * parseSeed('\uFEFF<?xml version="1.0" encoding="utf-8"?>\r\n<SemillaModel …>\r\n  <valor>…</valor>\r\n  <fecha>…</fecha>\r\n</SemillaModel>')
 * //=> '<?xml version="1.0" encoding="utf-8"?>\r\n<SemillaModel …>…</SemillaModel>' (BOM and outer whitespace removed)
 */
export function parseSeed(body: string, contentType?: string | null): string {
  const xml = body.replace(/^\uFEFF/, '').trim();
  try {
    const root = parseXmlRoot(xml);
    if ((root.localName ?? root.nodeName) === 'SemillaModel') return xml;
  } catch (e) {
    throw bad('seed', parseBody(body, contentType), e);
  }
  throw bad('seed', parseBody(body, contentType));
}

/**
 * `POST recepcion/api/facturaselectronicas` → `{trackId, mensaje}`.
 *
 * @throws TransportError `bad_response` when there is no track id
 * @example
 * parseReceptionReceipt('{"trackId":"6b2b4b6e-…","error":null,"mensaje":null}') //=> { trackId: '6b2b4b6e-…', mensaje: null }
 */
export function parseReceptionReceipt(body: string | ParsedBody, contentType?: string | null): ReceptionReceipt {
  const b = asBody(body, contentType);
  const o = asObject(b, 'reception');
  const trackId = str(pick(o, 'trackId'));
  if (!trackId) throw bad('reception', b);
  return { trackId, mensaje: str(pick(o, 'mensaje')) };
}

/**
 * The result query (`consultaresultado`), the synchronous RFCE verdict (`recepcionfc`) and the RFCE
 * query (`consultarfce`): state, code, e-NCF, whether the sequence is consumed, reception date
 * (`M/d/yyyy h:mm:ss AM` or ISO) and messages.
 *
 * @throws TransportError `bad_response` when the state is missing or unknown
 * @example
 * parseTrackResult('<RespuestaConsultaTrackId><TrackId>abc</TrackId><Codigo>1</Codigo><Estado>Aceptado</Estado><Rnc>130000001</Rnc><Encf>E310000000001</Encf><SecuenciaUtilizada>true</SecuenciaUtilizada><FechaRecepcion>5/20/2026 4:38:38 PM</FechaRecepcion><Mensajes /></RespuestaConsultaTrackId>')
 * //=> { trackId: 'abc', codigo: 1, estado: 'Aceptado', rnc: '130000001', encf: 'E310000000001', secuenciaUtilizada: true, fechaRecepcion: 2026-05-20T20:38:38.000Z, mensajes: [] }
 */
export function parseTrackResult(body: string | ParsedBody, contentType?: string | null): TrackResult {
  const b = asBody(body, contentType);
  const o = asObject(b, 'result');
  const state = normalizeState(pick(o, 'estado', 'status'), pick(o, 'codigo', 'code'));
  if (!state) throw bad('result', b);
  return {
    trackId: str(pick(o, 'trackId')),
    codigo: state.codigo,
    estado: state.estado,
    rnc: str(pick(o, 'rnc', 'rncEmisor', 'RNC_Emisor')),
    encf: str(pick(o, 'encf', 'ncfElectronico')),
    secuenciaUtilizada: bool(pick(o, 'secuenciaUtilizada')),
    fechaRecepcion: parseDgiiDate(pick(o, 'fechaRecepcion')),
    mensajes: toAuthorityMessages(pick(o, 'mensajes', 'mensaje')),
  };
}

const FISCAL_CODES: Record<number, FiscalStatus['codigo']> = { 0: 0, 1: 1, 2: 2, 4: 4 };

/**
 * `consultaestado` → the fiscal status of a document as a receiver sees it. Amounts stay exact
 * decimal strings.
 *
 * @throws TransportError `bad_response`
 * @example
 * parseFiscalStatus('{"codigo":1,"estado":"Aceptado","rncEmisor":"130000001","ncfElectronico":"E310000000001","montoTotal":1180.00,…}').montoTotal
 * //=> '1180.00'
 */
export function parseFiscalStatus(body: string | ParsedBody, contentType?: string | null): FiscalStatus {
  const b = asBody(body, contentType);
  const o = asObject(b, 'status');
  const rawEstado = str(pick(o, 'estado'));
  let codigo: FiscalStatus['codigo'] | undefined = FISCAL_CODES[int(pick(o, 'codigo')) ?? -1];
  if (codigo === undefined) {
    const state = normalizeState(rawEstado);
    codigo = state ? FISCAL_CODES[state.codigo] : undefined;
  }
  if (codigo === undefined) throw bad('status', b);
  return {
    codigo,
    estado: rawEstado ?? BY_CODE[codigo]!,
    rncEmisor: str(pick(o, 'rncEmisor')),
    ncfElectronico: str(pick(o, 'ncfElectronico', 'encf')),
    montoTotal: str(pick(o, 'montoTotal')),
    totalITBIS: str(pick(o, 'totalITBIS')),
    fechaEmision: str(pick(o, 'fechaEmision')),
    fechaFirma: str(pick(o, 'fechaFirma')),
    rncComprador: str(pick(o, 'rncComprador')),
    codigoSeguridad: str(pick(o, 'codigoSeguridad')),
    idExtranjero: str(pick(o, 'idExtranjero')),
  };
}

/**
 * `consultatrackids` → every submission of an e-NCF, oldest first as DGII lists them. Textual states
 * ("En proceso") are normalised.
 *
 * @throws TransportError `bad_response`
 * @example
 * parseTrackIds('[{"trackId":"a1","estado":"Rechazado","fechaRecepcion":"5/20/2026 4:38:38 PM"},{"trackId":"b2","estado":"En proceso","fechaRecepcion":"5/20/2026 4:40:01 PM"}]')
 * //=> [{ trackId: 'a1', estado: 'Rechazado', fechaRecepcion: … }, { trackId: 'b2', estado: 'En Proceso', fechaRecepcion: … }]
 */
export function parseTrackIds(body: string | ParsedBody, contentType?: string | null): TrackIdEntry[] {
  const b = asBody(body, contentType);
  const list = asList(b, 'track-ids', (o) => pick(o, 'trackId') !== undefined);
  return list.map((o) => {
    const trackId = str(pick(o, 'trackId'));
    const state = normalizeState(pick(o, 'estado'), pick(o, 'codigo'));
    if (!trackId || !state) throw bad('track-ids', b);
    return { trackId, estado: state.estado, fechaRecepcion: parseDgiiDate(pick(o, 'fechaRecepcion')) };
  });
}

/**
 * `aprobacioncomercial` → `{codigo, estado, mensajes}` (DGII's field is `mensaje`, an array of strings).
 *
 * @throws TransportError `bad_response`
 * @example
 * parseApprovalReceipt('{"mensaje":["Aprobación comercial aprobada"],"estado":"Aprobación comercial aprobada (1)","codigo":"1"}')
 * //=> { codigo: '1', estado: 'Aprobación comercial aprobada (1)', mensajes: ['Aprobación comercial aprobada'] }
 */
export function parseApprovalReceipt(body: string | ParsedBody, contentType?: string | null): ApprovalReceipt {
  const b = asBody(body, contentType);
  const o = asObject(b, 'approval');
  const estado = str(pick(o, 'estado'));
  const mensajes = toAuthorityMessages(pick(o, 'mensaje', 'mensajes')).map((m) => m.valor);
  if (estado === null && mensajes.length === 0) throw bad('approval', b);
  return { codigo: codeString(pick(o, 'codigo')), estado: estado ?? '', mensajes };
}

const VOID_REJECTED = /rechaz|error|invalid|no\s+(se\s+)?(pudo|puede|fue|es|existe|autorizad|valid)|deneg|fall/i;
const VOID_ACCEPTED = /acept|anulad|satisfactori|exito|procesad|recibid|aprobad/i;

/**
 * `anularrango` → `{rnc, codigo, nombre, mensajes, accepted}`. DT documents no code list for this
 * answer, so acceptance is read from `nombre`, then the messages: wording of a refusal ("rechazado",
 * "error", "no se pudo…") means not accepted, wording of success ("aceptado", "anulados",
 * "satisfactoriamente", "procesado") means accepted; a 2xx answer that says neither is accepted
 * (DGII refuses a voiding with HTTP 400, which the client turns into an `AuthorityError`).
 *
 * @throws TransportError `bad_response`
 * @example
 * parseVoidingReceipt('{"rnc":"130000001","codigo":"1","nombre":"Aceptado","mensajes":["Se anularon 10 e-NCF"]}').accepted //=> true
 * parseVoidingReceipt('{"rnc":"130000001","codigo":"2","nombre":"Rechazado","mensajes":["Secuencia utilizada"]}').accepted //=> false
 */
export function parseVoidingReceipt(body: string | ParsedBody, contentType?: string | null): VoidingReceipt {
  const b = asBody(body, contentType);
  const o = asObject(b, 'voiding');
  const nombre = str(pick(o, 'nombre', 'estado'));
  const mensajes = toAuthorityMessages(pick(o, 'mensajes', 'mensaje')).map((m) => m.valor);
  const codigo = codeString(pick(o, 'codigo'));
  if (nombre === null && codigo === null && mensajes.length === 0) throw bad('voiding', b);
  const verdictOf = (text: string): boolean | null => (VOID_REJECTED.test(text) ? false : VOID_ACCEPTED.test(text) ? true : null);
  let accepted = nombre !== null ? verdictOf(nombre) : null;
  if (accepted === null) {
    const verdicts = mensajes.map(verdictOf);
    accepted = verdicts.includes(false) ? false : true;
  }
  return { rnc: str(pick(o, 'rnc', 'rncEmisor')), codigo, nombre, mensajes, accepted };
}

/**
 * `consultadirectorio` → entries, always an array (DGII answers one object for one taxpayer).
 * Empty URLs become `null`.
 *
 * @throws TransportError `bad_response`
 * @example
 * parseDirectory('{"nombre":"EMPRESA SRL","rnc":"131880738","urlRecepcion":"https://e.example.do","urlAceptacion":"https://e.example.do","urlOpcional":""}')
 * //=> [{ nombre: 'EMPRESA SRL', rnc: '131880738', urlRecepcion: 'https://e.example.do', urlAceptacion: 'https://e.example.do', urlOpcional: null }]
 */
export function parseDirectory(body: string | ParsedBody, contentType?: string | null): DirectoryEntry[] {
  const b = asBody(body, contentType);
  const list = asList(b, 'directory', (o) => pick(o, 'rnc') !== undefined || pick(o, 'urlRecepcion') !== undefined);
  return list.map((o) => {
    const rnc = str(pick(o, 'rnc'));
    if (!rnc) throw bad('directory', b);
    return {
      nombre: str(pick(o, 'nombre', 'razonSocial')) ?? '',
      rnc,
      urlRecepcion: str(pick(o, 'urlRecepcion')),
      urlAceptacion: str(pick(o, 'urlAceptacion')),
      urlOpcional: str(pick(o, 'urlOpcional')),
    };
  });
}

/**
 * `statusecf …/obtenerestatus` → `[{servicio, estatus, ambiente}]`.
 *
 * @throws TransportError `bad_response`
 * @example
 * parseServiceStatus('[{"servicio":"Recepción","estatus":"Disponible","ambiente":"PreCertificación"}]')
 * //=> [{ servicio: 'Recepción', estatus: 'Disponible', ambiente: 'PreCertificación' }]
 */
export function parseServiceStatus(body: string | ParsedBody, contentType?: string | null): ServiceAvailability[] {
  const b = asBody(body, contentType);
  const list = asList(b, 'service-status', (o) => pick(o, 'servicio') !== undefined);
  return list.map((o) => {
    const servicio = str(pick(o, 'servicio'));
    if (!servicio) throw bad('service-status', b);
    return { servicio, estatus: str(pick(o, 'estatus', 'estado')) ?? '', ambiente: str(pick(o, 'ambiente')) ?? '' };
  });
}

/**
 * The track id an error answer carries, if any (`{trackId, error, mensaje}` on a refused reception).
 *
 * @example
 * errorTrackId(parseBody('{"trackId":"abc","error":"…","mensaje":"…"}')) //=> 'abc'
 */
export function errorTrackId(body: ParsedBody): string | null {
  const v = body.value;
  return v && typeof v === 'object' && !Array.isArray(v) ? str(pick(v as Obj, 'trackId')) : null;
}
