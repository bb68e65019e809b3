/**
 * Linear pre-scan of untrusted XML, run before any parser (xmldom, libxml2) sees it (issue 13 item 3).
 *
 * One pass over the string, a handful of counters and a stack as deep as the document may be: no regular
 * expression, no DOM. It refuses what no DGII document can be and what makes parsers and libxml2's schema
 * validation slow or memory-hungry (a text value of 2.3 million `&amp;` took 36 s of XSD validation,
 * quadratic in the count; millions of empty elements or deep nesting 13–16 s and 2.5–3.4 GB):
 *
 * - a DOCTYPE or ENTITY declaration (no entity is ever expanded or fetched; the one place that refuses them);
 * - a text value (all text and CDATA of one element, comments in between included) or an attribute value
 *   longer than the longest value the official XSDs allow (the largest `maxLength`, or `totalDigits` plus
 *   sign and decimal point, over every simple type of the generated field tables: 1,000 characters). A
 *   character or entity reference counts as the one character it stands for, so a value can never hold
 *   more references than that length either;
 * - nesting deeper than the schemas need (the deepest element path of the tables, or of the XMLDSig
 *   `Signature` the documents carry, whichever is deeper);
 * - more elements than the document type can hold (each element's maxOccurs multiplied along its path and
 *   summed, for the root's table, the most over the e-CF types and the relaxed 32 with 10,000 lines), plus
 *   the `Signature`'s elements;
 * - more child elements under one element than any element of the tables can have (the sum of its
 *   children's maxOccurs: 10,000 `Item` under `DetallesItems` of the relaxed 32, and of 33 and 34);
 * - more than {@link MAX_XML_ATTRIBUTES} attributes on one element (libxml2's validation is quadratic in them).
 *
 * It is not a full well-formedness check (what it lets through is parsed, and the parser decides), but an
 * end tag that does not close the open element is refused here as not well-formed.
 */
import { ECF_TABLE } from '../spec/ecf-table.gen.js';
import type { DocTable, Facets } from '../spec/model.js';
import { ACECF_TABLE, ANECF_TABLE, ARECF_TABLE, RFCE_TABLE, SEMILLA_TABLE } from '../spec/other-tables.gen.js';

/** Most attributes (namespace declarations included) one element may carry; e-CF, seeds and ACECF carry a few. */
export const MAX_XML_ATTRIBUTES = 64;

/**
 * The XMLDSig `Signature` is `xs:any` in the DGII schemas, so its text is not bounded by them. Its longest
 * value is the base64 certificate (a few KB for DGII's issuers); 16,384 characters hold a 12 KB DER one.
 */
export const MAX_SIGNATURE_TEXT = 16_384;
/** Depth of `Signature/SignedInfo/Reference/Transforms/Transform`, counted from the Signature, wherever it sits. */
const SIGNATURE_SUBTREE_DEPTH = 5;
/** The same below the document element, where DGII's profile puts it. */
const SIGNATURE_DEPTH = SIGNATURE_SUBTREE_DEPTH + 1;
/** Elements a `Signature` may hold (the verifier refuses more: src/ecf/sign/verify-xml.ts). */
const SIGNATURE_ELEMENTS = 64;

/** Limits of the pre-scan, derived from the generated field tables (src/spec/*.gen.ts). */
export interface XmlLimits {
  /** Longest text or attribute value, in characters (code points; a reference is one). */
  maxValueLength: number;
  /** Deepest element nesting, the document element at depth 1. */
  maxDepth: number;
  /** Most elements, by document element name; `*` for any other root. */
  maxElements: Readonly<Record<string, number>>;
  /** Most child elements of one element (the largest sum of the children's maxOccurs: 10,000 `Item`). */
  maxChildren: number;
  /** Most attributes on one element. */
  maxAttributes: number;
}

function valueLength(f: Facets | undefined): number {
  if (!f) return 0;
  let n = f.maxLength ?? 0;
  if (f.totalDigits !== undefined) n = Math.max(n, f.totalDigits + 2); // sign and decimal point
  for (const e of f.enumeration ?? []) n = Math.max(n, [...e].length);
  return n;
}

function tableLimits(table: DocTable, relaxed: Readonly<Record<string, number>> = {}): { value: number; depth: number; elements: number; children: number } {
  let value = 0;
  let depth = 1;
  const tipos = new Set<string>();
  for (const r of table.rows) for (const k of Object.keys(r.occurs)) tipos.add(k);
  for (const t of Object.values(table.simpleTypes)) value = Math.max(value, valueLength(t));
  for (const variants of Object.values(table.simpleTypeOverrides ?? {})) for (const t of Object.values(variants)) value = Math.max(value, valueLength(t));
  for (const r of table.rows) depth = Math.max(depth, r.xml.split('/').length + 1);
  const byPath = new Map(table.rows.map((r) => [r.xml, r]));
  let elements = 1;
  let children = 0;
  for (const tipo of tipos) {
    const perParent = new Map<string, number>();
    for (const r of table.rows) {
      const occurs = r.occurs[tipo];
      if (!occurs) continue;
      const parent = r.xml.includes('/') ? r.xml.slice(0, r.xml.lastIndexOf('/')) : '';
      const max = Math.max(occurs[1], relaxed[`${tipo}:${r.xml}`] ?? 0);
      perParent.set(parent, (perParent.get(parent) ?? 0) + max);
    }
    for (const c of perParent.values()) children = Math.max(children, c);
    let count = 1;
    for (const r of table.rows) {
      const parts = r.xml.split('/');
      let product = 1;
      for (let i = 1; i <= parts.length && product > 0; i++) {
        const path = parts.slice(0, i).join('/');
        const occurs = byPath.get(path)?.occurs[tipo];
        product *= occurs ? Math.max(occurs[1], relaxed[`${tipo}:${path}`] ?? 0) : 0;
      }
      count += product;
    }
    elements = Math.max(elements, count);
  }
  return { value, depth, elements, children };
}

function deriveLimits(): XmlLimits {
  // The relaxed type 32 (src/ecf/xsd/relax32.ts): up to 10,000 lines and pages.
  const relaxed32 = { '32:DetallesItems/Item': 10_000, '32:Paginacion/Pagina': 10_000 };
  const tables: Array<[string, ReturnType<typeof tableLimits>]> = [
    [ECF_TABLE.root, tableLimits(ECF_TABLE, relaxed32)],
    ...[RFCE_TABLE, ARECF_TABLE, ACECF_TABLE, ANECF_TABLE, SEMILLA_TABLE].map((t) => [t.root, tableLimits(t)] as [string, ReturnType<typeof tableLimits>]),
  ];
  const maxElements: Record<string, number> = {};
  for (const [root, l] of tables) maxElements[root] = l.elements + SIGNATURE_ELEMENTS;
  maxElements['*'] = Math.max(...Object.values(maxElements));
  return {
    maxValueLength: Math.max(...tables.map(([, l]) => l.value)),
    maxDepth: Math.max(SIGNATURE_DEPTH, ...tables.map(([, l]) => l.depth)),
    maxElements,
    maxChildren: Math.max(SIGNATURE_ELEMENTS, ...tables.map(([, l]) => l.children + 1)), // + the Signature
    maxAttributes: MAX_XML_ATTRIBUTES,
  };
}

/** The limits for DGII documents (e-CF, RFCE, ARECF, ACECF, ANECF, seed), derived from the official XSDs. */
export const DGII_XML_LIMITS: XmlLimits = deriveLimits();

/** Why the pre-scan refused a document. `message` is Spanish (it reaches the sender). */
export interface PrescanRefusal {
  code: 'doctype' | 'not_well_formed' | 'value_too_long' | 'too_deep' | 'too_many_elements' | 'too_many_attributes';
  message: string;
  /** Element path where the limit was exceeded, e.g. `/ECF/DetallesItems/Item/NombreItem`. */
  path?: string;
  /** For `not_well_formed`: what is wrong, without the leading sentence. */
  detail?: string;
}

/** Spanish message for a DOCTYPE or ENTITY declaration. */
export const DOCTYPE_MESSAGE = 'El XML no puede contener declaraciones DOCTYPE ni ENTITY (no se admiten DTD ni entidades).';
/** Spanish message for an element with too many attributes. */
export const TOO_MANY_ATTRIBUTES_MESSAGE = `El XML tiene un elemento con más de ${MAX_XML_ATTRIBUTES} atributos.`;

const GT = 0x3e;
const AMP = 0x26;
const SLASH = 0x2f;
const QUOT = 0x22;
const APOS = 0x27;
const EQ = 0x3d;

/**
 * Scans `xml` once and returns why it must be refused, or null when the parser may see it.
 *
 * @example
 * prescanXml(`<ECF><A>${'&amp;'.repeat(2000)}</A></ECF>`)?.message
 * //=> 'El XML excede los límites de los documentos DGII: el valor de /ECF/A tiene más de 1000 caracteres …'
 */
export function prescanXml(xml: string, limits: XmlLimits = DGII_XML_LIMITS): PrescanRefusal | null {
  const n = xml.length;
  const stack: string[] = [];
  /** Child elements seen so far, per open element (index = depth - 1); [0] counts document elements. */
  const children: number[] = [0];
  let maxElements = limits.maxElements['*'] ?? Infinity;
  let elements = 0;
  /** Stack depth of the open XMLDSig Signature, 0 when outside one. */
  let signatureDepth = 0;
  /** Characters of text in the current element since its last child tag. */
  let text = 0;
  const path = (extra?: string) => `/${[...stack, ...(extra ? [extra] : [])].join('/')}`;
  const textLimit = () => (signatureDepth > 0 ? Math.max(limits.maxValueLength, MAX_SIGNATURE_TEXT) : limits.maxValueLength);
  const tooLong = (where: string, what: string): PrescanRefusal => ({
    code: 'value_too_long',
    path: where,
    message: `El XML excede los límites de los documentos DGII: ${what} de ${where} tiene más de ${textLimit()} caracteres (el máximo que permiten los XSD oficiales).`,
  });

  let i = 0;
  while (i < n) {
    const lt = xml.indexOf('<', i);
    const end = lt < 0 ? n : lt;
    // Text up to the next markup: count characters, a reference as one, a surrogate pair as one.
    for (let j = i; j < end; j++) {
      const c = xml.charCodeAt(j);
      if (c >= 0xdc00 && c <= 0xdfff) continue;
      if (c === AMP) {
        const semi = xml.indexOf(';', j);
        if (semi > j && semi < end && semi - j <= 12) j = semi;
      }
      if (++text > textLimit()) return tooLong(path(), 'el valor');
    }
    if (lt < 0) break;
    const next = xml.charCodeAt(lt + 1);
    if (next === 0x21 /* ! */) {
      if (xml.startsWith('<!--', lt)) {
        const close = xml.indexOf('-->', lt + 4);
        i = close < 0 ? n : close + 3;
      } else if (xml.startsWith('<![CDATA[', lt)) {
        const close = xml.indexOf(']]>', lt + 9);
        const stop = close < 0 ? n : close;
        for (let j = lt + 9; j < stop; j++) {
          const c = xml.charCodeAt(j);
          if (c >= 0xdc00 && c <= 0xdfff) continue;
          if (++text > textLimit()) return tooLong(path(), 'el valor');
        }
        i = close < 0 ? n : close + 3;
      } else {
        return { code: 'doctype', message: DOCTYPE_MESSAGE };
      }
      continue;
    }
    if (next === 0x3f /* ? */) {
      const close = xml.indexOf('?>', lt + 2);
      i = close < 0 ? n : close + 2;
      continue;
    }
    if (next === SLASH) {
      const close = xml.indexOf('>', lt + 2);
      const name = xml.slice(lt + 2, close < 0 ? n : close).trimEnd();
      const open = stack[stack.length - 1];
      if (name !== open) {
        // Not well-formed: say so here rather than let a parser go on (xmldom continues after errors).
        const detail = open === undefined ? `</${name}> no cierra ningún elemento` : `se esperaba </${open}> y se encontró </${name}>`;
        return { code: 'not_well_formed', path: path(), detail, message: `El XML no está bien formado: ${detail}.` };
      }
      if (signatureDepth === stack.length) signatureDepth = 0;
      stack.pop();
      children.pop();
      text = 0;
      i = close < 0 ? n : close + 1;
      continue;
    }
    // A start tag: its name, then attributes up to '>' (quoted values may hold '>').
    let j = lt + 1;
    while (j < n) {
      const c = xml.charCodeAt(j);
      if (c === GT || c === SLASH || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) break;
      j++;
    }
    const name = xml.slice(lt + 1, j);
    if (stack.length === 0 && elements === 0) maxElements = limits.maxElements[localName(name)] ?? maxElements;
    if (++elements > maxElements) {
      return {
        code: 'too_many_elements',
        path: path(name),
        message: `El XML excede los límites de los documentos DGII: tiene más de ${maxElements} elementos (el máximo que permiten los XSD oficiales para <${localName(stack[0] ?? name)}>).`,
      };
    }
    const tooDeep = signatureDepth > 0 ? stack.length + 1 - signatureDepth + 1 > SIGNATURE_SUBTREE_DEPTH : stack.length + 1 > limits.maxDepth;
    if (tooDeep) {
      return {
        code: 'too_deep',
        path: path(name),
        message: `El XML excede los límites de los documentos DGII: ${path(name)} está anidado a más de ${limits.maxDepth} niveles (el máximo que requieren los XSD oficiales).`,
      };
    }
    if (++children[stack.length]! > limits.maxChildren) {
      return {
        code: 'too_many_elements',
        path: path(name),
        message: `El XML excede los límites de los documentos DGII: ${path()} tiene más de ${limits.maxChildren} elementos hijos (el máximo que permiten los XSD oficiales).`,
      };
    }
    let attributes = 0;
    let selfClosing = false;
    let quote = 0;
    let value = 0;
    for (; j < n; j++) {
      const c = xml.charCodeAt(j);
      if (quote !== 0) {
        if (c === quote) {
          quote = 0;
          continue;
        }
        if (c >= 0xdc00 && c <= 0xdfff) continue;
        if (c === AMP) {
          const semi = xml.indexOf(';', j);
          if (semi > j && semi - j <= 12) j = semi;
        }
        if (++value > limits.maxValueLength) {
          return tooLong(path(name), `un atributo`);
        }
      } else if (c === QUOT || c === APOS) {
        quote = c;
        value = 0;
      } else if (c === EQ) {
        if (++attributes > limits.maxAttributes) {
          return { code: 'too_many_attributes', path: path(name), message: TOO_MANY_ATTRIBUTES_MESSAGE };
        }
      } else if (c === GT) {
        selfClosing = xml.charCodeAt(j - 1) === SLASH;
        break;
      }
    }
    text = 0;
    i = j + 1;
    if (!selfClosing) {
      stack.push(name);
      children.push(0);
      if (signatureDepth === 0 && localName(name) === 'Signature' && stack.length > 1) signatureDepth = stack.length;
    }
  }
  return null;
}

function localName(qname: string): string {
  const colon = qname.indexOf(':');
  return colon < 0 ? qname : qname.slice(colon + 1);
}
