import { describe, expect, it } from 'vitest';
import { xsdPatternToJs } from '../../src/spec/xsd-regex.js';
import { COUNTRY_NAMES } from '../../src/spec/countries.gen.js';
import { ECF_TABLE } from '../../src/spec/ecf-table.gen.js';

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
