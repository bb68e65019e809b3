/** The two named points besides half-up `round`: truncation (hash inputs) and half-to-even rounding (written amounts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromNumber, parseDec, parseDecTruncating, round, roundHalfEven, SCALE, toFixed, truncate, type Dec } from '../../../src/shared/money/decimal.js';

const d = (text: string): Dec => parseDec(text)!;

describe('truncate (toward zero, never rounds)', () => {
  it.each([
    ['1.999', '1.99'],
    ['10', '10.00'],
    ['0', '0.00'],
    ['0.009', '0.00'],
    ['1500000.005', '1500000.00'],
    ['99.99999999', '99.99'],
    ['2.675', '2.67'],
    ['-1.999', '-1.99'],
    ['-0.001', '0.00'],
    ['12.3', '12.30'],
  ])('%s → %s', (input, out) => {
    expect(toFixed(truncate(d(input)), 2)).toBe(out);
  });

  it('differs from round where round goes up', () => {
    expect(toFixed(round(d('1.999')))).toBe('2.00');
    expect(toFixed(truncate(d('1.999')))).toBe('1.99');
  });

  it('works on the exact decimal: 1.15 stays 1.15 (a float path gives 1.14)', () => {
    expect(Math.floor(1.15 * 100) / 100).toBe(1.14); // what truncating a binary float does
    expect(toFixed(truncate(fromNumber(1.15)!))).toBe('1.15');
    expect(toFixed(truncate(fromNumber(4.35)!))).toBe('4.35');
  });

  it('to other precisions', () => {
    expect(truncate(d('1.23456'), 4)).toBe(d('1.2345'));
    expect(truncate(d('12.99'), 0)).toBe(d('12'));
  });

  it('never moves a value away from zero and keeps it within one unit of the last place', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (v) => {
        const a = v as Dec;
        const t = truncate(a, 2);
        const unit = 10n ** BigInt(SCALE - 2);
        expect(t % unit).toBe(0n);
        const mag = (x: bigint): bigint => (x < 0n ? -x : x);
        expect(t === 0n || t < 0n === a < 0n).toBe(true);
        expect(mag(a) - mag(t)).toBeGreaterThanOrEqual(0n);
        expect(mag(a) - mag(t)).toBeLessThan(unit);
        expect(truncate(t, 2)).toBe(t);
      }),
    );
  });
});

describe('roundHalfEven', () => {
  it.each([
    ['2.125', '2.12'],
    ['2.135', '2.14'],
    ['2.1251', '2.13'],
    ['2.1249', '2.12'],
    ['0.005', '0.00'],
    ['0.015', '0.02'],
    ['-2.125', '-2.12'],
    ['-2.135', '-2.14'],
    ['99.995', '100.00'],
    ['7', '7.00'],
  ])('%s → %s', (input, out) => {
    expect(toFixed(roundHalfEven(d(input)), 2)).toBe(out);
  });

  it('to zero decimals: 0.5 → 0, 1.5 → 2, 2.5 → 2', () => {
    expect(roundHalfEven(d('0.5'), 0)).toBe(d('0'));
    expect(roundHalfEven(d('1.5'), 0)).toBe(d('2'));
    expect(roundHalfEven(d('2.5'), 0)).toBe(d('2'));
  });

  it('agrees with half-up round everywhere except on exact ties', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (v) => {
        const a = v as Dec;
        const unit = 10n ** BigInt(SCALE - 2);
        const tie = (a < 0n ? -a : a) % unit === unit / 2n;
        if (!tie) expect(roundHalfEven(a)).toBe(round(a));
        else expect((roundHalfEven(a) / unit) % 2n === 0n).toBe(true);
      }),
    );
  });
});

describe('parseDecTruncating', () => {
  it('accepts more decimals than SCALE and drops the extra digits', () => {
    expect(parseDec('1.123456789')).toBeNull();
    expect(parseDecTruncating('1.123456789')).toBe(d('1.12345678'));
    expect(parseDecTruncating('-0.999999999')).toBe(d('-0.99999999'));
  });

  it('is parseDec for ordinary text and rejects what parseDec rejects', () => {
    expect(parseDecTruncating('12.50')).toBe(d('12.50'));
    expect(parseDecTruncating('7')).toBe(d('7'));
    for (const bad of ['', '1,5', '1e3', '.5', '5.', 'abc', ' 1']) expect(parseDecTruncating(bad)).toBeNull();
  });
});
