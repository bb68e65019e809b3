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
  /** Paper NCF type this e-CF type replaces (series B, code 4 contingency): `B01` ↔ 31, …, `B17` ↔ 47. */
  paperNcfType: string;
  /** The buyer may send a commercial approval (ACECF) for it (DT p. 45). */
  admitsCommercialApproval?: boolean;
  /** Title of the `Comprador` block on the printed representation; default `Datos del comprador`. */
  counterpartyTitle?: string;
  /** A note whose modified e-CF (series E) must already be accepted by DGII (code 614). */
  referenceMustBeAccepted?: boolean;
  /** The timbre (QR) URL leaves out `RncComprador` (IT §17.2.3). */
  qrOmitsBuyer?: boolean;
}

const t = (info: Omit<EcfTypeInfo, 'xsd' | 'maxLines'> & Partial<EcfTypeInfo>): EcfTypeInfo => ({
  xsd: `e-CF-${info.code}-v1.0.xsd`,
  maxLines: 1000,
  ...info,
});

export const ECF_TYPE_INFO: Readonly<Record<EcfType, EcfTypeInfo>> = {
  '31': t({
    code: '31',
    nameEs: 'Factura de Crédito Fiscal Electrónica',
    nameEn: 'Electronic tax-credit invoice',
    sentToReceptor: true,
    paperNcfType: '01',
    admitsCommercialApproval: true,
  }),
  '32': t({
    code: '32',
    nameEs: 'Factura de Consumo Electrónica',
    nameEn: 'Electronic consumer invoice',
    maxLinesBelowThreshold: 10000,
    summaryThreshold: '250000.00',
    hidesSequenceExpiry: true,
    paperNcfType: '02',
  }),
  '33': t({
    code: '33',
    nameEs: 'Nota de Débito Electrónica',
    nameEn: 'Electronic debit note',
    sentToReceptor: true,
    paperNcfType: '03',
    admitsCommercialApproval: true,
    referenceMustBeAccepted: true,
  }),
  '34': t({
    code: '34',
    nameEs: 'Nota de Crédito Electrónica',
    nameEn: 'Electronic credit note',
    hidesSequenceExpiry: true,
    sentToReceptor: true,
    paperNcfType: '04',
    admitsCommercialApproval: true,
    referenceMustBeAccepted: true,
  }),
  '41': t({
    code: '41',
    nameEs: 'Comprobante Electrónico de Compras',
    nameEn: 'Electronic purchase receipt',
    paperNcfType: '11',
    counterpartyTitle: 'Datos del proveedor',
  }),
  '43': t({ code: '43', nameEs: 'Comprobante Electrónico para Gastos Menores', nameEn: 'Electronic minor expenses', paperNcfType: '13', qrOmitsBuyer: true }),
  '44': t({
    code: '44',
    nameEs: 'Comprobante Electrónico para Regímenes Especiales',
    nameEn: 'Electronic special regimes',
    sentToReceptor: true,
    paperNcfType: '14',
    admitsCommercialApproval: true,
  }),
  '45': t({
    code: '45',
    nameEs: 'Comprobante Electrónico Gubernamental',
    nameEn: 'Electronic government receipt',
    paperNcfType: '15',
    admitsCommercialApproval: true,
  }),
  '46': t({ code: '46', nameEs: 'Comprobante Electrónico para Exportaciones', nameEn: 'Electronic export receipt', paperNcfType: '16' }),
  '47': t({
    code: '47',
    nameEs: 'Comprobante Electrónico para Pagos al Exterior',
    nameEn: 'Electronic payments abroad',
    paperNcfType: '17',
    counterpartyTitle: 'Datos del beneficiario',
    qrOmitsBuyer: true,
  }),
};

/** Types delivered emisor → receptor (from `sentToReceptor`). */
export const RECEPTOR_TYPES: readonly EcfType[] = (Object.keys(ECF_TYPE_INFO) as EcfType[]).filter((t) => ECF_TYPE_INFO[t].sentToReceptor === true);

/** Types a buyer may approve commercially (ACECF), from `admitsCommercialApproval`: 31, 33, 34, 44, 45. */
export const ACECF_TYPES: readonly EcfType[] = (Object.keys(ECF_TYPE_INFO) as EcfType[]).filter((t) => ECF_TYPE_INFO[t].admitsCommercialApproval === true);

/** Types whose modified e-CF must already be accepted, from `referenceMustBeAccepted`: 33, 34. */
export const REFERENCE_MUST_BE_ACCEPTED: readonly EcfType[] = (Object.keys(ECF_TYPE_INFO) as EcfType[]).filter(
  (t) => ECF_TYPE_INFO[t].referenceMustBeAccepted === true,
);
