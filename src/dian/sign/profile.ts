/**
 * DIAN's XAdES-EPES signature (protocol §4) as a `SignatureProfile` value for the generic XMLDSig core
 * (src/shared/xmldsig): inclusive C14N 1.0, RSA-SHA256, SHA-256 (or SHA-384) digests, three references in
 * order (`URI=""` enveloped, `#<KeyInfo Id>`, `#<SignedProperties Id>` typed SignedProperties), the
 * `ds:Signature` inside the last `ext:ExtensionContent` of the document's `ext:UBLExtensions`, and one
 * `ds:Object` holding `xades:QualifyingProperties` with the signing time, the signing certificate, DIAN's
 * signature policy and the claimed role.
 */
import { createHash, X509Certificate } from 'node:crypto';
import type { Document, Element } from '@xmldom/xmldom';
import {
  C14N_ALGORITHM,
  DIGEST_ALGORITHM,
  DIGEST_ALGORITHM_SHA384,
  ENVELOPED_TRANSFORM,
  insertInto,
  SIGNATURE_ALGORITHM,
  type DigestAlgorithm,
  type SignatureProfile,
} from '../../shared/xmldsig/signature-profile.js';

/** UBL extension components namespace (`ext:`). */
export const EXT_NS = 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2';
/** XAdES 1.3.2 namespace (`xades:`). */
export const XADES_NS = 'http://uri.etsi.org/01903/v1.3.2#';
/** `Reference/@Type` of the SignedProperties reference. */
export const SIGNED_PROPERTIES_TYPE = 'http://uri.etsi.org/01903#SignedProperties';
/** DIAN's signature policy, the identifier to emit. */
export const DIAN_POLICY_URL = 'https://facturaelectronica.dian.gov.co/politicadefirma/v2/politicadefirmav2.pdf';
/** The same policy as DIAN's older samples name it (accepted when verifying). */
export const DIAN_POLICY_URL_V1 = 'https://facturaelectronica.dian.gov.co/politicadefirma/v1/politicadefirmav2.pdf';
/** Base64 digest of the policy document, by digest algorithm. */
export const DIAN_POLICY_HASH = {
  sha256: 'dMoMvtcG5aIzgYo0tIsSQeVJBDnUnfSOfBpxXrmor0Y=',
  sha384: 'EQC0kiWPaAME6IsEZ7WuaTWJ97Zmf6hIO69rMCVURmQxBB9ebgLrjhL5BArQ0a0l',
} as const;

/** Digest algorithm of a DIAN signature. */
export type DianDigest = keyof typeof DIAN_POLICY_HASH;
/** `xades:ClaimedRole`: `supplier` (the issuer signs) or `third party` (a service signs for it). */
export type DianSignerRole = 'supplier' | 'third party';

/** The digest algorithm URI of each {@link DianDigest}. */
export const DIAN_DIGEST_URI: Record<DianDigest, DigestAlgorithm> = { sha256: DIGEST_ALGORITHM, sha384: DIGEST_ALGORITHM_SHA384 };

/** The Ids a DIAN signature carries (free names; these follow DIAN's own response). */
export interface DianSignatureIds {
  signature: string;
  documentReference: string;
  signatureValue: string;
  keyInfo: string;
  signedProperties: string;
}

/** Ids from one base: `xmldsig-<base>`, `…-ref0`, `…-sigvalue`, `…-keyinfo`, `…-signedprops`. */
export function dianSignatureIds(base: string): DianSignatureIds {
  const id = `xmldsig-${base}`;
  return { signature: id, documentReference: `${id}-ref0`, signatureValue: `${id}-sigvalue`, keyInfo: `${id}-keyinfo`, signedProperties: `${id}-signedprops` };
}

/** What goes into `xades:SignedSignatureProperties`. */
export interface DianSignedProperties {
  /** `xades:SigningTime`, already formatted (ISO date-time with offset). */
  signingTime: string;
  role: DianSignerRole;
  /** `xades:SigPolicyId/xades:Identifier`; {@link DIAN_POLICY_URL} by default. */
  policyUrl?: string;
}

/** The `ext:ExtensionContent` elements of the document's `ext:UBLExtensions`, in document order. */
export function extensionContents(doc: Document): Element[] {
  const root = doc.documentElement;
  if (!root) return [];
  const out: Element[] = [];
  for (const extensions of children(root, EXT_NS, 'UBLExtensions')) {
    for (const extension of children(extensions, EXT_NS, 'UBLExtension')) out.push(...children(extension, EXT_NS, 'ExtensionContent'));
  }
  return out;
}

/** The last `ext:ExtensionContent`, when it holds no element (the signature's place). */
export function signaturePlace(doc: Document): Element | null {
  const last = extensionContents(doc).at(-1);
  return last && children(last).length === 0 ? last : null;
}

/** The DIAN profile for one signature: its Ids, digest algorithm and signed properties. */
export function dianSignatureProfile(ids: DianSignatureIds, digest: DianDigest, properties: DianSignedProperties): SignatureProfile {
  const digestUri = DIAN_DIGEST_URI[digest];
  return {
    name: 'DIAN',
    canonicalization: C14N_ALGORITHM,
    signatureAlgorithm: SIGNATURE_ALGORITHM,
    digestAlgorithm: digestUri,
    dsPrefix: 'ds',
    signatureId: ids.signature,
    signatureValueId: ids.signatureValue,
    keyInfo: { id: ids.keyInfo },
    references: [
      { id: ids.documentReference, target: 'document', transforms: [ENVELOPED_TRANSFORM] },
      { target: { id: ids.keyInfo }, transforms: [], acceptedTransforms: [[], [C14N_ALGORITHM]] },
      { target: { id: ids.signedProperties }, type: SIGNED_PROPERTIES_TYPE, transforms: [], acceptedTransforms: [[], [C14N_ALGORITHM]] },
    ],
    placement: insertInto(
      'inside an ext:ExtensionContent of the document ext:UBLExtensions (the last, empty one when signing)',
      signaturePlace,
      (parent) => parent.ownerDocument !== null && extensionContents(parent.ownerDocument).includes(parent),
    ),
    objects: ({ certificate, chain }) => [qualifyingProperties(ids, digest, properties, [certificate, ...chain])],
    dropWhitespace: false,
  };
}

/**
 * `xades:QualifyingProperties` with its `SignedProperties`, as the content of the `ds:Object`. `certificates` is the
 * signer's leaf then its issuers (intermediate … root): one `xades:Cert` each, in that order, as DIAN's samples list them.
 */
function qualifyingProperties(ids: DianSignatureIds, digest: DianDigest, properties: DianSignedProperties, certificates: readonly string[]): string {
  const digestMethod = `<ds:DigestMethod Algorithm="${DIAN_DIGEST_URI[digest]}"/>`;
  return (
    `<xades:QualifyingProperties xmlns:xades="${XADES_NS}" Target="#${escapeXml(ids.signature)}">` +
    `<xades:SignedProperties Id="${escapeXml(ids.signedProperties)}"><xades:SignedSignatureProperties>` +
    `<xades:SigningTime>${escapeText(properties.signingTime)}</xades:SigningTime>` +
    `<xades:SigningCertificate>${certificates.map((c) => certEntry(c, digest, digestMethod)).join('')}</xades:SigningCertificate>` +
    '<xades:SignaturePolicyIdentifier><xades:SignaturePolicyId>' +
    `<xades:SigPolicyId><xades:Identifier>${escapeText(properties.policyUrl ?? DIAN_POLICY_URL)}</xades:Identifier></xades:SigPolicyId>` +
    `<xades:SigPolicyHash>${digestMethod}<ds:DigestValue>${DIAN_POLICY_HASH[digest]}</ds:DigestValue></xades:SigPolicyHash>` +
    '</xades:SignaturePolicyId></xades:SignaturePolicyIdentifier>' +
    `<xades:SignerRole><xades:ClaimedRoles><xades:ClaimedRole>${escapeText(properties.role)}</xades:ClaimedRole></xades:ClaimedRoles></xades:SignerRole>` +
    '</xades:SignedSignatureProperties></xades:SignedProperties></xades:QualifyingProperties>'
  );
}

/** Rendered `xades:Cert` entries by digest and certificate: a signer signs many documents with the same few. */
const certEntries = new Map<string, string>();
const CERT_ENTRIES_KEPT = 32;

/** One `xades:Cert`: the digest of the certificate's DER and its issuer and serial. */
function certEntry(certificate: string, digest: DianDigest, digestMethod: string): string {
  const key = `${digest} ${certificate}`;
  const known = certEntries.get(key);
  if (known !== undefined) return known;
  const entry = renderCertEntry(certificate, digest, digestMethod);
  if (certEntries.size >= CERT_ENTRIES_KEPT) certEntries.clear();
  certEntries.set(key, entry);
  return entry;
}

function renderCertEntry(certificate: string, digest: DianDigest, digestMethod: string): string {
  const der = Buffer.from(certificate, 'base64');
  const cert = new X509Certificate(der);
  return (
    `<xades:Cert><xades:CertDigest>${digestMethod}<ds:DigestValue>${createHash(digest).update(der).digest('base64')}</ds:DigestValue></xades:CertDigest>` +
    `<xades:IssuerSerial><ds:X509IssuerName>${escapeText(issuerName(cert))}</ds:X509IssuerName>` +
    `<ds:X509SerialNumber>${BigInt(`0x${cert.serialNumber}`).toString()}</ds:X509SerialNumber></xades:IssuerSerial></xades:Cert>`
  );
}

/**
 * The issuer as DIAN's toolbox samples and the Colombian CAs' signatures write it: the attributes in certificate
 * order (country first), comma-separated, RFC 4514 escaping, and the e-mail attribute by its OID with the hex of its
 * DER IA5String, e.g. `C=CO,O=Andes SCD,CN=CA ANDES SCD S.A. Clase II v2,1.2.840.113549.1.9.1=#1614…`.
 */
function issuerName(cert: X509Certificate): string {
  return cert.issuer.split('\n').map(emailAsOid).join(',');
}

const EMAIL = 'emailAddress=';

function emailAsOid(attribute: string): string {
  if (!attribute.startsWith(EMAIL)) return attribute;
  const value = Buffer.from(attribute.slice(EMAIL.length).replace(/\\(.)/g, '$1'), 'utf8');
  if (value.length > 127) return attribute;
  return `1.2.840.113549.1.9.1=#16${value.length.toString(16).padStart(2, '0')}${value.toString('hex')}`;
}

function children(el: Element, ns?: string, local?: string): Element[] {
  const out: Element[] = [];
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType !== 1) continue;
    const e = c as Element;
    if (local === undefined || (e.localName === local && e.namespaceURI === ns)) out.push(e);
  }
  return out;
}

/** Text content as xmldom writes it (`&`, `<`, `>` escaped; quotes as they are), so both signing paths write the same bytes. */
function escapeText(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

function escapeXml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}
