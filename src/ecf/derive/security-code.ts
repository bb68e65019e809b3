import { EcfError } from '../../shared/errors/ecf-error.js';
import { parseDocument, signatureValueOf } from './read-xml.js';

/**
 * The e-CF security code (CodigoSeguridad / CodigoSeguridadeCF): the first six characters of the
 * base64 `SignatureValue` of the signed document (DT p. 17/23, IT §17.2.3; the reading every
 * implementation DGII accepts uses). It may contain `+` and `/`: percent-encode it in URLs.
 *
 * @throws EcfError `not_signed` when the document element has no XMLDSig Signature
 * @example
 * securityCode(signedXml) //=> 'm+tPLr'
 */
export function securityCode(signedXml: string): string {
  const value = signatureValueOf(parseDocument(signedXml));
  if (value === null) {
    throw new EcfError('The document is not signed: no ds:Signature/SignatureValue under the document element. Sign it first.', {
      code: 'not_signed',
    });
  }
  return securityCodeFromSignatureValue(value);
}

/**
 * The security code from a `SignatureValue` text (whitespace is ignored).
 *
 * @example
 * securityCodeFromSignatureValue('m+tPLrAbC…==') //=> 'm+tPLr'
 */
export function securityCodeFromSignatureValue(signatureValue: string): string {
  const compact = signatureValue.replace(/\s+/g, '');
  if (compact.length < 6) {
    throw new EcfError('SignatureValue is shorter than six characters.', { code: 'not_signed' });
  }
  return compact.slice(0, 6);
}
