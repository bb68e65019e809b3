/** ECF-TOT-CUADRE / ECF-TOT-CONDICIONAL / ECF-ITEM-MONTO / ECF-ITBIS-TASAS: reconciliation and the DGII IT §12 tolerance policy. */
import { describe, expect, it } from 'vitest';
import { baseDoc, refill, withLines } from '../helpers/docs.js';
import { errorsOf, expectError, expectValid, expectWarning, validate } from './helpers.js';

describe('ECF-TOT-CUADRE tolerance (one unit per line on document totals)', () => {
  it('exact totals: no error, no warning', () => {
    const r = validate('31', withLines('31', 3));
    expectValid(r);
    expect(r.warnings).toEqual([]);
  });

  it('monto_total off by 0.50 with 3 lines: warning only (within ±3.00)', () => {
    const d = withLines('31', 3);
    d.totales.monto_total += 0.5;
    const r = validate('31', d);
    expect(r.success).toBe(true);
    const w = expectWarning(r, 'totales.monto_total', 'ECF-TOT-CUADRE');
    expect(w.message).toMatch(/tolerancia de ±3\.00/);
  });

  it('monto_total off by exactly 3.00 with 3 lines: still a warning', () => {
    const d = withLines('31', 3);
    d.totales.monto_total = Math.round((d.totales.monto_total + 3) * 100) / 100;
    const r = validate('31', d);
    expect(r.success).toBe(true);
    expectWarning(r, 'totales.monto_total', 'ECF-TOT-CUADRE');
  });

  it('monto_total off by 3.01 with 3 lines: error with code totals', () => {
    const d = withLines('31', 3);
    d.totales.monto_total = Math.round((d.totales.monto_total + 3.01) * 100) / 100;
    const e = expectError(
      validate('31', d),
      'totales.monto_total',
      'totals',
      /se esperaba 708\.00 \(monto gravado 600\.00 \+ ITBIS 108\.00 \+ exento 0\.00 \+ impuestos adicionales 0\.00\), se recibió 711\.01/,
      'ECF-TOT-CUADRE',
    );
    expect(e.params).toMatchObject({ expected: '708.00', received: '711.01' });
  });

  it('the brief example message: 31 total 240 instead of 236', () => {
    const d = baseDoc('31');
    d.totales.monto_total = 240;
    const e = expectError(validate('31', d), 'totales.monto_total', 'totals');
    expect(e.message).toContain(
      'El total no cuadra: se esperaba 236.00 (monto gravado 200.00 + ITBIS 36.00 + exento 0.00 + impuestos adicionales 0.00), se recibió 240.00.',
    );
  });

  it('every totales key is compared: total_itbis1 off', () => {
    const d = baseDoc('31');
    d.totales.total_itbis1 = 30;
    expectError(validate('31', d), 'totales.total_itbis1', 'totals', /monto_gravado_i1 200\.00 × 18 %/, 'ECF-TOT-CUADRE');
  });

  it('every totales key is compared: monto_gravado_i1 off', () => {
    const d = baseDoc('31');
    d.totales.monto_gravado_i1 = 190;
    expectError(validate('31', d), 'totales.monto_gravado_i1', 'totals', /indicador_facturacion 1: 200\.00/, 'ECF-TOT-CUADRE');
  });

  it('every totales key is compared: monto_gravado_total and total_itbis off', () => {
    const d = baseDoc('31');
    d.totales.monto_gravado_total = 100;
    d.totales.total_itbis = 10;
    const r = validate('31', d);
    expectError(r, 'totales.monto_gravado_total', 'totals');
    expectError(r, 'totales.total_itbis', 'totals');
  });

  it('withholding totals: total_itbis_retenido on 41', () => {
    const d = baseDoc('41');
    d.totales.total_itbis_retenido = 10;
    expectError(validate('41', d), 'totales.total_itbis_retenido', 'totals', /retencion\.monto_itbis_retenido/);
  });

  it('withholding totals: total_isr_retencion on 47 comes from isr_retenido', () => {
    const d = baseDoc('47');
    expect(d.totales.total_isr_retencion).toBe(270);
    d.totales.total_isr_retencion = 100;
    expectError(validate('47', d), 'totales.total_isr_retencion', 'totals');
  });

  it('monto_periodo and valor_pagar are checked when declared', () => {
    const d = baseDoc('31');
    d.totales.monto_periodo = 236;
    d.totales.saldo_anterior = 100;
    d.totales.valor_pagar = 336;
    expectValid(validate('31', d));
    d.totales.valor_pagar = 236;
    expectError(validate('31', d), 'totales.valor_pagar', 'totals', /monto_avance_pago/);
  });
});

describe('ECF-TOT-CONDICIONAL', () => {
  it('rate-1 base present requires itbis1 and total_itbis1', () => {
    const d = baseDoc('31');
    delete d.totales.itbis1;
    delete d.totales.total_itbis1;
    const r = validate('31', d);
    expectError(r, 'totales.itbis1', 'required', /se esperaba 18/, 'ECF-TOT-CONDICIONAL');
    expectError(r, 'totales.total_itbis1', 'required', /se esperaba 36\.00/, 'ECF-TOT-CONDICIONAL');
  });

  it('a non-zero base with no items of that indicator is an error', () => {
    const d = baseDoc('31');
    d.totales.monto_gravado_i2 = 5;
    expectError(validate('31', d), 'totales.monto_gravado_i2', 'totals', /ningún ítem tiene indicador_facturacion 2/, 'ECF-TOT-CONDICIONAL');
  });

  it('a zero base with no items of that indicator is a warning (ECF-TOT-CERO: the XSD allows it, DGII accepts it; issue 15)', () => {
    const d = baseDoc('31');
    d.totales.monto_gravado_i2 = 0;
    const r = validate('31', d);
    expectValid(r);
    expect(expectWarning(r, 'totales.monto_gravado_i2', 'ECF-TOT-CERO').message).toMatch(/ningún ítem tiene indicador_facturacion 2/);
  });

  it('32 with monto_gravado_total and total_itbis 0.00 and no taxed lines is accepted with warnings (issue 15)', () => {
    const d = baseDoc('32');
    d.items = [{ indicador_facturacion: 4, nombre: 'Libro', indicador_bien_servicio: '1', cantidad: 1, precio_unitario: 100, monto: 100 }];
    d.totales = { monto_gravado_total: 0, monto_exento: 100, total_itbis: 0, monto_total: 100 };
    delete d.id_doc.formas_pago;
    const r = validate('32', d);
    expectValid(r);
    expectWarning(r, 'totales.monto_gravado_total', 'ECF-TOT-CERO');
    expectWarning(r, 'totales.total_itbis', 'ECF-TOT-CERO');
  });

  it('exempt items require monto_exento', () => {
    const d = baseDoc('31');
    d.items.push({ indicador_facturacion: 4, nombre: 'Libro', indicador_bien_servicio: '1', cantidad: 1, precio_unitario: 50, monto: 50 });
    d.totales.monto_total = 286;
    expectError(validate('31', d), 'totales.monto_exento', 'required', /indicador_facturacion 4/, 'ECF-TOT-CONDICIONAL');
  });

  it('mixed rates 1, 2, 3 and 4 fill and validate', () => {
    const d = baseDoc('31');
    d.items = [
      { indicador_facturacion: 1, nombre: 'A', indicador_bien_servicio: '1', cantidad: 3, precio_unitario: 33.3333 },
      { indicador_facturacion: 2, nombre: 'B', indicador_bien_servicio: '1', cantidad: 1, precio_unitario: 50 },
      { indicador_facturacion: 3, nombre: 'C', indicador_bien_servicio: '1', cantidad: 1, precio_unitario: 20 },
      { indicador_facturacion: 4, nombre: 'D', indicador_bien_servicio: '1', cantidad: 1, precio_unitario: 10 },
    ];
    const x = refill('31', d);
    expect(x.totales).toEqual({
      monto_gravado_total: 170,
      monto_gravado_i1: 100,
      monto_gravado_i2: 50,
      monto_gravado_i3: 20,
      monto_exento: 10,
      itbis1: 18,
      itbis2: 16,
      itbis3: 0,
      total_itbis: 26,
      total_itbis1: 18,
      total_itbis2: 8,
      total_itbis3: 0,
      monto_total: 206,
    });
    expectValid(validate('31', x));
  });
});

describe('ECF-ITEM-MONTO (±1.00 per line)', () => {
  it('line amount off by 0.40: warning', () => {
    const d = baseDoc('31');
    d.items[0].precio_unitario = 100.2; // 2 × 100.20 = 200.40, declared 200.00
    const r = validate('31', d);
    expect(r.success).toBe(true);
    expectWarning(r, 'items.0.monto', 'ECF-ITEM-MONTO');
  });

  it('line amount off by 1.01: error with code totals', () => {
    const d = baseDoc('31');
    d.items[0].monto = 201.01;
    expectError(validate('31', d), 'items.0.monto', 'totals', /se esperaba 200\.00 \(precio_unitario 100 × cantidad 2\)/, 'ECF-ITEM-MONTO');
  });

  it('discount and surcharge enter the line amount', () => {
    const d = baseDoc('31');
    d.items[0] = {
      ...d.items[0],
      descuento_monto: 20,
      sub_descuentos: [{ tipo: '$', monto: 20 }],
      recargo_monto: 5,
      sub_recargos: [{ tipo: '%', porcentaje: 2.5, monto: 5 }],
    };
    delete d.items[0].monto;
    const x = refill('31', d);
    expect(x.items[0].monto).toBe(185);
    expectValid(validate('31', x));
  });
});

describe('ECF-ITBIS-TASAS', () => {
  it('itbis1 must be 18', () => {
    const d = baseDoc('31');
    d.totales.itbis1 = 16;
    expectError(validate('31', d), 'totales.itbis1', 'rule', /es 18/, 'ECF-ITBIS-TASAS');
  });

  it('itbis3 must be 0 (46)', () => {
    const d = baseDoc('46');
    d.totales.itbis3 = 18;
    expectError(validate('46', d), 'totales.itbis3', 'rule', /es 0/, 'ECF-ITBIS-TASAS');
  });
});

describe('indicador_monto_gravado = 1 (prices include ITBIS)', () => {
  it('base = amount / 1.18', () => {
    const d = baseDoc('31');
    d.id_doc.indicador_monto_gravado = 1;
    d.items[0] = { indicador_facturacion: 1, nombre: 'Con ITBIS', indicador_bien_servicio: '1', cantidad: 1, precio_unitario: 118 };
    const x = refill('31', d);
    expect(x.totales).toMatchObject({ monto_gravado_i1: 100, total_itbis1: 18, monto_total: 118 });
    expectValid(validate('31', x));
  });
});

describe('collected, not first-fail', () => {
  it('reports shape and rule errors of different blocks together', () => {
    const d = baseDoc('34');
    delete d.id_doc.tipo_ingresos; // rule (a warning since issue 15: the 34 XSD makes it optional)
    d.referencia.codigo_modificacion = '5'; // rule
    d.referencia.ncf_modificado = 'B0100000'; // rule (series B needs 11)
    d.comprador = { rnc: 'abc' }; // shape pattern
    d.totales.monto_total = 1; // totals
    d.items[0].monto = 50; // line
    const r = validate('34', d);
    const errs = errorsOf(r);
    const paths = errs.map((e) => e.path);
    expect(r.warnings.map((w) => w.path)).toContain('id_doc.tipo_ingresos');
    for (const p of ['referencia.codigo_modificacion', 'referencia.ncf_modificado', 'comprador.rnc', 'totales.monto_total', 'items.0.monto']) {
      expect(paths).toContain(p);
    }
    expect(errs.length).toBeGreaterThanOrEqual(5);
  });
});
