/**
 * Fast path: canonical XML (C14N 1.0) of the compact form ecf-kit's XML builder writes, computed
 * at string level instead of through a DOM.
 *
 * The subset: an optional `<?xml version="1.0" encoding="utf-8"?>` declaration directly followed by
 * the document element; elements written `<Name>`, `</Name>` or `<Name/>` with ASCII names, no
 * prefixes, no attributes, no namespaces; text without whitespace-only nodes, `\r`, control
 * characters, CDATA or character references, escaped only with the five predefined entities;
 * nothing after the document element. Any other input returns `null` and takes the general path.
 *
 * For this subset C14N is: drop the declaration; write `<a/>` as `<a></a>`; in text keep
 * `&amp;` `&lt;`, write `>` as `&gt;`, and replace `&quot;` / `&apos;` with the literal characters.
 */

/** A compact document, scanned and canonicalised. */
export interface CompactDocument {
  /** The XML declaration exactly as written, or `''`. */
  declaration: string;
  /** Name of the document element. */
  rootName: string;
  /** C14N 1.0 (without comments) of the document element. */
  canonical: string;
  /** Names of the document element's child elements, in order. */
  childNames: string[];
  /** Some element has no content: C14N writes it `<a></a>`, the serialised document `<a/>`. */
  hasEmptyElements: boolean;
}

const DECLARATION = /^<\?xml version="1\.0"(?: encoding="(?:utf-8|UTF-8)")?(?: standalone="(?:yes|no)")?\?>/;
const TAG = /<(\/?)([A-Za-z_][A-Za-z0-9_.-]*)(\/?)>/y;
const NEEDS_WORK = /[&>\r\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;
const NOT_IN_SUBSET = /[\r\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|]]>/;
const WHITESPACE_ONLY = /^[ \t\r\n]+$/;
const TEXT_TOKEN = /&(?:(amp|lt|gt|quot|apos);)?|>/g;
const EMPTY_PAIR = /<([A-Za-z_][A-Za-z0-9_.-]*)><\/\1>/g;

/**
 * Scans `xml` and returns its canonical form when it is in the compact subset, else `null`.
 *
 * @example
 * scanCompact('<?xml version="1.0" encoding="utf-8"?><ECF><A>&quot;x&quot;</A><B/></ECF>')?.canonical
 * //=> '<ECF><A>"x"</A><B></B></ECF>'
 */
export function scanCompact(xml: string): CompactDocument | null {
  let pos = 0;
  let declaration = '';
  if (xml.startsWith('<?')) {
    const m = DECLARATION.exec(xml);
    if (!m) return null;
    declaration = m[0];
    pos = declaration.length;
  }
  const stack: string[] = [];
  const childNames: string[] = [];
  let canonical = '';
  let rootName = '';
  let afterStartTag = false;
  let hasEmptyElements = false;
  const length = xml.length;

  while (pos < length) {
    const lt = xml.indexOf('<', pos);
    if (lt !== pos) {
      if (lt === -1 || stack.length === 0) return null;
      const text = canonicalText(xml.slice(pos, lt));
      if (text === null) return null;
      canonical += text;
      afterStartTag = false;
      pos = lt;
      continue;
    }
    if (rootName !== '' && stack.length === 0) return null;
    TAG.lastIndex = pos;
    const m = TAG.exec(xml);
    if (!m) return null;
    const [whole, slash, name, selfClosing] = m as unknown as [string, string, string, string];
    pos += whole.length;
    if (slash) {
      if (selfClosing || stack.pop() !== name) return null;
      if (afterStartTag) hasEmptyElements = true;
      canonical += `</${name}>`;
      afterStartTag = false;
      continue;
    }
    if (rootName === '') rootName = name;
    else if (stack.length === 1) childNames.push(name);
    if (selfClosing) {
      canonical += `<${name}></${name}>`;
      hasEmptyElements = true;
      afterStartTag = false;
    } else {
      canonical += `<${name}>`;
      stack.push(name);
      afterStartTag = true;
    }
  }
  if (rootName === '' || stack.length !== 0) return null;
  return { declaration, rootName, canonical, childNames, hasEmptyElements };
}

/**
 * Writes the signed document: the canonical body with `signature` as the last child of the
 * document element, empty elements self-closed, behind the original declaration. These are the
 * bytes xml-crypto / xmldom serialise for the same document.
 */
export function serializeWithSignature(doc: CompactDocument, signature: string): string {
  const close = `</${doc.rootName}>`;
  let body = doc.canonical.slice(0, doc.canonical.length - close.length) + signature + close;
  if (doc.hasEmptyElements) body = body.replace(EMPTY_PAIR, '<$1/>');
  return doc.declaration + body;
}

/**
 * Appends `<name>text</name>` as the last child of the document element (text must need no escaping).
 */
export function appendChildElement(doc: CompactDocument, name: string, text: string): CompactDocument {
  const close = `</${doc.rootName}>`;
  const head = doc.canonical.slice(0, doc.canonical.length - close.length);
  return {
    ...doc,
    canonical: `${head}<${name}>${text}</${name}>${close}`,
    childNames: [...doc.childNames, name],
  };
}

function canonicalText(text: string): string | null {
  if (!NEEDS_WORK.test(text)) return WHITESPACE_ONLY.test(text) ? null : text;
  if (NOT_IN_SUBSET.test(text)) return null;
  let valid = true;
  const out = text.replace(TEXT_TOKEN, (token, entity: string | undefined) => {
    if (token === '>') return '&gt;';
    if (entity === undefined) valid = false;
    else if (entity === 'quot') return '"';
    else if (entity === 'apos') return "'";
    return token;
  });
  return valid ? out : null;
}
