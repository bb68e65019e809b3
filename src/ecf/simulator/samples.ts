/**
 * The e-CF the emisor–receptor test service sends to a taxpayer's receptor: one small valid document per
 * type that travels emisor → receptor, issued by the simulator's own test issuer to the requested buyer.
 */
import { EcfError } from '../../shared/errors/ecf-error.js';
import { fillTotals } from '../calc/totals.js';
import { RECEPTOR_TYPES } from '../spec/doc-types.js';
import type { EcfType } from '../spec/model.js';
import { allows } from '../validate/rules/shared.js';
import { buildEcfXmlFromJson, type BuildContext, type IssuerProfile } from '../xml/ecf.js';

/** RNC of the simulator's test issuer and receptor (its certificate's serialNumber). */
export const SIMULATOR_RNC = '132000001';

export const SIMULATOR_ISSUER: IssuerProfile = {
  rnc: SIMULATOR_RNC,
  razon_social: 'DGII SIMULADOR DE PRUEBAS SRL',
  direccion: 'Av. México 48, Gazcue, Santo Domingo',
};

/** Types that travel emisor → receptor, from the type table (`sentToReceptor`). */
export { RECEPTOR_TYPES };

export function isReceptorType(t: string): t is EcfType {
  return (RECEPTOR_TYPES as readonly string[]).includes(t);
}

type Json = Record<string, unknown>;

const GRAVADO = { indicador_facturacion: 1, nombre: 'Servicio de prueba del simulador', indicador_bien_servicio: '2', cantidad: 1, precio_unitario: 1000 };
const EXENTO = { indicador_facturacion: 4, nombre: 'Bien exento de prueba', indicador_bien_servicio: '1', cantidad: 2, precio_unitario: 250 };

/** Per type: the document for a buyer on an issue date. The notes reference a (synthetic) type-31 of the same date. */
const SAMPLES: Partial<Record<EcfType, (buyer: string, fecha: string) => Json>> = {
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
export function buildSampleEcf(tipo: EcfType, args: { buyer: string; encf: string; fechaEmision: string; fechaVencimiento: string }): string {
  const sample = SAMPLES[tipo];
  if (!sample)
    throw new EcfError(`no sample e-CF for type ${tipo}: only types delivered emisor → receptor (${RECEPTOR_TYPES.join(', ')})`, { code: 'invalid_argument' });
  const doc = fillTotals(tipo, sample(args.buyer, args.fechaEmision));
  const ctx: BuildContext = { emisor: SIMULATOR_ISSUER, encf: args.encf, fecha_emision: args.fechaEmision };
  if (allows(tipo, 'id_doc.fecha_vencimiento_secuencia')) ctx.fecha_vencimiento_secuencia = args.fechaVencimiento;
  return buildEcfXmlFromJson(tipo, doc, ctx);
}
