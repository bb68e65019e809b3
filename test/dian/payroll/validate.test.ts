/**
 * Payroll validation: collected issues with request paths and Spanish messages, the payroll rules (DIAN-NOM-*),
 * and DIAN's ±2.00 tolerance on the totals (2.00 accepted with a warning, 2.01 refused).
 */
import { describe, expect, it } from 'vitest';
import { buildDianPayroll, validateDianPayroll } from '../../../src/dian/index.js';
import { example, PAYROLL_CONTEXT } from './fixtures.js';

type Obj = Record<string, any>;
const errors = (kind: 'payroll' | 'payroll-adjustment', request: unknown) =>
  validateDianPayroll(kind, request)
    .issues.filter((i) => i.severity === 'error')
    .map((i) => ({ path: i.path, message: i.message, ...(i.ruleId ? { ruleId: i.ruleId } : {}) }));

describe('validateDianPayroll', () => {
  it('accepts every example with no issue at all', () => {
    for (const [name, kind] of [
      ['payroll-min', 'payroll'],
      ['payroll-max', 'payroll'],
      ['payroll-adjustment-replace', 'payroll-adjustment'],
      ['payroll-adjustment-delete', 'payroll-adjustment'],
    ] as const) {
      const r = validateDianPayroll(kind, example(name));
      expect(r.issues, name).toEqual([]);
      expect(r.value).toEqual(example(name));
    }
  });

  it('collects every problem (not first-fail) with its path and a Spanish message', () => {
    const r: Obj = example('payroll-min');
    delete r.employee.salary;
    r.employee.identification_number = 1020304050; // a number, not a digit string
    r.period.hire_date = '2026-02-30';
    r.earnings.basic.days_worked = -1;
    r.payment_dates = [];
    r.employer.fax = '601 555';
    r.general.cune = 'abc';
    expect(errors('payroll', r)).toEqual([
      { path: 'period.hire_date', message: 'debe ser una fecha con formato YYYY-MM-DD' },
      { path: 'general.cune', message: 'no se envía: lo escribe el servicio en la nómina individual (102)' },
      { path: 'employer.fax', message: 'campo desconocido' },
      { path: 'employee.identification_number', message: 'debe ser un código de dígitos, como texto ("13")' },
      { path: 'employee.salary', message: 'es obligatorio' },
      { path: 'payment_dates', message: 'debe tener al menos un elemento' },
      { path: 'earnings.basic.days_worked', message: 'debe ser un número entero no negativo' },
    ]);
  });

  it('requires the blocks the XSD requires, and not the ones whose values the builder writes', () => {
    expect(errors('payroll', {}).map((e) => e.path)).toEqual([
      'period',
      'sequence',
      'place',
      'general',
      'employer',
      'employee',
      'payment',
      'payment_dates',
      'earnings',
      'deductions',
      'earnings_total',
      'deductions_total',
      'voucher_total',
    ]);
    expect(errors('payroll', [])).toEqual([{ path: '', message: 'El cuerpo de la solicitud debe ser un objeto JSON.' }]);
  });

  it('an adjustment note needs note_type 1 or 2, and a delete note takes no earnings', () => {
    const r: Obj = example('payroll-adjustment-replace');
    delete r.note_type;
    expect(errors('payroll-adjustment', r)).toEqual([
      { path: 'note_type', message: 'es obligatorio (1 reemplazar, 2 eliminar)', ruleId: 'DIAN-NOM-NOTE-TYPE' },
    ]);
    r.note_type = 1;
    expect(errors('payroll-adjustment', r)[0]).toMatchObject({ path: 'note_type', ruleId: 'DIAN-NOM-NOTE-TYPE' });
    const d: Obj = example('payroll-adjustment-delete');
    d.earnings = example('payroll-min').earnings;
    delete d.predecessor.cune;
    expect(errors('payroll-adjustment', d)).toEqual([
      { path: 'earnings', message: 'campo desconocido' },
      { path: 'predecessor.cune', message: 'es obligatorio' },
    ]);
  });

  it('period dates in order, and an exchange rate for another currency', () => {
    const r: Obj = example('payroll-min');
    r.period.settlement_start_date = '2026-04-01';
    r.general.currency_code = 'USD';
    expect(errors('payroll', r)).toEqual([
      { path: 'period.settlement_start_date', message: 'no puede ser posterior a period.settlement_end_date', ruleId: 'DIAN-NOM-PERIOD' },
      { path: 'general.exchange_rate', message: 'es obligatorio cuando la moneda (general.currency_code) es USD, no COP', ruleId: 'DIAN-NOM-EXCHANGE-RATE' },
    ]);
  });

  it('refuses negative amounts except the rounding', () => {
    const r: Obj = example('payroll-min');
    r.rounding = -0.4;
    expect(errors('payroll', r)).toEqual([]);
    r.earnings.transport[0].transport_aid = -1;
    expect(errors('payroll', r)).toContainEqual({ path: 'earnings.transport.0.transport_aid', message: 'no puede ser negativo', ruleId: 'DIAN-NOM-NEGATIVE' });
  });
});

describe("DIAN's ±2.00 tolerance on the totals", () => {
  it.each([
    ['earnings_total', 2000000, 'DIAN-NOM-EARNINGS-TOTAL'],
    ['deductions_total', 140072.4, 'DIAN-NOM-DEDUCTIONS-TOTAL'],
    ['voucher_total', 1859927.6, 'DIAN-NOM-VOUCHER-TOTAL'],
  ])('%s: exact passes, ±2.00 is a warning, 2.01 is an error', (key, exact, ruleId) => {
    const at = (v: number) => {
      const r: Obj = example('payroll-min');
      r[key] = v;
      // Keep the other totals consistent with the changed one, so only this rule speaks.
      if (key === 'earnings_total') r.voucher_total = Math.round((v - 140072.4) * 100) / 100;
      if (key === 'deductions_total') r.voucher_total = Math.round((2000000 - v) * 100) / 100;
      return validateDianPayroll('payroll', r).issues.filter((i) => i.ruleId === ruleId);
    };
    expect(at(exact)).toEqual([]);
    const plus = at(Math.round((exact + 2) * 100) / 100);
    expect(plus).toHaveLength(1);
    expect(plus[0]).toMatchObject({ path: key, severity: 'warning', code: 'totals', params: { difference: '2.00' } });
    expect(plus[0]!.message).toContain('dentro de la tolerancia de ±2.00');
    expect(at(Math.round((exact - 2) * 100) / 100)[0]).toMatchObject({ severity: 'warning' });
    const over = at(Math.round((exact + 2.01) * 100) / 100);
    expect(over[0]).toMatchObject({ path: key, severity: 'error', code: 'totals', params: { difference: '2.01' } });
    expect(over[0]!.message).toMatch(/^debe ser .* con una tolerancia de ±2.00; difiere en 2.01$/);
    expect(at(Math.round((exact - 2.01) * 100) / 100)[0]).toMatchObject({ severity: 'error' });
  });

  it('a refused request is the service 422 body with the messages by path; a warned one builds', () => {
    const r: Obj = example('payroll-min');
    r.earnings_total = 2000002.01;
    r.voucher_total = 1859929.61;
    const refused = buildDianPayroll('payroll', r, PAYROLL_CONTEXT);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.body.document.statusCode).toBe(13);
    expect(refused.body.document.detailedErrors).toEqual({
      earnings_total: ['debe ser la suma de los devengados (2000000.00) con una tolerancia de ±2.00; difiere en 2.01'],
    });
    r.earnings_total = 2000002;
    r.voucher_total = 1859929.6;
    const built = buildDianPayroll('payroll', r, PAYROLL_CONTEXT);
    expect(built.ok).toBe(true);
    if (built.ok) expect(built.warnings.map((w) => w.ruleId)).toEqual(['DIAN-NOM-EARNINGS-TOTAL']);
  });

  it('every money value of the earnings counts in the sum (the maximal example, one value raised)', () => {
    const r: Obj = example('payroll-max');
    r.earnings.epctv_bonuses[0].non_salary_food_amount += 3;
    expect(errors('payroll', r)).toContainEqual(expect.objectContaining({ path: 'earnings_total', ruleId: 'DIAN-NOM-EARNINGS-TOTAL' }));
    const d: Obj = example('payroll-max');
    d.deductions.debt += 3;
    expect(errors('payroll', d)).toContainEqual(expect.objectContaining({ path: 'deductions_total', ruleId: 'DIAN-NOM-DEDUCTIONS-TOTAL' }));
  });
});
