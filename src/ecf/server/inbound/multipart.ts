/**
 * Lenient reading of the `xml` part of an inbound upload. Issuers' clients, and DGII itself when it posts to
 * a receptor (§2.12), send odd part headers: unquoted names (`name=xml;`), `filename*=` variants, LF-only
 * line ends, a file part declared as `Content-Type: multipart/form-data;`, a Content-Type header without a
 * boundary parameter. Only two things are needed: a delimiter line and a blank line after the part headers.
 * A body that is the XML itself (`Content-Type: application/xml`, or no multipart framing at all) is taken
 * as the document too: refusing it would help nobody.
 */
import { multipartFileName } from '../../dgii/index.js';

export interface XmlUpload {
  /** The part's file name ('' when absent or when the body was bare XML). */
  fileName: string;
  /** The document as UTF-8 text, BOM removed. */
  xml: string;
}

interface Part {
  headers: string;
  /** latin1 view of the raw bytes (one char per byte), decoded as UTF-8 at the end. */
  content: string;
}

/**
 * The uploaded XML: the part named `xml`; failing that, the only part carrying a file name, or the only
 * part. Null when there is nothing usable (the "Multipart cannot be empty" case).
 */
export function readXmlUpload(contentType: string | null, body: Uint8Array): XmlUpload | null {
  const raw = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const latin1 = raw.toString('latin1');
  const boundary = boundaryOf(contentType, latin1);
  if (boundary === null) {
    // Bare XML body.
    const xml = utf8(latin1);
    return xml.trimStart().startsWith('<') ? { fileName: '', xml } : null;
  }
  const parts = splitParts(latin1, boundary);
  const named = parts.find((p) => nameOf(p.headers)?.toLowerCase() === 'xml');
  const withFile = parts.filter((p) => /filename\*?\s*=/i.test(dispositionOf(p.headers)));
  const part = named ?? (withFile.length === 1 ? withFile[0] : parts.length === 1 ? parts[0] : undefined);
  if (!part) return null;
  const xml = utf8(part.content);
  if (xml.trim() === '') return null;
  return { fileName: multipartFileName(dispositionOf(part.headers), { utf8: true }), xml };
}

function utf8(latin1: string): string {
  return Buffer.from(latin1, 'latin1')
    .toString('utf8')
    .replace(/^\uFEFF/, '');
}

/**
 * The boundary from the Content-Type parameter or, when that is missing or does not occur in the body,
 * from the first delimiter line of the body. Null when the body is not multipart at all.
 */
function boundaryOf(contentType: string | null, text: string): string | null {
  const m = /boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  const declared = m ? (m[1] ?? m[2]!) : null;
  if (declared && text.includes(`--${declared}`)) return declared;
  // Blank lines, then `--boundary`. Each blank line ends at its own LF ([^\S\n] excludes it): a pattern like
  // (?:\s*\r?\n)* could split a run of line ends in exponentially many ways and hang on a body of newlines.
  const first = /^(?:[^\S\n]*\n)*--([^\r\n]{1,200}?)[ \t]*\r?\n/.exec(text);
  return first ? first[1]! : null;
}

function splitParts(text: string, boundary: string): Part[] {
  const delimiter = `--${boundary}`;
  const parts: Part[] = [];
  let pos = text.indexOf(delimiter);
  while (pos >= 0) {
    let start = pos + delimiter.length;
    if (text.startsWith('--', start)) break; // closing delimiter
    // Rest of the delimiter line (transport padding) and its line end.
    const eol = text.indexOf('\n', start);
    if (eol < 0) break;
    start = eol + 1;
    const next = text.indexOf(delimiter, start);
    const raw = text.slice(start, next < 0 ? text.length : next);
    const split = /\r?\n\r?\n/.exec(raw);
    let headers: string;
    let content: string;
    if (split) {
      headers = raw.slice(0, split.index);
      content = raw.slice(split.index + split[0].length);
    } else if (/^\r?\n/.test(raw)) {
      // No headers at all: a blank line straight after the delimiter.
      headers = '';
      content = raw.replace(/^\r?\n/, '');
    } else {
      pos = next;
      continue;
    }
    // The line break before the next delimiter belongs to the delimiter.
    if (next >= 0) content = content.replace(/\r?\n$/, '');
    parts.push({ headers, content });
    pos = next;
  }
  return parts;
}

function dispositionOf(headers: string): string {
  const line = headers.split(/\r?\n/).find((l) => /^\s*content-disposition\s*:/i.test(l));
  return line ? line.slice(line.indexOf(':') + 1) : '';
}

/** The `name` parameter, quoted or not. */
function nameOf(headers: string): string | null {
  const m = /(?:^|;)\s*name\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(dispositionOf(headers));
  return m ? (m[1] ?? m[2] ?? '').trim() : null;
}
