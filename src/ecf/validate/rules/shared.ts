/**
 * Helpers shared by the business rules: exact decimals from clean JSON values, table lookups (what a type allows),
 * the cached totals calculation, and the tolerance policy (DGII IT §12). Nothing here throws.
 */
import { computeTotals, type ComputedTotals } from '../../calc/totals.js';
import { abs, add, cmp, fromInt, fromNumber, sub, toFixed, ZERO, type Dec } from '../../../shared/money/decimal.js';
import type { Issue } from '../../../shared/issues.js';
import { ECF_TABLE } from '../../spec/ecf-table.gen.js';
import type { EcfType } from '../../spec/model.js';
import { jsonPathFor } from '../../spec/tree.js';
import { ruleIssue, ruleWarning, type CleanDoc } from '../rule.js';

// biome-ignore lint/suspicious/noExplicitAny: a canonical JSON document, already checked against the field table before this point
export type Json = Record<string, any>;

/** A JSON number as an exact decimal; null for anything else. */
export function d(v: unknown): Dec | null {
  return typeof v === 'number' ? fromNumber(v) : null;
}

/** `1234.5` → `"1234.50"`. */
export function fmt(v: Dec): string {
  return toFixed(v, 2);
}

/** Plain objects of an array field (keeps the original index). */
export function entries(v: unknown): Array<[number, Json]> {
  if (!Array.isArray(v)) return [];
  const out: Array<[number, Json]> = [];
  v.forEach((x, i) => {
    if (x && typeof x === 'object' && !Array.isArray(x)) out.push([i, x as Json]);
  });
  return out;
}

export function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const allowedCache = new Map<string, Set<string>>();

/** Whether the type's XSD has the element at JSON path pattern `path` (`items[].cantidad_referencia`). */
export function allows(tipo: EcfType, path: string): boolean {
  let s = allowedCache.get(tipo);
  if (!s) {
    s = new Set();
    for (const row of ECF_TABLE.rows) {
      if (!row.occurs[tipo]) continue;
      const p = jsonPathFor(row, tipo);
      if (p) s.add(p.replace(/\[\]$/, ''));
    }
    allowedCache.set(tipo, s);
  }
  return s.has(path);
}

/** Types whose XSD has the element at `path` with the given minimum occurrence (for data-driven `appliesTo`). */
export function typesWhere(path: string, pred: (min: number) => boolean): EcfType[] {
  const row = ECF_TABLE.rows.find((r) => r.json !== null && r.json.replace(/\[\]$/, '') === path);
  if (!row) return [];
  return (Object.keys(row.occurs) as EcfType[]).filter((t) => pred(row.occurs[t]![0]));
}

/** minOccurs of the element at `path` in the type's XSD; null when the type lacks it. */
export function occursMin(tipo: EcfType, path: string): number | null {
  const row = ECF_TABLE.rows.find((r) => r.json !== null && r.json.replace(/\[\]$/, '') === path);
  const o = row?.occurs[tipo];
  return o ? o[0] : null;
}

/** `totales` key of each `indicador_facturacion`: a line with indicator N needs that key to exist in its type. */
export const INDICATOR_TOTAL: Readonly<Record<number, string>> = {
  0: 'monto_no_facturable',
  1: 'monto_gravado_i1',
  2: 'monto_gravado_i2',
  3: 'monto_gravado_i3',
  4: 'monto_exento',
};

export const INDICATOR_NAME: Readonly<Record<number, string>> = {
  0: 'no facturable',
  1: 'ITBIS tasa 1 (18 %)',
  2: 'ITBIS tasa 2 (16 %)',
  3: 'ITBIS tasa 3 (0 %)',
  4: 'exento',
};

const indicatorsCache = new Map<string, number[]>();

/** Billing indicators a type admits, derived from the `totales` keys its XSD has (44 → [4, 0]; 46 → [3, 0]). */
export function allowedIndicators(tipo: EcfType): number[] {
  let v = indicatorsCache.get(tipo);
  if (!v) {
    v = [1, 2, 3, 4, 0].filter((i) => allows(tipo, `totales.${INDICATOR_TOTAL[i]}`));
    indicatorsCache.set(tipo, v);
  }
  return v;
}

const totalsCache = new WeakMap<object, ComputedTotals>();

/** `computeTotals` once per clean document (several rules read it). */
export function totalsOf(tipo: EcfType, doc: CleanDoc): ComputedTotals {
  let c = totalsCache.get(doc);
  if (!c) totalsCache.set(doc, (c = computeTotals(tipo, doc)));
  return c;
}

/** DGII IT §12 global tolerance: one currency unit per detail line. */
export function documentTolerance(doc: CleanDoc): Dec {
  const n = Array.isArray(doc.items) ? doc.items.length : 0;
  return fromInt(Math.max(1, n));
}

export const LINE_TOLERANCE = fromInt(1);

/**
 * Tolerance policy (docs/validation.md): equal → nothing; different within `tol` → warning (DGII accepts, the
 * document is "cuadrado" within IT §12); beyond `tol` → error with code `totals`.
 */
export function compareAmounts(
  ruleId: string,
  path: string,
  declared: Dec,
  expected: Dec,
  tol: Dec,
  describe: (exp: string, got: string) => string,
): Issue | null {
  if (cmp(declared, expected) === 0) return null;
  const diff = abs(sub(declared, expected));
  const base = describe(fmt(expected), fmt(declared));
  if (cmp(diff, tol) <= 0) {
    return ruleWarning(ruleId, path, `${base} La diferencia (${fmt(diff)}) está dentro de la tolerancia de ±${fmt(tol)} (DGII IT §12).`, {
      expected: fmt(expected),
      received: fmt(declared),
    });
  }
  return ruleIssue(ruleId, path, `${base} La diferencia (${fmt(diff)}) excede la tolerancia de ±${fmt(tol)}.`, 'totals', {
    expected: fmt(expected),
    received: fmt(declared),
  });
}

/** Items as `[index, item]` pairs. */
export function itemsOf(doc: CleanDoc): Array<[number, Json]> {
  return entries(doc.items);
}

/** Σ of a list of optional JSON amounts. */
export function sumOf(values: readonly unknown[]): Dec {
  let s = ZERO;
  for (const v of values) {
    const x = d(v);
    if (x !== null) s = add(s, x);
  }
  return s;
}
