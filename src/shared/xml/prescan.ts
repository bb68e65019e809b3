/**
 * Linear pre-scan of untrusted XML, run before any parser (xmldom, libxml2) sees it.
 *
 * One pass over the string, a handful of counters and a stack as deep as the document may be: no regular
 * expression, no DOM. Against an {@link XmlLimits} value (the product derives it from its schemas) it refuses
 * what makes parsers and libxml2's schema validation slow or memory-hungry (a text value of millions of
 * `&amp;` makes XSD validation quadratic; millions of empty elements or deep nesting take seconds and gigabytes):
 *
 * - a DOCTYPE or ENTITY declaration (no entity is ever expanded or fetched);
 * - a text value (all text and CDATA of one element, comments in between included) or an attribute value
 *   longer than `maxValueLength`. A character or entity reference counts as the one character it stands for,
 *   so a value can never hold more references than that length either;
 * - nesting deeper than `maxDepth`;
 * - more elements than `maxElements` allows for the document element's name;
 * - more child elements under one element than `maxChildren`;
 * - more than `maxAttributes` attributes on one element (libxml2's validation is quadratic in them).
 *
 * An XMLDSig `Signature` below the document element has its own bounds: its text may be as long as
 * {@link MAX_SIGNATURE_TEXT} (a base64 certificate) and its subtree as deep as `maxSignatureDepth` (default
 * {@link MAX_SIGNATURE_DEPTH}), wherever it sits.
 *
 * It is not a full well-formedness check (what it lets through is parsed, and the parser decides), but an
 * end tag that does not close the open element is refused here as not well-formed.
 *
 * Kernel material: pure, no product's limits or wording; refusal messages are Spanish (they reach the
 * sender), and a product may word the limit messages itself ({@link PrescanMessages}).
 */

/** The kit's default bound on attributes per element (namespace declarations included). */
export const MAX_XML_ATTRIBUTES = 64;

/**
 * An XMLDSig `Signature` is usually `xs:any` in a document schema, so its text is not bounded by it. Its
 * longest value is the base64 certificate (a few KB); 16,384 characters hold a 12 KB DER one.
 */
export const MAX_SIGNATURE_TEXT = 16_384;
/** Depth of `Signature/SignedInfo/Reference/Transforms/Transform`, counted from the Signature, wherever it sits. */
export const MAX_SIGNATURE_DEPTH = 5;

/** Limits of the pre-scan. */
export interface XmlLimits {
  /** Longest text or attribute value, in characters (code points; a reference is one). */
  maxValueLength: number;
  /** Deepest element nesting, the document element at depth 1. */
  maxDepth: number;
  /** Most elements, by document element name; `*` for any other root. */
  maxElements: Readonly<Record<string, number>>;
  /** Most child elements of one element. */
  maxChildren: number;
  /** Most attributes on one element. */
  maxAttributes: number;
  /**
   * Deepest nesting inside an XMLDSig `Signature`, the Signature at depth 1; {@link MAX_SIGNATURE_DEPTH} when
   * absent (plain XMLDSig). An XAdES signature nests its qualifying properties deeper
   * (`Signature/Object/QualifyingProperties/…/CertDigest/DigestMethod` is 9).
   */
  maxSignatureDepth?: number;
}

/** Why the pre-scan refused a document. `message` is Spanish (it reaches the sender). */
export interface PrescanRefusal {
  code: 'doctype' | 'not_well_formed' | 'value_too_long' | 'too_deep' | 'too_many_elements' | 'too_many_attributes';
  message: string;
  /** Element path where the limit was exceeded, e.g. `/Invoice/Lines/Line/Name`. */
  path?: string;
  /** For `not_well_formed`: what is wrong, without the leading sentence. */
  detail?: string;
}

/** Spanish message for a DOCTYPE or ENTITY declaration. */
export const DOCTYPE_MESSAGE = 'El XML no puede contener declaraciones DOCTYPE ni ENTITY (no se admiten DTD ni entidades).';
/** Spanish message for an element with more than {@link MAX_XML_ATTRIBUTES} attributes. */
export const TOO_MANY_ATTRIBUTES_MESSAGE = `El XML tiene un elemento con más de ${MAX_XML_ATTRIBUTES} atributos.`;

/** The Spanish wording of the limit refusals; a product may say whose limits they are. */
export interface PrescanMessages {
  /** `what` is `el valor` (text) or `un atributo`; `path` the element; `limit` the length it exceeds. */
  valueTooLong(what: string, path: string, limit: number): string;
  /** More than `limit` elements in a document whose element is `<root>` (local name). */
  tooManyElements(limit: number, root: string): string;
  /** `path` is nested deeper than `limit`. */
  tooDeep(path: string, limit: number): string;
  /** The element at `path` has more than `limit` child elements. */
  tooManyChildren(path: string, limit: number): string;
  /** An element has more than `limit` attributes. */
  tooManyAttributes(limit: number): string;
}

/** The kit's wording, naming no product. */
export const PRESCAN_MESSAGES: PrescanMessages = {
  valueTooLong: (what, path, limit) => `El XML excede los límites admitidos: ${what} de ${path} tiene más de ${limit} caracteres.`,
  tooManyElements: (limit, root) => `El XML excede los límites admitidos: tiene más de ${limit} elementos (el máximo para <${root}>).`,
  tooDeep: (path, limit) => `El XML excede los límites admitidos: ${path} está anidado a más de ${limit} niveles.`,
  tooManyChildren: (path, limit) => `El XML excede los límites admitidos: ${path} tiene más de ${limit} elementos hijos.`,
  tooManyAttributes: (limit) => `El XML tiene un elemento con más de ${limit} atributos.`,
};

const GT = 0x3e;
const AMP = 0x26;
const SLASH = 0x2f;
const QUOT = 0x22;
const APOS = 0x27;
const EQ = 0x3d;

/**
 * Scans `xml` once and returns why it must be refused under `limits`, or null when the parser may see it.
 *
 * @example
 * const limits = { maxValueLength: 100, maxDepth: 3, maxElements: { '*': 1000 }, maxChildren: 100, maxAttributes: 8 };
 * prescanXml('<a><b><c><d/></c></b></a>', limits)?.message
 * //=> 'El XML excede los límites admitidos: /a/b/c/d está anidado a más de 3 niveles.'
 */
export function prescanXml(xml: string, limits: XmlLimits, messages: PrescanMessages = PRESCAN_MESSAGES): PrescanRefusal | null {
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
    message: messages.valueTooLong(what, where, textLimit()),
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
        message: messages.tooManyElements(maxElements, localName(stack[0] ?? name)),
      };
    }
    const signatureLimit = limits.maxSignatureDepth ?? MAX_SIGNATURE_DEPTH;
    const tooDeep = signatureDepth > 0 ? stack.length + 1 - signatureDepth + 1 > signatureLimit : stack.length + 1 > limits.maxDepth;
    if (tooDeep) {
      return {
        code: 'too_deep',
        path: path(name),
        message: messages.tooDeep(path(name), signatureDepth > 0 ? signatureLimit : limits.maxDepth),
      };
    }
    if (++children[stack.length]! > limits.maxChildren) {
      return {
        code: 'too_many_elements',
        path: path(name),
        message: messages.tooManyChildren(path(), limits.maxChildren),
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
          return { code: 'too_many_attributes', path: path(name), message: messages.tooManyAttributes(limits.maxAttributes) };
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
