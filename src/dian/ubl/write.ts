/**
 * {@link UblNode} → XML text, with every element's children in the order of the XSD sequences
 * (src/dian/spec/ubl-order.gen.ts, generated from the official schemas): the builder adds nodes in the order of
 * its mapping, the writer puts them where the schema wants them. Children of the same name keep the order they
 * were added in; content the order table does not know (the lax `ext:ExtensionContent`) keeps its order.
 *
 * The text is compact (no indentation, so no whitespace text the signature would have to carry) and the same
 * tree always gives the same bytes. The root declares the document's default namespace and the UBL and DIAN
 * prefixes DIAN's samples declare there (`ds` and `xades` included, for the signature that follows).
 *
 * Pure: no I/O.
 */
import { UBL_ORDER } from '../spec/ubl-order.gen.js';
import { NS, ROOT_NAMESPACES } from './namespaces.js';
import type { UblNode } from './tree.js';

const ROOT_PREFIXES = ['cac', 'cbc', 'ds', 'ext', 'sts', 'xades', 'xades141', 'xsi'] as const;

const TEXT_SPECIAL = /[&<>]/;
const ATTR_SPECIAL = /[&<>"\t\n\r]/;
const escText = (s: string) => (TEXT_SPECIAL.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : s);
const escAttr = (s: string) =>
  ATTR_SPECIAL.test(s) ? escText(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;') : s;

/**
 * `s` as CDATA sections that a parser reads back as exactly `s`: a `]]>` inside is split across two sections,
 * and a carriage return (which every parser turns into a line feed, CDATA or not) goes as `&#13;` between them.
 */
export function cdataText(s: string): string {
  return `<![CDATA[${s.replace(/]]>/g, ']]]]><![CDATA[>').replace(/\r/g, ']]>&#13;<![CDATA[')}]]>`;
}

/** Options of {@link writeUbl}. */
export interface WriteUblOptions {
  /**
   * Keep every element's children in the order they were added (the caller built them in XSD order): for
   * documents the generated order table does not cover, such as the AttachedDocument.
   */
  keepOrder?: boolean;
  /**
   * The root's default namespace when its name is not a UBL root of ROOT_NAMESPACES (the payroll roots), and the
   * prefixes declared on it instead of the UBL set.
   */
  namespace?: { uri: string; prefixes: readonly (keyof typeof NS)[] };
}

/** Position of each child name in its parent's order list, built once per parent name. */
const RANKS = new Map<string, ReadonlyMap<string, number>>();
function ranksOf(parent: string): ReadonlyMap<string, number> | undefined {
  let r = RANKS.get(parent);
  if (r === undefined) {
    const order = UBL_ORDER[parent];
    if (!order) return undefined;
    r = new Map(order.map((name, i) => [name, i]));
    RANKS.set(parent, r);
  }
  return r;
}

/** Writes a document whose root is `root` (named by its local name: `Invoice`, `CreditNote`, …). */
export function writeUbl(root: UblNode, options: WriteUblOptions = {}): string {
  const ns = options.namespace?.uri ?? ROOT_NAMESPACES[root.name];
  const decl: [string, string][] = ns ? [['xmlns', ns]] : [];
  for (const p of options.namespace?.prefixes ?? ROOT_PREFIXES) decl.push([`xmlns:${p}`, NS[p]]);
  const attrs = [...decl, ...root.attrs.filter(([k]) => k !== 'xmlns' && !k.startsWith('xmlns:'))];
  const top: UblNode =
    root.text === undefined ? { name: root.name, attrs, children: root.children } : { name: root.name, attrs, text: root.text, children: root.children };
  return `<?xml version="1.0" encoding="UTF-8" standalone="no"?>${writeNode(top, options.keepOrder === true)}`;
}

/** The children of `node` in schema order (a stable sort by position in the parent's order list). */
export function orderedChildren(node: UblNode): UblNode[] {
  const kids = node.children;
  if (kids.length < 2) return kids;
  const ranks = ranksOf(node.name);
  if (!ranks) return kids;
  const last = ranks.size;
  // Most nodes are built in order already: check before sorting.
  let sorted = true;
  for (let i = 1; i < kids.length && sorted; i++) sorted = (ranks.get(kids[i - 1]!.name) ?? last) <= (ranks.get(kids[i]!.name) ?? last);
  if (sorted) return kids;
  return kids
    .map((c, i) => [c, ranks.get(c.name) ?? last, i] as const)
    .sort((a, b) => a[1] - b[1] || a[2] - b[2])
    .map(([c]) => c);
}

// String concatenation, not an array joined at the end: V8 builds ropes, and this is the writer's hot path.
function writeNode(node: UblNode, keepOrder: boolean): string {
  let out = `<${node.name}`;
  const attrs = node.attrs;
  for (let i = 0; i < attrs.length; i++) out += ` ${attrs[i]![0]}="${escAttr(attrs[i]![1])}"`;
  // An empty element is written with an end tag: `<ext:ExtensionContent></ext:ExtensionContent>` is the form
  // signers look for, and both forms are the same infoset.
  out += '>';
  if (node.text !== undefined) out += node.cdata ? cdataText(node.text) : escText(node.text);
  const kids = keepOrder ? node.children : orderedChildren(node);
  for (let i = 0; i < kids.length; i++) out += writeNode(kids[i]!, keepOrder);
  return `${out}</${node.name}>`;
}
