/**
 * Inclusive Canonical XML 1.0 without comments (https://www.w3.org/TR/2001/REC-xml-c14n-20010315)
 * over an @xmldom/xmldom 0.9 tree, in one iterative pass: time linear in the size of the document,
 * no recursion (deep nesting cannot overflow the stack), no XPath. Used by the XMLDSig verifier
 * (./verify-xml.ts) and by the signer's general path (./sign-xml.ts).
 *
 * Two node sets of an enveloped-signature profile are supported:
 * - {@link canonicalizeDocument}: the whole document (`Reference URI=""`) minus one element, the
 *   enveloped `Signature` (the enveloped-signature transform);
 * - {@link canonicalizeSubtree}: one element and its descendants (`SignedInfo`), which gets every
 *   namespace declaration in scope and the `xml:*` attributes of its ancestors, as C14N 1.0 says for
 *   the apex of a document subset.
 */
import type { Document, Element, Node } from '@xmldom/xmldom';

const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;
const PROCESSING_INSTRUCTION = 7;
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** Receives the canonical form in pieces (e.g. a hash's `update`, or an array's `push`). */
export type C14nSink = (chunk: string) => void;

/** Collects small pieces into chunks of about 64 KiB before handing them to `sink`. */
export class Writer {
  private buffer = '';
  constructor(private readonly sink: C14nSink) {}
  write(s: string): void {
    this.buffer += s;
    if (this.buffer.length >= 65536) this.flush();
  }
  flush(): void {
    if (this.buffer) this.sink(this.buffer);
    this.buffer = '';
  }
}

/**
 * Canonical form of the whole document without comments, leaving out `exclude` and its subtree
 * (the enveloped `Signature`). Processing instructions outside the document element are kept, each
 * separated from the document element by a line feed, as C14N 1.0 requires.
 *
 * @example
 * canonicalizeDocument(parse('<a b="1" a="2"><c/></a>'), null, (s) => out.push(s)) // out.join('') === '<a a="2" b="1"><c></c></a>'
 */
export function canonicalizeDocument(doc: Document, exclude: Element | null, sink: C14nSink): void {
  const out = new Writer(sink);
  let seenRoot = false;
  for (let n: Node | null = doc.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === ELEMENT) {
      seenRoot = true;
      if (n !== exclude) renderTree(n as Element, new Map([['', '']]), [], exclude, out);
    } else if (n.nodeType === PROCESSING_INSTRUCTION && (n as unknown as { target: string }).target !== 'xml') {
      // xmldom keeps the XML declaration as a processing instruction named `xml`: not part of the infoset
      const pi = renderPi(n);
      out.write(seenRoot ? `\n${pi}` : `${pi}\n`);
    }
  }
  out.flush();
}

/**
 * Canonical form of `element` and its descendants as a document subset: the element carries every
 * namespace in scope (declared on it or on an ancestor) and the `xml:*` attributes it inherits.
 */
export function canonicalizeSubtree(element: Element, sink: C14nSink): void {
  const ancestors: Element[] = [];
  for (let p = element.parentNode; p && p.nodeType === ELEMENT; p = p.parentNode) ancestors.push(p as Element);
  const inScope = new Map<string, string>([['', '']]);
  const xmlAttrs = new Map<string, { name: string; value: string; localName: string }>();
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const attrs = ancestors[i]!.attributes;
    for (let j = 0; j < attrs.length; j++) {
      const a = attrs.item(j)!;
      if (a.namespaceURI === XMLNS_NS) inScope.set(a.prefix ? a.localName! : '', a.value);
      else if (a.namespaceURI === XML_NS) xmlAttrs.set(a.localName!, { name: a.name, value: a.value, localName: a.localName! });
    }
  }
  const inherited: Array<{ kind: 'ns'; prefix: string; uri: string } | { kind: 'xml'; name: string; value: string; localName: string }> = [];
  for (const [prefix, uri] of inScope) if (prefix !== '' || uri !== '') inherited.push({ kind: 'ns', prefix, uri });
  for (const a of xmlAttrs.values()) inherited.push({ kind: 'xml', ...a });
  const out = new Writer(sink);
  renderTree(element, new Map([['', '']]), inherited, null, out);
  out.flush();
}

/** Canonical form of `element`'s subtree as one string (see {@link canonicalizeSubtree}). */
export function canonicalSubtreeString(element: Element): string {
  const parts: string[] = [];
  canonicalizeSubtree(element, (s) => parts.push(s));
  return parts.join('');
}

interface Frame {
  element: Element;
  /** Namespace bindings rendered on the output ancestors (prefix → URI; '' is the default namespace). */
  scope: Map<string, string>;
  /** Next child to visit; undefined before the start tag is written. */
  next: Node | null | undefined;
}

type Inherited = { kind: 'ns'; prefix: string; uri: string } | { kind: 'xml'; name: string; value: string; localName: string };

function renderTree(root: Element, scope: Map<string, string>, inherited: Inherited[], exclude: Element | null, out: Writer): void {
  const stack: Frame[] = [{ element: root, scope, next: undefined }];
  let first = true;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next === undefined) {
      frame.scope = startTag(frame.element, frame.scope, first ? inherited : [], out);
      first = false;
      frame.next = frame.element.firstChild;
    }
    const node = frame.next;
    if (!node) {
      out.write(`</${frame.element.nodeName}>`);
      stack.pop();
      continue;
    }
    frame.next = node.nextSibling;
    switch (node.nodeType) {
      case ELEMENT:
        if (node !== exclude) stack.push({ element: node as Element, scope: frame.scope, next: undefined });
        break;
      case TEXT:
      case CDATA:
        out.write(escapeText((node as unknown as { data: string }).data));
        break;
      case PROCESSING_INSTRUCTION:
        out.write(renderPi(node));
        break;
      default: // comments (without-comments form); entity references do not occur (DOCTYPE refused)
        break;
    }
  }
}

/** Writes the start tag; returns the namespace scope for the element's children. */
function startTag(element: Element, parentScope: Map<string, string>, inherited: Inherited[], out: Writer): Map<string, string> {
  const namespaces: Array<{ prefix: string; uri: string }> = [];
  const attributes: Array<{ name: string; value: string; ns: string; local: string }> = [];
  const declared = new Map<string, string>();
  const xmlSeen = new Set<string>();
  const attrs = element.attributes;
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs.item(i)!;
    if (a.namespaceURI === XMLNS_NS) {
      declared.set(a.prefix ? a.localName! : '', a.value);
    } else {
      const ns = a.namespaceURI ?? '';
      if (ns === XML_NS) xmlSeen.add(a.localName!);
      attributes.push({ name: a.name, value: a.value, ns, local: a.localName ?? a.name });
    }
  }
  for (const h of inherited) {
    if (h.kind === 'ns') {
      if (!declared.has(h.prefix)) declared.set(h.prefix, h.uri);
    } else if (!xmlSeen.has(h.localName)) {
      attributes.push({ name: h.name, value: h.value, ns: XML_NS, local: h.localName });
    }
  }
  let scope = parentScope;
  for (const [prefix, uri] of declared) {
    if (prefix === 'xml') continue;
    if ((parentScope.get(prefix) ?? (prefix === '' ? '' : undefined)) === uri) continue; // superfluous
    if (prefix !== '' && uri === '') continue; // xmlns:p="" (XML 1.1 undeclaration): nothing to render
    namespaces.push({ prefix, uri });
    if (scope === parentScope) scope = new Map(parentScope);
    scope.set(prefix, uri);
  }
  let tag = `<${element.nodeName}`;
  if (namespaces.length > 0) {
    namespaces.sort((a, b) => compare(a.prefix, b.prefix));
    for (const n of namespaces) tag += n.prefix === '' ? ` xmlns="${escapeAttr(n.uri)}"` : ` xmlns:${n.prefix}="${escapeAttr(n.uri)}"`;
  }
  if (attributes.length > 0) {
    attributes.sort((a, b) => compare(a.ns, b.ns) || compare(a.local, b.local));
    for (const a of attributes) tag += ` ${a.name}="${escapeAttr(a.value)}"`;
  }
  out.write(`${tag}>`);
  return scope;
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function renderPi(node: Node): string {
  const { target, data } = node as unknown as { target: string; data: string };
  return data ? `<?${target} ${data}?>` : `<?${target}?>`;
}

const TEXT_SPECIALS = /[&<>\r]/g;
const ATTR_SPECIALS = /[&<"\t\n\r]/g;
const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#xD;' };
const ATTR_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '"': '&quot;', '\t': '&#x9;', '\n': '&#xA;', '\r': '&#xD;' };

export function escapeText(s: string): string {
  return s.replace(TEXT_SPECIALS, (c) => TEXT_ESCAPES[c]!);
}

export function escapeAttr(s: string): string {
  return s.replace(ATTR_SPECIALS, (c) => ATTR_ESCAPES[c]!);
}
