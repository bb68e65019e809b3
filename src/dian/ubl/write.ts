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

const escText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escAttr = (s: string) => escText(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');

/** Writes a document whose root is `root` (named by its local name: `Invoice`, `CreditNote`, …). */
export function writeUbl(root: UblNode): string {
  const ns = ROOT_NAMESPACES[root.name];
  const decl: [string, string][] = ns ? [['xmlns', ns]] : [];
  for (const p of ROOT_PREFIXES) decl.push([`xmlns:${p}`, NS[p]]);
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8" standalone="no"?>'];
  writeNode({ ...root, attrs: [...decl, ...root.attrs.filter(([k]) => k !== 'xmlns' && !k.startsWith('xmlns:'))] }, out);
  return out.join('');
}

/** The children of `node` in schema order (a stable sort by position in the parent's order list). */
export function orderedChildren(node: UblNode): UblNode[] {
  const order = UBL_ORDER[node.name];
  if (!order || node.children.length < 2) return node.children;
  const rank = (n: UblNode) => {
    const i = order.indexOf(n.name);
    return i < 0 ? order.length : i;
  };
  return node.children
    .map((c, i) => [c, rank(c), i] as const)
    .sort((a, b) => a[1] - b[1] || a[2] - b[2])
    .map(([c]) => c);
}

function writeNode(node: UblNode, out: string[]): void {
  out.push('<', node.name);
  for (const [k, v] of node.attrs) out.push(' ', k, '="', escAttr(v), '"');
  const kids = orderedChildren(node);
  if (kids.length === 0 && (node.text === undefined || node.text === '')) {
    // An empty element is written with an end tag: `<ext:ExtensionContent></ext:ExtensionContent>` is the form
    // signers look for, and both forms are the same infoset.
    out.push('></', node.name, '>');
    return;
  }
  out.push('>');
  if (node.text !== undefined) out.push(escText(node.text));
  for (const c of kids) writeNode(c, out);
  out.push('</', node.name, '>');
}
