/**
 * DIAN's two payroll samples of the Nómina toolbox v1.0 (test/dian/fixtures/toolbox/nomina-*.xml, with a BOM).
 * They are templates: every value is a placeholder (`A`, `0`, `9999-12-31`), the CUNE is `A`, `HoraGen` has no
 * offset, `Ambiente` and `TipoXML` are `0`, and the adjustment carries both `Reemplazar` and `Eliminar` with
 * `TipoNota` 0. So they parse, and every value they carry is read, but their CUNE inputs are not consistent and no
 * CUNE can be recomputed from them (the recomputation says so as a value, not a throw).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computePayrollCodes, parseDianPayroll, type UblNode } from '../../../src/dian/index.js';
import { createDianSchemaValidator } from '../../../src/dian/xsd/index.js';
import { dianXsdDir, repoRoot } from '../helpers/env.js';

const sample = (name: string) => readFileSync(resolve(repoRoot, 'test/dian/fixtures/toolbox', name), 'utf8');
const INDIVIDUAL = 'nomina-individual-electronica-v1-0-2.xml';
const ADJUSTMENT = 'nomina-individual-de-ajuste-electronica-v1-0-2.xml';

/** Values (attributes and texts) below an element, the element's own included. */
function xmlValues(n: UblNode): number {
  return n.attrs.length + (n.text !== undefined ? 1 : 0) + n.children.reduce((s, c) => s + xmlValues(c), 0);
}
/** Scalar leaves of a request value. */
function leaves(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((s: number, x) => s + leaves(x), 0);
  if (typeof v === 'object' && v !== null) return Object.values(v).reduce((s: number, x) => s + leaves(x), 0);
  return 1;
}

describe("DIAN's toolbox payroll samples", () => {
  it('the 102 sample parses; every value is read except the ones the builder derives', () => {
    const p = parseDianPayroll(sample(INDIVIDUAL));
    if (!p.ok) throw new Error(p.message);
    expect(p.kind).toBe('payroll');
    // Derived (context, codes, literals): Periodo@FechaGen, Numero, provider NIT/DV/SoftwareID/SoftwareSC, CodigoQR,
    // Version, Ambiente, TipoXML, CUNE, EncripCUNE: 12 values (the root's SchemaLocation and namespaces are not counted).
    const body = p.root.children.filter((c) => c.name !== 'ext:UBLExtensions');
    expect(leaves(p.request)).toBe(body.reduce((s, c) => s + xmlValues(c), 0) - 12);
    expect(p.request).toMatchObject({
      novelty: { value: false, cune: 'A' },
      earnings: {
        basic: { days_worked: 0, salary_worked: 0 },
        daytime_overtime: [{ start_time: '9999-12-31T00:00:00', quantity: 0, percentage: 0, amount: 0 }],
      },
      deductions: { pension_security_fund: { percentage: 0, deduction: 0, subsistence_percentage: 0, subsistence_deduction: 0 }, debt: 0 },
      general: { generation_time: '00:00:00' },
    });
    expect(p.codes).toEqual({ cune: 'A', securityCode: 'A', qr: 'A', number: 'A' });
  });

  it('the 103 sample parses (Reemplazar read; the template also carries Eliminar)', () => {
    const p = parseDianPayroll(sample(ADJUSTMENT));
    if (!p.ok) throw new Error(p.message);
    expect(p.kind).toBe('payroll-adjustment');
    expect(p.request).toMatchObject({ note_type: '0', predecessor: { number: '0', cune: '0', generation_date: '9999-12-31' }, voucher_total: 0 });
    const replace = p.root.children.find((c) => c.name === 'Reemplazar')!;
    expect(leaves(p.request)).toBe(1 + xmlValues(replace) - 12);
    expect(p.root.children.map((c) => c.name)).toEqual(['ext:UBLExtensions', 'TipoNota', 'Reemplazar', 'Eliminar']);
  });

  it('their CUNE inputs are placeholders: recomputation reports it as a value', () => {
    for (const name of [INDIVIDUAL, ADJUSTMENT]) {
      const p = parseDianPayroll(sample(name));
      if (!p.ok) throw new Error(p.message);
      expect(computePayrollCodes(p.root, { pin: '0' })).toMatchObject({ ok: false, message: expect.stringContaining('generationTime "00:00:00"') });
    }
  });

  it('both templates are XSD-valid once their empty UBLExtensions is filled in memory (the 103 XSD allows both wrappers at once)', () => {
    const validator = createDianSchemaValidator(dianXsdDir());
    expect(validator.validate(sample(INDIVIDUAL), 'NominaIndividual', { unsigned: true })).toEqual({ valid: true, violations: [] });
    expect(validator.validate(sample(ADJUSTMENT), 'NominaIndividualDeAjuste', { unsigned: true }).valid).toBe(true);
  });
});
