/**
 * Table-driven XML reader: the inverse of render. Elements are matched by name under their parent (order is
 * the XSD's job), arrays are decided by the table's maxOccurs (one `Item` is still an array), and values are
 * converted back to their canonical JSON kinds. XML parsing uses @xmldom/xmldom, which does not resolve
 * external entities or expand DTD-declared entities.
 */
import { EcfError } from '../../shared/errors/ecf-error.js';
import type { Element } from '@xmldom/xmldom';
import type { Issue } from '../../shared/issues.js';
import { parseXmlStrictly } from '../../shared/xml/strict-parser.js';
import { COUNTRY_NAMES } from '../spec/countries.gen.js';
import type { DocTable } from '../spec/model.js';
import { xmlTree, type XmlNode } from '../spec/tree.js';

const COUNTRY_CODES: Record<string, string> = Object.fromEntries(Object.entries(COUNTRY_NAMES).map(([c, n]) => [n.toLowerCase(), c]));

export interface ParsedTree {
  /** Values with source `doc`, shaped as canonical JSON. */
  doc: Record<string, unknown>;
  /** Values with source `issuer`. */
  issuer: Record<string, unknown>;
  /** Values with source `context`, `fixed` or `signature` (by JSON key). */
  context: Record<string, unknown>;
  /** Non-fatal problems (unknown elements, unconvertible values), with XML element paths. */
  issues: Issue[];
  /** True when the root carries a `Signature` element. */
  signed: boolean;
}

export class XmlSyntaxError extends EcfError {
  constructor(message: string) {
    super(message, { code: 'xml_syntax' });
    this.name = 'XmlSyntaxError';
  }
}

/** Parses XML text into a DOM root element, failing on malformed input or a DOCTYPE. */
export function parseXmlRoot(xml: string): Element {
  if (/<!DOCTYPE/i.test(xml)) throw new XmlSyntaxError('DOCTYPE declarations are not accepted');
  const parsed = parseXmlStrictly(xml.replace(/^\uFEFF/, ''), { warnings: 'ignore' });
  if (parsed.thrown !== undefined) throw parsed.thrown; // xmldom's ParseError, as before
  const errors = parsed.problems;
  const root = parsed.doc!.documentElement;
  if (errors.length || !root) throw new XmlSyntaxError(errors[0] ?? 'empty document');
  return root;
}

function childElements(el: Element): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  return out;
}

function localName(el: Element): string {
  return el.localName ?? el.nodeName;
}

/** Text content of a value element. */
function textOf(el: Element): string {
  return el.textContent ?? '';
}

/** Reads the children of `root` against the table's tree for `tipo`. */
export function readTree(table: DocTable, tipo: string, root: Element): ParsedTree {
  const result: ParsedTree = { doc: {}, issuer: {}, context: {}, issues: [], signed: false };
  for (const c of childElements(root)) if (localName(c) === 'Signature') result.signed = true;
  readChildren(xmlTree(table, tipo), root, `/${table.root}`, result.doc, result, true);
  return result;
}

function readChildren(nodes: readonly XmlNode[], el: Element, xpath: string, target: Record<string, unknown>, r: ParsedTree, isRoot = false): void {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const counts = new Map<string, number>();
  for (const c of childElements(el)) {
    const name = localName(c);
    const n = byName.get(name);
    const count = (counts.get(name) ?? 0) + 1;
    counts.set(name, count);
    const cx = `${xpath}/${name}${count > 1 || (n && n.max > 1) ? `[${count}]` : ''}`;
    if (!n) {
      if (isRoot && name === 'Signature') continue;
      r.issues.push({ code: 'unknown_field', path: cx, message: `Elemento no esperado: ${name}.`, severity: 'error' });
      continue;
    }
    if (n.children) {
      if (n.key === null) {
        readChildren(n.children, c, cx, target, r);
      } else {
        const obj: Record<string, unknown> = {};
        readChildren(n.children, c, cx, obj, r);
        if (n.max > 1) ((target[n.key] ??= []) as unknown[]).push(obj);
        else target[n.key] = obj;
      }
      continue;
    }
    const value = convert(n, textOf(c), cx, r);
    if (value === undefined) continue;
    const dest = n.source === 'doc' ? target : n.source === 'issuer' ? r.issuer : n.source === 'derived' ? null : r.context;
    if (!dest) continue;
    if (n.max > 1) ((dest[n.key!] ??= []) as unknown[]).push(value);
    else dest[n.key!] = value;
  }
}

function convert(n: XmlNode, text: string, xpath: string, r: ParsedTree): unknown {
  const bad = (message: string) => {
    r.issues.push({ code: 'invalid_type', path: xpath, message, severity: 'error' });
    return undefined;
  };
  switch (n.jsonKind) {
    case 'amount': {
      const t = text.trim();
      if (!/^[+-]?\d+(\.\d+)?$/.test(t)) return bad(`Monto inválido: "${text}".`);
      return Number(t);
    }
    case 'integer': {
      const t = text.trim();
      if (!/^[+-]?\d+$/.test(t)) return bad(`Entero inválido: "${text}".`);
      return Number(t);
    }
    case 'country': {
      // A name in the table reads back as its ISO code; any other name the XSD accepted (e.g. "USA", which DGII
      // accepts) is kept as written: the JSON takes country names too (issue 15).
      return COUNTRY_CODES[text.trim().toLowerCase()] ?? text;
    }
    default:
      return text;
  }
}

/** Removes empty objects and arrays (an empty `Comprador` reads back as nothing). */
export function pruneEmpty<T>(v: T): T | undefined {
  if (Array.isArray(v)) {
    const arr = v.map((x) => pruneEmpty(x) ?? {});
    return (arr.length ? arr : undefined) as T | undefined;
  }
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const p = pruneEmpty(x);
      if (p !== undefined) out[k] = p;
    }
    return (Object.keys(out).length ? out : undefined) as T | undefined;
  }
  return v;
}
