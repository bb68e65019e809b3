/**
 * Checks the DIAN mapping (src/dian/spec/ubl-map.ts) against the official XSDs and derives from them the element
 * order the writer follows: for every element the mapping writes children under, the children it writes, in the
 * order of the XSD sequence. Per kind, every path of the mapping is walked from the root: each step must be a
 * child the schema declares there (inside `ext:ExtensionContent`, whose content is lax, DIAN's own
 * `sts:DianExtensions` is checked against DIAN's structures; other extension content is not checked), each value's
 * format must suit the element's UBL data type, and an attribute must be one the element's type declares.
 *
 * Build-time tool (reads files).
 */
import { DIAN_KINDS, DIAN_KIND_IDS, type DianKind } from '../../src/dian/spec/kinds.js';
import { UBL_MAP, isGroup, resolvePath, type MapItem, type ValueFormat } from '../../src/dian/spec/ubl-map.js';
import type { ChildRef, UblSchema } from './ubl-schema.js';

const ROOT_QNAME: Record<string, string> = { Invoice: 'inv:Invoice', CreditNote: 'cn:CreditNote', DebitNote: 'dn:DebitNote' };

/** UBL data types each value format may be written into. */
const FORMAT_TYPES: Record<ValueFormat, readonly string[] | null> = {
  text: null,
  amount: ['udt:AmountType'],
  decimal: ['udt:QuantityType', 'udt:NumericType', 'udt:RateType', 'udt:MeasureType'],
  percent: ['udt:PercentType', 'udt:NumericType'],
  integer: null,
  boolean: ['udt:IndicatorType'],
  date: ['udt:DateType'],
  time: ['udt:TimeType'],
  code2: null,
};

interface Cursor {
  /** Canonical name as the writer sees it (`Invoice` for the root). */
  name: string;
  ref: ChildRef | string | null;
}

export interface UblOrderResult {
  /** Parent element name → the children the mapping writes under it, in XSD order. */
  order: Record<string, string[]>;
  problems: string[];
}

export function deriveUblOrder(schema: UblSchema): UblOrderResult {
  const used = new Map<string, { refs: ChildRef[]; names: Set<string> }>();
  const problems: string[] = [];

  const step = (cur: Cursor, name: string, where: string): Cursor | null => {
    if (cur.ref === null) return { name, ref: null }; // lax content: not checked, no order
    const children = schema.childrenOf(cur.ref as ChildRef);
    const hit = children.find((c) => c.element === name);
    if (!hit) {
      if (cur.name === 'ext:ExtensionContent') {
        if (name === 'sts:DianExtensions') return { name, ref: 'sts:DianExtensions' };
        return { name, ref: null };
      }
      problems.push(`${where}: ${name} is not a child of ${cur.name}`);
      return null;
    }
    const u = used.get(cur.name) ?? { refs: children, names: new Set<string>() };
    u.names.add(name);
    used.set(cur.name, u);
    return { name, ref: hit };
  };

  const walk = (cur: Cursor, path: string, where: string): Cursor | null => {
    let c: Cursor | null = cur;
    for (const s of path.split('/')) {
      if (s === '' || !c) continue;
      c = step(c, s, where);
    }
    return c;
  };

  const check = (items: readonly MapItem[], scope: Cursor, kind: DianKind, where: string) => {
    for (const item of items) {
      if (item.kinds && !item.kinds.includes(kind.id)) continue;
      if (isGroup(item)) {
        const g = resolvePath(item.group, kind);
        const at = walk(scope, g, `${where}/${g}`);
        if (!at) continue;
        check(item.rows, at, kind, `${where}/${g}`);
        if (item.sub) check([item.sub], at, kind, `${where}/${g}`);
        continue;
      }
      const [path, attribute] = resolvePath(item.at, kind).split('@') as [string, string | undefined];
      const at = path === '' ? scope : walk(scope, path, `${where}/${path}`);
      if (!at || at.ref === null || typeof at.ref === 'string') continue;
      if (attribute) {
        const attrs = schema.attributesOf(at.ref).map((a) => a.name);
        if (!attrs.includes(attribute)) problems.push(`${where}/${path}@${attribute}: ${at.name} has no attribute ${attribute}`);
        continue;
      }
      const valueType = schema.valueTypeOf(at.ref);
      if (valueType === null && schema.childrenOf(at.ref).length > 0 && !(item.from && 'lit' in item.from && item.from.lit === '')) {
        problems.push(`${where}/${path}: ${at.name} is an aggregate, not a value`);
        continue;
      }
      const allowed = FORMAT_TYPES[item.format ?? 'text'];
      if (allowed && valueType && !allowed.includes(valueType))
        problems.push(`${where}/${path}: format ${item.format} does not suit ${at.name} (${valueType})`);
    }
  };

  for (const id of DIAN_KIND_IDS) {
    const kind = DIAN_KINDS[id];
    const rootQ = ROOT_QNAME[kind.root]!;
    // The root's children are keyed by the root's local name, as the writer names it.
    const rootCursor: Cursor = { name: kind.root, ref: rootQ };
    check(UBL_MAP, rootCursor, kind, kind.root);
  }

  const order: Record<string, string[]> = {};
  for (const [parent, u] of [...used.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    order[parent] = u.refs.map((r) => r.element).filter((e) => u.names.has(e));
  }
  return { order, problems };
}

/** The committed file's text. */
export function renderUblOrder(order: Record<string, string[]>): string {
  const lines = [
    '// Generated by scripts/dian/gen.ts from the DIAN XSD set and src/dian/spec/ubl-map.ts. Do not edit.',
    '',
    '/** For each element the DIAN mapping writes children under: those children, in the order of its XSD sequence. */',
    'export const UBL_ORDER: Readonly<Record<string, readonly string[]>> = {',
  ];
  for (const [parent, children] of Object.entries(order)) {
    lines.push(`  ${JSON.stringify(parent)}: [${children.map((c) => JSON.stringify(c)).join(', ')}],`);
  }
  lines.push('};', '');
  return lines.join('\n');
}
