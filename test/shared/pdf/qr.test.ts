/**
 * qrMatrix chooses the mask itself (bestMask, on a flat byte matrix) instead of letting uqr try all eight: the
 * symbols must be exactly uqr's own automatic choice, for every error-correction level, short and long texts, byte,
 * alphanumeric and numeric content, and a DIAN-like URL.
 */
import { encode } from 'uqr';
import { describe, expect, it } from 'vitest';
import { qrMatrix, type QrErrorCorrection } from '../../../src/shared/pdf/qr.js';

/** A small deterministic PRNG (mulberry32), so that a failure is reproducible. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABETS = ['abcdefghijklmnopqrstuvwxyzñáéíóú0123456789=&?/:.-_ ', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 $%*+-./:', '0123456789'];
const LEVELS: QrErrorCorrection[] = ['L', 'M', 'Q', 'H'];

function texts(): string[] {
  const next = random(20261125);
  const out = [
    `https://catalogo-vpfe.dian.gov.co/document/searchqr?documentkey=${'a1b2c3d4e5f6'.repeat(8)}`,
    `NumFac: SETP990000101\nFecFac: 2025-03-14\nNitFac: 900373115\nValTolFac: 1190000.00\nCUFE: ${'f'.repeat(96)}`,
  ];
  for (let i = 0; i < 60; i++) {
    const alphabet = ALPHABETS[i % ALPHABETS.length]!;
    const length = 1 + Math.floor(next() * (i % 10 === 0 ? 1200 : 300));
    let t = '';
    for (let j = 0; j < length; j++) t += alphabet[Math.floor(next() * alphabet.length)];
    out.push(t);
  }
  return out;
}

describe('qrMatrix', () => {
  it('gives exactly uqr’s automatically masked symbol', () => {
    let checked = 0;
    const masks = new Set<number>();
    for (const text of texts()) {
      for (const level of LEVELS) {
        for (const minVersion of [1, 8]) {
          const theirs = encode(text, { ecc: level, minVersion, maxVersion: 40, boostEcc: false, border: 0 });
          const ours = qrMatrix(text, level, minVersion);
          expect(ours.version).toBe(theirs.version);
          expect(ours.dark).toEqual(theirs.data);
          masks.add(theirs.maskPattern);
          checked++;
        }
      }
    }
    expect(checked).toBe(62 * 4 * 2);
    expect([...masks].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  }, 120_000);
});
