/** DGII file names for uploads (DT p. 59). */
import { EcfError } from '../../shared/errors/ecf-error.js';
import { ANY_SERIES_ENCF_PATTERN } from '../spec/encf.js';
import { parseDocument, requireText, rootName } from './read-xml.js';

const RNC = /^(?:\d{9}|\d{11})$/;

/**
 * `RNC + e-NCF + .xml`, the file name DGII expects for uploads (multipart `filename`).
 *
 * @throws EcfError `invalid_argument` when the RNC is not 9 or 11 digits or the e-NCF is not 13 characters
 * @example
 * dgiiFileName('130000001', 'E310000000001') //=> '130000001E310000000001.xml'
 */
export function dgiiFileName(rnc: string, encf: string): string {
  if (!RNC.test(rnc)) throw new EcfError(`"${rnc}" is not an RNC / cédula (9 or 11 digits).`, { code: 'invalid_argument' });
  if (!ANY_SERIES_ENCF_PATTERN.test(encf)) throw new EcfError(`"${encf}" is not an e-NCF (series letter + 12 digits).`, { code: 'invalid_argument' });
  return `${rnc}${encf}.xml`;
}

/** Where each document keeps the RNC its file is named after, and its e-NCF. */
const NAMING: Record<string, { rnc: readonly string[]; encf: readonly string[] }> = {
  ECF: { rnc: ['Encabezado', 'Emisor', 'RNCEmisor'], encf: ['Encabezado', 'IdDoc', 'eNCF'] },
  RFCE: { rnc: ['Encabezado', 'Emisor', 'RNCEmisor'], encf: ['Encabezado', 'IdDoc', 'eNCF'] },
  ARECF: { rnc: ['DetalleAcusedeRecibo', 'RNCComprador'], encf: ['DetalleAcusedeRecibo', 'eNCF'] },
  ACECF: { rnc: ['DetalleAprobacionComercial', 'RNCComprador'], encf: ['DetalleAprobacionComercial', 'eNCF'] },
};

/**
 * The DGII file name of a document, chosen by its root: e-CF and RFCE use `RNCEmisor`, ARECF and
 * ACECF use `RNCComprador` (DT p. 59). ANECF and the seed have no documented naming rule.
 *
 * @throws EcfError `unsupported_document`, `missing_field`, `invalid_argument`, `not_well_formed`
 * @example
 * fileNameFor(signedEcf) //=> '130000001E310000000001.xml'
 */
export function fileNameFor(signedXml: string): string {
  const doc = parseDocument(signedXml);
  const root = rootName(doc);
  const naming = NAMING[root];
  if (!naming) {
    throw new EcfError(`No DGII file-name rule for <${root}> documents (only ECF, RFCE, ARECF, ACECF).`, {
      code: 'unsupported_document',
    });
  }
  return dgiiFileName(requireText(doc, naming.rnc), requireText(doc, naming.encf));
}
