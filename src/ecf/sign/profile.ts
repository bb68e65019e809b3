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
} from '../../shared/xmldsig/signature-profile.js';

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

// The fast path writes these on every signature: rendered once from the profile value, split around the
// values (markers that cannot occur in a rendered profile: base64 and URIs hold no NUL).
const DIGEST = '\u0000d';
const INHERITED = '\u0000n';
const VALUE = '\u0000v';
const CERTIFICATE = '\u0000c';
const [SIGNED_INFO_HEAD, SIGNED_INFO_MIDDLE, SIGNED_INFO_TAIL] = split(
  renderSignedInfo(DGII_SIGNATURE_PROFILE, [DIGEST], true, SIGNED_INFO_NAMESPACE + INHERITED),
  [INHERITED, DIGEST],
) as [string, string, string];
const [SIGNATURE_HEAD, SIGNATURE_AFTER_DIGEST, SIGNATURE_AFTER_VALUE, SIGNATURE_TAIL] = split(
  renderSignature(DGII_SIGNATURE_PROFILE, { digests: [DIGEST], signatureValue: VALUE, certificate: CERTIFICATE }),
  [DIGEST, VALUE, CERTIFICATE],
) as [string, string, string, string];

function split(text: string, markers: string[]): string[] {
  const parts: string[] = [];
  let rest = text;
  for (const marker of markers) {
    const at = rest.indexOf(marker);
    parts.push(rest.slice(0, at));
    rest = rest.slice(at + marker.length);
  }
  return [...parts, rest];
}

/**
 * Canonical form of `SignedInfo` as it is signed: canonicalised in the context of the `Signature`
 * element, so it carries the XMLDSig default namespace plus every namespace declaration in scope
 * from the document element (`inheritedNamespaces`, already rendered and sorted, e.g.
 * ` xmlns:xsd="…" xmlns:xsi="…"`).
 */
export function canonicalSignedInfo(digestValue: string, inheritedNamespaces = ''): string {
  return SIGNED_INFO_HEAD + inheritedNamespaces + SIGNED_INFO_MIDDLE + digestValue + SIGNED_INFO_TAIL;
}

/**
 * The `Signature` element as written into the document (empty elements self-closed, the way
 * xml-crypto / xmldom serialise it).
 */
export function signatureElement(digestValue: string, signatureValue: string, certificate: string): string {
  return SIGNATURE_HEAD + digestValue + SIGNATURE_AFTER_DIGEST + signatureValue + SIGNATURE_AFTER_VALUE + certificate + SIGNATURE_TAIL;
}
