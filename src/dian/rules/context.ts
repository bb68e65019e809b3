/**
 * What a DIAN rule's check reads: the document tree, its kind, the names that differ between Invoice,
 * CreditNote and DebitNote, and the day of the check. Plus the small readers the checks share: amounts as exact
 * decimals (null when absent or not a plain decimal, so the rule stays silent and schema validation speaks),
 * dates, the comparison DIAN uses for totals, and element paths with 1-based indices.
 *
 * Pure: no I/O, no clock.
 */
import { parseDec, type Dec } from '../../shared/money/decimal.js';
import { child, childrenNamed, textAt, type UblNode } from '../ubl/tree.js';
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
  /** The document's lines (the root's children named `lineName`), in order: read once for every rule. */
  readonly lines: readonly UblNode[];
  /** The root's first `totalName` child, or undefined. */
  readonly total: UblNode | undefined;
  /** {@link dayNumber} of `today`; null when it is not a valid date. */
  readonly todayDay: number | null;
}

/** One place a rule fails: the element path and, optionally, a Spanish detail with the values compared. */
export interface DianRuleHit {
  readonly path: string;
  readonly detail?: string;
}

const CREDIT_NAMES = { totalName: 'cac:LegalMonetaryTotal', lineName: 'cac:CreditNoteLine', quantityName: 'cbc:CreditedQuantity' } as const;
const DEBIT_NAMES = { totalName: 'cac:RequestedMonetaryTotal', lineName: 'cac:DebitNoteLine', quantityName: 'cbc:DebitedQuantity' } as const;
const INVOICE_NAMES = { totalName: 'cac:LegalMonetaryTotal', lineName: 'cac:InvoiceLine', quantityName: 'cbc:InvoicedQuantity' } as const;

export function contextOf(root: UblNode, kind: DianDocumentKind, today: string): DianRuleContext {
  const names = root.name === 'CreditNote' ? CREDIT_NAMES : root.name === 'DebitNote' ? DEBIT_NAMES : INVOICE_NAMES;
  const todayDay = dayNumber(today);
  return {
    root,
    kind,
    today: todayDay === null ? undefined : today,
    totalName: names.totalName,
    lineName: names.lineName,
    quantityName: names.quantityName,
    lines: childrenNamed(root, names.lineName),
    total: child(root, names.totalName),
    todayDay,
  };
}

/** The amount at `path` below `node` as an exact decimal; null when absent or not plain decimal text. */
export function amount(node: UblNode | undefined, path: string): Dec | null {
  const t = textAt(node, path);
  return t === undefined ? null : parseDec(t);
}

/** The text of `node` (trimmed) as an exact decimal; null when the node is absent, has no text or not plain decimal text. */
export function amountOf(node: UblNode | undefined): Dec | null {
  const t = node?.text;
  return t === undefined ? null : parseDec(t.trim());
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

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The value of the ASCII digits of `text` from `from` to `to` (exclusive); -1 when one is not a digit. */
function digitsAt(text: string, from: number, to: number): number {
  let v = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/**
 * Days since 1970-01-01 of a `yyyy-MM-dd` date, or null when the text is not a valid calendar date (proleptic
 * Gregorian). Years 0000 to 0099 are null: `Date.UTC` reads them as 1900 to 1999, and this function always has.
 */
export function dayNumber(date: string | undefined): number | null {
  if (date === undefined || date.length !== 10 || date.charCodeAt(4) !== 45 || date.charCodeAt(7) !== 45) return null;
  const y = digitsAt(date, 0, 4);
  const mo = digitsAt(date, 5, 7);
  const d = digitsAt(date, 8, 10);
  if (y < 100 || mo < 1 || mo > 12 || d < 1) return null;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (d > (mo === 2 && leap ? 29 : MONTH_DAYS[mo - 1]!)) return null;
  return Date.UTC(y, mo - 1, d) / 86_400_000;
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
