/** calc/decimal.ts: exact bigint decimals, half-up rounding (DGII IT §13), no binary floating point drift. */
import { describe, expect, it } from 'vitest';
import {
  add,
  cmp,
  div,
  fromInt,
  fromNumber,
  mul,
  numberText,
  parseDec,
  round,
  sub,
  sum,
  toFixed,
  toNumber,
  toText,
  type Dec,
} from '../../../src/shared/money/decimal.js';

const n = (x: number): Dec => fromNumber(x)!;

describe('round (half-up, away from zero)', () => {
  it.each([
    ['750.5212', '750.52'],
    ['750.5276', '750.53'],
    ['0.005', '0.01'],
    ['0.004', '0.00'],
    ['2.675', '2.68'],
    ['1.005', '1.01'],
    ['-0.005', '-0.01'],
    ['-750.5276', '-750.53'],
    ['99.995', '100.00'],
  ])('%s → %s', (input, out) => {
    expect(toFixed(round(parseDec(input)!))).toBe(out);
  });

  it('is idempotent', () => {
    const r = round(n(750.5276));
    expect(round(r)).toBe(r);
  });

  it('rounds to other precisions', () => {
    expect(toText(round(parseDec('1.23456')!, 4), 0, 4)).toBe('1.2346');
    expect(toFixed(round(parseDec('12.5')!, 0), 0)).toBe('13');
  });
});

describe('no float drift', () => {
  it('0.1 + 0.2 = 0.3 exactly', () => {
    expect(add(n(0.1), n(0.2))).toBe(n(0.3));
    expect(0.1 + 0.2).not.toBe(0.3); // what the decimals avoid
  });

  it('ten times 0.1 is 1', () => {
    expect(sum(Array.from({ length: 10 }, () => n(0.1)))).toBe(fromInt(1));
  });

  it('1.15 × 100 is 115 (float gives 114.99999999999999)', () => {
    expect(toNumber(mul(n(1.15), fromInt(100)))).toBe(115);
  });

  it('19.99 × 3 = 59.97 and 0.07 × 100 = 7', () => {
    expect(toFixed(mul(n(19.99), n(3)))).toBe('59.97');
    expect(toNumber(mul(n(0.07), fromInt(100)))).toBe(7);
  });

  it('1.18 division: 118 / 1.18 = 100; 100 / 3 rounds at 8 decimals', () => {
    expect(div(n(118), n(1.18))).toBe(fromInt(100));
    expect(toText(div(fromInt(100), fromInt(3)), 0, 8)).toBe('33.33333333');
  });

  it('sub and cmp', () => {
    expect(cmp(sub(n(236), n(240)), fromInt(-4))).toBe(0);
    expect(cmp(n(0.01), n(0.001))).toBe(1);
  });
});

describe('conversions', () => {
  it('fromNumber uses the shortest decimal text', () => {
    expect(numberText(0.1)).toBe('0.1');
    expect(toFixed(n(1234.5))).toBe('1234.50');
  });

  it('rejects exponent forms and non-finite numbers', () => {
    expect(fromNumber(1e21)).toBeNull();
    expect(fromNumber(1e-7)).toBeNull();
    expect(fromNumber(Number.NaN)).toBeNull();
    expect(fromNumber(Infinity)).toBeNull();
  });

  it('parseDec rejects non-decimal text', () => {
    expect(parseDec('1,5')).toBeNull();
    expect(parseDec('1e3')).toBeNull();
    expect(parseDec('-12.345')).toBe(-1234500000n);
  });

  it('toNumber round-trips 2-decimal amounts', () => {
    for (const x of [0, 0.01, 0.1, 1.1, 999999.99, 1234567890.12]) expect(toNumber(n(x))).toBe(x);
  });

  it('division by zero throws RangeError (callers guard)', () => {
    expect(() => div(fromInt(1), fromInt(0))).toThrow(RangeError);
  });
});
