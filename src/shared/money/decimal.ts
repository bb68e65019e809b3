/**
 * Exact decimal arithmetic for money: values are bigints scaled by 10^8. No binary floating point touches an
 * amount; JSON numbers are converted through their shortest decimal text (which is exact for any number
 * written with up to 15 significant digits) and rejected when that text has more decimals than allowed.
 */
export type Dec = bigint & { readonly __dec: unique symbol };

export const SCALE = 8;
const ONE = 10n ** BigInt(SCALE);

export const ZERO = 0n as Dec;

/** Integer digits up to which a text, scaled to SCALE decimals, stays below 10^15 (its double is exact). */
const FAST_INT_DIGITS = 15 - SCALE;
const POW10 = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000];

/**
 * Parses decimal text (`-12.345`, `7`, `0.50`). Returns null when it is not plain decimal notation. A text of at
 * most 7 integer digits (every document amount below ten million, and most above) is scanned once and becomes
 * the bigint through an exact double, with no regular expression or intermediate string; longer texts take the
 * plain reading.
 */
export function parseDec(text: string): Dec | null {
  const n = text.length;
  if (n === 0) return null;
  let i = 0;
  const sign = text.charCodeAt(0);
  if (sign === 45 || sign === 43) i = 1; // '-' or '+'
  const intStart = i;
  let value = 0;
  while (i < n) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    value = value * 10 + c;
    i++;
  }
  const intDigits = i - intStart;
  if (intDigits === 0) return null;
  let fracDigits = 0;
  if (i < n) {
    if (text.charCodeAt(i) !== 46) return null; // '.'
    i++;
    while (i < n) {
      const c = text.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return null;
      value = value * 10 + c;
      fracDigits++;
      i++;
    }
    if (fracDigits === 0 || fracDigits > SCALE) return null;
  }
  if (intDigits > FAST_INT_DIGITS) return parseDecPlain(text);
  const scaled = value * POW10[SCALE - fracDigits]!;
  return BigInt(sign === 45 ? -scaled : scaled) as Dec;
}

/** The plain reading of {@link parseDec}, for texts too long for an exact double. */
function parseDecPlain(text: string): Dec | null {
  const m = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const frac = m[3] ?? '';
  if (frac.length > SCALE) return null;
  const v = BigInt(m[2]! + frac.padEnd(SCALE, '0'));
  return (m[1] === '-' ? -v : v) as Dec;
}

/** Number of decimals written in a decimal text (`1.50` → 2). */
export function decimalsOf(text: string): number {
  const i = text.indexOf('.');
  return i < 0 ? 0 : text.length - i - 1;
}

/**
 * The decimal text of a JSON number: the shortest round-trip form, in plain notation.
 * Returns null for NaN, infinities and numbers JavaScript prints in exponent form (|x| ≥ 1e21 or < 1e-6),
 * which are outside the range of any tax document amount anyway.
 */
export function numberText(n: number): string | null {
  if (!Number.isFinite(n)) return null;
  const s = String(n);
  return /e/i.test(s) ? null : s;
}

export function fromNumber(n: number): Dec | null {
  const t = numberText(n);
  return t === null ? null : parseDec(t);
}

export function fromInt(n: number | bigint): Dec {
  return (BigInt(n) * ONE) as Dec;
}

export const add = (a: Dec, b: Dec): Dec => (a + b) as Dec;
export const sub = (a: Dec, b: Dec): Dec => (a - b) as Dec;
export const neg = (a: Dec): Dec => -a as Dec;
export const abs = (a: Dec): Dec => (a < 0n ? -a : a) as Dec;
export const cmp = (a: Dec, b: Dec): number => (a < b ? -1 : a > b ? 1 : 0);
export const sum = (xs: Iterable<Dec>): Dec => {
  let t = 0n;
  for (const x of xs) t += x;
  return t as Dec;
};

/** a × b, rounded half-up (away from zero) at SCALE decimals. */
export function mul(a: Dec, b: Dec): Dec {
  return divRound(a * b, ONE);
}

/** a ÷ b, rounded half-up at SCALE decimals. */
export function div(a: Dec, b: Dec): Dec {
  if (b === 0n) throw new RangeError('division by zero');
  return divRound(a * ONE, b);
}

function divRound(n: bigint, d: bigint): Dec {
  const neg = n < 0n !== d < 0n;
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  const q = (an * 2n + ad) / (2n * ad);
  return (neg ? -q : q) as Dec;
}

/**
 * Rounds half-up (away from zero) to `decimals` places — the rounding rule tax authorities publish (e.g. 750.5212 → 750.52,
 * 750.5276 → 750.53). The default rounding point for money; `roundHalfEven` and `truncate` are the other named points.
 */
export function round(a: Dec, decimals = 2): Dec {
  const unit = 10n ** BigInt(SCALE - decimals);
  return (divRound(a, unit) * unit) as Dec;
}

/**
 * Rounds half-to-even ("banker's rounding": a tie goes to the even neighbour) to `decimals` places, e.g.
 * 2.125 → 2.12, 2.135 → 2.14, 2.1251 → 2.13. Some tax schemes require it for amounts written in their
 * documents; `round` stays the default.
 */
export function roundHalfEven(a: Dec, decimals = 2): Dec {
  const unit = 10n ** BigInt(SCALE - decimals);
  const neg = a < 0n;
  const an = neg ? -a : a;
  let q = an / unit;
  const twice = (an % unit) * 2n;
  if (twice > unit || (twice === unit && q % 2n === 1n)) q += 1n;
  return ((neg ? -q : q) * unit) as Dec;
}

/**
 * Truncates toward zero to `decimals` places: the digits beyond are dropped, never rounded
 * (1.999 → 1.99, -1.999 → -1.99). For formulas that specify truncated amounts, e.g. inputs of a
 * document hash. Works on the exact decimal, so no binary floating point can turn 1.15 into 1.14.
 */
export function truncate(a: Dec, decimals = 2): Dec {
  const unit = 10n ** BigInt(SCALE - decimals);
  return ((a / unit) * unit) as Dec;
}

/**
 * Parses decimal text like `parseDec`, but drops (truncates) digits beyond SCALE decimals instead of
 * rejecting the text; only for values that are truncated to SCALE decimals or fewer anyway.
 */
export function parseDecTruncating(text: string): Dec | null {
  const m = /^([+-]?\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  return parseDec(m[2] === undefined ? m[1]! : `${m[1]}.${m[2].slice(0, SCALE)}`);
}

/** Fixed notation with exactly `decimals` places (value must already be rounded to them or fewer). */
export function toFixed(a: Dec, decimals = 2): string {
  const r = round(a, decimals);
  const neg = r < 0n;
  const s = (neg ? -r : r).toString().padStart(SCALE + 1, '0');
  const int = s.slice(0, s.length - SCALE);
  const frac = s.slice(s.length - SCALE, s.length - SCALE + decimals);
  return (neg ? '-' : '') + int + (decimals > 0 ? `.${frac}` : '');
}

/** `(\.\d{min}\d*?)0+$`, compiled once per `min`. */
const TRAILING = new Map<number, RegExp>();
function trailingZeros(min: number): RegExp {
  let r = TRAILING.get(min);
  if (!r) {
    r = new RegExp(`(\\.\\d{${min}}\\d*?)0+$`);
    TRAILING.set(min, r);
  }
  return r;
}

/** Plain text with at least `min` and at most `max` decimals, trailing zeros beyond `min` removed. */
export function toText(a: Dec, min: number, max: number): string {
  let s = toFixed(a, max);
  if (max > min) s = s.replace(trailingZeros(min), '$1');
  return s.endsWith('.') ? s.slice(0, -1) : s;
}

/** Back to a JSON number (exact for values with up to 15 significant digits). */
export function toNumber(a: Dec): number {
  return Number(toText(a, 0, SCALE));
}
