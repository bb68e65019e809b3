/**
 * The kernel's `parseDec` scans short texts without a regular expression; it must read every text exactly as the
 * plain regular-expression reading does (the reading it had before, written out here).
 */
import { describe, expect, it } from 'vitest';
import { parseDec, SCALE, type Dec } from '../../../src/shared/money/decimal.js';

/** The plain reading: sign, digits, optional dot and 1–SCALE digits, scaled to a bigint. */
function parseDecPlain(text: string): Dec | null {
  const m = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const frac = m[3] ?? '';
  if (frac.length > SCALE) return null;
  const v = BigInt(m[2]! + frac.padEnd(SCALE, '0'));
  return (m[1] === '-' ? -v : v) as Dec;
}

/** A deterministic pseudo-random generator (no Math.random: reproducible cases). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('parseDec', () => {
  const fixed = [
    '',
    '0',
    '-0',
    '+0',
    '7',
    '-12.345',
    '0.50',
    '1500000.00',
    '9999999.99999999',
    '10000000.00',
    '12345678901234.5',
    '99999999999999999999.12345678',
    '1.123456789',
    '1.',
    '.5',
    '-',
    '+',
    '1e5',
    ' 1',
    '1 ',
    '1,5',
    '١٢',
    '00000001.5',
    '0000000.00000001',
    '-9999999.99999999',
    '+3.25',
    '--1',
    '1.2.3',
    'abc',
    '12a',
    '٣',
    '１',
    '1.00000000',
  ];
  it.each(fixed)('reads %j as the plain reading does', (t) => {
    expect(parseDec(t)).toBe(parseDecPlain(t));
  });

  it('agrees with the plain reading on 20,000 generated texts (digits, signs, dots, lengths around the fast-path bounds)', () => {
    const rnd = lcg(42);
    const alphabet = '0123456789012345678901234567890123456789.-+ e';
    for (let n = 0; n < 20_000; n++) {
      const len = 1 + Math.floor(rnd() * 20);
      let t = '';
      for (let i = 0; i < len; i++) t += alphabet[Math.floor(rnd() * alphabet.length)];
      expect(parseDec(t), t).toBe(parseDecPlain(t));
    }
    for (let n = 0; n < 20_000; n++) {
      const int = String(Math.floor(rnd() * 10 ** Math.floor(rnd() * 12)));
      const frac = String(Math.floor(rnd() * 10 ** 9)).slice(0, Math.floor(rnd() * 10));
      const t = `${rnd() < 0.3 ? '-' : ''}${int}${frac === '' ? '' : `.${frac}`}`;
      expect(parseDec(t), t).toBe(parseDecPlain(t));
    }
  });
});
