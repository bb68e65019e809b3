/** ECF-NC-INDICADOR (30-day rule), ECF-NC-SIN-ITBIS, ECF-NC-TEXTO, reference rules and dates. */
import { describe, expect, it } from 'vitest';
import { computeTotals } from '../../../src/ecf/calc/totals.js';
import { baseDoc, refill } from '../helpers/docs.js';
import { errorsOf, expectError, expectValid, expectWarning, validate } from './helpers.js';

type Json = Record<string, any>;

function note(fechaRef: string, indicador: 0 | 1): Json {
  const d = baseDoc('34');
  d.referencia.fecha_ncf_modificado = fechaRef;
  d.id_doc.indicador_nota_credito = indicador;
  return refill('34', d);
}

describe('ECF-NC-INDICADOR: 30-day rule of credit notes', () => {
  it('exactly 30 days (02-03-2026 → 01-04-2026): 0 is valid', () => {
    expectValid(validate('34', note('02-03-2026', 0)));
  });

  it('exactly 30 days: 1 is rejected, expected 0', () => {
    expectError(validate('34', note('02-03-2026', 1)), 'id_doc.indicador_nota_credito', 'rule', /se esperaba 0.*30 día/, 'ECF-NC-INDICADOR');
  });

  it('31 days (01-03-2026 → 01-04-2026): 1 is valid and carries no ITBIS', () => {
    const d = note('01-03-2026', 1);
    expect(d.totales).toEqual({ monto_gravado_total: 100, monto_gravado_i1: 100, monto_total: 100 });
    expectValid(validate('34', d));
  });

  it('31 days: 0 is rejected, expected 1', () => {
    expectError(validate('34', note('01-03-2026', 0)), 'id_doc.indicador_nota_credito', 'rule', /se esperaba 1.*31 día/, 'ECF-NC-INDICADOR');
  });

  it('skipped when the issue date is unknown', () => {
    const r = validate('34', note('01-01-2026', 0), null);
    expect(errorsOf(r).filter((e) => e.ruleId === 'ECF-NC-INDICADOR')).toEqual([]);
  });

  it('ECF-NC-SIN-ITBIS: indicator 1 with ITBIS declared', () => {
    const d = note('01-03-2026', 1);
    d.totales.itbis1 = 18;
    d.totales.total_itbis1 = 18;
    const r = validate('34', d);
    // The amount is refused; the rate field alone says nothing DGII refuses: a warning (issue 15).
    expectError(r, 'totales.total_itbis1', 'rule', /30 días/, 'ECF-NC-SIN-ITBIS');
    expect(expectWarning(r, 'totales.itbis1', 'ECF-NC-SIN-ITBIS-CERO').message).toMatch(/sin ITBIS/);
  });

  it('ECF-NC-SIN-ITBIS-CERO: indicator 1 with TotalITBIS 0.00 and rate fields only is accepted with warnings (issue 15)', () => {
    const d = note('01-03-2026', 1);
    d.totales.itbis1 = 18;
    d.totales.total_itbis = 0;
    d.totales.total_itbis1 = 0;
    const r = validate('34', d);
    expectValid(r);
    for (const k of ['itbis1', 'total_itbis', 'total_itbis1']) expectWarning(r, `totales.${k}`, 'ECF-NC-SIN-ITBIS-CERO');
  });

  it('computeTotals excludes ITBIS for indicador_nota_credito 1', () => {
    const c = computeTotals('34', {
      id_doc: { indicador_nota_credito: 1 },
      items: [{ indicador_facturacion: 1, cantidad: 1, precio_unitario: 100, monto: 100 }],
    });
    expect(c.itbisExcluded).toBe(true);
    expect(c.totales).toEqual({ monto_gravado_total: 100, monto_gravado_i1: 100, monto_total: 100 });
  });
});

describe('ECF-NC-TEXTO: code 2 corrects text only', () => {
  it('zero amounts are valid', () => {
    const d = baseDoc('34');
    d.referencia.codigo_modificacion = '2';
    d.items[0].precio_unitario = 0;
    expectValid(validate('34', refill('34', d)));
  });

  it('applies to debit notes too (33): non-zero amounts are warnings (the spec is stricter than DGII, issue 15)', () => {
    const d = baseDoc('33');
    d.referencia.codigo_modificacion = '2';
    const r = validate('33', d);
    expectValid(r);
    expect(expectWarning(r, 'items.0.monto', 'ECF-NC-TEXTO').message).toMatch(/deben ser 0/);
    expect(expectWarning(r, 'totales.monto_total', 'ECF-NC-TEXTO').message).toMatch(/debe ser 0/);
  });

  it("DGII's certification writing (one non-billable line of 1.00, monto_no_facturable 1.00, monto_total 0.00) is accepted with a warning", () => {
    const d = baseDoc('34');
    d.referencia.codigo_modificacion = '2';
    d.items = [{ indicador_facturacion: 0, nombre: 'Corrección de texto', indicador_bien_servicio: '2', cantidad: 1, precio_unitario: 1, monto: 1 }];
    d.totales = { monto_no_facturable: 1, monto_total: 0 };
    const r = validate('34', d);
    expectValid(r);
    expectWarning(r, 'items.0.monto', 'ECF-NC-TEXTO');
    expect(r.warnings.every((w) => w.ruleId === 'ECF-NC-TEXTO')).toBe(true);
  });
});

describe('ECF-REF-NCF: referencia.ncf_modificado length by series', () => {
  it.each([
    ['E310000000001', true],
    ['B0100000001', true],
    ['A010010010100000001', true],
    ['P010010010100000001', true],
    ['E31000000001', false],
    ['B01000000001', false],
    ['A01001001010000001', false],
    ['X0100000001', false],
  ])('%s valid=%s', (ncf, ok) => {
    const d = baseDoc('33');
    d.referencia.ncf_modificado = ncf;
    const r = validate('33', d);
    if (ok) expectValid(r);
    else expectError(r, 'referencia.ncf_modificado', 'pattern', /serie|caracteres/, 'ECF-REF-NCF');
  });

  it('message names the expected length', () => {
    const d = baseDoc('34');
    d.referencia.ncf_modificado = 'B01000000001';
    expectError(validate('34', d), 'referencia.ncf_modificado', 'pattern', /serie B tiene 11 caracteres/);
  });
});

describe('ECF-REF-CODIGO-31 / ECF-REF-CODIGO-OTROS / ECF-REF-CONTINGENCIA', () => {
  it('31 admits code 5 (references a consumer invoice)', () => {
    const d = baseDoc('31');
    d.referencia = { ncf_modificado: 'E320000000007', fecha_ncf_modificado: '20-03-2026', codigo_modificacion: '5' };
    expectValid(validate('31', d));
  });

  it('31 rejects code 3', () => {
    const d = baseDoc('31');
    d.referencia = { ncf_modificado: 'E320000000007', fecha_ncf_modificado: '20-03-2026', codigo_modificacion: '3' };
    expectError(validate('31', d), 'referencia.codigo_modificacion', 'enum', /notas de débito y crédito/, 'ECF-REF-CODIGO-31');
  });

  it('32 rejects code 5 (type 31 only)', () => {
    const d = baseDoc('32');
    d.referencia = { ncf_modificado: 'E320000000007', fecha_ncf_modificado: '20-03-2026', codigo_modificacion: '5' };
    expectError(validate('32', d), 'referencia.codigo_modificacion', 'enum', /solo al tipo 31/, 'ECF-REF-CODIGO-OTROS');
  });

  it('code 4 replaces a contingency NCF of the equivalent paper type', () => {
    const d = baseDoc('31');
    d.referencia = { ncf_modificado: 'B0100000005', fecha_ncf_modificado: '20-03-2026', codigo_modificacion: '4' };
    expectValid(validate('31', d));
    d.referencia.ncf_modificado = 'B0200000005';
    expectError(validate('31', d), 'referencia.ncf_modificado', 'rule', /se esperaba B01/, 'ECF-REF-CONTINGENCIA');
  });
});

describe('dates: ECF-FECHA-*', () => {
  it('ECF-FECHA-NCF-MODIFICADO: modified receipt after the issue date', () => {
    const d = baseDoc('33');
    d.referencia.fecha_ncf_modificado = '02-04-2026';
    expectError(validate('33', d), 'referencia.fecha_ncf_modificado', 'rule', /posterior a la fecha de emisión/, 'ECF-FECHA-NCF-MODIFICADO');
  });

  it('ECF-FECHA-LIMITE-PAGO: before the issue date', () => {
    const d = baseDoc('45');
    d.id_doc.fecha_limite_pago = '31-03-2026';
    expectError(validate('45', d), 'id_doc.fecha_limite_pago', 'rule', /anterior a la fecha de emisión/, 'ECF-FECHA-LIMITE-PAGO');
  });

  it('ECF-FECHA-LIMITE-PAGO: same day is valid', () => {
    const d = baseDoc('45');
    d.id_doc.fecha_limite_pago = '01-04-2026';
    expectValid(validate('45', d));
  });

  it('ECF-FECHA-PERIODO: fecha_desde after fecha_hasta', () => {
    const d = baseDoc('31');
    d.id_doc.fecha_desde = '01-03-2026';
    d.id_doc.fecha_hasta = '28-02-2026';
    expectError(validate('31', d), 'id_doc.fecha_hasta', 'rule', /anterior a la fecha desde/, 'ECF-FECHA-PERIODO');
    d.id_doc.fecha_hasta = '01-03-2026';
    expectValid(validate('31', d));
  });
});
