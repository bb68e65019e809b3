/**
 * `ecf-kit/dian/sign`: XAdES-EPES signing and verification of DIAN documents (protocol §4) on the kit's generic
 * XMLDSig core. A Node entry (node:crypto); the DIAN core does not depend on it.
 */
/** Signs a DIAN UBL document into its last empty `ext:ExtensionContent`, every other byte unchanged. */
export { signDianXml, type SignDianOptions, type SignDianResult, type SignDianFailure } from './sign.js';
/** `xades:SigningTime` form of an instant: Bogotá time with `-05:00`. */
export { bogotaTime } from './sign.js';
/** Verifies the XAdES-EPES signature of a DIAN document (integrity and XAdES properties, not trust). */
export { verifyDianXml, type DianVerifyResult, type DianVerifyFailure } from './verify.js';
/** The Spanish message per verification failure code, for API clients (`message` of a failed {@link verifyDianXml}). */
export { dianVerifyMessage, DIAN_VERIFY_MESSAGES } from './verify.js';
/** DIAN's signature profile as a value for the generic XMLDSig core, and its Ids. */
export { dianSignatureProfile, dianSignatureIds, type DianSignatureIds, type DianSignedProperties } from './profile.js';
/** DIAN's signature policy identifier (v2, emitted; v1, accepted) and its hash per digest algorithm. */
export { DIAN_POLICY_URL, DIAN_POLICY_URL_V1, DIAN_POLICY_HASH, type DianDigest, type DianSignerRole } from './profile.js';
/** Signing inputs: the `Signer` port and throw-away identities for tests and simulators. */
export type { Signer } from '../../shared/ports.js';
/** Reads a .p12 into a signing identity; `p12Signer` signs with it. */
export { readP12, type SigningIdentity } from '../../shared/xmldsig/p12.js';
/** Refuses a certificate outside its validity at the clock's instant; whole days until it expires. */
export { checkValidity, daysToExpiry } from '../../shared/xmldsig/p12.js';
export { p12Signer } from '../../shared/xmldsig/signer.js';
/** Creates a self-signed identity in memory (never for production). */
export { createSelfSignedIdentity } from '../../shared/xmldsig/self-signed.js';
