/**
 * Reads the official DGII XSDs into plain data: the ordered element tree of each schema and its simple
 * types with their facets. Used only by the generator (scripts/gen-spec.ts); the runtime never reads XSDs.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOMParser, type Element } from '@xmldom/xmldom';

const XS = 'http://www.w3.org/2001/XMLSchema';

export interface XsdElement {
  name: string;
  /** Slash path from the root element, root included: `ECF/Encabezado/IdDoc/TipoeCF`. */
  path: string;
  type: string | null;
  min: number;
  max: number;
  children: XsdElement[] | null;
  /** Trailing `xs:any` (the signature slot): its minOccurs, or null when absent. */
  anyMin: number | null;
}

export interface XsdFacets {
  base: string;
  enumeration?: string[];
  pattern?: string[];
  minLength?: number;
  maxLength?: number;
  length?: number;
  minInclusive?: string;
  maxInclusive?: string;
  minExclusive?: string;
  maxExclusive?: string;
  totalDigits?: number;
  fractionDigits?: number;
}

export interface XsdFile {
  file: string;
  sha256: string;
  root: XsdElement;
  simpleTypes: Record<string, XsdFacets>;
}

function elementChildren(el: Element): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  return out;
}

function local(el: Element): string {
  return el.localName ?? el.nodeName.replace(/^.*:/, '');
}

function occurs(v: string | null, dflt: number): number {
  if (v === null || v.trim() === '') return dflt;
  return v.trim() === 'unbounded' ? Number.POSITIVE_INFINITY : Number(v.trim());
}

function readElement(el: Element, parentPath: string): XsdElement {
  const name = el.getAttribute('name')!.trim();
  const path = parentPath ? `${parentPath}/${name}` : name;
  const node: XsdElement = {
    name,
    path,
    type: el.getAttribute('type')?.trim() || null,
    min: occurs(el.getAttribute('minOccurs'), 1),
    max: occurs(el.getAttribute('maxOccurs'), 1),
    children: null,
    anyMin: null,
  };
  const ct = elementChildren(el).find((c) => local(c) === 'complexType');
  if (ct) {
    const seq = elementChildren(ct).find((c) => local(c) === 'sequence');
    if (!seq) throw new Error(`${path}: complexType without sequence`);
    node.children = [];
    for (const c of elementChildren(seq)) {
      if (local(c) === 'element') node.children.push(readElement(c, path));
      else if (local(c) === 'any') node.anyMin = occurs(c.getAttribute('minOccurs'), 1);
      else throw new Error(`${path}: unsupported particle ${local(c)}`);
    }
  }
  return node;
}

function readSimpleType(st: Element): XsdFacets {
  const r = elementChildren(st).find((c) => local(c) === 'restriction');
  if (!r) throw new Error(`simpleType ${st.getAttribute('name')} without restriction`);
  const f: XsdFacets = { base: r.getAttribute('base')!.replace(/^xs:/, '') };
  for (const c of elementChildren(r)) {
    const k = local(c);
    const v = c.getAttribute('value') ?? '';
    if (k === 'enumeration') (f.enumeration ??= []).push(v);
    else if (k === 'pattern') (f.pattern ??= []).push(v);
    else if (k === 'minLength' || k === 'maxLength' || k === 'length' || k === 'totalDigits' || k === 'fractionDigits') f[k] = Number(v);
    else if (k === 'minInclusive' || k === 'maxInclusive' || k === 'minExclusive' || k === 'maxExclusive') f[k] = v;
    else if (k === 'whiteSpace') continue;
    else throw new Error(`unsupported facet ${k}`);
  }
  return f;
}

export function readXsd(dir: string, file: string): XsdFile {
  const bytes = readFileSync(join(dir, file));
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const doc = new DOMParser().parseFromString(text, 'text/xml');
  const schema = doc.documentElement!;
  if (schema.namespaceURI !== XS) throw new Error(`${file}: not an XML Schema`);
  let root: XsdElement | null = null;
  const simpleTypes: Record<string, XsdFacets> = {};
  for (const c of elementChildren(schema)) {
    if (local(c) === 'element') root = readElement(c, '');
    else if (local(c) === 'simpleType') simpleTypes[c.getAttribute('name')!.trim()] = readSimpleType(c);
  }
  if (!root) throw new Error(`${file}: no root element`);
  return { file, sha256, root, simpleTypes };
}

/** Depth-first list of the tree (document order). */
export function flatten(el: XsdElement): XsdElement[] {
  const out: XsdElement[] = [el];
  for (const c of el.children ?? []) out.push(...flatten(c));
  return out;
}
