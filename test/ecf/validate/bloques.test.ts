/** Block rules: additional taxes (ISC), global discounts/surcharges, other currency, pagination, informative subtotals, payments, withholding, line limits. */
import { describe, expect, it } from 'vitest';
import { baseDoc, refill, withLines } from '../helpers/docs.js';
import { errorsOf, expectError, expectValid, expectWarning, validate } from './helpers.js';

type Json = Record<string, any>;

function beer31(): Json {
  const d = baseDoc('31');
  d.items = [
    {
      indicador_facturacion: 1,
      nombre: 'Cerveza 12 oz',
      indicador_bien_servicio: '1',
      cantidad: 24,
      precio_unitario: 100,
      unidad_medida: '43',
      cantidad_referencia: 0.35,
      unidad_referencia: '47',
      subcantidades: [{ cantidad: 0.355, codigo: '47' }],
      grados_alcohol: 5,
      precio_unitario_referencia: 120,
      impuestos_adicionales: [{ tipo_impuesto: '006' }, { tipo_impuesto: '023' }],
    },
  ];
  d.totales = {
    impuestos_adicionales: [
      { tipo_impuesto: '006', tasa_impuesto_adicional: 632.58, monto_impuesto_selectivo_consumo_especifico: 265.68 },
      { tipo_impuesto: '023', tasa_impuesto_adicional: 10, monto_impuesto_selectivo_consumo_advalorem: 150.25 },
    ],
  };
  return refill('31', d);
}

describe('additional taxes (ECF-ISC-*)', () => {
  it('ISC specific + ad valorem: valid; ISC enters the rate-1 ITBIS base', () => {
    const d = beer31();
    expect(d.totales).toMatchObject({ monto_gravado_i1: 2400, monto_impuesto_adicional: 415.93, total_itbis1: 506.87, monto_total: 3322.8 });
    expectValid(validate('31', d));
  });

  it('ECF-ISC-CODIGOS: a code on items missing from totales', () => {
    const d = beer31();
    d.totales.impuestos_adicionales.pop();
    expectError(validate('31', d), 'totales.impuestos_adicionales', 'required', /Falta el impuesto adicional 023/, 'ECF-ISC-CODIGOS');
  });

  it('ECF-ISC-CODIGOS: a totales code no item carries', () => {
    const d = beer31();
    d.items[0].impuestos_adicionales = [{ tipo_impuesto: '006' }];
    expectError(
      validate('31', d),
      'totales.impuestos_adicionales.1.tipo_impuesto',
      'rule',
      /Ningún ítem lleva el código de impuesto adicional 023/,
      'ECF-ISC-CODIGOS',
    );
  });

  it('ECF-ISC-MONTO-CAMPO: specific ISC amount in the ad-valorem field', () => {
    const d = beer31();
    const e = d.totales.impuestos_adicionales[0];
    e.monto_impuesto_selectivo_consumo_advalorem = e.monto_impuesto_selectivo_consumo_especifico;
    delete e.monto_impuesto_selectivo_consumo_especifico;
    const r = validate('31', d);
    expectError(r, 'totales.impuestos_adicionales.0.monto_impuesto_selectivo_consumo_especifico', 'required', /ISC específico/, 'ECF-ISC-MONTO-CAMPO');
    expectError(r, 'totales.impuestos_adicionales.0.monto_impuesto_selectivo_consumo_advalorem', 'rule', /no lleva/, 'ECF-ISC-MONTO-CAMPO');
  });

  it('ECF-ISC-ITEM-DATOS: specific ISC needs reference quantity, subquantities and alcohol degrees', () => {
    const d = beer31();
    delete d.items[0].cantidad_referencia;
    delete d.items[0].unidad_referencia;
    delete d.items[0].grados_alcohol;
    delete d.items[0].subcantidades;
    const r = validate('31', d);
    expectError(r, 'items.0.cantidad_referencia', 'required', /cantidad de referencia/, 'ECF-ISC-ITEM-DATOS');
    expectError(r, 'items.0.grados_alcohol', 'required', /grados de alcohol/, 'ECF-ISC-ITEM-DATOS');
    expectError(r, 'items.0.subcantidades', 'required', /subcantidades/, 'ECF-ISC-ITEM-DATOS');
  });

  it('ECF-ISC-TASA: legal rate of propina legal (001) is 10 %', () => {
    const d = baseDoc('32');
    d.items[0].impuestos_adicionales = [{ tipo_impuesto: '001' }];
    const x = refill('32', d);
    expect(x.totales.impuestos_adicionales).toEqual([{ tipo_impuesto: '001', tasa_impuesto_adicional: 10, otros_impuestos_adicionales: 20 }]);
    expectValid(validate('32', x));
    x.totales.impuestos_adicionales[0].tasa_impuesto_adicional = 12;
    expectError(validate('32', x), 'totales.impuestos_adicionales.0.tasa_impuesto_adicional', 'rule', /10 %/, 'ECF-ISC-TASA');
  });

  it('ECF-ISC-TASA: unusual ad-valorem rate is a warning', () => {
    const d = beer31();
    d.totales.impuestos_adicionales[1].tasa_impuesto_adicional = 12;
    const r = validate('31', d);
    expect(r.success).toBe(true);
    expectWarning(r, 'totales.impuestos_adicionales.1.tasa_impuesto_adicional', 'ECF-ISC-TASA');
  });

  it('ECF-ISC-OTROS-MONTO: propina legal amount off', () => {
    const d = baseDoc('32');
    d.items[0].impuestos_adicionales = [{ tipo_impuesto: '001' }];
    const x = refill('32', d);
    x.totales.impuestos_adicionales[0].otros_impuestos_adicionales = 30;
    x.totales.monto_impuesto_adicional = 30;
    x.totales.monto_total = 266;
    expectError(validate('32', x), 'totales.impuestos_adicionales.0.otros_impuestos_adicionales', 'totals', /10 % de la base/, 'ECF-ISC-OTROS-MONTO');
  });

  it('ECF-TOT-CUADRE: monto_impuesto_adicional = Σ additional taxes', () => {
    const d = beer31();
    d.totales.monto_impuesto_adicional = 400;
    expectError(validate('31', d), 'totales.monto_impuesto_adicional', 'totals', /suma de los montos de totales\.impuestos_adicionales/);
  });
});

describe('global discounts and surcharges (ECF-DR-*)', () => {
  function withDiscount(dr: Json): Json {
    const d = baseDoc('31');
    d.descuentos_recargos = [dr];
    return refill('31', d);
  }

  it('a 10 % discount on rate-1 lines lowers the base; valid', () => {
    const d = withDiscount({ tipo_ajuste: 'D', descripcion: 'Pronto pago', tipo_valor: '%', valor: 10, monto: 20, indicador_facturacion: 1 });
    expect(d.totales).toMatchObject({ monto_gravado_i1: 180, total_itbis1: 32.4, monto_total: 212.4 });
    expectValid(validate('31', d));
  });

  it('a surcharge raises the base', () => {
    const d = withDiscount({ tipo_ajuste: 'R', tipo_valor: '$', monto: 50, indicador_facturacion: 1 });
    expect(d.totales).toMatchObject({ monto_gravado_i1: 250, total_itbis1: 45, monto_total: 295 });
    expectValid(validate('31', d));
  });

  it('ECF-DR-PORCENTAJE: amount not matching the percentage', () => {
    const d = withDiscount({ tipo_ajuste: 'D', tipo_valor: '%', valor: 10, monto: 25, indicador_facturacion: 1 });
    expectError(validate('31', d), 'descuentos_recargos.0.monto', 'totals', /10\.00 % de 200\.00/, 'ECF-DR-PORCENTAJE');
  });

  it('ECF-DR-CAMPOS: tipo_valor, monto and indicador_facturacion required; "%" needs valor', () => {
    const d = baseDoc('31');
    d.descuentos_recargos = [{ tipo_ajuste: 'D' }, { tipo_ajuste: 'D', tipo_valor: '%', monto: 1, indicador_facturacion: 1 }];
    const r = validate('31', d);
    expectError(r, 'descuentos_recargos.0.tipo_valor', 'required', undefined, 'ECF-DR-CAMPOS');
    expectError(r, 'descuentos_recargos.0.monto', 'required', undefined, 'ECF-DR-CAMPOS');
    expectError(r, 'descuentos_recargos.0.indicador_facturacion', 'required', undefined, 'ECF-DR-CAMPOS');
    expectError(r, 'descuentos_recargos.1.valor', 'required', /porcentaje/, 'ECF-DR-CAMPOS');
  });

  it('ECF-DR-INDICADOR: no items with that indicator', () => {
    const d = withDiscount({ tipo_ajuste: 'D', tipo_valor: '$', monto: 5, indicador_facturacion: 4 });
    expectError(validate('31', d), 'descuentos_recargos.0.indicador_facturacion', 'rule', /Ningún ítem tiene indicador_facturacion 4/, 'ECF-DR-INDICADOR');
  });

  it('ECF-DR-INDICADOR: indicator not admitted by the type (44: only 4)', () => {
    const d = baseDoc('44');
    d.descuentos_recargos = [{ tipo_ajuste: 'D', tipo_valor: '$', monto: 5, indicador_facturacion: 1 }];
    expectError(validate('44', d), 'descuentos_recargos.0.indicador_facturacion', 'enum', /no admitido en el tipo 44/, 'ECF-DR-INDICADOR');
  });

  it('ECF-DR-EXCEDE: a discount larger than its lines', () => {
    const d = baseDoc('31');
    d.descuentos_recargos = [{ tipo_ajuste: 'D', tipo_valor: '$', monto: 300, indicador_facturacion: 1 }];
    expectError(validate('31', refill('31', d)), 'descuentos_recargos', 'totals', /superan la suma/, 'ECF-DR-EXCEDE');
  });

  it('at most 20 entries (XSD)', () => {
    const d = baseDoc('31');
    d.descuentos_recargos = Array.from({ length: 21 }, () => ({ tipo_ajuste: 'R', tipo_valor: '$', monto: 1, indicador_facturacion: 1 }));
    expectError(validate('31', refill('31', d)), 'descuentos_recargos', 'too_many', /20/);
  });
});

describe('other currency (ECF-OM-*)', () => {
  function usd(): Json {
    const d = baseDoc('31');
    d.otra_moneda = {
      tipo_moneda: 'USD',
      tipo_cambio: 58.5,
      monto_gravado_total: 3.42,
      monto_gravado_i1: 3.42,
      total_itbis: 0.62,
      total_itbis1: 0.62,
      monto_total: 4.03,
    };
    d.items[0].otra_moneda = { precio: 1.7094, monto: 3.42 };
    return d;
  }

  it('amounts converted with tipo_cambio: valid', () => {
    expectValid(validate('31', usd()));
  });

  it('ECF-OM-CERO: a 0 counterpart of an absent DOP amount, and a 0 DOP amount without counterpart, are warnings (issue 15)', () => {
    const d = usd();
    d.otra_moneda.monto_exento = 0; // totales.monto_exento absent
    d.totales.total_itbis2 = 0; // no counterpart
    const r = validate('31', d);
    expectValid(r);
    expectWarning(r, 'otra_moneda.monto_exento', 'ECF-OM-CERO');
    expectWarning(r, 'totales.total_itbis2', 'ECF-TOT-CERO');
  });

  it('ECF-OM-MONTOS: a non-zero counterpart of an absent DOP amount is still an error', () => {
    const d = usd();
    d.otra_moneda.monto_exento = 1;
    expectError(validate('31', d), 'otra_moneda.monto_exento', 'totals', /no está declarado en pesos/, 'ECF-OM-MONTOS');
  });

  it('ECF-OM-TIPO: tipo_cambio required with the block', () => {
    const d = usd();
    delete d.otra_moneda.tipo_cambio;
    expectError(validate('31', d), 'otra_moneda.tipo_cambio', 'required', /tipo de cambio/, 'ECF-OM-TIPO');
  });

  it('ECF-OM-TIPO: tipo_moneda required with the block', () => {
    const d = usd();
    delete d.otra_moneda.tipo_moneda;
    expectError(validate('31', d), 'otra_moneda.tipo_moneda', 'required', /moneda/, 'ECF-OM-TIPO');
  });

  it('ECF-OM-MONTOS: converted total beyond tolerance', () => {
    const d = usd();
    d.otra_moneda.monto_total = 10;
    expectError(validate('31', d), 'otra_moneda.monto_total', 'totals', /se esperaba 4\.03 \(236\.00 \/ tipo_cambio 58\.5\)/, 'ECF-OM-MONTOS');
  });

  it('ECF-OM-MONTOS: counterpart of a DOP amount required', () => {
    const d = usd();
    delete d.otra_moneda.total_itbis1;
    expectError(validate('31', d), 'otra_moneda.total_itbis1', 'required', /se esperaba 0\.62/, 'ECF-OM-MONTOS');
  });

  it('ECF-OM-ITEM: line amount in other currency = precio × cantidad', () => {
    const d = usd();
    d.items[0].otra_moneda.monto = 5;
    expectError(validate('31', d), 'items.0.otra_moneda.monto', 'totals', /otra moneda de la línea 1/, 'ECF-OM-ITEM');
  });

  it('ECF-OM-ITEM: line in other currency without the header block', () => {
    const d = baseDoc('31');
    d.items[0].otra_moneda = { precio: 1.7094, monto: 3.42 };
    expectError(validate('31', d), 'items.0.otra_moneda', 'rule', /tipo_moneda y tipo_cambio/, 'ECF-OM-ITEM');
  });
});

describe('pagination (ECF-PAG-*)', () => {
  function paged(): Json {
    const d = withLines('31', 3);
    d.id_doc.total_paginas = 2;
    d.paginacion = [
      { pagina: 1, no_linea_desde: 1, no_linea_hasta: 2, monto_gravado: 400, monto_gravado_i1: 400, itbis: 72, itbis1: 72, monto: 472 },
      { pagina: 2, no_linea_desde: 3, no_linea_hasta: 3, monto_gravado: 200, monto_gravado_i1: 200, itbis: 36, itbis1: 36, monto: 236 },
    ];
    return d;
  }

  it('two pages covering three lines: valid', () => {
    expectValid(validate('31', paged()));
  });

  it('ECF-PAG-NUMERACION: pages numbered 1..n', () => {
    const d = paged();
    d.paginacion[1].pagina = 3;
    expectError(validate('31', d), 'paginacion.1.pagina', 'rule', /se esperaba 2/, 'ECF-PAG-NUMERACION');
  });

  it('ECF-PAG-NUMERACION: contiguous ranges covering the items', () => {
    const d = paged();
    d.paginacion[1].no_linea_desde = 4;
    d.paginacion[1].no_linea_hasta = 4;
    const r = validate('31', d);
    expectError(r, 'paginacion.1.no_linea_desde', 'rule', /línea 3/, 'ECF-PAG-NUMERACION');
    expectError(r, 'paginacion.1.no_linea_hasta', 'rule', /última línea de detalle \(3\)/, 'ECF-PAG-NUMERACION');
  });

  it('ECF-PAG-TOTAL-PAGINAS: equals the number of pages', () => {
    const d = paged();
    d.id_doc.total_paginas = 3;
    expectError(validate('31', d), 'id_doc.total_paginas', 'rule', /se esperaba 2/, 'ECF-PAG-TOTAL-PAGINAS');
  });

  it('ECF-PAG-TOTAL-PAGINAS: required with pagination', () => {
    const d = paged();
    delete d.id_doc.total_paginas;
    expectError(validate('31', d), 'id_doc.total_paginas', 'required', /se esperaba 2/, 'ECF-PAG-TOTAL-PAGINAS');
  });

  it('ECF-PAG-TOTAL-PAGINAS: a single page is not paginated', () => {
    const d = baseDoc('31');
    d.paginacion = [{ pagina: 1, no_linea_desde: 1, no_linea_hasta: 1, monto: 236 }];
    expectError(validate('31', d), 'paginacion', 'too_few', /más de una página/, 'ECF-PAG-TOTAL-PAGINAS');
  });

  it('ECF-PAG-SUBTOTALES: page subtotal = Σ of its lines', () => {
    const d = paged();
    d.paginacion[0].monto_gravado_i1 = 300;
    expectError(validate('31', d), 'paginacion.0.monto_gravado_i1', 'totals', /líneas 1 a 2/, 'ECF-PAG-SUBTOTALES');
  });

  it('ECF-PAG-MONTO-TOTAL: monto_total = Σ page amounts', () => {
    const d = paged();
    d.paginacion[1].monto = 300;
    d.paginacion[1].monto_gravado = 264;
    d.paginacion[1].monto_gravado_i1 = 264;
    const r = validate('31', d);
    expectError(r, 'totales.monto_total', 'totals', /suma de los subtotales de página/, 'ECF-PAG-MONTO-TOTAL');
  });
});

describe('informative subtotals (ECF-SUB-*)', () => {
  it('consistent subtotal: valid', () => {
    const d = baseDoc('31');
    d.subtotales = [{ numero: 1, descripcion: 'Bebidas', monto_gravado_total: 200, monto_gravado_i1: 200, itbis: 36, itbis1: 36, monto: 236, lineas: 1 }];
    expectValid(validate('31', d));
  });

  it('ECF-SUB-CUADRE: monto = sum of its parts', () => {
    const d = baseDoc('31');
    d.subtotales = [{ numero: 1, monto_gravado_total: 200, monto_gravado_i1: 200, itbis: 36, itbis1: 36, monto: 240 }];
    expectError(validate('31', d), 'subtotales.0.monto', 'totals', /se esperaba 236\.00/, 'ECF-SUB-CUADRE');
  });

  it('ECF-SUB-CUADRE: gravado total = i1 + i2 + i3', () => {
    const d = baseDoc('31');
    d.subtotales = [{ monto_gravado_total: 150, monto_gravado_i1: 200 }];
    expectError(validate('31', d), 'subtotales.0.monto_gravado_total', 'totals', /monto_gravado_i1/, 'ECF-SUB-CUADRE');
  });

  it('ECF-SUB-LINEAS: lines ≤ items and sequential numbers', () => {
    const d = baseDoc('31');
    d.subtotales = [{ numero: 2, lineas: 5, monto: 0 }];
    const r = validate('31', d);
    expectError(r, 'subtotales.0.lineas', 'range', /tiene 1/, 'ECF-SUB-LINEAS');
    expectError(r, 'subtotales.0.numero', 'rule', /se esperaba 1/, 'ECF-SUB-LINEAS');
  });

  it('at most 20 subtotals (XSD)', () => {
    const d = baseDoc('31');
    d.subtotales = Array.from({ length: 21 }, (_, i) => ({ numero: i + 1, monto: 0 }));
    expectError(validate('31', d), 'subtotales', 'too_many', /20/);
  });
});

describe('payments (ECF-PAGO-*)', () => {
  it('at most 7 payment forms (XSD)', () => {
    const d = baseDoc('31');
    d.id_doc.formas_pago = Array.from({ length: 8 }, () => ({ forma: '1', monto: 29.5 }));
    expectError(validate('31', d), 'id_doc.formas_pago', 'too_many', /7/);
  });

  it('ECF-PAGO-SUMA: sum different from the total is a warning, not an error', () => {
    const d = baseDoc('31');
    d.id_doc.formas_pago = [{ forma: '1', monto: 100 }];
    const r = validate('31', d);
    expect(r.success).toBe(true);
    expectWarning(r, 'id_doc.formas_pago', 'ECF-PAGO-SUMA');
  });

  it('ECF-PAGO-SUMA: forms adding up to the total: no warning', () => {
    const d = baseDoc('31');
    d.id_doc.formas_pago = [
      { forma: '1', monto: 136 },
      { forma: '3', monto: 100 },
    ];
    const r = validate('31', d);
    expectValid(r);
    expect(r.warnings).toEqual([]);
  });

  it('ECF-PAGO-CREDITO: credit sale without due date is a warning', () => {
    const d = baseDoc('31');
    d.id_doc.tipo_pago = '2';
    const r = validate('31', d);
    expect(r.success).toBe(true);
    expectWarning(r, 'id_doc.fecha_limite_pago', 'ECF-PAGO-CREDITO');
  });
});

describe('items (ECF-ITEM-*, ECF-RET-*)', () => {
  it('ECF-ITEM-SUBDESCUENTOS: descuento_monto = Σ sub_descuentos', () => {
    const d = baseDoc('31');
    Object.assign(d.items[0], { descuento_monto: 20, sub_descuentos: [{ tipo: '$', monto: 15 }], monto: 180 });
    const x = refill('31', d);
    x.items[0].monto = 180;
    expectError(validate('31', x), 'items.0.descuento_monto', 'totals', /se esperaba 15\.00/, 'ECF-ITEM-SUBDESCUENTOS');
  });

  it('ECF-ITEM-SUBDESCUENTOS: descuento_monto needs its table', () => {
    const d = baseDoc('31');
    d.items[0].descuento_monto = 20;
    expectError(validate('31', refill('31', d)), 'items.0.sub_descuentos', 'required', /sub_descuentos/, 'ECF-ITEM-SUBDESCUENTOS');
  });

  it('ECF-ITEM-SUBRECARGOS: "%" needs porcentaje and a matching amount', () => {
    const d = baseDoc('31');
    Object.assign(d.items[0], { recargo_monto: 10, sub_recargos: [{ tipo: '%', porcentaje: 10, monto: 10 }] });
    expectError(validate('31', refill('31', d)), 'items.0.sub_recargos.0.monto', 'totals', /se esperaba 20\.00/, 'ECF-ITEM-SUBRECARGOS');
  });

  it('ECF-RET-INDICADOR: retention block on 31 needs its indicator', () => {
    const d = baseDoc('31');
    d.items[0].retencion = { monto_itbis_retenido: 36 };
    expectError(validate('31', refill('31', d)), 'items.0.retencion.indicador', 'required', /indicador/, 'ECF-RET-INDICADOR');
  });
});

describe('ECF-ITEMS-MAX: line limits from doc-types.ts', () => {
  const cheap = { indicador_facturacion: 4, nombre: 'Pan', indicador_bien_servicio: '1', cantidad: 1, precio_unitario: 10 };

  it('31 with 1,000 lines passes; 1,001 fails', () => {
    expectValid(validate('31', withLines('31', 1000)));
    expectError(validate('31', withLines('31', 1001)), 'items', 'too_many', /1000 líneas/, 'ECF-ITEMS-MAX');
  });

  it('32 with 1,001 lines below RD$250,000 passes', () => {
    const d = withLines('32', 1001, cheap);
    expect(d.totales.monto_total).toBe(10010);
    expectValid(validate('32', d));
  });

  it('32 with 10,000 lines below the threshold passes', () => {
    expectValid(validate('32', withLines('32', 10_000, cheap)));
  });

  it('32 with 1,001 lines exactly at RD$250,000.00 fails', () => {
    const d = withLines('32', 1001, { ...cheap, precio_unitario: 250 });
    d.items[0].precio_unitario = 0;
    const x = refill('32', d);
    expect(x.totales.monto_total).toBe(250_000);
    x.comprador = { rnc: '131880738', razon_social: 'Cliente SRL' };
    expectError(validate('32', x), 'items', 'too_many', /igual o mayor que RD\$250000\.00/, 'ECF-ITEMS-MAX');
  });

  it('32 with 1,001 lines above the threshold fails', () => {
    const d = withLines('32', 1001, { ...cheap, precio_unitario: 300 });
    d.comprador = { rnc: '131880738', razon_social: 'Cliente SRL' };
    const r = validate('32', d);
    expectError(r, 'items', 'too_many', undefined, 'ECF-ITEMS-MAX');
    expect(errorsOf(r)).toHaveLength(1);
  });
});

describe('ECF-ISC-ENTRADA (code and rate optional in some XSDs)', () => {
  it('34: a totales entry without code or rate', () => {
    const d = baseDoc('34');
    d.items[0].impuestos_adicionales = [{ tipo_impuesto: '001' }];
    const x = refill('34', d);
    delete x.totales.impuestos_adicionales[0].tipo_impuesto;
    delete x.totales.impuestos_adicionales[0].tasa_impuesto_adicional;
    const r = validate('34', x);
    expectError(r, 'totales.impuestos_adicionales.0.tipo_impuesto', 'required', /código del impuesto/, 'ECF-ISC-ENTRADA');
    expectError(r, 'totales.impuestos_adicionales.0.tasa_impuesto_adicional', 'required', /tasa/, 'ECF-ISC-ENTRADA');
  });
});
