/**
 * What a DIAN rule's check reads: the document tree, its kind, the names that differ between Invoice,
 * CreditNote and DebitNote, and the day of the check. Plus the small readers the checks share: amounts as exact
 * decimals (null when absent or not a plain decimal, so the rule stays silent and schema validation speaks),
 * dates, the comparison DIAN uses for totals, and element paths with 1-based indices.
 *
 * Pure: no I/O, no clock.
 */
import { parseDec, type Dec } from '../../shared/money/decimal.js';
import { childrenNamed, textAt, type UblNode } from '../ubl/tree.js';
import type { DianDocumentKind } from './kind.js';

export interface DianRuleContext {
  readonly root: UblNode;
  readonly kind: DianDocumentKind;
  /** The day of the check (`yyyy-MM-dd`, Bogotá), or undefined when the caller's value is not a valid date. */
  readonly today: string | undefined;
  /** `cac:LegalMonetaryTotal`, or `cac:RequestedMonetaryTotal` in a DebitNote. */
  readonly totalName: string;
  /** `cac:InvoiceLine`, `cac:CreditNoteLine` or `cac:DebitNoteLine`. */
  readonly lineName: string;
  /** `cbc:InvoicedQuantity`, `cbc:CreditedQuantity` or `cbc:DebitedQuantity`. */
  readonly quantityName: string;
}

/** One place a rule fails: the element path and, optionally, a Spanish detail with the values compared. */
export interface DianRuleHit {
  readonly path: string;
  readonly detail?: string;
}

export function contextOf(root: UblNode, kind: DianDocumentKind, today: string): DianRuleContext {
  const names =
    root.name === 'CreditNote'
      ? { totalName: 'cac:LegalMonetaryTotal', lineName: 'cac:CreditNoteLine', quantityName: 'cbc:CreditedQuantity' }
      : root.name === 'DebitNote'
        ? { totalName: 'cac:RequestedMonetaryTotal', lineName: 'cac:DebitNoteLine', quantityName: 'cbc:DebitedQuantity' }
        : { totalName: 'cac:LegalMonetaryTotal', lineName: 'cac:InvoiceLine', quantityName: 'cbc:InvoicedQuantity' };
  return { root, kind, today: dayNumber(today) === null ? undefined : today, ...names };
}

/** The amount at `path` below `node` as an exact decimal; null when absent or not plain decimal text. */
export function amount(node: UblNode | undefined, path: string): Dec | null {
  const t = textAt(node, path);
  return t === undefined ? null : parseDec(t);
}

/** A path below the root: `/Invoice/cac:LegalMonetaryTotal/cbc:PayableAmount`. */
export function pathOf(ctx: DianRuleContext, ...steps: string[]): string {
  return `/${ctx.root.name}/${steps.join('/')}`;
}

/** Every child named `name` with its 1-based path step (`cac:InvoiceLine[2]`). */
export function indexed(node: UblNode | undefined, name: string): { node: UblNode; step: string }[] {
  return childrenNamed(node, name).map((n, i) => ({ node: n, step: `${name}[${i + 1}]` }));
}

const UNIT = 10n ** 8n;

/**
 * XPath `round()` of an exact decimal: to whole units, a half going up (toward +∞). DIAN's FAU04 compares
 * `round(header) = round(sum of lines)` (dian-protocol.md §11.1), so an amount that differs by less than the
 * rounding of the two sides passes.
 */
export function roundUnits(a: Dec): bigint {
  const shifted = a + UNIT / 2n;
  const q = shifted / UNIT;
  // bigint division truncates toward zero: step down for negatives with a remainder (floor).
  return shifted < 0n && shifted % UNIT !== 0n ? q - 1n : q;
}

/** True when two amounts are equal after XPath `round()` to whole units. */
export function sameRounded(a: Dec, b: Dec): boolean {
  return roundUnits(a) === roundUnits(b);
}

/** Days since 1970-01-01 of a `yyyy-MM-dd` date, or null when the text is not a valid calendar date. */
export function dayNumber(date: string | undefined): number | null {
  const m = date === undefined ? null : /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms / 86_400_000;
}

/**
 * The Bogotá calendar date (UTC−05:00, no daylight saving) of an `xs:dateTime` such as
 * `2019-06-21T19:09:35.993-05:00`. A value without an offset is taken as Bogotá time. Null when unreadable.
 */
export function bogotaDate(dateTime: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/.exec(dateTime);
  if (!m) return null;
  const day = dayNumber(m[1]);
  if (day === null) return null;
  const tz = m[4];
  if (tz === undefined) return m[1]!;
  const offset = tz === 'Z' ? 0 : (tz[0] === '-' ? -1 : 1) * (Number(tz.slice(1, 3)) * 60 + Number(tz.slice(4, 6)));
  // Minutes since the epoch in UTC, then in Bogotá.
  const utc = day * 1440 + Number(m[2]) * 60 + Number(m[3]) - offset;
  const bogota = utc - 300;
  return new Date(Math.floor(bogota / 1440) * 86_400_000).toISOString().slice(0, 10);
}
