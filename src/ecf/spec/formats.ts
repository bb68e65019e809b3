/** Format helpers derived from facets: amount bounds, value formatting, dates. Pure. */
import type { Facets } from './model.js';

export interface AmountBounds {
  decimals: number;
  integerDigits: number;
  /** '0' when negatives are not allowed; null when signed. */
  min: '0' | null;
  exclusiveMin: boolean;
  /** Largest value as text: integerDigits nines, decimals nines. */
  maxText: string;
}

/** Reads the bounds of a decimal simple type from its facets (pattern `[0-9]{1,16}(\.[0-9]{1,2})?`, …). */
export function amountBounds(f: Facets): AmountBounds {
  const decimals = f.fractionDigits ?? 2;
  let integerDigits = (f.totalDigits ?? 18) - decimals;
  // The integer part's quantifier is the one before the decimal point (`[0-9]{1,16}(\.[0-9]{1,2})?`);
  // `[0-9]+(\.[0-9]{2})` has none, so totalDigits − fractionDigits bounds it.
  const head = f.pattern?.[0]?.split(/\\?\./)[0];
  const m = head ? /\{(?:\d+,)?(\d+)\}/.exec(head) : null;
  if (m) integerDigits = Math.min(integerDigits, Number(m[1]));
  const signed = f.pattern?.some((p) => p.includes('[+-]')) ?? false;
  const exclusiveMin = f.minExclusive === '0';
  return {
    decimals,
    integerDigits,
    min: signed ? null : '0',
    exclusiveMin,
    maxText: `${'9'.repeat(integerDigits)}${decimals ? `.${'9'.repeat(decimals)}` : ''}`,
  };
}

const DATE_RE = /^(\d{2})-(\d{2})-(\d{4})$/;
const DATETIME_RE = /^(\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2}):(\d{2})$/;

/** Parses `dd-MM-yyyy` into [y, m, d] when it is a real calendar date (years 1900–2099, as the XSD). */
export function parseDate(s: string): [number, number, number] | null {
  const m = DATE_RE.exec(s);
  if (!m) return null;
  const d = Number(m[1]),
    mo = Number(m[2]),
    y = Number(m[3]);
  if (y < 1900 || y > 2099 || mo < 1 || mo > 12 || d < 1) return null;
  const dim = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d <= dim ? [y, mo, d] : null;
}

/** Parses `dd-MM-yyyy HH:mm:ss`. */
export function parseDateTime(s: string): [number, number, number, number, number, number] | null {
  const m = DATETIME_RE.exec(s);
  if (!m) return null;
  const date = parseDate(`${m[1]}-${m[2]}-${m[3]}`);
  const h = Number(m[4]),
    mi = Number(m[5]),
    se = Number(m[6]);
  if (!date || h > 23 || mi > 59 || se > 59) return null;
  return [...date, h, mi, se];
}

/** Days since 1970-01-01 of a `dd-MM-yyyy` date (for date arithmetic without time zones). */
export function dayNumber(s: string): number | null {
  const p = parseDate(s);
  return p ? Date.UTC(p[0], p[1] - 1, p[2]) / 86_400_000 : null;
}

/** Escapes text for XML content; DGII requires `" & ' < >` as entity references (DT p. 58). */
export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&apos;'));
}
