/** The checks every document upload shares: the multipart `xml` part, well-formedness, root, file name. */
import type { Document } from '@xmldom/xmldom';
import { parseDocument, rootName } from '../derive/read-xml.js';
import { errorReply, msg, type RouteInput } from './context.js';
import { readXmlPart } from './multipart.js';
import type { Reply } from './respond.js';

export interface Upload {
  fileName: string;
  xml: string;
  doc: Document;
}

/** Reads the `xml` part and parses it; a 400 reply when it is missing, malformed or of another root. */
export function readUpload(input: RouteInput, root: string, extra: Record<string, unknown> = {}): Upload | Reply {
  const part = readXmlPart(input.req.headers.get('content-type'), input.body);
  if (!part) return errorReply(400, [msg('Multipart cannot be empty: envíe el documento en la parte "xml" del formulario (multipart/form-data).')], extra);
  let doc: Document;
  try {
    doc = parseDocument(part.xml);
  } catch {
    return errorReply(400, [msg('El archivo no es un XML bien formado.')], extra);
  }
  const name = rootName(doc);
  if (name !== root) return errorReply(400, [msg(`Se esperaba un documento ${root}; el elemento raíz es ${name}.`)], extra);
  return { fileName: part.fileName, xml: part.xml, doc };
}

export function isUpload(u: Upload | Reply): u is Upload {
  return 'doc' in u;
}

/**
 * DGII's file-name rule (DT p. 59): `RNC + e-NCF + .xml`. A name of another length gets code 3243 (seen
 * live); the right length with other contents, a plain rejection.
 */
export function checkFileName(fileName: string, rnc: string, encf: string, extra: Record<string, unknown> = {}): Reply | null {
  const expected = `${rnc}${encf}.xml`;
  if (fileName.length !== expected.length) return errorReply(400, [msg('La longitud del nombre del archivo no es válida', '3243')], extra);
  if (fileName.toLowerCase() !== expected.toLowerCase()) {
    return errorReply(400, [msg(`El nombre del archivo (${fileName}) no corresponde al documento: se esperaba ${expected}.`)], extra);
  }
  return null;
}

/** Up to `max` schema violations as messages. */
export function violationMessages(violations: { xpath: string | null; message: string }[], max = 20): string[] {
  return violations.slice(0, max).map((v) => `${v.xpath ? `${v.xpath}: ` : ''}${v.message.trim()}`);
}
