/**
 * Valid minimal base documents of the ten e-CF types, for tests that mutate one thing and expect one issue.
 * Totals are filled with `fillTotals` (never typed by hand), so every base passes the shape layer and every
 * business rule with zero errors and zero warnings. Use `baseDoc(tipo)` (a fresh deep copy each call) with
 * `BASE_FECHA_EMISION` as the issue date, and `baseContext(tipo)` to build XML.
 */
import { fillTotals } from '../../../src/ecf/calc/totals.js';
import type { EcfType } from '../../../src/ecf/spec/model.js';
import { allows } from '../../../src/ecf/validate/rules/shared.js';
import type { BuildContext } from '../../../src/ecf/xml/ecf.js';

type Json = Record<string, any>;

/** Issue date the base documents are valid for (the 34's reference is 15 days earlier: indicador_nota_credito 0). */
export const BASE_FECHA_EMISION = '01-04-2026';

const ITEM_GRAVADO = { indicador_facturacion: 1, nombre: 'Café molido 1 lb', indicador_bien_servicio: '1', cantidad: 2, precio_unitario: 100 };
const ITEM_EXENTO = { indicador_facturacion: 4, nombre: 'Libro de texto', indicador_bien_servicio: '1', cantidad: 1, precio_unitario: 150 };
const ITEM_TASA3 = { indicador_facturacion: 3, nombre: 'Cigarros exportación', indicador_bien_servicio: '1', cantidad: 10, precio_unitario: 25 };
const SERVICIO_EXTERIOR = { indicador_facturacion: 4, nombre: 'Licencia de software', indicador_bien_servicio: '2', cantidad: 1, precio_unitario: 1000 };

const RAW: Record<EcfType, Json> = {
  '31': {
    id_doc: { tipo_ingresos: '01', tipo_pago: '1' },
    comprador: { rnc: '131880738', razon_social: 'Cliente SRL' },
    items: [ITEM_GRAVADO],
  },
  '32': {
    id_doc: { tipo_ingresos: '01', tipo_pago: '1' },
    comprador: { razon_social: 'Consumidor final' },
    items: [ITEM_GRAVADO],
  },
  '33': {
    id_doc: { tipo_ingresos: '01', tipo_pago: '1' },
    items: [{ ...ITEM_GRAVADO, nombre: 'Cargo por flete adicional', indicador_bien_servicio: '2', cantidad: 1 }],
    referencia: { ncf_modificado: 'E310000000001', fecha_ncf_modificado: '15-03-2026', codigo_modificacion: '3', razon_modificacion: 'Cargo omitido' },
  },
  '34': {
    id_doc: { indicador_nota_credito: 0, tipo_ingresos: '01', tipo_pago: '1' },
    items: [{ ...ITEM_GRAVADO, cantidad: 1 }],
    referencia: { ncf_modificado: 'E310000000001', fecha_ncf_modificado: '15-03-2026', codigo_modificacion: '3', razon_modificacion: 'Devolución parcial' },
  },
  '41': {
    id_doc: { tipo_pago: '1' },
    comprador: { rnc: '131880738', razon_social: 'Proveedor Informal' },
    items: [
      {
        ...ITEM_GRAVADO,
        nombre: 'Servicio de jardinería',
        indicador_bien_servicio: '2',
        cantidad: 1,
        precio_unitario: 200,
        retencion: { indicador: '1', monto_itbis_retenido: 36, monto_isr_retenido: 20 },
      },
    ],
  },
  '43': {
    id_doc: { tipo_pago: '1' },
    items: [{ ...ITEM_EXENTO, nombre: 'Pasaje de autobús', indicador_bien_servicio: '2', precio_unitario: 60 }],
  },
  '44': {
    id_doc: { tipo_ingresos: '01', tipo_pago: '1' },
    comprador: { rnc: '131880738', razon_social: 'Zona Franca Industrial SA' },
    items: [ITEM_EXENTO],
  },
  '45': {
    id_doc: { tipo_ingresos: '01', tipo_pago: '2', fecha_limite_pago: '01-05-2026' },
    comprador: { rnc: '401000001', razon_social: 'Ministerio de Ejemplo' },
    items: [ITEM_GRAVADO],
  },
  '46': {
    id_doc: { tipo_ingresos: '01', tipo_pago: '1' },
    comprador: { identificador_extranjero: 'US123456', razon_social: 'Importer Inc', pais: 'US' },
    items: [ITEM_TASA3],
  },
  '47': {
    id_doc: { tipo_pago: '1' },
    comprador: { identificador_extranjero: 'DE998877', razon_social: 'Software GmbH' },
    items: [{ ...SERVICIO_EXTERIOR, retencion: { indicador: '1', isr_retenido: 270 } }],
  },
};

/** A fresh, valid minimal document of `tipo` with `totales` filled by `fillTotals`. */
export function baseDoc(tipo: EcfType): Json {
  return fillTotals(tipo, structuredClone(RAW[tipo]));
}

/**
 * Re-fills `totales` (and every `items[].monto`) after a mutation that should keep the document valid (e.g. more
 * items); keeps the caller's inputs in `totales`: impuestos_adicionales, saldo_anterior, monto_avance_pago.
 */
export function refill(tipo: EcfType, doc: Json): Json {
  const copy = structuredClone(doc);
  const t: Json = copy.totales ?? {};
  copy.totales = {};
  for (const k of ['impuestos_adicionales', 'saldo_anterior', 'monto_avance_pago']) if (t[k] !== undefined) copy.totales[k] = t[k];
  for (const it of copy.items ?? []) delete it.monto;
  return fillTotals(tipo, copy);
}

/** Build context for the base documents (e-NCF sequence 1; sequence expiry where the XSD has it: not 32, 34). */
export function baseContext(tipo: EcfType): BuildContext {
  const ctx: BuildContext = {
    emisor: { rnc: '101672919', razon_social: 'Emisor SRL', direccion: 'Calle 1' },
    encf: `E${tipo}0000000001`,
    fecha_emision: BASE_FECHA_EMISION,
  };
  if (allows(tipo, 'id_doc.fecha_vencimiento_secuencia')) ctx.fecha_vencimiento_secuencia = '31-12-2027';
  return ctx;
}

/** n copies of a line (for line-limit tests), with `totales` refilled. */
export function withLines(tipo: EcfType, n: number, item?: Json): Json {
  const doc = baseDoc(tipo);
  const line = structuredClone(item ?? doc.items[0]);
  delete line.monto;
  doc.items = Array.from({ length: n }, () => structuredClone(line));
  return refill(tipo, doc);
}
