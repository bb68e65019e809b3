/**
 * The e-CF the emisor–receptor test service sends to a taxpayer's receptor: one small valid document per
 * type that travels emisor → receptor, issued by the simulator's own test issuer to the requested buyer.
 */
import { fillTotals } from '../calc/totals.js';
import type { EcfType } from '../spec/model.js';
import { allows } from '../validate/rules/shared.js';
import { buildEcfXml, type BuildContext, type IssuerProfile } from '../xml/ecf.js';

/** RNC of the simulator's test issuer and receptor (its certificate's serialNumber). */
export const SIMULATOR_RNC = '132000001';

export const SIMULATOR_ISSUER: IssuerProfile = {
  rnc: SIMULATOR_RNC,
  razon_social: 'DGII SIMULADOR DE PRUEBAS SRL',
  direccion: 'Av. México 48, Gazcue, Santo Domingo',
};

/** Types that travel emisor → receptor (not 32, 41, 43, 45, 46, 47: DT p. 42/45). */
export const RECEPTOR_TYPES = ['31', '33', '34', '44'] as const;
export type ReceptorType = (typeof RECEPTOR_TYPES)[number];

export function isReceptorType(t: string): t is ReceptorType {
  return (RECEPTOR_TYPES as readonly string[]).includes(t);
}

type Json = Record<string, unknown>;

const GRAVADO = { indicador_facturacion: 1, nombre: 'Servicio de prueba del simulador', indicador_bien_servicio: '2', cantidad: 1, precio_unitario: 1000 };
const EXENTO = { indicador_facturacion: 4, nombre: 'Bien exento de prueba', indicador_bien_servicio: '1', cantidad: 2, precio_unitario: 250 };

/** Per type: the document for a buyer on an issue date. The notes reference a (synthetic) type-31 of the same date. */
const SAMPLES: Record<ReceptorType, (buyer: string, fecha: string) => Json> = {
  '31': (buyer) => ({ id_doc: { tipo_ingresos: '01', tipo_pago: '1' }, comprador: { rnc: buyer, razon_social: 'Receptor de prueba' }, items: [GRAVADO] }),
  '33': (buyer, fecha) => ({
    id_doc: { tipo_ingresos: '01', tipo_pago: '1' },
    comprador: { rnc: buyer, razon_social: 'Receptor de prueba' },
    items: [{ ...GRAVADO, nombre: 'Cargo adicional de prueba' }],
    referencia: { ncf_modificado: 'E310000000001', fecha_ncf_modificado: fecha, codigo_modificacion: '3', razon_modificacion: 'Cargo omitido (prueba)' },
  }),
  '34': (buyer, fecha) => ({
    id_doc: { indicador_nota_credito: 0, tipo_ingresos: '01', tipo_pago: '1' },
    comprador: { rnc: buyer, razon_social: 'Receptor de prueba' },
    items: [{ ...GRAVADO, nombre: 'Devolución de prueba' }],
    referencia: { ncf_modificado: 'E310000000001', fecha_ncf_modificado: fecha, codigo_modificacion: '3', razon_modificacion: 'Devolución parcial (prueba)' },
  }),
  '44': (buyer) => ({ id_doc: { tipo_ingresos: '01', tipo_pago: '1' }, comprador: { rnc: buyer, razon_social: 'Receptor de prueba' }, items: [EXENTO] }),
};

/** Unsigned XML of the sample e-CF (validated by the SDK builder). */
export function buildSampleEcf(tipo: ReceptorType, args: { buyer: string; encf: string; fechaEmision: string; fechaVencimiento: string }): string {
  const doc = fillTotals(tipo, SAMPLES[tipo](args.buyer, args.fechaEmision));
  const ctx: BuildContext = { emisor: SIMULATOR_ISSUER, encf: args.encf, fecha_emision: args.fechaEmision };
  if (allows(tipo as EcfType, 'id_doc.fecha_vencimiento_secuencia')) ctx.fecha_vencimiento_secuencia = args.fechaVencimiento;
  return buildEcfXml(tipo, doc, ctx);
}
