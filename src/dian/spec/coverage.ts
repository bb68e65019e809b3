/**
 * Which request fields the mapping writes, per kind: read from src/dian/spec/ubl-map.ts, so the docs, the
 * round-trip tests and the service's "not written" warnings never drift from what the builder does. Paths are
 * dotted with `*` for array items (`invoice_lines.*.tax_totals.*.percent`).
 */
import type { DianKindId } from './kinds.js';
import { DIAN_KINDS } from './kinds.js';
import { UBL_MAP, isGroup, resolvePath, type MapItem } from './ubl-map.js';
import { DIAN_FIELDS, fieldAt, fieldOn, type FieldDef } from './fields.js';

const cache = new Map<DianKindId, ReadonlySet<string>>();

/** The dotted paths of the request fields the builder writes for `kind` (objects and arrays included). */
export function writtenFields(kind: DianKindId): ReadonlySet<string> {
  const hit = cache.get(kind);
  if (hit) return hit;
  const k = DIAN_KINDS[kind];
  const out = new Set<string>();
  const join = (base: string, p: string) => (base === '' ? p : `${base}.${p}`);
  const addPath = (p: string) => {
    const parts = p.split('.');
    for (let i = 1; i <= parts.length; i++) out.add(parts.slice(0, i).join('.'));
  };
  const walk = (items: readonly MapItem[], base: string, arrays: ReadonlySet<string>) => {
    for (const item of items) {
      if (item.kinds && !item.kinds.includes(kind)) continue;
      if (isGroup(item)) {
        let b = base;
        if (item.each !== null) {
          const each = resolvePath(item.each, k);
          const full = join(base, each);
          b = fieldAt(full)?.type === 'array' ? `${full}.*` : full;
          addPath(item.split !== undefined ? full : b);
        }
        walk(item.rows, b, arrays);
        if (item.pairs) for (const [, f] of item.pairs.list) addPath(join(b, f));
        if (item.sub) walk(item.sub.rows, b, arrays);
        continue;
      }
      const from = item.from;
      if ('field' in from) addPath(join(base, from.field));
      else if ('calc' in from) {
        // Calculations that carry request fields back and forth.
        const carried: Partial<Record<string, string[]>> = {
          documentId: ['number', 'prefix'],
          issueDate: ['date'],
          issueTime: ['time'],
          typeCode: ['document_type_code'],
          referenceScheme: ['algorithm'],
        };
        for (const f of carried[from.calc] ?? []) addPath(join(base, f));
      }
    }
  };
  walk(UBL_MAP, '', new Set());
  // A DebitNote has no type code element; its only type code is implied.
  if (k.root === 'DebitNote') out.add('document_type_code');
  cache.set(kind, out);
  return out;
}

/** The fields of the description that exist on `kind` but are not written to the XML, as dotted paths. */
export function unwrittenFields(kind: DianKindId): string[] {
  const written = writtenFields(kind);
  const out: string[] = [];
  const walk = (defs: readonly FieldDef[], base: string) => {
    for (const d of defs) {
      if (!fieldOn(d, kind)) continue;
      const p = base === '' ? d.key : `${base}.${d.key}`;
      if (!written.has(p)) {
        out.push(p);
        continue;
      }
      if (d.fields) walk(d.fields, d.type === 'array' ? `${p}.*` : p);
    }
  };
  walk(DIAN_FIELDS, '');
  return out;
}

/**
 * The element (and `@attribute`) paths below the root, without positions, where the mapping writes a value taken
 * from the request or the context (not literals, not computed values) for `kind`: the data the description
 * covers (`Invoice/cac:InvoiceLine/cac:Price/cbc:PriceAmount`, `…/cbc:CompanyID@schemeID`). The value says
 * whether the path only repeats a value another path carries (`copy`: written, never read back).
 */
export function dataPaths(kind: DianKindId): ReadonlyMap<string, 'data' | 'copy'> {
  const k = DIAN_KINDS[kind];
  const out = new Map<string, 'data' | 'copy'>();
  const join = (a: string, b: string) => (b === '' ? a : `${a}/${b}`);
  const walk = (items: readonly MapItem[], base: string) => {
    for (const item of items) {
      if (item.kinds && !item.kinds.includes(kind)) continue;
      if (isGroup(item)) {
        const g = join(base, resolvePath(item.group, k));
        walk(item.rows, g);
        if (item.sub) walk(item.sub.rows, join(g, resolvePath(item.sub.group, k)));
        if (item.pairs) out.set(join(g, `${item.pairs.at}/Value`), 'data');
        continue;
      }
      if (!('field' in item.from) && !('ctx' in item.from)) continue;
      const [path, attribute] = resolvePath(item.at, k).split('@') as [string, string | undefined];
      const key = join(base, path) + (attribute ? `@${attribute}` : '');
      if (out.get(key) !== 'data') out.set(key, item.copy ? 'copy' : 'data');
    }
  };
  walk(UBL_MAP, k.root);
  return out;
}
