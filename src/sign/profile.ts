/**
 * DGII's XMLDSig profile (FIRMA pp. 2–17, DT p. 60): inclusive C14N 1.0 without comments,
 * RSA-SHA256, SHA-256 digest, one `Reference URI=""` with only the enveloped-signature transform,
 * `KeyInfo/X509Data/X509Certificate` with the leaf, `Signature` appended as the last child of the
 * document element, whitespace-only text dropped first. One {@link SignatureProfile} value for the
 * generic signer and verifier (./xmldsig-sign.ts, ./xmldsig-verify.ts).
 */
import {
  appendToDocumentElement,
  C14N_ALGORITHM,
  DIGEST_ALGORITHM,
  DSIG_NS,
  ENVELOPED_TRANSFORM,
  renderSignature,
  renderSignedInfo,
  SIGNATURE_ALGORITHM,
  type SignatureProfile,
} from './signature-profile.js';

export { DSIG_NS, C14N_ALGORITHM, SIGNATURE_ALGORITHM, DIGEST_ALGORITHM, ENVELOPED_TRANSFORM };

/** DGII's profile as a value. The verifier also accepts C14N 1.0 after the enveloped transform (xml-crypto's habit). */
export const DGII_SIGNATURE_PROFILE: SignatureProfile = Object.freeze<SignatureProfile>({
  name: 'DGII',
  canonicalization: C14N_ALGORITHM,
  signatureAlgorithm: SIGNATURE_ALGORITHM,
  digestAlgorithm: DIGEST_ALGORITHM,
  references: [
    {
      target: 'document',
      transforms: [ENVELOPED_TRANSFORM],
      acceptedTransforms: [[ENVELOPED_TRANSFORM], [ENVELOPED_TRANSFORM, C14N_ALGORITHM]],
      transformsDescription: 'the enveloped-signature transform (optionally then C14N 1.0)',
    },
  ],
  placement: appendToDocumentElement(),
  keyInfo: {},
  dsPrefix: '',
  dropWhitespace: true,
});

const SIGNED_INFO_NAMESPACE = ` xmlns="${DSIG_NS}"`;

/**
 * Canonical form of `SignedInfo` as it is signed: canonicalised in the context of the `Signature`
 * element, so it carries the XMLDSig default namespace plus every namespace declaration in scope
 * from the document element (`inheritedNamespaces`, already rendered and sorted, e.g.
 * ` xmlns:xsd="…" xmlns:xsi="…"`).
 */
export function canonicalSignedInfo(digestValue: string, inheritedNamespaces = ''): string {
  return renderSignedInfo(DGII_SIGNATURE_PROFILE, [digestValue], true, SIGNED_INFO_NAMESPACE + inheritedNamespaces);
}

/**
 * The `Signature` element as written into the document (empty elements self-closed, the way
 * xml-crypto / xmldom serialise it).
 */
export function signatureElement(digestValue: string, signatureValue: string, certificate: string): string {
  return renderSignature(DGII_SIGNATURE_PROFILE, { digests: [digestValue], signatureValue, certificate });
}
