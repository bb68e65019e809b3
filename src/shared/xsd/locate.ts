/**
 * Maps libxml2 error positions to element paths.
 *
 * libxml2 reports, for a streamed validation, the parser position (line and column, 1-based, columns in code
 * points) at which it raised the error: just after the start tag of an unexpected element, just after the end tag
 * (or `/>`) of an element whose value or content is wrong. One scan of the same text lists every tag with its
 * offset and element; an error is attributed to the last tag that starts before its position, then checked against
 * the element name libxml2 puts in the message (`Element 'X': …`), walking up to the ancestors if needed.
 *
 * Path format: `/Doc/Items/Item[5]/Code`: element names as written (prefix included, no
 * namespace handling), with a 1-based `[n]` only on elements that have more than one sibling of the same name
 * (so `Item[1]` when there are several items, plain `Item` when there is one). Every path is a valid XPath
 * selecting exactly that element in a document without a default namespace.
 */

interface ElementNode {
  name: string;
  parent: ElementNode | null;
  /** 1-based position among the parent's children of the same name. */
  ordinal: number;
  /** Children counted by name, to know whether an index is needed. */
  counts: Map<string, number> | null;
  line: number;
  column: number;
}

export interface XmlLocator {
  /**
   * Path, line and column (of the element's start tag) for an error at `line`/`column` with `message`.
   * `schemaError`: a validation message (`Element 'X': …`) rather than a well-formedness one.
   */
  locate(line: number, column: number, message: string, schemaError: boolean): { xpath: string | null; line: number | null; column: number | null };
}

/** Scans `text` once (tags only; well-formedness is libxml2's job) and returns a locator. */
export function indexXml(text: string): XmlLocator {
  const tagCp: number[] = [];
  const tagEl: ElementNode[] = [];
  const lineStarts: number[] = [0];

  // Incremental cursor converting UTF-16 indices to code-point offsets and lines (positions only move forward).
  let u16 = 0,
    cp = 0;
  const advance = (to: number) => {
    for (; u16 < to; u16++) {
      const c = text.charCodeAt(u16);
      if (c >= 0xdc00 && c <= 0xdfff && u16 > 0) {
        const p = text.charCodeAt(u16 - 1);
        if (p >= 0xd800 && p <= 0xdbff) continue; // second half of a surrogate pair: same code point
      }
      cp++;
      if (c === 10) lineStarts.push(cp);
    }
  };

  const root: ElementNode = { name: '', parent: null, ordinal: 1, counts: null, line: 0, column: 0 };
  let current = root;
  const n = text.length;
  let i = text.indexOf('<');
  while (i >= 0 && i < n) {
    const next = text.charCodeAt(i + 1);
    let end: number;
    if (next === 63 /* ? */) {
      end = text.indexOf('?>', i + 2);
      end = end < 0 ? n : end + 2;
    } else if (next === 33 /* ! */) {
      if (text.startsWith('<!--', i)) {
        end = text.indexOf('-->', i + 4);
        end = end < 0 ? n : end + 3;
      } else if (text.startsWith('<![CDATA[', i)) {
        end = text.indexOf(']]>', i + 9);
        end = end < 0 ? n : end + 3;
      } else end = skipDeclaration(text, i);
    } else if (next === 47 /* / */) {
      end = text.indexOf('>', i + 2);
      end = end < 0 ? n : end + 1;
      advance(i);
      tagCp.push(cp);
      tagEl.push(current);
      if (current.parent) current = current.parent;
    } else {
      end = tagEnd(text, i + 1);
      let j = i + 1;
      while (j < end && !isNameEnd(text.charCodeAt(j))) j++;
      const name = text.slice(i + 1, j);
      const empty = text.charCodeAt(end - 2) === 47; // '/>'
      advance(i);
      const counts = current.counts ?? (current.counts = new Map());
      const ordinal = (counts.get(name) ?? 0) + 1;
      counts.set(name, ordinal);
      const el: ElementNode = { name, parent: current, ordinal, counts: null, line: lineStarts.length, column: cp - lineStarts[lineStarts.length - 1]! + 1 };
      tagCp.push(cp);
      tagEl.push(el);
      if (!empty) current = el;
    }
    i = text.indexOf('<', end);
  }
  advance(n);

  const pathOf = (el: ElementNode | null): string | null => {
    if (!el || el === root) return null;
    const parts: string[] = [];
    for (let e: ElementNode | null = el; e && e !== root; e = e.parent) {
      const many = (e.parent?.counts?.get(e.name) ?? 1) > 1;
      parts.push(many ? `${e.name}[${e.ordinal}]` : e.name);
    }
    return '/' + parts.reverse().join('/');
  };
  const localName = (q: string) => q.slice(q.lastIndexOf(':') + 1);

  return {
    locate(line, column, message, schemaError) {
      if (line < 1 || line > lineStarts.length || tagCp.length === 0) return { xpath: null, line: line || null, column: column || null };
      const lineStart = lineStarts[line - 1]!;
      const lineEnd = line < lineStarts.length ? lineStarts[line]! : Number.MAX_SAFE_INTEGER;
      // Position of the next unconsumed character; without a column, the end of the line.
      const pos = column > 0 ? lineStart + column - 1 : lineEnd;
      // Last tag starting before `pos`.
      let lo = 0,
        hi = tagCp.length - 1,
        t = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (tagCp[mid]! < pos) {
          t = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      if (t < 0) return { xpath: null, line, column: column || null };
      const wanted = schemaError ? /^Element '(?:\{[^}]*\})?([^']+)'/.exec(message)?.[1] : /(?:tag mismatch: |in tag )([^\s:]+)/.exec(message)?.[1]; // libxml2 parser messages that name the element
      let found: ElementNode | null = null;
      if (wanted) {
        for (let e: ElementNode | null = tagEl[t]!; e && e !== root; e = e.parent) {
          if (localName(e.name) === wanted) {
            found = e;
            break;
          }
        }
        // Not on this tag or its ancestors (unusual column accounting): nearest tag of that name.
        for (let d = 1; !found && d <= 64; d++) {
          for (const k of [t + d, t - d]) {
            if (k >= 0 && k < tagEl.length && localName(tagEl[k]!.name) === wanted) {
              found = tagEl[k]!;
              break;
            }
          }
        }
        if (!found && schemaError) return { xpath: null, line, column: column || null };
        found ??= tagEl[t]!;
      } else {
        // No element named (other well-formedness errors): the element of the tag just read.
        found = tagEl[t]!;
      }
      const xpath = pathOf(found);
      return xpath && found ? { xpath, line: found.line, column: found.column } : { xpath: null, line, column: column || null };
    },
  };
}

function isNameEnd(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 47 || c === 62 || Number.isNaN(c);
}

/** Index just after the `>` closing the start tag beginning at `from`, honouring quoted attribute values. */
function tagEnd(text: string, from: number): number {
  let quote = 0;
  for (let j = from; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (c === 62) return j + 1;
    else if (c === 60) return j; // malformed: a new tag starts
  }
  return text.length;
}

/** Skips `<!DOCTYPE …>` (with an internal subset) or another declaration. */
export function skipDeclaration(text: string, from: number): number {
  let depth = 0,
    quote = 0;
  for (let j = from + 2; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (c === 91) depth++;
    else if (c === 93) depth--;
    else if (c === 62 && depth <= 0) return j + 1;
  }
  return text.length;
}
