/** Which document of the DIAN set an XML text is, from its root element's local name and namespace. */
import { skipDeclaration } from '../../shared/xsd/locate.js';
import { DIAN_SCHEMA_IDS, DIAN_SCHEMA_NAMESPACES, type DianSchemaId } from './schemas.js';

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

/** The root element of `xml`, skipping the prolog (declaration, comments, processing instructions, DOCTYPE). */
export function xmlRoot(xml: string): XmlRoot | null {
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
    if (!m) return null;
    const end = startTagEnd(xml, i);
    if (end < 0) return null;
    const qname = m[1]!;
    const colon = qname.indexOf(':');
    const prefix = colon < 0 ? '' : qname.slice(0, colon);
    const tag = xml.slice(i, end);
    return {
      qname,
      localName: qname.slice(colon + 1),
      namespace: declaredNamespace(tag, prefix),
      start: i,
      end,
      empty: xml.charCodeAt(end - 2) === 47,
    };
  }
}

/**
 * Which schema of the set a document is for: its root element's local name must be one of the documents
 * (`Invoice`, …, `NominaIndividualDeAjuste`) and its namespace that document's. Returns null otherwise (unknown
 * root, or a known name in another namespace).
 */
export function detectDianSchemaId(xml: string): DianSchemaId | null {
  const root = xmlRoot(xml);
  if (!root) return null;
  const id = DIAN_SCHEMA_IDS.find((s) => s === root.localName);
  return id && DIAN_SCHEMA_NAMESPACES[id] === root.namespace ? id : null;
}
