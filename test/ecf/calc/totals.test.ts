/** calc/totals.ts: computeTotals (named rounding points, only the keys a type allows), lineAmount, fillTotals. */
import { describe, expect, it } from 'vitest';
import { additionalTaxKind, computeTotals, fillTotals, lineAmount, totalesKeys } from '../../../src/ecf/calc/totals.js';
import { ECF_TYPES } from '../../../src/ecf/spec/model.js';

const item = (indicador_facturacion: number, precio_unitario: number, cantidad = 1, extra: Record<string, unknown> = {}) => ({
  indicador_facturacion,
  nombre: 'x',
  indicador_bien_servicio: '1',
  cantidad,
  precio_unitario,
  monto: lineAmount({ precio_unitario, cantidad, ...extra }),
  ...extra,
});

describe('lineAmount (R1)', () => {
  it('precio × cantidad − descuento + recargo, half-up to 2', () => {
    expect(lineAmount({ precio_unitario: 100, cantidad: 2 })).toBe(200);
    expect(lineAmount({ precio_unitario: 33.3333, cantidad: 3 })).toBe(100); // 99.9999
    expect(lineAmount({ precio_unitario: 1.0025, cantidad: 2 })).toBe(2.01); // 2.005
    expect(lineAmount({ precio_unitario: 10, cantidad: 1.5, descuento_monto: 2.5, recargo_monto: 0.75 })).toBe(13.25);
    expect(lineAmount({ precio_unitario: 0.1, cantidad: 3 })).toBe(0.3);
  });
});

describe('computeTotals', () => {
  it('the brief sample (31)', () => {
    expect(computeTotals('31', { items: [item(1, 100, 2)] }).totales).toEqual({
      monto_gravado_total: 200,
      monto_gravado_i1: 200,
      itbis1: 18,
      total_itbis: 36,
      total_itbis1: 36,
      monto_total: 236,
    });
  });

  it('rounds ITBIS per rate (R3): 0.05 × 18 % = 0.009 → 0.01', () => {
    const t = computeTotals('31', { items: [item(1, 0.05)] }).totales;
    expect(t.total_itbis1).toBe(0.01);
    expect(t.monto_total).toBe(0.06);
  });

  it('no float drift across many small lines', () => {
    const items = Array.from({ length: 30 }, () => item(4, 0.1));
    const t = computeTotals('31', { items }).totales;
    expect(t.monto_exento).toBe(3);
    expect(t.monto_total).toBe(3);
  });

  it('global discount and surcharge by indicator', () => {
    const doc = {
      items: [item(1, 100), item(2, 100), item(4, 100)],
      descuentos_recargos: [
        { tipo_ajuste: 'D', tipo_valor: '$', monto: 10, indicador_facturacion: 1 },
        { tipo_ajuste: 'R', tipo_valor: '%', valor: 5, indicador_facturacion: 2 },
        { tipo_ajuste: 'D', tipo_valor: '$', monto: 20, indicador_facturacion: 4 },
      ],
    };
    expect(computeTotals('31', doc).totales).toEqual({
      monto_gravado_total: 195,
      monto_gravado_i1: 90,
      monto_gravado_i2: 105,
      monto_exento: 80,
      itbis1: 18,
      itbis2: 16,
      total_itbis: 33,
      total_itbis1: 16.2,
      total_itbis2: 16.8,
      monto_total: 308,
    });
  });

  it('indicador_monto_gravado 1: base = Σ / (1 + rate), rounded before discounts', () => {
    const t = computeTotals('31', { id_doc: { indicador_monto_gravado: 1 }, items: [item(1, 100), item(2, 58)] }).totales;
    expect(t.monto_gravado_i1).toBe(84.75); // 100 / 1.18 = 84.7457…
    expect(t.monto_gravado_i2).toBe(50); // 58 / 1.16
    expect(t.total_itbis1).toBe(15.26);
    expect(t.total_itbis2).toBe(8);
  });

  it('only keys the type allows: 44 exempt, 46 rate 3, 47 no ITBIS', () => {
    expect(computeTotals('44', { items: [item(4, 150), item(0, 10)] }).totales).toEqual({ monto_exento: 150, monto_total: 150, monto_no_facturable: 10 });
    expect(computeTotals('46', { items: [item(3, 250)] }).totales).toEqual({
      monto_gravado_total: 250,
      monto_gravado_i3: 250,
      itbis3: 0,
      total_itbis: 0,
      total_itbis3: 0,
      monto_total: 250,
    });
    expect(computeTotals('47', { items: [{ ...item(4, 1000), retencion: { indicador: '1', isr_retenido: 270 } }] }).totales).toEqual({
      monto_exento: 1000,
      monto_total: 1000,
      total_isr_retencion: 270,
    });
    for (const tipo of ECF_TYPES) {
      const keys = totalesKeys(tipo);
      for (const k of Object.keys(computeTotals(tipo, { items: [item(1, 1), item(2, 1), item(3, 1), item(4, 1), item(0, 1)] }).totales))
        expect(keys.has(k), `${tipo} ${k}`).toBe(true);
    }
  });

  it('withholding and perception totals from the items (41)', () => {
    const doc = {
      items: [
        { ...item(1, 200), retencion: { indicador: '1', monto_itbis_retenido: 36, monto_isr_retenido: 20 } },
        { ...item(1, 100), retencion: { indicador: '2', monto_itbis_retenido: 5 } },
      ],
    };
    expect(computeTotals('41', doc).totales).toMatchObject({ total_itbis_retenido: 36, total_isr_retencion: 20, total_itbis_percepcion: 5 });
  });

  it('other additional taxes (R4): propina legal 10 % of the base, net of ITBIS when included', () => {
    const c = computeTotals('32', { id_doc: { indicador_monto_gravado: 1 }, items: [{ ...item(1, 118), impuestos_adicionales: [{ tipo_impuesto: '001' }] }] });
    expect(c.otherTaxes['001']!.rate).toBe(10);
    expect(c.totales.monto_impuesto_adicional).toBe(10);
    expect(c.totales.monto_total).toBe(128);
  });

  it('ISC (006–039) enters the ITBIS base of its items', () => {
    const doc = {
      items: [{ ...item(1, 1000), impuestos_adicionales: [{ tipo_impuesto: '006' }] }],
      totales: { impuestos_adicionales: [{ tipo_impuesto: '006', tasa_impuesto_adicional: 632.58, monto_impuesto_selectivo_consumo_especifico: 100 }] },
    };
    const t = computeTotals('31', doc).totales;
    expect(t.total_itbis1).toBe(198); // (1000 + 100) × 18 %
    expect(t.monto_impuesto_adicional).toBe(100);
    expect(t.monto_total).toBe(1298);
  });

  it('Norma 10-07: rate-1 base net of ITBIS, CDT and ISC telecom; discount not taken off the base', () => {
    const doc = {
      items: [{ ...item(1, 130), impuestos_adicionales: [{ tipo_impuesto: '002' }, { tipo_impuesto: '004' }] }],
      descuentos_recargos: [{ tipo_ajuste: 'D', indicador_norma_1007: 1, tipo_valor: '$', monto: 10, indicador_facturacion: 1 }],
      totales: { valor_pagar: 0 },
    };
    const c = computeTotals('31', doc);
    expect(c.norma1007).toBe(true);
    expect(c.totales.monto_gravado_i1).toBe(100); // 130 / 1.30
    expect(c.otherTaxes['002']!.amount).toBe(2n * 10n ** 8n);
    expect(c.otherTaxes['004']!.amount).toBe(10n * 10n ** 8n);
    expect(c.totales.monto_total).toBe(130);
    expect(c.totales.valor_pagar).toBe(120);
  });

  it('a discount larger than its lines is reported as negative', () => {
    const c = computeTotals('31', {
      items: [item(1, 100)],
      descuentos_recargos: [{ tipo_ajuste: 'D', tipo_valor: '$', monto: 150, indicador_facturacion: 1 }],
    });
    expect(c.negative).toContain('monto_gravado_i1');
  });

  it('never throws on partial documents', () => {
    for (const tipo of ECF_TYPES) {
      for (const doc of [{}, { items: null }, { items: [null, {}, { indicador_facturacion: 9 }] }, { totales: 'x', descuentos_recargos: [{}] }]) {
        expect(() => computeTotals(tipo, doc as Record<string, unknown>)).not.toThrow();
      }
    }
  });
});

describe('fillTotals', () => {
  it('fills item amounts and totals, generates 001–005 entries, keeps inputs', () => {
    const doc = {
      id_doc: { tipo_ingresos: '01', tipo_pago: '1' },
      items: [
        {
          indicador_facturacion: 1,
          nombre: 'Cena',
          indicador_bien_servicio: '2',
          cantidad: 1,
          precio_unitario: 1000,
          impuestos_adicionales: [{ tipo_impuesto: '001' }],
        },
      ],
      totales: { saldo_anterior: 50, valor_pagar: 0 },
    };
    const x = fillTotals('32', doc);
    expect((x.items[0] as Record<string, unknown>).monto).toBe(1000);
    expect(x.totales).toEqual({
      monto_gravado_total: 1000,
      monto_gravado_i1: 1000,
      itbis1: 18,
      total_itbis: 180,
      total_itbis1: 180,
      monto_impuesto_adicional: 100,
      monto_total: 1280,
      saldo_anterior: 50,
      valor_pagar: 1330,
      impuestos_adicionales: [{ tipo_impuesto: '001', tasa_impuesto_adicional: 10, otros_impuestos_adicionales: 100 }],
    });
    expect(doc.totales).toEqual({ saldo_anterior: 50, valor_pagar: 0 }); // input not mutated
  });

  it('is idempotent', () => {
    const once = fillTotals('31', { items: [item(1, 99.99, 3)] });
    expect(fillTotals('31', once)).toEqual(once);
  });
});

describe('additionalTaxKind', () => {
  it.each([
    ['001', 'otros'],
    ['005', 'otros'],
    ['006', 'especifico'],
    ['022', 'especifico'],
    ['023', 'advalorem'],
    ['039', 'advalorem'],
    ['040', null],
    ['1', null],
  ])('%s → %s', (code, kind) => {
    expect(additionalTaxKind(code)).toBe(kind);
  });
});
