/**
 * Safe parsing of inbound XML and reading of values as written. Documents from other issuers are untrusted:
 * the linear pre-scan (src/ecf/xml/prescan.ts) runs first and refuses a DOCTYPE (and so any entity declaration),
 * values longer than the XSDs allow, excessive depth, element and attribute counts, before xmldom parses, so
 * no entity is ever expanded or fetched and no parser or XSD validator that sees the same text afterwards
 * gets input it would spend seconds or gigabytes on.
 */
import type { Document, Element } from '@xmldom/xmldom';
import { EcfError, firstProblem, parseXmlStrictly, prescanXml } from '../../index.js';

/** Not well-formed, or carries a DOCTYPE. `message` is Spanish (it reaches the sender). */
export class XmlInputError extends EcfError {
  constructor(message: string) {
    super(message, { code: 'invalid_xml' });
    this.name = 'XmlInputError';
  }
}

/** Parses untrusted XML text into a DOM document. @throws XmlInputError */
export function parseUntrustedXml(xml: string): Document {
  const refusal = prescanXml(xml);
  if (refusal) throw new XmlInputError(refusal.message);
  // xmldom's own line-end handling and every warning tolerated: the inbound reader's policy since it landed
  const parsed = parseXmlStrictly(xml.replace(/^\uFEFF/, ''), { warnings: 'ignore', lineEndings: 'xmldom' });
  const doc = parsed.doc;
  if (!doc || parsed.problems.length > 0 || parsed.thrown !== undefined || !doc.documentElement) {
    const first = firstProblem(parsed, '');
    throw new XmlInputError(`El XML no está bien formado${first ? `: ${first.split('\n')[0]}` : '.'}`);
  }
  return doc;
}

function localName(el: Element): string {
  return el.localName ?? el.nodeName;
}

// Reading by element path: the SDK's readers (same rules: local names, first match per step, trimmed, empty → null).
export { rootName, textAt } from '../../index.js';

/**
 * Trimmed text of the element at `path` below the document element, walking only elements in no namespace (the
 * e-CF family has none), first match per step; null when absent or empty. Comments, processing instructions
 * and markup inside CDATA sections are never taken for elements: this is the DOM, not the text.
 */
export function plainTextAt(doc: Document, path: readonly string[]): string | null {
  let el: Element | null = doc.documentElement;
  if (!el || el.namespaceURI) return null;
  for (const name of path) {
    let found: Element | null = null;
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 1 && !(c as Element).namespaceURI && localName(c as Element) === name) {
        found = c as Element;
        break;
      }
    }
    if (!found) return null;
    el = found;
  }
  const text = (el.textContent ?? '').trim();
  return text === '' ? null : text;
}

/**
 * {@link plainTextAt} over XML text (parsed as untrusted: no DOCTYPE); null when the text does not parse.
 * Use it instead of a regex over the raw text whenever the value feeds a decision.
 *
 * @example
 * xmlValue('<ECF><!--<RNCComprador>1</RNCComprador>--><RNCComprador>2</RNCComprador></ECF>', ['RNCComprador']) //=> '2'
 */
export function xmlValue(xml: string, path: readonly string[]): string | null {
  let doc: Document;
  try {
    doc = parseUntrustedXml(xml);
  } catch (e) {
    if (e instanceof XmlInputError) return null;
    throw e;
  }
  return plainTextAt(doc, path);
}

/**
 * Best-effort reading of an element's text from XML that did not parse: enough to address a signed
 * acknowledgment ("not received, specification error") to the right sender and document.
 */
export function scrapeText(xml: string, name: string): string | null {
  // Linear: one pass over the text; comments, CDATA sections and processing instructions are skipped, so a decoy
  // inside them is never taken for the element (this text still decides whom the acknowledgment names).
  const open = `<${name}>`;
  const close = `</${name}>`;
  const n = xml.length;
  let i = 0;
  while (i < n) {
    const lt = xml.indexOf('<', i);
    if (lt < 0) return null;
    const skip = xml.startsWith('<!--', lt) ? '-->' : xml.startsWith('<![CDATA[', lt) ? ']]>' : xml.startsWith('<?', lt) ? '?>' : null;
    if (skip) {
      const end = xml.indexOf(skip, lt + 2);
      if (end < 0) return null;
      i = end + skip.length;
      continue;
    }
    if (xml.startsWith(open, lt)) {
      const start = lt + open.length;
      const next = xml.indexOf('<', start);
      if (next < 0) return null;
      if (xml.startsWith(close, next)) {
        const value = xml.slice(start, next).trim();
        if (value.length >= 1 && value.length <= 100) return value;
      }
      i = next;
      continue;
    }
    i = lt + 1;
  }
  return null;
}

/** Exact decimal equality of two amounts as written (`1180`, `1180.0`, `1180.00`); false when either is not a plain decimal. */
export function sameAmount(a: string, b: string): boolean {
  const norm = (s: string): string | null => {
    const m = /^\s*\+?(\d+)(?:\.(\d*))?\s*$/.exec(s);
    if (!m) return null;
    const int = m[1]!.replace(/^0+(?=\d)/, '');
    const frac = (m[2] ?? '').replace(/0+$/, '');
    return frac ? `${int}.${frac}` : int;
  };
  const x = norm(a);
  return x !== null && x === norm(b);
}

/**
 * `xml` without its comments, and without the whitespace after the document element: what we store of an
 * inbound document. A linear scan (CDATA sections and processing instructions are kept as they are, their
 * text may contain `<!--`). The XMLDSig signature of DGII's profile is computed over Canonical XML 1.0
 * *without comments*, which drops comments and whitespace outside the document element, so the stripped
 * text verifies exactly when the original does. Call it on text that parsed.
 */
export function stripComments(xml: string): string {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    const lt = xml.indexOf('<', i);
    if (lt < 0) break;
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt + 4);
      if (end < 0) break;
      out.push(xml.slice(i, lt));
      i = end + 3;
      continue;
    }
    const skip = xml.startsWith('<![CDATA[', lt) ? ']]>' : xml.startsWith('<?', lt) ? '?>' : null;
    if (skip) {
      const end = xml.indexOf(skip, lt + 2);
      if (end < 0) break;
      out.push(xml.slice(i, end + skip.length));
      i = end + skip.length;
      continue;
    }
    out.push(xml.slice(i, lt + 1));
    i = lt + 1;
  }
  out.push(xml.slice(i));
  return out.join('').trimEnd();
}
