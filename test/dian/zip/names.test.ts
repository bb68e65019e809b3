/** DIAN file names (dian-protocol.md §6.1–6.2). */
import { describe, expect, it } from 'vitest';
import { DIAN_FILE_PREFIXES, dianFileNames, type DianFileKind, type DianFileNameInput } from '../../../src/dian/index.js';

const base: DianFileNameInput = { nit: '800197268', provider: '000', year: 26, counter: 1 };
const names = (input: Partial<DianFileNameInput>) => {
  const r = dianFileNames({ ...base, ...input });
  if (!r.ok) throw new Error(r.message);
  return r.value;
};
const refusal = (input: Partial<DianFileNameInput>) => {
  const r = dianFileNames({ ...base, ...input });
  if (r.ok) throw new Error(`accepted: ${r.value.xml}`);
  return r;
};

describe('dianFileNames', () => {
  it('writes prefix, NIT padded to 10, provider, year and an 8-character counter; the zip is z + the same body', () => {
    expect(names({})).toEqual({ xml: 'fv08001972680002600000001.xml', zip: 'z08001972680002600000001.zip' });
  });

  it('uses the prefix of each kind, with the provider segment for all but payroll', () => {
    const expected: Record<DianFileKind, string> = {
      invoice: 'fv',
      'export-invoice': 'fv',
      'contingency-invoice': 'fv',
      'credit-note': 'nc',
      'debit-note': 'nd',
      'support-invoice': 'dse',
      'note-support-invoice': 'nds',
      pos: 'pos',
      'credit-note-equivalent': 'ncq',
      'debit-note-equivalent': 'ndq',
      'application-response': 'ar',
      'attached-document': 'ad',
      payroll: 'nie',
      'payroll-adjustment': 'niae',
    };
    expect(DIAN_FILE_PREFIXES).toEqual(expected);
    for (const [kind, prefix] of Object.entries(expected) as [DianFileKind, string][]) {
      if (kind === 'payroll' || kind === 'payroll-adjustment') continue;
      expect(names({ kind, provider: '001' })).toEqual({ xml: `${prefix}08001972680012600000001.xml`, zip: 'z08001972680012600000001.zip' });
    }
  });

  it("payroll has no provider segment and a hex counter: the payroll annex's example", () => {
    const { provider: _, ...noProvider } = base;
    const r = dianFileNames({ ...noProvider, kind: 'payroll', year: 2020, counter: 12 });
    expect(r).toEqual({ ok: true, value: { xml: 'nie0800197268200000000C.xml', zip: 'z0800197268200000000C.zip' } });
    const adj = dianFileNames({ ...noProvider, kind: 'payroll-adjustment', year: 20, counter: 12 });
    expect(adj.ok && adj.value.xml).toBe('niae0800197268200000000C.xml');
    expect(refusal({ kind: 'payroll' }).field).toBe('provider');
  });

  it('pads the NIT and the year, and takes the last two digits of a full year', () => {
    expect(names({ nit: '1', year: 2005 }).xml).toBe('fv00000000010000500000001.xml');
    expect(names({ nit: '9999999999', year: 0 }).xml).toBe('fv99999999990000000000001.xml');
    expect(names({ year: 2100 }).xml).toBe(names({ year: 0 }).xml);
  });

  it('writes the counter in upper-case hex by default, in decimal on request', () => {
    expect(names({ counter: 10 }).xml).toBe('fv0800197268000260000000A.xml');
    expect(names({ counter: 10, counterFormat: 'decimal' }).xml).toBe('fv08001972680002600000010.xml');
    expect(names({ counter: 255 }).zip).toBe('z080019726800026000000FF.zip');
    expect(names({ counter: 9, counterFormat: 'decimal' })).toEqual(names({ counter: 9, counterFormat: 'hex' }));
  });

  it('accepts counters 1 to FFFFFFFF (hex) or 99999999 (decimal) and refuses the rest', () => {
    expect(names({ counter: 0xffffffff }).xml).toBe('fv080019726800026FFFFFFFF.xml');
    expect(names({ counter: 99_999_999, counterFormat: 'decimal' }).xml).toBe('fv08001972680002699999999.xml');
    for (const counter of [0, -1, 1.5, 0x100000000, Number.NaN]) expect(refusal({ counter }).field).toBe('counter');
    expect(refusal({ counter: 100_000_000, counterFormat: 'decimal' }).message).toMatch(/de 1 a 99999999/);
    expect(refusal({ counterFormat: 'octal' as never }).field).toBe('counterFormat');
  });

  it('refuses a bad NIT (with a hint when the DV is attached), provider, year or kind', () => {
    const dv = refusal({ nit: '800197268-4' });
    expect(dv.field).toBe('nit');
    expect(dv.message).toContain('sin el dígito de verificación');
    for (const nit of ['', '12345678901', '800.197.268', ' 800197268', 800197268 as never]) expect(refusal({ nit }).field).toBe('nit');
    for (const provider of [undefined, '00', '0001', 'abc']) expect(refusal({ provider }).field).toBe('provider');
    for (const year of [-1, 100, 999, 10000, 26.5]) expect(refusal({ year }).field).toBe('year');
    expect(refusal({ kind: 'receipt' as never }).field).toBe('kind');
    expect(refusal({ kind: 'toString' as never }).field).toBe('kind');
  });
});
