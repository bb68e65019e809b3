/**
 * Number formatting for printed documents (product-neutral). Amounts go through the exact decimal helpers
 * (calc/decimal.ts): a JSON number is read through its shortest decimal text and never multiplied or summed as a
 * float. Output uses a comma thousands separator and a point decimal separator (`1,234.50`).
 */
import { fromNumber, parseDec, toFixed, toText, type Dec } from '../money/decimal.js';

/** A JSON number (or decimal text) as an exact decimal; null when absent or not a plain number. */
export function dec(value: unknown): Dec | null {
  if (typeof value === 'number') return fromNumber(value);
  if (typeof value === 'string') return parseDec(value.trim());
  if (typeof value === 'bigint') return parseDec(value.toString());
  return null;
}

function groupThousands(text: string): string {
  const neg = text.startsWith('-');
  const body = neg ? text.slice(1) : text;
  const [int, frac] = body.split('.') as [string, string | undefined];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return (neg ? '-' : '') + grouped + (frac !== undefined ? `.${frac}` : '');
}

/** Money: exactly 2 decimals with thousands separators (`1234.5` → `1,234.50`). */
export function formatMoney(value: unknown): string {
  const d = dec(value);
  return d === null ? String(value ?? '') : groupThousands(toFixed(d, 2));
}

/** A decimal Dec as money. */
export function formatDec(d: Dec): string {
  return groupThousands(toFixed(d, 2));
}

/** Between `min` and `max` decimals (unit prices: 2–4, quantities: 0–2, exchange rates: 2–4). */
export function formatNumber(value: unknown, min: number, max: number): string {
  const d = dec(value);
  return d === null ? String(value ?? '') : groupThousands(toText(d, min, max));
}

/** A percentage rate (`18` → `18%`, `2.5` → `2.5%`). */
export function formatRate(value: unknown): string {
  const d = dec(value);
  return `${d === null ? String(value ?? '') : toText(d, 0, 2)}%`;
}
