/** Values read from e-CF and RFCE XML, as written (no reformatting), for the queries that echo them. */
import type { Document } from '@xmldom/xmldom';
import { signatureValueOf, textAt } from '../derive/read-xml.js';
import { securityCodeFromSignatureValue } from '../derive/security-code.js';
import type { FiscalFields } from './store.js';

/** Where each value sits below the document element; the same paths in ECF and RFCE. */
const PATHS = {
  rnc: ['Encabezado', 'Emisor', 'RNCEmisor'],
  encf: ['Encabezado', 'IdDoc', 'eNCF'],
  tipo: ['Encabezado', 'IdDoc', 'TipoeCF'],
  montoTotal: ['Encabezado', 'Totales', 'MontoTotal'],
  totalITBIS: ['Encabezado', 'Totales', 'TotalITBIS'],
  fechaEmision: ['Encabezado', 'Emisor', 'FechaEmision'],
  rncComprador: ['Encabezado', 'Comprador', 'RNCComprador'],
  idExtranjero: ['Encabezado', 'Comprador', 'IdentificadorExtranjero'],
  fechaFirma: ['FechaHoraFirma'],
  ncfModificado: ['InformacionReferencia', 'NCFModificado'],
  codigoSeguridadRfce: ['Encabezado', 'CodigoSeguridadeCF'],
} as const;

export type FieldName = keyof typeof PATHS;

export function field(doc: Document, name: FieldName): string | null {
  return textAt(doc, PATHS[name]);
}

/**
 * The fiscal fields of a document. The security code is the e-CF's own (first six characters of its
 * SignatureValue) or, for an RFCE, the declared `CodigoSeguridadeCF` of the full e-CF it summarises.
 */
export function fiscalFields(doc: Document): FiscalFields {
  let codigo = field(doc, 'codigoSeguridadRfce');
  if (codigo === null) {
    const sv = signatureValueOf(doc);
    codigo = sv && sv.length >= 6 ? securityCodeFromSignatureValue(sv) : null;
  }
  return {
    montoTotal: field(doc, 'montoTotal'),
    totalITBIS: field(doc, 'totalITBIS'),
    fechaEmision: field(doc, 'fechaEmision'),
    fechaFirma: field(doc, 'fechaFirma'),
    rncComprador: field(doc, 'rncComprador'),
    codigoSeguridad: codigo,
    idExtranjero: field(doc, 'idExtranjero'),
  };
}
