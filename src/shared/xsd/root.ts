/**
 * The root element of an XML text, read from the text without a parser: the prolog is skipped, the start tag
 * located, its namespace taken from the declarations on it. Products use it to tell which schema a document is for.
 */
import { skipDeclaration } from './locate.js';

/** The root element of an XML text: qualified name, local name and namespace (null when the text has no root). */
export interface XmlRoot {
  qname: string;
  localName: string;
  /** Namespace of the root element, from the `xmlns` / `xmlns:prefix` declared on it; null when none applies. */
  namespace: string | null;
  /** Index of the `<` of the root's start tag, and just after its `>`. */
  start: number;
  end: number;
  /** True for `<Root/>`. */
  empty: boolean;
}

/** Index just after the `>` closing the start tag at `from`, honouring quoted attribute values (-1 if unclosed). */
export function startTagEnd(text: string, from: number): number {
  let quote = 0;
  for (let j = from + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (c === 62) return j + 1;
  }
  return -1;
}

/** Namespace bound to `prefix` ('' for the default namespace) by the attributes of the start tag `tag`. */
export function declaredNamespace(tag: string, prefix: string): string | null {
  const attr = prefix ? `xmlns:${prefix}` : 'xmlns';
  const m = new RegExp(`\\s${attr.replace('.', '\\.')}\\s*=\\s*(["'])([^"']*)\\1`).exec(tag);
  return m ? m[2]! : null;
}

/**
 * The root element's start tag in `xml`, found after the prolog (BOM, declaration, comments, processing
 * instructions, DOCTYPE): where its `<` is and its qualified name; null when there is none.
 */
export function rootStartTag(xml: string): { start: number; qname: string } | null {
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    i = xml.indexOf('<', i);
    if (i < 0) return null;
    if (xml.startsWith('<?', i)) {
      const e = xml.indexOf('?>', i);
      if (e < 0) return null;
      i = e + 2;
      continue;
    }
    if (xml.startsWith('<!--', i)) {
      const e = xml.indexOf('-->', i);
      if (e < 0) return null;
      i = e + 3;
      continue;
    }
    if (xml.startsWith('<!', i)) {
      i = skipDeclaration(xml, i);
      continue;
    }
    const m = /^<([^\s/>]+)/.exec(xml.slice(i, i + 200));
    return m ? { start: i, qname: m[1]! } : null;
  }
}

/** The root element of `xml`, skipping the prolog; null when there is none or its start tag is not closed. */
export function xmlRoot(xml: string): XmlRoot | null {
  const found = rootStartTag(xml);
  if (!found) return null;
  const { start, qname } = found;
  const end = startTagEnd(xml, start);
  if (end < 0) return null;
  const colon = qname.indexOf(':');
  const prefix = colon < 0 ? '' : qname.slice(0, colon);
  return {
    qname,
    localName: qname.slice(colon + 1),
    namespace: declaredNamespace(xml.slice(start, end), prefix),
    start,
    end,
    empty: xml.charCodeAt(end - 2) === 47,
  };
}
