/**
 * Lenient multipart/form-data reading of the `xml` part. DGII's clients (and DGII itself, when it posts
 * to taxpayers) send odd part headers: unquoted names (`name=xml;`), `filename*=` variants, LF-only line
 * ends, a part declared as `Content-Type: multipart/form-data;`, a missing boundary parameter. This
 * parser accepts all of those; it only needs the boundary line and a blank line after the part headers.
 */
import { multipartFileName } from '../dgii/multipart.js';

export interface XmlPart {
  /** The part's file name (`filename=`; `filename*=utf-8''…` when that is all there is); '' when absent. */
  fileName: string;
  /** The part body as UTF-8 text (BOM removed). */
  xml: string;
}

/**
 * The `xml` part of a multipart body; when no part is named `xml`, the only part that carries a file.
 * Returns null when there is no usable part or it is empty ("Multipart cannot be empty").
 */
export function readXmlPart(contentType: string | null, body: Uint8Array): XmlPart | null {
  const text = Buffer.from(body).toString('latin1');
  const boundary = boundaryOf(contentType, text);
  if (!boundary) return null;
  const parts: { headers: string; content: string }[] = [];
  const delimiter = `--${boundary}`;
  let pos = text.indexOf(delimiter);
  while (pos >= 0) {
    let start = pos + delimiter.length;
    if (text.startsWith('--', start)) break; // closing delimiter
    if (text.startsWith('\r\n', start)) start += 2;
    else if (text.startsWith('\n', start)) start += 1;
    const next = text.indexOf(delimiter, start);
    const raw = text.slice(start, next < 0 ? text.length : next);
    const split = /\r?\n\r?\n/.exec(raw);
    if (split) {
      let content = raw.slice(split.index + split[0].length);
      // The line break before the next delimiter belongs to the delimiter.
      if (next >= 0) content = content.replace(/\r?\n$/, '');
      parts.push({ headers: raw.slice(0, split.index), content });
    }
    pos = next;
  }
  const named = parts.find((p) => /(?:^|;)\s*name\s*=\s*"?xml"?\s*(?:;|$)/im.test(dispositionOf(p.headers)));
  const withFile = parts.filter((p) => /filename/i.test(dispositionOf(p.headers)));
  const part = named ?? (withFile.length === 1 ? withFile[0] : parts.length === 1 ? parts[0] : undefined);
  if (!part) return null;
  const xml = Buffer.from(part.content, 'latin1')
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  if (xml.trim() === '') return null;
  return { fileName: multipartFileName(dispositionOf(part.headers)), xml };
}

function boundaryOf(contentType: string | null, text: string): string | null {
  const m = /boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  if (m) return m[1] ?? m[2]!;
  // No (usable) boundary parameter: take it from the first delimiter line of the body.
  const first = /^\s*--([^\r\n]+?)\s*\r?\n/.exec(text);
  return first ? first[1]! : null;
}

function dispositionOf(headers: string): string {
  const line = headers.split(/\r?\n/).find((l) => /^content-disposition\s*:/i.test(l));
  return line ? line.slice(line.indexOf(':') + 1) : '';
}
