/**
 * Document totals as a pure calculation over the items (to be completed: see the rules work).
 * `computeTotals(tipo, doc)` returns the `totales` block a document of that type should carry.
 */
import type { EcfType } from '../spec/model.js';

export interface ComputedTotals {
  /** The expected `totales` block (canonical JSON keys, numbers with 2 decimals). */
  totales: Record<string, number>;
}

export function computeTotals(_tipo: EcfType, _doc: Record<string, unknown>): ComputedTotals {
  throw new Error('not implemented yet');
}
