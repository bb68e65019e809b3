/**
 * The short cuts of the code computation give what the general paths give: amounts truncated as text against
 * the exact decimal path, ASCII pre-images hashed byte by byte against TextEncoder's bytes, and a type code that
 * names an Object.prototype property is an unknown type code, not a kind.
 */
import { sha384 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { documentCodeInputs } from '../../../src/dian/codes/from-tree.js';
import { exactAmount, hashAmount, truncatedDecimalText, truncatedText } from '../../../src/dian/codes/inputs.js';
import { sha384Hex } from '../../../src/dian/codes/sha384.js';
import { readUbl } from '../../../src/dian/ubl/read.js';

/** A deterministic pseudo-random generator (reproducible cases). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('truncatedDecimalText', () => {
  const exact = (t: string) => truncatedText(exactAmount(t, 'test', 'amount'));
  it.each(['0', '00', '0.0', '0.001', '7', '10', '1.999', '1.5', '0012.3456', '000', '100.00', '1500000.00', '123456789012345678901234.999999999999'])(
    'cuts %s as the exact decimal path does',
    (t) => {
      expect(truncatedDecimalText(t)).toBe(exact(t));
      expect(hashAmount(t, 'test', 'amount')).toBe(exact(t));
    },
  );

  it('agrees with the exact decimal path on 20,000 generated decimal texts', () => {
    const rnd = lcg(7);
    for (let n = 0; n < 20_000; n++) {
      const zeros = '0'.repeat(Math.floor(rnd() * 3));
      const int = String(Math.floor(rnd() * 10 ** Math.floor(rnd() * 13)));
      const frac = String(Math.floor(rnd() * 10 ** 12)).slice(0, Math.floor(rnd() * 12));
      const t = `${zeros}${int}${frac === '' ? '' : `.${frac}`}`;
      expect(truncatedDecimalText(t), t).toBe(exact(t));
    }
  });

  it('leaves the errors to the exact path: a negative or non-decimal text still throws', () => {
    expect(() => hashAmount('-1.00', 'test', 'amount')).toThrow(/negative/);
    expect(() => hashAmount('1,00', 'test', 'amount')).toThrow(/decimal text/);
    expect(() => hashAmount('+1.00', 'test', 'amount')).toThrow(/decimal text/);
  });
});

describe('sha384Hex', () => {
  it.each(['', 'SETP990000002', 'a'.repeat(300), 'ñandú ÁÉ', '€ and 😀', 'mixed ascii then é'])('hashes %j as the UTF-8 bytes of TextEncoder', (t) => {
    expect(sha384Hex(t)).toBe(bytesToHex(sha384(new TextEncoder().encode(t))));
  });
});

describe('documentCodeInputs type codes', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('reads type code %s as unknown, naming the element', (code) => {
    const xml = `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:InvoiceTypeCode>${code}</cbc:InvoiceTypeCode></Invoice>`;
    const r = readUbl(xml);
    if (!r.ok) throw new Error(r.message);
    const inputs = documentCodeInputs(r.root);
    expect(inputs.ok).toBe(false);
    if (!inputs.ok) expect(inputs).toMatchObject({ path: '/Invoice/cbc:InvoiceTypeCode', message: expect.stringContaining(`"${code}" no es uno de`) });
  });
});
