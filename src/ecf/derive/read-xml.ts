/** Reading values out of (signed) DGII documents with @xmldom/xmldom: parsing, not crypto. */
import type { Document, Element } from '@xmldom/xmldom';
import { EcfError } from '../../shared/errors/ecf-error.js';
import { firstProblem, parseXmlStrictly } from '../../shared/xml/strict-parser.js';

const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';

/** Parses XML, throwing `EcfError` `not_well_formed` on any parser error. */
export function parseDocument(xml: string): Document {
  const parsed = parseXmlStrictly(xml);
  const doc = parsed.doc;
  if (!doc?.documentElement || parsed.problems.length > 0 || parsed.thrown !== undefined) {
    throw new EcfError(`The XML is not well-formed: ${firstProblem(parsed, 'no document element')}`, { code: 'not_well_formed' });
  }
  return doc;
}

/** Local name of the document element (`ECF`, `RFCE`, `ARECF`, …). */
export function rootName(doc: Document): string {
  const root = doc.documentElement!;
  return root.localName ?? root.nodeName;
}

/**
 * Text of the element at `path` below the document element (direct children, first match at each
 * step), trimmed; `null` when absent or empty.
 */
export function textAt(doc: Document, path: readonly string[]): string | null {
  let node: Element | null = doc.documentElement;
  for (const name of path) {
    node = node ? childElement(node, name) : null;
  }
  const text = node?.textContent?.trim();
  return text ? text : null;
}

/** Like {@link textAt}, but a missing value throws `EcfError` `missing_field`. */
export function requireText(doc: Document, path: readonly string[]): string {
  const value = textAt(doc, path);
  if (value === null) {
    throw new EcfError(`Missing ${rootName(doc)}/${path.join('/')} in the document.`, { code: 'missing_field' });
  }
  return value;
}

/** SignatureValue text of the document element's XMLDSig Signature (whitespace removed), or `null`. */
export function signatureValueOf(doc: Document): string | null {
  const root = doc.documentElement!;
  for (let c = root.lastChild; c; c = c.previousSibling) {
    if (c.nodeType === 1 && (c as Element).localName === 'Signature' && (c as Element).namespaceURI === DSIG_NS) {
      const value = (c as Element).getElementsByTagNameNS(DSIG_NS, 'SignatureValue')[0]?.textContent;
      const compact = value?.replace(/\s+/g, '');
      return compact ? compact : null;
    }
  }
  return null;
}

function childElement(parent: Element, name: string): Element | null {
  for (let c = parent.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 1 && ((c as Element).localName ?? c.nodeName) === name) return c as Element;
  }
  return null;
}
