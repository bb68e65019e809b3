/** The pure-JavaScript SHA-384 (noble) agrees with node:crypto, including on non-ASCII and ill-formed text. */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha384Hex } from '../../../src/dian/codes/sha384.js';

const node = (text: string): string => createHash('sha384').update(text, 'utf8').digest('hex');

describe('sha384Hex', () => {
  it('known vectors: empty text and "abc" (FIPS 180-2)', () => {
    expect(sha384Hex('')).toBe('38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b');
    expect(sha384Hex('abc')).toBe('cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7');
  });

  it('equals node:crypto on random strings (any code point, lone surrogates included)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (s) => {
        expect(sha384Hex(s)).toBe(node(s));
      }),
      { numRuns: 300 },
    );
  });

  it('equals node:crypto across the 111/112-byte padding boundary of the 128-byte block', () => {
    for (let n = 100; n <= 260; n++) {
      const s = 'x'.repeat(n);
      expect(sha384Hex(s), String(n)).toBe(node(s));
    }
  });

  it('is lower-case hex of 96 characters', () => {
    expect(sha384Hex('ñ')).toMatch(/^[0-9a-f]{96}$/);
  });
});
