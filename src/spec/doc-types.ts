/**
 * The ten e-CF types as data: names, schema files and the few flags that are not in the XSD.
 * Rules that differ by type read these flags or name the types in their `appliesTo`; nothing else
 * branches on the type code.
 */
import type { EcfType } from './model.js';

export interface EcfTypeInfo {
  code: EcfType;
  /** Spanish name as printed on the document. */
  nameEs: string;
  nameEn: string;
  /** XSD file name in the official set. */
  xsd: string;
  /** Maximum detail lines (spec "Limits"). */
  maxLines: number;
  /** Maximum detail lines below the consumer threshold (type 32 summarised as RFCE). */
  maxLinesBelowThreshold?: number;
  /** Sent as a consumer summary (RFCE) when `monto_total` is below this amount (RD$). */
  summaryThreshold?: string;
  /** The sequence expiry date is not printed (IT §17). */
  hidesSequenceExpiry?: boolean;
  /**
   * Delivered emisor → receptor (`/fe/recepcion/api/ecf`, answered with an ARECF). DT p. 42/45: not 32, 41,
   * 43, 45, 46, 47.
   */
  sentToReceptor?: boolean;
}

const t = (info: Omit<EcfTypeInfo, 'xsd' | 'maxLines'> & Partial<EcfTypeInfo>): EcfTypeInfo => ({
  xsd: `e-CF-${info.code}-v1.0.xsd`,
  maxLines: 1000,
  ...info,
});

export const ECF_TYPE_INFO: Readonly<Record<EcfType, EcfTypeInfo>> = {
  '31': t({ code: '31', nameEs: 'Factura de Crédito Fiscal Electrónica', nameEn: 'Electronic tax-credit invoice', sentToReceptor: true }),
  '32': t({ code: '32', nameEs: 'Factura de Consumo Electrónica', nameEn: 'Electronic consumer invoice', maxLinesBelowThreshold: 10000, summaryThreshold: '250000.00', hidesSequenceExpiry: true }),
  '33': t({ code: '33', nameEs: 'Nota de Débito Electrónica', nameEn: 'Electronic debit note', sentToReceptor: true }),
  '34': t({ code: '34', nameEs: 'Nota de Crédito Electrónica', nameEn: 'Electronic credit note', hidesSequenceExpiry: true, sentToReceptor: true }),
  '41': t({ code: '41', nameEs: 'Comprobante Electrónico de Compras', nameEn: 'Electronic purchase receipt' }),
  '43': t({ code: '43', nameEs: 'Comprobante Electrónico para Gastos Menores', nameEn: 'Electronic minor expenses' }),
  '44': t({ code: '44', nameEs: 'Comprobante Electrónico para Regímenes Especiales', nameEn: 'Electronic special regimes', sentToReceptor: true }),
  '45': t({ code: '45', nameEs: 'Comprobante Electrónico Gubernamental', nameEn: 'Electronic government receipt' }),
  '46': t({ code: '46', nameEs: 'Comprobante Electrónico para Exportaciones', nameEn: 'Electronic export receipt' }),
  '47': t({ code: '47', nameEs: 'Comprobante Electrónico para Pagos al Exterior', nameEn: 'Electronic payments abroad' }),
};

/** Types delivered emisor → receptor (from `sentToReceptor`). */
export const RECEPTOR_TYPES: readonly EcfType[] = (Object.keys(ECF_TYPE_INFO) as EcfType[]).filter((t) => ECF_TYPE_INFO[t].sentToReceptor === true);
