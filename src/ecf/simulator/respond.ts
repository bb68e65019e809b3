/**
 * Answers as DGII writes them: JSON (camelCase) when the caller sends `Accept: application/json`,
 * otherwise XML with PascalCase tags in the .NET XmlSerializer style (arrays as a wrapper element with
 * one child per item, `null` omitted), and reception dates in US style (`M/d/yyyy h:mm:ss AM`).
 */
import { formatTicksDO, wallClockDO } from '../time.js';

/** What a route answers; rendered as JSON or XML by {@link render}. */
export interface Reply {
  status?: number;
  body: unknown;
  /** XML document element, e.g. `RespuestaConsultaTrackId` (or `ArrayOfX` for an array body). */
  xmlRoot: string;
  /** XML element name of the items of an array, by JSON key (`$root` for an array body); default `string`. */
  xmlItems?: Record<string, string>;
  headers?: Record<string, string>;
}

/** True when the caller asked for JSON. */
export function wantsJson(req: Request): boolean {
  return /application\/json/i.test(req.headers.get('accept') ?? '');
}

/** Renders a reply per the caller's `Accept`. */
export function render(reply: Reply, json: boolean): Response {
  const headers = new Headers(reply.headers);
  if (json) {
    headers.set('content-type', 'application/json; charset=utf-8');
    return new Response(JSON.stringify(reply.body), { status: reply.status ?? 200, headers });
  }
  headers.set('content-type', 'application/xml; charset=utf-8');
  const xml = `<?xml version="1.0" encoding="utf-8"?>${element(reply.xmlRoot, reply.body, reply.xmlItems ?? {}, '$root')}`;
  return new Response(xml, { status: reply.status ?? 200, headers });
}

/** `trackId` → `TrackId`, `totalITBIS` → `TotalITBIS`. */
export function pascal(key: string): string {
  return key.charAt(0).toUpperCase() + key.slice(1);
}

function element(name: string, value: unknown, items: Record<string, string>, key: string): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) {
    const item = items[key] ?? 'string';
    return `<${name}>${value.map((v) => element(item, v, items, `${key}[]`)).join('')}</${name}>`;
  }
  if (typeof value === 'object') {
    const inner = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => element(pascal(k), v, items, k))
      .join('');
    return `<${name}>${inner}</${name}>`;
  }
  return `<${name}>${escapeXml(String(value))}</${name}>`;
}

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** `5/20/2026 4:38:38 PM` in Dominican time (UTC−4), as DGII writes `fechaRecepcion`. */
export function usDate(instant: Date): string {
  const t = wallClockDO(instant);
  const h24 = t.hour;
  const h12 = h24 % 12 === 0 ? 12 : h24 % 12;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${t.month}/${t.day}/${t.year} ${h12}:${p(t.minute)}:${p(t.second)} ${h24 < 12 ? 'AM' : 'PM'}`;
}

/** `2026-04-01T14:00:00Z`: the token dates (`expira`, `expedido`). */
export function isoSeconds(instant: Date): string {
  return `${instant.toISOString().slice(0, 19)}Z`;
}

/** `2026-04-01T10:00:00.1234567-04:00`: the seed's `fecha` as DGII writes it (.NET ticks precision). */
export function seedDate(instant: Date): string {
  return formatTicksDO(instant);
}

/** A plain-text or HTML answer (error pages). */
export function textResponse(status: number, text: string, contentType = 'text/plain; charset=utf-8', headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { 'content-type': contentType, ...headers } });
}
