/**
 * Safe parsing of inbound XML and reading of values as written. Documents from other issuers are untrusted:
 * a DOCTYPE (and so any entity declaration) is refused before parsing, so no entity is ever expanded or
 * fetched, here or in the XSD validator that sees the same text afterwards.
 */
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';

/** Not well-formed, or carries a DOCTYPE. `message` is Spanish (it reaches the sender). */
export class XmlInputError extends Error {
  override readonly name = 'XmlInputError';
}

/** Parses untrusted XML text into a DOM document. @throws XmlInputError */
export function parseUntrustedXml(xml: string): Document {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) {
    throw new XmlInputError('El XML contiene una declaración DOCTYPE o ENTITY, que no se admite.');
  }
  const errors: string[] = [];
  let doc: Document | undefined;
  try {
    doc = new DOMParser({
      onError: (level, msg) => {
        if (level !== 'warning') errors.push(msg);
      },
    }).parseFromString(xml.replace(/^\uFEFF/, ''), 'text/xml');
  } catch (e) {
    errors.push(e instanceof Error ? e.message : String(e));
  }
  if (!doc || errors.length > 0 || !doc.documentElement) {
    throw new XmlInputError(`El XML no está bien formado${errors[0] ? `: ${errors[0].split('\n')[0]}` : '.'}`);
  }
  return doc;
}

function localName(el: Element): string {
  return el.localName ?? el.nodeName;
}

/** Local name of the document element. */
export function rootName(doc: Document): string {
  return localName(doc.documentElement!);
}

/** Trimmed text of the element at `path` below the document element (first match per step), or null. */
export function textAt(doc: Document, path: readonly string[]): string | null {
  let el: Element | null = doc.documentElement;
  for (const name of path) {
    if (!el) return null;
    let found: Element | null = null;
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 1 && localName(c as Element) === name) {
        found = c as Element;
        break;
      }
    }
    el = found;
  }
  if (!el) return null;
  const text = (el.textContent ?? '').trim();
  return text === '' ? null : text;
}

/**
 * Best-effort reading of an element's text from XML that did not parse: enough to address a signed
 * acknowledgment ("not received, specification error") to the right sender and document.
 */
export function scrapeText(xml: string, name: string): string | null {
  const m = new RegExp(`<${name}>\\s*([^<]{1,100}?)\\s*</${name}>`).exec(xml);
  return m ? m[1]! : null;
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
