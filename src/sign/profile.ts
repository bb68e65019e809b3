/**
 * DGII's XMLDSig profile (FIRMA pp. 2–17, DT p. 60): inclusive C14N 1.0 without comments,
 * RSA-SHA256, SHA-256 digest, one `Reference URI=""` with only the enveloped-signature transform,
 * `KeyInfo/X509Data/X509Certificate` with the leaf, `Signature` appended as the last child of the
 * document element.
 */

/** XMLDSig namespace, the default namespace of the `Signature` element. */
export const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
/** Inclusive Canonical XML 1.0, without comments. */
export const C14N_ALGORITHM = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
/** RSASSA-PKCS1-v1_5 with SHA-256. */
export const SIGNATURE_ALGORITHM = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
/** SHA-256 digest. */
export const DIGEST_ALGORITHM = 'http://www.w3.org/2001/04/xmlenc#sha256';
/** The only transform of the reference. */
export const ENVELOPED_TRANSFORM = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

/**
 * Canonical form of `SignedInfo` as it is signed: canonicalised in the context of the `Signature`
 * element, so it carries the XMLDSig default namespace plus every namespace declaration in scope
 * from the document element (`inheritedNamespaces`, already rendered and sorted, e.g.
 * ` xmlns:xsd="…" xmlns:xsi="…"`).
 */
export function canonicalSignedInfo(digestValue: string, inheritedNamespaces = ''): string {
  return (
    `<SignedInfo xmlns="${DSIG_NS}"${inheritedNamespaces}>` +
    `<CanonicalizationMethod Algorithm="${C14N_ALGORITHM}"></CanonicalizationMethod>` +
    `<SignatureMethod Algorithm="${SIGNATURE_ALGORITHM}"></SignatureMethod>` +
    `<Reference URI=""><Transforms><Transform Algorithm="${ENVELOPED_TRANSFORM}"></Transform></Transforms>` +
    `<DigestMethod Algorithm="${DIGEST_ALGORITHM}"></DigestMethod><DigestValue>${digestValue}</DigestValue></Reference>` +
    `</SignedInfo>`
  );
}

/**
 * The `Signature` element as written into the document (empty elements self-closed, the way
 * xml-crypto / xmldom serialise it).
 */
export function signatureElement(digestValue: string, signatureValue: string, certificate: string): string {
  return (
    `<Signature xmlns="${DSIG_NS}"><SignedInfo>` +
    `<CanonicalizationMethod Algorithm="${C14N_ALGORITHM}"/>` +
    `<SignatureMethod Algorithm="${SIGNATURE_ALGORITHM}"/>` +
    `<Reference URI=""><Transforms><Transform Algorithm="${ENVELOPED_TRANSFORM}"/></Transforms>` +
    `<DigestMethod Algorithm="${DIGEST_ALGORITHM}"/><DigestValue>${digestValue}</DigestValue></Reference>` +
    `</SignedInfo><SignatureValue>${signatureValue}</SignatureValue>` +
    `<KeyInfo><X509Data><X509Certificate>${certificate}</X509Certificate></X509Data></KeyInfo></Signature>`
  );
}
