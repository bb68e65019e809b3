/**
 * XML text → {@link UblNode}: the one way a DIAN UBL file enters the product (inverse parser, hash
 * recomputation, DIAN rules, later the simulator). The text is pre-scanned under DIAN's limits (no DOCTYPE, no
 * entity, bounded values, depth and size), parsed strictly, and turned into canonical names: elements of the
 * namespaces of ./namespaces.ts get their canonical prefix whatever the file wrote; the root keeps its local
 * name; an element of any other namespace keeps the prefix it was written with. Whitespace-only text between
 * child elements is dropped; text of a leaf is kept as written (callers trim where the value is a code).
 *
 * Pure: no I/O. Never throws for bad input: the outcome is a value with a Spanish message.
 */
import type { Element, Node } from '@xmldom/xmldom';
import { parseXmlStrictly, firstProblem } from '../../shared/xml/strict-parser.js';
import { prescanXml, MAX_XML_ATTRIBUTES, type XmlLimits } from '../../shared/xml/prescan.js';
import { PREFIX_OF, ROOT_NAMESPACES } from './namespaces.js';
import type { UblNode } from './tree.js';

/**
 * Limits of a DIAN UBL file. The longest value is an embedded document: an AttachedDocument carries the
 * issuer's signed XML and DIAN's response as CDATA text (a few MB for large invoices); the rest follows
 * UBL's shape (aggregates nest about 10 deep, plus the XAdES signature's 10 levels).
 */
export const DIAN_XML_LIMITS: XmlLimits = {
  maxValueLength: 20_000_000,
  maxDepth: 32,
  maxElements: { '*': 2_000_000 },
  maxChildren: 200_000,
  maxAttributes: MAX_XML_ATTRIBUTES,
  // XAdES-EPES: Signature/Object/QualifyingProperties/SignedProperties/SignedSignatureProperties/
  // SigningCertificate/Cert/CertDigest/DigestMethod is 9 deep; 12 leaves room for DataObjectFormat variants.
  maxSignatureDepth: 12,
};

export type UblReadResult = { ok: true; root: UblNode; namespace: string | null } | { ok: false; message: string };

const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;

/** Reads a UBL document. `root.name` is the root's local name; `namespace` its namespace URI. */
export function readUbl(text: string, limits: XmlLimits = DIAN_XML_LIMITS): UblReadResult {
  // A leading byte-order mark (DIAN's payroll samples have one) is not content.
  const xml = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const refusal = prescanXml(xml, limits);
  if (refusal) return { ok: false, message: refusal.message };
  const parsed = parseXmlStrictly(xml);
  const docEl = parsed.doc?.documentElement;
  if (parsed.problems.length > 0 || !docEl) return { ok: false, message: `El XML no está bien formado: ${firstProblem(parsed, 'documento vacío')}` };
  const namespace = docEl.namespaceURI ?? null;
  const root = convert(docEl, true);
  root.name = docEl.localName ?? docEl.nodeName;
  return { ok: true, root, namespace };
}

/** True when `namespace` is the UBL namespace of the root named `localName`. */
export function isUblRoot(localName: string, namespace: string | null): boolean {
  return ROOT_NAMESPACES[localName] === namespace;
}

function nameOf(e: Element): string {
  const local = e.localName ?? e.nodeName;
  const prefix = e.namespaceURI ? PREFIX_OF.get(e.namespaceURI) : undefined;
  if (prefix) return `${prefix}:${local}`;
  return e.nodeName;
}

function convert(e: Element, isRoot: boolean): UblNode {
  const attrs: [string, string][] = [];
  for (let i = 0; i < e.attributes.length; i++) {
    const a = e.attributes.item(i);
    if (!a) continue;
    // Namespace declarations are the file's business, not the document's values (the root keeps them: a
    // reader may want to know which `sts` namespace was declared).
    if (!isRoot && (a.name === 'xmlns' || a.name.startsWith('xmlns:'))) continue;
    attrs.push([a.name, a.value]);
  }
  const node: UblNode = { name: nameOf(e), attrs, children: [] };
  let text = '';
  let hasText = false;
  for (let c: Node | null = e.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === ELEMENT) node.children.push(convert(c as Element, false));
    else if (c.nodeType === TEXT || c.nodeType === CDATA) {
      text += (c as unknown as { data: string }).data;
      hasText = true;
    }
  }
  if (hasText && (node.children.length === 0 || text.trim() !== '')) node.text = text;
  return node;
}
