/**
 * Answers of the inbound services. Status answers are JSON unless the caller asks for XML only (`Accept`
 * with xml and without json), in which case they are XML with PascalCase tags as DGII writes them. The
 * documents themselves (seed, ARECF) are always XML.
 */
import { formatTicksDO } from '../../index.js';

export type Format = 'json' | 'xml';

/** JSON unless the caller accepts XML and not JSON. */
export function formatOf(req: Request): Format {
  const accept = (req.headers.get('accept') ?? '').toLowerCase();
  return accept.includes('xml') && !accept.includes('json') ? 'xml' : 'json';
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

function pascal(key: string): string {
  return key.charAt(0).toUpperCase() + key.slice(1);
}

function element(name: string, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return `<${name}>${value.map((v) => element('Mensaje', v)).join('')}</${name}>`;
  if (typeof value === 'object') {
    return `<${name}>${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => element(pascal(k), v))
      .join('')}</${name}>`;
  }
  return `<${name}>${escapeXml(String(value))}</${name}>`;
}

/** A status answer rendered per `format` (`xmlRoot` names the XML document element). */
export function reply(status: number, body: Record<string, unknown>, xmlRoot: string, format: Format, headers: Record<string, string> = {}): Response {
  if (format === 'json') {
    return new Response(JSON.stringify(body), { status, headers: { ...headers, 'content-type': 'application/json; charset=utf-8' } });
  }
  const xml = `<?xml version="1.0" encoding="utf-8"?>${element(xmlRoot, body)}`;
  return new Response(xml, { status, headers: { ...headers, 'content-type': 'application/xml; charset=utf-8' } });
}

/** `{estado: 'Error', mensaje, mensajes}` — the plain failure CERT expects ("Error" with the reason). */
export function failure(status: number, mensajes: string[], format: Format, headers: Record<string, string> = {}): Response {
  return reply(status, { estado: 'Error', mensaje: mensajes.join(' '), mensajes }, 'RespuestaError', format, headers);
}

/** An XML document (seed, signed ARECF). */
export function xmlDocument(xml: string, status = 200): Response {
  return new Response(xml, { status, headers: { 'content-type': 'application/xml; charset=utf-8' } });
}

/** `2026-04-01T14:00:00Z`: the token dates (`expira`, `expedido`, DT p. 53). */
export function isoSeconds(instant: Date): string {
  return `${instant.toISOString().slice(0, 19)}Z`;
}

/** `2026-04-01T10:00:00.1230000-04:00`: a seed's `fecha` as DGII writes it (xs:dateTime, GMT−4). */
export function seedDate(instant: Date): string {
  return formatTicksDO(instant);
}
