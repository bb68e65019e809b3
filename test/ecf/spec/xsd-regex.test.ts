import { describe, expect, it } from 'vitest';
import { xsdPatternToJs } from '../../../src/ecf/spec/xsd-regex.js';
import { COUNTRY_NAMES } from '../../../src/ecf/spec/countries.gen.js';
import { ECF_TABLE } from '../../../src/ecf/spec/ecf-table.gen.js';

const re = (p: string) => new RegExp(xsdPatternToJs(p), 'u');

describe('xsdPatternToJs', () => {
  it('anchors the whole value', () => {
    expect(re('[0-9]{11}|[0-9]{9}').test('131880738')).toBe(true);
    expect(re('[0-9]{11}|[0-9]{9}').test('1318807389')).toBe(false);
    expect(re('[0-9]{11}|[0-9]{9}').test('x131880738')).toBe(false);
  });

  it('treats ^ and $ outside classes as ordinary characters, as XSD does', () => {
    expect(re('^[a-z]*$').test('abc')).toBe(false);
    expect(re('^[a-z]*$').test('^abc$')).toBe(true);
  });

  it('uses XSD \\w (no punctuation: underscore and hyphen are not word characters)', () => {
    expect(re('\\w+').test('año1')).toBe(true);
    expect(re('\\w+').test('a_b')).toBe(false);
    expect(re('\\w+').test('a-b')).toBe(false);
  });

  it('uses XSD \\s (space, tab, CR, LF only) and . (anything but CR/LF)', () => {
    expect(re('a\\sb').test('a\u00a0b')).toBe(false);
    expect(re('a.b').test('a\nb')).toBe(false);
    expect(re('a.b').test('a-b')).toBe(true);
  });
});

describe('country names', () => {
  const variants = [ECF_TABLE.simpleTypes['Alfa60Type']!, ...Object.values(ECF_TABLE.simpleTypeOverrides?.['Alfa60Type'] ?? {})];

  it('covers the 249 ISO 3166-1 alpha-2 codes', () => {
    expect(Object.keys(COUNTRY_NAMES)).toHaveLength(249);
    expect(COUNTRY_NAMES.DO).toBe('República Dominicana');
    expect(COUNTRY_NAMES.US).toBe('Estados Unidos');
  });

  it('every name satisfies every variant of the XSD country pattern', () => {
    expect(variants.length).toBeGreaterThanOrEqual(2);
    for (const name of Object.values(COUNTRY_NAMES)) {
      for (const v of variants) for (const p of v.jsPattern!) expect(new RegExp(p, 'u').test(name), `${name} vs ${p}`).toBe(true);
    }
  });
});

describe('every generated pattern compiles', () => {
  it('in every table (e-CF, RFCE, ARECF, ACECF, ANECF, Semilla), with the u flag', async () => {
    const others = await import('../../../src/ecf/spec/other-tables.gen.js');
    const tables = [ECF_TABLE, others.RFCE_TABLE, others.ARECF_TABLE, others.ACECF_TABLE, others.ANECF_TABLE, others.SEMILLA_TABLE];
    let n = 0;
    for (const t of tables) {
      const all = [...Object.values(t.simpleTypes), ...Object.values(t.simpleTypeOverrides ?? {}).flatMap((o) => Object.values(o))];
      for (const f of all)
        for (const p of f.jsPattern ?? []) {
          expect(() => new RegExp(p, 'u'), p).not.toThrow();
          n++;
        }
    }
    expect(n).toBeGreaterThan(40);
  });

  it('an escaped hyphen outside a class is a literal hyphen (ACECF dates)', () => {
    // Regression: `\-` was copied through, which the u flag rejects ("Invalid escape").
    expect(re('[0-9]{2}\\-[0-9]{2}').test('01-04')).toBe(true);
    expect(re('[a\\-z]').test('-')).toBe(true);
  });
});

describe('amountBounds', () => {
  it('reads the integer digits before the decimal point only', async () => {
    const { amountBounds } = await import('../../../src/ecf/spec/formats.js');
    // Regression: ACECF `[0-9]+(\.[0-9]{2})` was read as 2 integer digits, refusing amounts ≥ 100.
    expect(amountBounds({ base: 'decimal', pattern: ['[0-9]+(\\.[0-9]{2})'], totalDigits: 18, fractionDigits: 2 }).integerDigits).toBe(16);
    expect(amountBounds({ base: 'decimal', pattern: ['[0-9]{1,3}(.[0-9]{1,4})?'], totalDigits: 7, fractionDigits: 4 }).integerDigits).toBe(3);
    expect(amountBounds({ base: 'decimal', pattern: ['(\\d{1,16})(\\.\\d{1,4})?'], totalDigits: 20, fractionDigits: 4 }).integerDigits).toBe(16);
  });
});
