/**
 * The mapping of src/dian/spec/ubl-map.ts resolved once per kind: placeholders replaced, the kind's rows kept,
 * paths split into steps and request paths into keys. The builder and the parser walk this plan for every
 * document instead of re-reading the mapping (the same rows, prepared).
 */
import { DIAN_KINDS, type DianKindId } from './kinds.js';
import { UBL_MAP, isGroup, resolvePath, type MapGroup, type MapItem, type MapRow } from './ubl-map.js';

export interface PlanRow {
  readonly kind: 'row';
  readonly row: MapRow;
  /** Element steps below the scope (empty: the scope element itself). */
  readonly steps: readonly string[];
  /** Steps of the element's parent (for calculations that read siblings). */
  readonly parentSteps: readonly string[];
  readonly attribute: string | undefined;
  /** Request field keys below the scope value, for `field` sources. */
  readonly field?: readonly string[];
  readonly ctx?: readonly string[];
  readonly ifPath?: readonly string[];
  readonly unlessPath?: readonly string[];
  /** The source's kind, decided once. */
  readonly source: 'field' | 'ctx' | 'lit' | 'index' | 'calc';
  /** The field's dotted path (for issue paths). */
  readonly fieldKey?: string;
}

export interface PlanGroup {
  readonly kind: 'group';
  readonly group: MapGroup;
  readonly shared: readonly string[];
  readonly name: string;
  /** Keys of the request path of the items, or null: one element for the scope itself. */
  readonly each: readonly string[] | null;
  /** The dotted form of `each`, for issue paths. */
  readonly eachKey: string | null;
  readonly items: readonly PlanItem[];
  readonly sub?: PlanGroup;
  readonly pairsAt?: readonly string[];
  readonly pairs?: readonly (readonly [string, readonly string[]])[];
  readonly ifPath?: readonly string[];
  readonly groupBy?: readonly string[];
}

export type PlanItem = PlanRow | PlanGroup;

const cache = new Map<DianKindId, readonly PlanItem[]>();

const steps = (path: string): string[] => path.split('/').filter((s) => s !== '');
const keys = (path: string | undefined): string[] | undefined => (path === undefined ? undefined : path.split('.'));

/** The plan of `kind`: its rows of the mapping, resolved. */
export function planFor(kindId: DianKindId): readonly PlanItem[] {
  const hit = cache.get(kindId);
  if (hit) return hit;
  const kind = DIAN_KINDS[kindId];
  const compile = (items: readonly MapItem[]): PlanItem[] => {
    const out: PlanItem[] = [];
    for (const item of items) {
      if (item.kinds && !item.kinds.includes(kindId)) continue;
      out.push(isGroup(item) ? compileGroup(item) : compileRow(item));
    }
    return out;
  };
  const compileRow = (row: MapRow): PlanRow => {
    const [path, attribute] = resolvePath(row.at, kind).split('@') as [string, string | undefined];
    const s = steps(path);
    const from = row.from;
    return {
      kind: 'row',
      row,
      steps: s,
      parentSteps: s.slice(0, -1),
      attribute,
      field: 'field' in from ? keys(from.field) : undefined,
      ctx: 'ctx' in from ? keys(from.ctx) : undefined,
      ifPath: keys(row.if),
      unlessPath: keys(row.unless),
      source: 'field' in from ? 'field' : 'ctx' in from ? 'ctx' : 'lit' in from ? 'lit' : 'index' in from ? 'index' : 'calc',
      fieldKey: 'field' in from ? from.field : undefined,
    };
  };
  const compileGroup = (g: MapGroup): PlanGroup => {
    const s = steps(resolvePath(g.group, kind));
    const eachKey = g.each === null ? null : resolvePath(g.each, kind);
    return {
      kind: 'group',
      group: g,
      shared: s.slice(0, -1),
      name: s.at(-1)!,
      each: eachKey === null ? null : eachKey.split('.'),
      eachKey,
      items: compile(g.rows),
      sub: g.sub ? compileGroup(g.sub) : undefined,
      pairsAt: g.pairs ? steps(g.pairs.at) : undefined,
      pairs: g.pairs ? g.pairs.list.map(([label, f]) => [label, f.split('.')] as const) : undefined,
      ifPath: keys(g.if),
      groupBy: keys(g.groupBy),
    };
  };
  const plan = compile(UBL_MAP);
  cache.set(kindId, plan);
  return plan;
}
