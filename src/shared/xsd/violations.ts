/**
 * From a decoded XML string to libxml2's input, and from libxml2's errors to located violations: the two ends of a
 * validation every product's validator shares.
 */
import type { SchemaViolation } from '../ports.js';
import { XML_ERR_ERROR, XML_ERR_FATAL, XML_FROM_PARSER, type RawXmlError } from './libxml.js';
import { indexXml, type XmlLocator } from './locate.js';

/**
 * The string is already decoded, and is handed to libxml2 as UTF-8: drop a leading BOM and blank out (same length,
 * so positions do not move) an XML declaration's `encoding` that says otherwise, which would make libxml2 re-decode.
 */
export function prepare(xml: string): string {
  let text = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  const m = /^<\?xml\b[^>]*?(\s+encoding\s*=\s*(["'])([^"']*)\2)/.exec(text);
  if (m && !/^utf-?8$/i.test(m[3]!)) {
    const at = m.index + m[0].length - m[1]!.length;
    text = text.slice(0, at) + ' '.repeat(m[1]!.length) + text.slice(at + m[1]!.length);
  }
  return text;
}

/**
 * libxml2's errors for `text` (warnings dropped, consecutive duplicates merged) as violations located by element
 * path; stops after a fatal well-formedness error. Never empty: a failure without a message still yields one entry.
 */
export function toViolations(text: string, errors: RawXmlError[], code: number): SchemaViolation[] {
  let locator: XmlLocator | null = null;
  const out: SchemaViolation[] = [];
  for (const e of errors) {
    if (e.level < XML_ERR_ERROR) continue;
    locator ??= indexXml(text);
    const message = e.message.trim();
    const loc = locator.locate(e.line, e.column, message, e.domain !== XML_FROM_PARSER);
    const prev = out[out.length - 1];
    if (!(prev && prev.xpath === loc.xpath && prev.message === message && prev.line === loc.line && prev.column === loc.column)) {
      out.push({ xpath: loc.xpath, message, line: loc.line, column: loc.column });
    }
    // After a fatal well-formedness error the rest is libxml2 recovering: noise, not findings.
    if (e.domain === XML_FROM_PARSER && e.level >= XML_ERR_FATAL) break;
  }
  if (out.length === 0) out.push({ xpath: null, message: `libxml2 reported the document invalid without a message (code ${code})`, line: null, column: null });
  return out;
}
