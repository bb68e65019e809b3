/**
 * One case per row of the service spec's "Frequent validation errors" table and per "Particularities by type"
 * item: a valid base document of the type is mutated once and the exact path, code and a Spanish message with the
 * relevant keyword are asserted. Cases are named after the field path or rule id.
 */
import { describe, expect, it } from 'vitest';
import type { Issue } from '../../../src/shared/issues.js';
import type { EcfType } from '../../../src/ecf/spec/model.js';
import { baseDoc, refill } from '../helpers/docs.js';
import { expectError, expectValid, expectWarning, validate } from './helpers.js';

type Json = Record<string, any>;

interface Case {
  name: string;
  tipo: EcfType;
  mutate: (doc: Json) => Json | void;
  path: string;
  code: Issue['code'];
  keyword?: RegExp;
  ruleId?: string;
  fechaEmision?: string | null;
  /** The spec's reading is stricter than DGII (issue 15): the case is a warning, the document is accepted. */
  warning?: true;
}

const ADD_ISC_ITEM = (doc: Json) => {
  doc.items[0].impuestos_adicionales = [{ tipo_impuesto: '001' }];
};

/** Rows of "Frequent validation errors" (spec § Errors). */
const FREQUENT: Case[] = [
  {
    name: 'items.0.retencion required on 41 (Item retention block missing)',
    tipo: '41',
    mutate: (d) => void delete d.items[0].retencion,
    path: 'items.0.retencion',
    code: 'required',
    keyword: /retención/,
  },
  {
    name: 'items.0.retencion required on 47 (Item retention block missing)',
    tipo: '47',
    mutate: (d) => void delete d.items[0].retencion,
    path: 'items.0.retencion',
    code: 'required',
    keyword: /retención/,
  },
  {
    name: 'items.0.retencion.indicador required on 41 (Retention indicator missing)',
    tipo: '41',
    mutate: (d) => void delete d.items[0].retencion.indicador,
    path: 'items.0.retencion.indicador',
    code: 'required',
    keyword: /indicador/,
  },
  {
    name: 'items.0.retencion.isr_retenido required on 47 (ISR withheld missing)',
    tipo: '47',
    mutate: (d) => void delete d.items[0].retencion.isr_retenido,
    path: 'items.0.retencion.isr_retenido',
    code: 'required',
    keyword: /ISR retenido/,
  },
  {
    name: 'id_doc.tipo_ingresos not allowed on 41 (Income type sent)',
    tipo: '41',
    mutate: (d) => void (d.id_doc.tipo_ingresos = '01'),
    path: 'id_doc.tipo_ingresos',
    code: 'not_allowed',
    keyword: /tipo 41.*tipo de ingresos/,
  },
  {
    name: 'ECF-IDDOC-TIPO-INGRESOS on 33 (Income type missing): a warning, the XSD makes it optional',
    tipo: '33',
    mutate: (d) => void delete d.id_doc.tipo_ingresos,
    path: 'id_doc.tipo_ingresos',
    code: 'required',
    keyword: /tipo de ingresos/,
    ruleId: 'ECF-IDDOC-TIPO-INGRESOS',
    warning: true,
  },
  {
    name: 'ECF-IDDOC-TIPO-INGRESOS on 34 (Income type missing): a warning, the XSD makes it optional',
    tipo: '34',
    mutate: (d) => void delete d.id_doc.tipo_ingresos,
    path: 'id_doc.tipo_ingresos',
    code: 'required',
    keyword: /tipo 34/,
    ruleId: 'ECF-IDDOC-TIPO-INGRESOS',
    warning: true,
  },
  {
    name: 'comprador.rnc required on 41 (Buyer tax id missing)',
    tipo: '41',
    mutate: (d) => void delete d.comprador.rnc,
    path: 'comprador.rnc',
    code: 'required',
    keyword: /RNC/,
  },
  {
    name: 'comprador.rnc not allowed on 47 (Buyer tax id sent)',
    tipo: '47',
    mutate: (d) => void (d.comprador.rnc = '131880738'),
    path: 'comprador.rnc',
    code: 'not_allowed',
    keyword: /identificador_extranjero/,
  },
  {
    name: 'totales.total_itbis not allowed on 47 (Total ITBIS sent)',
    tipo: '47',
    mutate: (d) => void (d.totales.total_itbis = 0),
    path: 'totales.total_itbis',
    code: 'not_allowed',
    keyword: /ITBIS/,
  },
  {
    name: 'id_doc.indicador_nota_credito required on 34 (Credit-note indicator missing)',
    tipo: '34',
    mutate: (d) => void delete d.id_doc.indicador_nota_credito,
    path: 'id_doc.indicador_nota_credito',
    code: 'required',
    keyword: /30 días/,
  },
  {
    name: 'referencia required on 33 (Reference block missing)',
    tipo: '33',
    mutate: (d) => void delete d.referencia,
    path: 'referencia',
    code: 'required',
    keyword: /referencia/,
  },
  {
    name: 'referencia required on 34 (Reference block missing)',
    tipo: '34',
    mutate: (d) => void delete d.referencia,
    path: 'referencia',
    code: 'required',
    keyword: /referencia/,
  },
  {
    name: 'ECF-REF-CODIGO on 33: code 5 (Modification code invalid)',
    tipo: '33',
    mutate: (d) => void (d.referencia.codigo_modificacion = '5'),
    path: 'referencia.codigo_modificacion',
    code: 'enum',
    keyword: /solo 1 .*4 .*exclusivo del tipo 31/,
    ruleId: 'ECF-REF-CODIGO',
  },
  {
    name: 'ECF-REF-CODIGO on 34: code 5 (Modification code invalid)',
    tipo: '34',
    mutate: (d) => void (d.referencia.codigo_modificacion = '5'),
    path: 'referencia.codigo_modificacion',
    code: 'enum',
    keyword: /código 5/i,
    ruleId: 'ECF-REF-CODIGO',
  },
  {
    name: 'referencia.codigo_modificacion on 34: code 6 out of catalog (Modification code invalid)',
    tipo: '34',
    mutate: (d) => void (d.referencia.codigo_modificacion = '6'),
    path: 'referencia.codigo_modificacion',
    code: 'enum',
    keyword: /valores válidos/,
  },
  {
    name: 'referencia.fecha_ncf_modificado on 33 not dd-MM-yyyy (Date of modified NCF)',
    tipo: '33',
    mutate: (d) => void (d.referencia.fecha_ncf_modificado = '2026-03-15'),
    path: 'referencia.fecha_ncf_modificado',
    code: 'date',
    keyword: /dd-MM-yyyy/,
  },
  {
    name: 'referencia.fecha_ncf_modificado on 34 not dd-MM-yyyy (Date of modified NCF)',
    tipo: '34',
    mutate: (d) => void (d.referencia.fecha_ncf_modificado = '15/03/2026'),
    path: 'referencia.fecha_ncf_modificado',
    code: 'date',
    keyword: /dd-MM-yyyy/,
  },
  {
    name: 'totales.itbis1 not allowed on 46 (ITBIS rate 1 sent)',
    tipo: '46',
    mutate: (d) => void (d.totales.itbis1 = 18),
    path: 'totales.itbis1',
    code: 'not_allowed',
    keyword: /tasa 3/,
  },
  {
    name: 'totales.monto_exento not allowed on 46 (exempt amount sent)',
    tipo: '46',
    mutate: (d) => void (d.totales.monto_exento = 0),
    path: 'totales.monto_exento',
    code: 'not_allowed',
    keyword: /monto_gravado_i3/,
  },
  {
    name: 'comprador.razon_social required on 44 (Buyer name missing)',
    tipo: '44',
    mutate: (d) => void delete d.comprador.razon_social,
    path: 'comprador.razon_social',
    code: 'required',
    keyword: /razón social/,
  },
  {
    name: 'comprador.razon_social required on 46 (Buyer name missing)',
    tipo: '46',
    mutate: (d) => void delete d.comprador.razon_social,
    path: 'comprador.razon_social',
    code: 'required',
    keyword: /razón social/,
  },
  {
    name: 'comprador.pais on 46: two capitals that are no ISO code (Buyer country invalid)',
    tipo: '46',
    mutate: (d) => void (d.comprador.pais = 'XX'),
    path: 'comprador.pais',
    code: 'enum',
    keyword: /código ISO/,
  },
  {
    name: 'comprador.pais on 46: a name the XSD pattern refuses (digits)',
    tipo: '46',
    mutate: (d) => void (d.comprador.pais = 'País 9'),
    path: 'comprador.pais',
    code: 'pattern',
  },
  {
    name: 'ECF-TOT-CONDICIONAL on 46: monto_gravado_i3 missing (Rate-3 amounts missing)',
    tipo: '46',
    mutate: (d) => void delete d.totales.monto_gravado_i3,
    path: 'totales.monto_gravado_i3',
    code: 'required',
    keyword: /indicador_facturacion 3/,
    ruleId: 'ECF-TOT-CONDICIONAL',
  },
  {
    name: 'ECF-TOT-CONDICIONAL on 46: itbis3 missing (Rate-3 amounts missing)',
    tipo: '46',
    mutate: (d) => void delete d.totales.itbis3,
    path: 'totales.itbis3',
    code: 'required',
    keyword: /se esperaba 0/,
    ruleId: 'ECF-TOT-CONDICIONAL',
  },
  {
    name: 'ECF-TOT-CONDICIONAL on 46: total_itbis3 missing (Rate-3 amounts missing)',
    tipo: '46',
    mutate: (d) => void delete d.totales.total_itbis3,
    path: 'totales.total_itbis3',
    code: 'required',
    keyword: /se esperaba 0\.00/,
    ruleId: 'ECF-TOT-CONDICIONAL',
  },
  {
    name: 'totales.monto_gravado_total not allowed on 44 (Taxable total sent)',
    tipo: '44',
    mutate: (d) => void (d.totales.monto_gravado_total = 150),
    path: 'totales.monto_gravado_total',
    code: 'not_allowed',
    keyword: /no permitido en el tipo 44.*use monto_exento/,
  },
];

/** "Total does not reconcile — any type": one case per type. */
const RECONCILE: Case[] = (['31', '32', '33', '34', '41', '43', '44', '45', '46', '47'] as const).map((tipo) => ({
  name: `ECF-TOT-CUADRE on ${tipo}: totales.monto_total off by 50 (Total does not reconcile)`,
  tipo,
  mutate: (d: Json) => void (d.totales.monto_total += 50),
  path: 'totales.monto_total',
  code: 'totals' as const,
  keyword: /El total no cuadra: se esperaba \d+\.\d{2} \(monto gravado .* \+ ITBIS .* \+ exento .* \+ impuestos adicionales .*\), se recibió/,
  ruleId: 'ECF-TOT-CUADRE',
}));

/** "Particularities by type" (spec § Resources and fields). */
const PARTICULARITIES: Case[] = [
  // 33
  {
    name: '33 ECF-PAGO-BONOS: payment form 5 reserved to 32',
    tipo: '33',
    mutate: (d) => void (d.id_doc.formas_pago = [{ forma: '5', monto: d.totales.monto_total }]),
    path: 'id_doc.formas_pago.0.forma',
    code: 'enum',
    keyword: /bonos/,
    ruleId: 'ECF-PAGO-BONOS',
  },
  {
    name: '33 ECF-REF-CODIGO: only 1 to 4',
    tipo: '33',
    mutate: (d) => void (d.referencia.codigo_modificacion = '5'),
    path: 'referencia.codigo_modificacion',
    code: 'enum',
    ruleId: 'ECF-REF-CODIGO',
  },
  {
    name: '33 referencia.ncf_modificado required',
    tipo: '33',
    mutate: (d) => void delete d.referencia.ncf_modificado,
    path: 'referencia.ncf_modificado',
    code: 'required',
    keyword: /comprobante modificado/,
  },
  {
    name: '33 ECF-ITEMS-MAX: at most 1,000 lines',
    tipo: '33',
    mutate: (d) => manyLines('33', d, 1001),
    path: 'items',
    code: 'too_many',
    keyword: /1000 líneas/,
    ruleId: 'ECF-ITEMS-MAX',
  },
  // 34
  {
    name: '34 ECF-NC-INDICADOR: more than 30 days requires 1',
    tipo: '34',
    mutate: (d) => void (d.referencia.fecha_ncf_modificado = '01-02-2026'),
    path: 'id_doc.indicador_nota_credito',
    code: 'rule',
    keyword: /se esperaba 1/,
    ruleId: 'ECF-NC-INDICADOR',
  },
  {
    name: '34 ECF-NC-SIN-ITBIS: indicator 1 declares no ITBIS',
    tipo: '34',
    mutate: (d) => {
      d.referencia.fecha_ncf_modificado = '01-02-2026';
      d.id_doc.indicador_nota_credito = 1;
    },
    path: 'totales.total_itbis',
    code: 'rule',
    keyword: /sin ITBIS/,
    ruleId: 'ECF-NC-SIN-ITBIS',
  },
  {
    name: '34 ECF-NC-TEXTO: code 2 with amounts other than 0 is a warning (DGII accepts it)',
    tipo: '34',
    mutate: (d) => void (d.referencia.codigo_modificacion = '2'),
    path: 'items.0.monto',
    code: 'rule',
    keyword: /corrección de texto/,
    ruleId: 'ECF-NC-TEXTO',
    warning: true,
  },
  {
    name: '34 ECF-REF-CODIGO: only 1 to 4',
    tipo: '34',
    mutate: (d) => void (d.referencia.codigo_modificacion = '5'),
    path: 'referencia.codigo_modificacion',
    code: 'enum',
    ruleId: 'ECF-REF-CODIGO',
  },
  {
    name: '34 id_doc.formas_pago not allowed (payment forms do not apply)',
    tipo: '34',
    mutate: (d) => void (d.id_doc.formas_pago = [{ forma: '1', monto: 118 }]),
    path: 'id_doc.formas_pago',
    code: 'not_allowed',
    keyword: /formas .*de pago no aplican/,
  },
  {
    name: '34 items.0.precio_unitario positive (sign comes from the type)',
    tipo: '34',
    mutate: (d) => void (d.items[0].precio_unitario = -100),
    path: 'items.0.precio_unitario',
    code: 'range',
    keyword: /negativo/,
  },
  {
    name: '34 ECF-ITEMS-MAX: at most 1,000 lines',
    tipo: '34',
    mutate: (d) => manyLines('34', d, 1001),
    path: 'items',
    code: 'too_many',
    ruleId: 'ECF-ITEMS-MAX',
  },
  // 41
  {
    name: '41 id_doc.indicador_envio_diferido does not exist',
    tipo: '41',
    mutate: (d) => void (d.id_doc.indicador_envio_diferido = 1),
    path: 'id_doc.indicador_envio_diferido',
    code: 'not_allowed',
    keyword: /envío diferido/,
  },
  {
    name: '41 items.0.impuestos_adicionales not allowed (no ISC in items)',
    tipo: '41',
    mutate: ADD_ISC_ITEM,
    path: 'items.0.impuestos_adicionales',
    code: 'not_allowed',
    keyword: /impuestos adicionales/,
  },
  {
    name: '41 totales.impuestos_adicionales not allowed (no ISC in totals)',
    tipo: '41',
    mutate: (d) => void (d.totales.impuestos_adicionales = [{ tipo_impuesto: '006', tasa_impuesto_adicional: 10 }]),
    path: 'totales.impuestos_adicionales',
    code: 'not_allowed',
    keyword: /ISC/,
  },
  {
    name: '41 comprador.razon_social required',
    tipo: '41',
    mutate: (d) => void delete d.comprador.razon_social,
    path: 'comprador.razon_social',
    code: 'required',
    keyword: /razón social/,
  },
  {
    name: '41 ECF-ITEMS-MAX: at most 1,000 lines',
    tipo: '41',
    mutate: (d) => manyLines('41', d, 1001),
    path: 'items',
    code: 'too_many',
    ruleId: 'ECF-ITEMS-MAX',
  },
  // 44
  {
    name: '44 totales.total_itbis not allowed (no ITBIS)',
    tipo: '44',
    mutate: (d) => void (d.totales.total_itbis = 0),
    path: 'totales.total_itbis',
    code: 'not_allowed',
    keyword: /monto_exento/,
  },
  {
    name: '44 totales.itbis1 not allowed (no ITBIS)',
    tipo: '44',
    mutate: (d) => void (d.totales.itbis1 = 18),
    path: 'totales.itbis1',
    code: 'not_allowed',
    keyword: /ITBIS/,
  },
  {
    name: '44 ECF-TOT-CUADRE: monto_total = monto_exento + additional taxes',
    tipo: '44',
    mutate: (d) => with44Tax(d, (x) => (x.totales.monto_total = x.totales.monto_exento)),
    path: 'totales.monto_total',
    code: 'totals',
    keyword: /impuestos adicionales 15\.00/,
    ruleId: 'ECF-TOT-CUADRE',
  },
  {
    name: '44 ECF-ITEM-INDICADOR: items indicator 4 (or 0)',
    tipo: '44',
    mutate: (d) => void (d.items[0].indicador_facturacion = 1),
    path: 'items.0.indicador_facturacion',
    code: 'enum',
    keyword: /4 \(exento\), 0 \(no facturable\)/,
    ruleId: 'ECF-ITEM-INDICADOR',
  },
  {
    name: '44 items.0.retencion not allowed (no withholding)',
    tipo: '44',
    mutate: (d) => void (d.items[0].retencion = { indicador: '1', monto_isr_retenido: 1 }),
    path: 'items.0.retencion',
    code: 'not_allowed',
    keyword: /retención/,
  },
  {
    name: '44 descuentos_recargos.0.indicador_norma_1007 not allowed',
    tipo: '44',
    mutate: (d) => void (d.descuentos_recargos = [{ tipo_ajuste: 'D', indicador_norma_1007: 1, tipo_valor: '$', monto: 10, indicador_facturacion: 4 }]),
    path: 'descuentos_recargos.0.indicador_norma_1007',
    code: 'not_allowed',
    keyword: /indicador_norma_1007/,
  },
  {
    name: '44 ECF-ISC-CODIGOS: ISC codes (006–039) not admitted',
    tipo: '44',
    mutate: (d) => void (d.items[0].impuestos_adicionales = [{ tipo_impuesto: '006' }]),
    path: 'items.0.impuestos_adicionales.0.tipo_impuesto',
    code: 'enum',
    keyword: /no admitido en el tipo 44/,
    ruleId: 'ECF-ISC-CODIGOS',
  },
  {
    name: '44 ECF-ITEMS-MAX: at most 1,000 lines',
    tipo: '44',
    mutate: (d) => manyLines('44', d, 1001),
    path: 'items',
    code: 'too_many',
    ruleId: 'ECF-ITEMS-MAX',
  },
  // 46
  {
    name: '46 totales.itbis2 not allowed (only rate 3)',
    tipo: '46',
    mutate: (d) => void (d.totales.itbis2 = 16),
    path: 'totales.itbis2',
    code: 'not_allowed',
    keyword: /solo existe la tasa 3/,
  },
  {
    name: '46 ECF-ITEM-INDICADOR: items use indicator 3',
    tipo: '46',
    mutate: (d) => void (d.items[0].indicador_facturacion = 1),
    path: 'items.0.indicador_facturacion',
    code: 'enum',
    keyword: /3 \(ITBIS tasa 3/,
    ruleId: 'ECF-ITEM-INDICADOR',
  },
  {
    name: '46 items.0.retencion not allowed (no withholding)',
    tipo: '46',
    mutate: (d) => void (d.items[0].retencion = { indicador: '1' }),
    path: 'items.0.retencion',
    code: 'not_allowed',
    keyword: /retención/,
  },
  {
    name: '46 items.0.impuestos_adicionales not allowed (no ISC in items)',
    tipo: '46',
    mutate: ADD_ISC_ITEM,
    path: 'items.0.impuestos_adicionales',
    code: 'not_allowed',
    keyword: /ISC/,
  },
  {
    name: '46 ECF-ITEMS-MAX: at most 1,000 lines',
    tipo: '46',
    mutate: (d) => manyLines('46', d, 1001),
    path: 'items',
    code: 'too_many',
    ruleId: 'ECF-ITEMS-MAX',
  },
  // 47
  {
    name: '47 totales.monto_impuesto_adicional not allowed (no ISC)',
    tipo: '47',
    mutate: (d) => void (d.totales.monto_impuesto_adicional = 10),
    path: 'totales.monto_impuesto_adicional',
    code: 'not_allowed',
    keyword: /impuestos adicionales/,
  },
  {
    name: '47 items.0.impuestos_adicionales not allowed (no ISC)',
    tipo: '47',
    mutate: ADD_ISC_ITEM,
    path: 'items.0.impuestos_adicionales',
    code: 'not_allowed',
    keyword: /ISC/,
  },
  {
    name: '47 totales.itbis1 not allowed (no ITBIS)',
    tipo: '47',
    mutate: (d) => void (d.totales.itbis1 = 18),
    path: 'totales.itbis1',
    code: 'not_allowed',
    keyword: /ITBIS/,
  },
  {
    name: '47 ECF-ITEM-INDICADOR: no taxed lines',
    tipo: '47',
    mutate: (d) => void (d.items[0].indicador_facturacion = 1),
    path: 'items.0.indicador_facturacion',
    code: 'enum',
    keyword: /no admitido en el tipo 47/,
    ruleId: 'ECF-ITEM-INDICADOR',
  },
  {
    name: '47 ECF-ITEMS-MAX: at most 1,000 lines',
    tipo: '47',
    mutate: (d) => manyLines('47', d, 1001),
    path: 'items',
    code: 'too_many',
    ruleId: 'ECF-ITEMS-MAX',
  },
  // 32
  {
    name: '32 ECF-ITEMS-MAX: 10,001 lines below the threshold',
    tipo: '32',
    mutate: (d) => manyLines('32', cheap32(d), 10_001),
    path: 'items',
    code: 'too_many',
    keyword: /10000 líneas/,
    ruleId: 'ECF-ITEMS-MAX',
  },
  {
    name: '32 ECF-COMPRADOR-UMBRAL: buyer identified at or above RD 250,000',
    tipo: '32',
    mutate: (d) => big32(d),
    path: 'comprador.rnc',
    code: 'required',
    keyword: /250000\.00/,
    ruleId: 'ECF-COMPRADOR-UMBRAL',
  },
  {
    name: '31 ECF-PAGO-BONOS: payment form 5 reserved to 32',
    tipo: '31',
    mutate: (d) => void (d.id_doc.formas_pago = [{ forma: '5', monto: d.totales.monto_total }]),
    path: 'id_doc.formas_pago.0.forma',
    code: 'enum',
    keyword: /tipo 32/,
    ruleId: 'ECF-PAGO-BONOS',
  },
];

function manyLines(tipo: EcfType, d: Json, n: number): Json {
  const line = structuredClone(d.items[0]);
  d.items = Array.from({ length: n }, () => structuredClone(line));
  return refill(tipo, d);
}

function with44Tax(d: Json, after: (x: Json) => void): Json {
  d.items[0].impuestos_adicionales = [{ tipo_impuesto: '001' }];
  const x = refill('44', d);
  expect(x.totales.impuestos_adicionales).toEqual([{ tipo_impuesto: '001', tasa_impuesto_adicional: 10, otros_impuestos_adicionales: 15 }]);
  expect(x.totales.monto_total).toBe(165);
  after(x);
  return x;
}

function cheap32(d: Json): Json {
  d.items[0] = { indicador_facturacion: 4, nombre: 'Pan', indicador_bien_servicio: '1', cantidad: 1, precio_unitario: 10 };
  return d;
}

function big32(d: Json): Json {
  d.items[0].precio_unitario = 150_000;
  delete d.comprador;
  return refill('32', d);
}

function run(c: Case): void {
  const doc = baseDoc(c.tipo);
  const mutated = c.mutate(doc) ?? doc;
  const r = validate(c.tipo, mutated, c.fechaEmision);
  if (!c.warning) {
    expectError(r, c.path, c.code, c.keyword, c.ruleId);
    return;
  }
  // A warning case: accepted, and the warning carries the same path, code, rule and message.
  expectValid(r);
  const w = expectWarning(r, c.path, c.ruleId);
  expect(w.code).toBe(c.code);
  if (c.keyword) expect(w.message).toMatch(c.keyword);
}

describe('spec "Frequent validation errors" — one case per row', () => {
  it.each(FREQUENT.map((c) => [c.name, c] as const))('%s', (_n, c) => run(c));
});

describe('spec "Frequent validation errors" — Total does not reconcile, every type', () => {
  it.each(RECONCILE.map((c) => [c.name, c] as const))('%s', (_n, c) => run(c));
});

describe('spec "Particularities by type"', () => {
  it.each(PARTICULARITIES.map((c) => [c.name, c] as const))('%s', (_n, c) => run(c));
});

describe('particularities that must pass', () => {
  it('44 ECF-ITEM-INDICADOR admits indicator 0 (no facturable)', () => {
    const d = baseDoc('44');
    d.items.push({ indicador_facturacion: 0, nombre: 'Muestra sin valor', indicador_bien_servicio: '1', cantidad: 1, precio_unitario: 10 });
    const x = refill('44', d);
    expect(x.totales.monto_no_facturable).toBe(10);
    expectValid(validate('44', x));
  });

  it('44 with additional tax 001: monto_total = monto_exento + impuestos adicionales', () => {
    const d = baseDoc('44');
    d.items[0].impuestos_adicionales = [{ tipo_impuesto: '001' }];
    const x = refill('44', d);
    expect(x.totales).toMatchObject({ monto_exento: 150, monto_impuesto_adicional: 15, monto_total: 165 });
    expectValid(validate('44', x));
  });

  it('32 ECF-PAGO-BONOS: payment form 5 is valid on 32', () => {
    const d = baseDoc('32');
    d.id_doc.formas_pago = [{ forma: '5', monto: d.totales.monto_total }];
    expectValid(validate('32', d));
  });

  it('46 with indicator 0 line besides indicator 3 is valid', () => {
    const d = baseDoc('46');
    d.items.push({ indicador_facturacion: 0, nombre: 'Muestra', indicador_bien_servicio: '1', cantidad: 1, precio_unitario: 5 });
    expectValid(validate('46', refill('46', d)));
  });

  it('47 comprador is optional', () => {
    const d = baseDoc('47');
    delete d.comprador;
    expectValid(validate('47', d));
  });
});
