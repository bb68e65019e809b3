/**
 * Checking and formatting the values that go into a DIAN hash pre-image. Misuse (a negative, non-numeric
 * or floating-point amount, an empty identifier, a badly formed date) throws `EcfError` with code
 * `invalid_argument` and an English message naming the function and the field: the values come from a
 * document the kit built, so a bad one is a programming error, not a document issue.
 */
import { EcfError } from '../../shared/errors/ecf-error.js';
import { parseDecTruncating, toFixed, truncate, type Dec } from '../../shared/money/decimal.js';

/**
 * An amount as exact decimal text with a dot (`"1500000.00"`, `"7"`, `"0.125"`; no sign, no thousands
 * separator) or an exact `Dec` from the kit's calculations. JavaScript numbers are refused: a binary float
 * cannot be truncated reliably (1.15 is stored as 1.1499…).
 */
export type Amount = string | Dec;

/** DIAN's environment, as `ProfileExecutionID` (UBL) or `Ambiente` (payroll): `1` production, `2` habilitación (test). */
export type DianEnvironment = '1' | '2';

/** A code and the exact text it is the SHA-384 of (for tests, debugging and support tickets). */
export interface HashedCode {
  /** SHA-384 of `preimage`, lower-case hex (96 characters). */
  hash: string;
  /** The concatenated input, exactly as hashed. */
  preimage: string;
}

const DECIMAL = /^\d+(?:\.\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

export function invalid(fn: string, message: string): EcfError {
  return new EcfError(`${fn}: ${message}`, { code: 'invalid_argument' });
}

/**
 * An amount checked and read exactly (digits beyond the 8th decimal are dropped: every use truncates to 2).
 * Refuses negative values, non-decimal text and JavaScript numbers.
 */
export function exactAmount(value: unknown, fn: string, field: string): Dec {
  if (typeof value === 'bigint') {
    if (value < 0n) throw invalid(fn, `${field} is negative; the amounts of a code are non-negative totals.`);
    return value as Dec;
  }
  if (typeof value === 'string') {
    if (value.startsWith('-')) throw invalid(fn, `${field} "${value}" is negative; the amounts of a code are non-negative totals.`);
    const dec = DECIMAL.test(value) ? parseDecTruncating(value) : null;
    if (dec === null) {
      throw invalid(fn, `${field} "${value}" is not decimal text (digits with an optional dot and decimals, e.g. "1500000.00").`);
    }
    return dec;
  }
  if (typeof value === 'number') {
    throw invalid(fn, `${field} is a JavaScript number (${value}); pass decimal text such as "${value}" so it is truncated exactly.`);
  }
  throw invalid(fn, `${field} is required (decimal text such as "1500000.00").`);
}

/**
 * The pre-image form of an amount: truncated (never rounded) to 2 decimals, dot separator, no thousands
 * separator (dian-protocol.md §3.1, §12): `1.999` → `1.99`, `10` → `10.00`.
 */
export function hashAmount(value: unknown, fn: string, field: string): string {
  // Decimal text (the amounts read from a document) is truncated as text: the same digits as the exact path.
  if (typeof value === 'string' && DECIMAL.test(value)) return truncatedDecimalText(value);
  return truncatedText(exactAmount(value, fn, field));
}

/**
 * `truncatedText(exactAmount(text))` of non-negative decimal text (`DECIMAL`), done on the digits: leading zeros
 * of the integer part dropped (one kept), the decimals cut or padded to two. `0012.3456` → `12.34`, `7` → `7.00`.
 */
export function truncatedDecimalText(text: string): string {
  const dot = text.indexOf('.');
  const intEnd = dot < 0 ? text.length : dot;
  let start = 0;
  while (start < intEnd - 1 && text.charCodeAt(start) === 48) start++;
  const int = start === 0 && intEnd === text.length ? text : text.slice(start, intEnd);
  if (dot < 0) return `${int}.00`;
  const decimals = text.length - dot - 1;
  return decimals >= 2 ? `${int}.${text.slice(dot + 1, dot + 3)}` : `${int}.${text.slice(dot + 1)}0`;
}

/** An exact decimal truncated to 2 decimals, as text. */
export function truncatedText(value: Dec): string {
  return toFixed(truncate(value, 2), 2);
}

/** An optional amount: absent (undefined or null) is `0.00`. */
export function optionalHashAmount(value: unknown, fn: string, field: string): string {
  return value === undefined || value === null ? '0.00' : hashAmount(value, fn, field);
}

/** A text value taken as is: non-empty, no surrounding whitespace (it would change the hash silently). */
export function hashText(value: unknown, fn: string, field: string): string {
  if (typeof value !== 'string' || value === '') throw invalid(fn, `${field} is required (non-empty text).`);
  if (value.trim() !== value) throw invalid(fn, `${field} "${value}" has surrounding whitespace; pass the value exactly as in the XML.`);
  return value;
}

/** `yyyy-MM-dd`, as `cbc:IssueDate`. */
export function hashDate(value: unknown, fn: string, field: string): string {
  const text = hashText(value, fn, field);
  if (!DATE.test(text)) throw invalid(fn, `${field} "${text}" is not a date yyyy-MM-dd (e.g. 2019-01-16).`);
  return text;
}

/** `HH:mm:ss` with the UTC offset, as `cbc:IssueTime` (`10:53:10-05:00`). */
export function hashTime(value: unknown, fn: string, field: string): string {
  const text = hashText(value, fn, field);
  if (!TIME.test(text)) throw invalid(fn, `${field} "${text}" is not a time HH:mm:ss with its UTC offset, as in the XML (e.g. 10:53:10-05:00).`);
  return text;
}

/** `1` or `2`. */
export function hashEnvironment(value: unknown, fn: string, field = 'environment'): DianEnvironment {
  if (value !== '1' && value !== '2') {
    throw invalid(fn, `${field} must be "1" (production) or "2" (habilitación), got ${typeof value === 'string' ? `"${value}"` : String(value)}.`);
  }
  return value;
}
