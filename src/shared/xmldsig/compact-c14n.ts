/**
 * Fast path: canonical XML (C14N 1.0) of the compact form ecf-kit's XML builder writes, computed
 * at string level instead of through a DOM, and the signed document written as the input's own
 * bytes.
 *
 * The subset: an optional `<?xml version="1.0" encoding="utf-8"?>` declaration, then the document
 * element; elements written `<Name>`, `</Name>` or `<Name/>` with ASCII names, no prefixes, no
 * attributes, no namespaces; text without control characters, CDATA or character references,
 * escaped only with the five predefined entities; nothing but whitespace around the document
 * element. Any other input returns `null` and takes the general path.
 *
 * Whitespace-only text (indentation, line breaks, also before and after the document element) is
 * dropped, as profiles with `preserveWhitespace = false` require; everything else is kept
 * byte for byte in the output. For this subset C14N is then: drop the declaration; write `<a/>` as
 * `<a></a>`; in text keep `&amp;` `&lt;`, write `>` as `&gt;`, replace `&quot;` / `&apos;` with
 * the literal characters, and `\r\n` / `\r` with `\n` (XML end-of-line handling; the output keeps
 * the line breaks as written, since every parser reads them as `\n`).
 */

/** A compact document, scanned and canonicalised. */
export interface CompactDocument {
  /** Name of the document element. */
  rootName: string;
  /** C14N 1.0 (without comments) of the document element, whitespace-only text dropped. */
  canonical: string;
  /** Names of the document element's child elements, in order. */
  childNames: string[];
  /**
   * The document as it will be written: the input text exactly (declaration, entity references,
   * `<a/>` / `<a></a>` as written), minus whitespace-only text. Ends with the root's end tag.
   */
  text: string;
  /** True when whitespace-only text was dropped, i.e. `text` differs from the input. */
  droppedWhitespace: boolean;
}

const DECLARATION = /^<\?xml version="1\.0"(?: encoding="(?:utf-8|UTF-8)")?(?: standalone="(?:yes|no)")?\?>/;
const TAG = /<(\/?)([A-Za-z_][A-Za-z0-9_.-]*)(\/?)>/y;
const NEEDS_WORK = /[&>\r\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;
const NOT_IN_SUBSET = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|]]>/;
const WHITESPACE_ONLY = /^[ \t\r\n]+$/;
const TEXT_TOKEN = /&(?:(amp|lt|gt|quot|apos);)?|>|\r\n?/g;

/**
 * Scans `xml` and returns its canonical form and output text when it is in the compact subset,
 * else `null`.
 *
 * @example
 * scanCompact('<?xml version="1.0" encoding="utf-8"?><ECF><A>&quot;x&quot;</A><B/></ECF>')?.canonical
 * //=> '<ECF><A>"x"</A><B></B></ECF>'
 */
export function scanCompact(xml: string): CompactDocument | null {
  let pos = 0;
  if (xml.startsWith('<?')) {
    const m = DECLARATION.exec(xml);
    if (!m) return null;
    pos = m[0].length;
  }
  const stack: string[] = [];
  const childNames: string[] = [];
  /** [start, end) ranges of whitespace-only text, dropped from the output. */
  const dropped: number[] = [];
  let canonical = '';
  let rootName = '';
  const length = xml.length;

  while (pos < length) {
    const lt = xml.indexOf('<', pos);
    if (lt !== pos) {
      const end = lt === -1 ? length : lt;
      const raw = xml.slice(pos, end);
      if (WHITESPACE_ONLY.test(raw)) {
        dropped.push(pos, end);
      } else {
        if (stack.length === 0) return null;
        const text = canonicalText(raw);
        if (text === null) return null;
        canonical += text;
      }
      pos = end;
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
      canonical += `</${name}>`;
      continue;
    }
    if (rootName === '') rootName = name;
    else if (stack.length === 1) childNames.push(name);
    if (selfClosing) {
      if (stack.length === 0) return null; // an empty document element: not worth a special case
      canonical += `<${name}></${name}>`;
    } else {
      canonical += `<${name}>`;
      stack.push(name);
    }
  }
  if (rootName === '' || stack.length !== 0) return null;
  return { rootName, canonical, childNames, text: dropped.length ? without(xml, dropped) : xml, droppedWhitespace: dropped.length > 0 };
}

/**
 * Writes the signed document: the document's text with `signature` inserted right before the end
 * tag of the document element. Nothing else changes.
 */
export function serializeWithSignature(doc: CompactDocument, signature: string): string {
  const at = doc.text.length - doc.rootName.length - 3;
  return doc.text.slice(0, at) + signature + doc.text.slice(at);
}

/**
 * Appends `<name>text</name>` as the last child of the document element, in the canonical form and
 * in the output text (`text` must need no escaping).
 */
export function appendChildElement(doc: CompactDocument, name: string, text: string): CompactDocument {
  const element = `<${name}>${text}</${name}>`;
  const closeLength = doc.rootName.length + 3;
  const insert = (s: string) => s.slice(0, s.length - closeLength) + element + s.slice(s.length - closeLength);
  return { ...doc, canonical: insert(doc.canonical), text: insert(doc.text), childNames: [...doc.childNames, name] };
}

function without(xml: string, ranges: number[]): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < ranges.length; i += 2) {
    out += xml.slice(from, ranges[i]);
    from = ranges[i + 1]!;
  }
  return out + xml.slice(from);
}

function canonicalText(text: string): string | null {
  if (!NEEDS_WORK.test(text)) return text;
  if (NOT_IN_SUBSET.test(text)) return null;
  let valid = true;
  const out = text.replace(TEXT_TOKEN, (token, entity: string | undefined) => {
    if (token === '>') return '&gt;';
    if (token[0] === '\r') return '\n'; // XML end-of-line handling: a parser reads \r\n and \r as \n
    if (entity === undefined) valid = false;
    else if (entity === 'quot') return '"';
    else if (entity === 'apos') return "'";
    return token;
  });
  return valid ? out : null;
}
