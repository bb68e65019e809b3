/** Integer intervals: the one place ranges (void ranges, authorised sequences) are merged. Pure. */

/** A closed integer interval [from, to]. */
export interface IntRange {
  from: number;
  to: number;
}

/**
 * Merges closed intervals into sorted, disjoint, non-adjacent ones (`[1,3]` and `[4,6]` become `[1,6]`).
 * The input is not modified; the result holds new objects.
 *
 * @example
 * mergeRanges([{ from: 4, to: 6 }, { from: 1, to: 3 }, { from: 9, to: 9 }]) //=> [{ from: 1, to: 6 }, { from: 9, to: 9 }]
 */
export function mergeRanges(list: readonly IntRange[]): IntRange[] {
  const out: IntRange[] = [];
  for (const r of [...list].sort((a, b) => a.from - b.from)) {
    const last = out[out.length - 1];
    if (last && r.from <= last.to + 1) last.to = Math.max(last.to, r.to);
    else out.push({ from: r.from, to: r.to });
  }
  return out;
}
