import { describe, expect, it } from 'vitest';
import { ANY_SERIES_ENCF_PATTERN, composeEncf, ENCF_PATTERN, MAX_CONSECUTIVE, parseEncf } from '../../../src/ecf/spec/encf.js';
import { DGII_ENVIRONMENTS, isDgiiEnvironment } from '../../../src/ecf/spec/environments.js';
import { ACECF_TYPES, ECF_TYPE_INFO, REFERENCE_MUST_BE_ACCEPTED } from '../../../src/ecf/spec/doc-types.js';

describe('the e-NCF, one module', () => {
  it('composes and parses back', () => {
    expect(composeEncf('31', 15)).toBe('E310000000015');
    expect(parseEncf(composeEncf('47', MAX_CONSECUTIVE))).toEqual({ series: 'E', tipo: '47', consecutive: MAX_CONSECUTIVE });
    expect(parseEncf('B310000000015')).toBeNull();
    expect(parseEncf('B310000000015', { anySeries: true })).toEqual({ series: 'B', tipo: '31', consecutive: 15 });
    expect(parseEncf('E31000000001')).toBeNull();
    expect(ENCF_PATTERN.test('E310000000015')).toBe(true);
    expect(ENCF_PATTERN.test('B310000000015')).toBe(false);
    expect(ANY_SERIES_ENCF_PATTERN.test('B310000000015')).toBe(true);
  });
});

describe('per-type facts are rows of the registry', () => {
  it('environments, ACECF types, notes whose reference must be accepted, paper NCF types', () => {
    expect(DGII_ENVIRONMENTS).toEqual(['testecf', 'certecf', 'ecf']);
    expect(isDgiiEnvironment('certecf')).toBe(true);
    expect(isDgiiEnvironment('CerteCF')).toBe(false);
    expect(ACECF_TYPES).toEqual(['31', '33', '34', '44', '45']);
    expect(REFERENCE_MUST_BE_ACCEPTED).toEqual(['33', '34']);
    expect(
      Object.values(ECF_TYPE_INFO)
        .map((i) => `B${i.paperNcfType}↔${i.code}`)
        .join(' '),
    ).toBe('B01↔31 B02↔32 B03↔33 B04↔34 B11↔41 B13↔43 B14↔44 B15↔45 B16↔46 B17↔47');
  });
});
