/** Signing entry: PKCS#12 reading, the default Signer, XMLDSig signing and verification (Node only). */
export { readP12, checkValidity, daysToExpiry } from '../../shared/xmldsig/p12.js';
export type { SigningIdentity, CertificateInfo, DistinguishedName } from '../../shared/xmldsig/p12.js';
export { p12Signer, type Signer } from '../../shared/xmldsig/signer.js';
export { signXml, signEcf } from './sign-xml.js';
export { verifyXml, type VerifyResult, type VerifyFailure } from './verify-xml.js';
/** `dd-MM-yyyy HH:mm:ss` in GMT-4, the format of FechaHoraFirma (re-exported from the core time helpers). */
export { formatDateTimeDO } from '../time.js';
export { createSelfSignedIdentity, type SelfSignedIdentity, type SelfSignedOptions } from '../../shared/xmldsig/self-signed.js';
