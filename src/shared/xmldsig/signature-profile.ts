/**
 * A `SignatureProfile` is the whole description of one XMLDSig signing policy, as a value: algorithms,
 * references (what each digests, with which transforms and `Type`), where the `Signature` goes, what
 * `KeyInfo` holds, and extra signed objects (`ds:Object`, e.g. XAdES `QualifyingProperties`). The generic
 * signer (./xmldsig-sign.ts) and verifier (./xmldsig-verify.ts) take one as a parameter; each product
 * defines its own value next to its signing code.
 *
 * Generic: nothing here knows a product or an authority. Pure: strings and DOM only.
 */
import type { Document, Element } from '@xmldom/xmldom';

/** XMLDSig namespace. */
export const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
/** Inclusive Canonical XML 1.0, without comments. */
export const C14N_ALGORITHM = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
/** RSASSA-PKCS1-v1_5 with SHA-256. */
export const SIGNATURE_ALGORITHM = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
/** SHA-256 digest. */
export const DIGEST_ALGORITHM = 'http://www.w3.org/2001/04/xmlenc#sha256';
/** SHA-384 digest (RFC 6931). */
export const DIGEST_ALGORITHM_SHA384 = 'http://www.w3.org/2001/04/xmldsig-more#sha384';
/** Exclusive XML Canonicalization 1.0, without comments (./exc-c14n.ts). */
export const EXC_C14N_ALGORITHM = 'http://www.w3.org/2001/10/xml-exc-c14n#';
/** The enveloped-signature transform. */
export const ENVELOPED_TRANSFORM = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

/** Canonicalisation algorithms the core implements (./c14n.ts, ./exc-c14n.ts). */
export type CanonicalizationAlgorithm = typeof C14N_ALGORITHM | typeof EXC_C14N_ALGORITHM;
/** Signature algorithms the core implements. */
export type SignatureAlgorithm = typeof SIGNATURE_ALGORITHM;
/** Digest algorithms the core implements. */
export type DigestAlgorithm = typeof DIGEST_ALGORITHM | typeof DIGEST_ALGORITHM_SHA384;
/** Transforms the core implements: enveloped-signature (document references only), C14N 1.0 and exclusive C14N 1.0. */
export type TransformAlgorithm = typeof ENVELOPED_TRANSFORM | typeof C14N_ALGORITHM | typeof EXC_C14N_ALGORITHM;

/** node:crypto names of the algorithms above. */
export const DIGEST_HASH: Record<DigestAlgorithm, string> = { [DIGEST_ALGORITHM]: 'sha256', [DIGEST_ALGORITHM_SHA384]: 'sha384' };
export const SIGNATURE_HASH: Record<SignatureAlgorithm, { hash: string; keyType: string; name: string }> = {
  [SIGNATURE_ALGORITHM]: { hash: 'sha256', keyType: 'rsa', name: 'RSA' },
};

/**
 * One `Reference` of `SignedInfo`. `target: 'document'` is `URI=""`: the whole document without the
 * `Signature` (its transforms must start with the enveloped-signature transform). `target: { id }` is
 * `URI="#id"`: the element whose `Id` attribute is `id` (e.g. `KeyInfo`, XAdES `SignedProperties`),
 * canonicalised in place, in the namespace context of its position in the document.
 */
export interface ReferenceSpec {
  target: 'document' | { id: string };
  /** `Reference/@Id`, when the profile names its references. */
  id?: string;
  /** `Reference/@Type` (e.g. XAdES `http://uri.etsi.org/01903#SignedProperties`); checked when set. */
  type?: string;
  /** Transforms the signer writes (an empty list writes no `Transforms` element). */
  transforms: readonly TransformAlgorithm[];
  /** Transform lists the verifier accepts; defaults to `[transforms]`. */
  acceptedTransforms?: readonly (readonly string[])[];
  /** How error messages describe the accepted transforms; defaults to a list of the URIs. */
  transformsDescription?: string;
  /**
   * `InclusiveNamespaces PrefixList` of the reference's exclusive C14N transform (`#default` for the default
   * namespace). The verifier uses the list the signature carries.
   */
  inclusivePrefixes?: readonly string[];
}

/** Where the `Signature` goes when signing, and where the verifier accepts it. */
export interface SignaturePlacement {
  /** Completes "The Signature must be …" in error messages. */
  description: string;
  /** The element the `Signature` is appended to, in the unsigned document; null when there is none. */
  parent(doc: Document): Element | null;
  /** Whether a found `Signature` is where the profile puts it. */
  accepts(signature: Element, doc: Document): boolean;
}

/**
 * What `KeyInfo` holds: by default `X509Data/X509Certificate` with the signer's leaf (base64 DER); a profile
 * that points elsewhere (a WS-Security `SecurityTokenReference`) gives the content and where the verifier
 * finds the certificate.
 */
export interface KeyInfoSpec {
  /** `KeyInfo/@Id`, so that a reference can sign it. */
  id?: string;
  /** The content of `KeyInfo` (well-formed, declaring its own namespaces); replaces the `X509Data`. */
  content?: (context: { certificate: string; dsPrefix: string }) => string;
  /** Where the verifier finds the signing certificate (base64 DER) for a `Signature`; replaces `KeyInfo/X509Data`. */
  certificate?: (signature: Element) => string | undefined;
}

/** An `Id`-like attribute that `URI="#id"` references resolve (e.g. WS-Security's `wsu:Id`). */
export interface IdAttribute {
  /** Namespace URI of the attribute ('' for none). */
  namespace: string;
  localName: string;
}

/** What the extra-objects hook receives. */
export interface SignedObjectContext {
  /** The signer's leaf certificate, base64 DER. */
  certificate: string;
  /** The leaf's issuers in chain order (intermediate first, root last), base64 DER; empty when the signer has none. */
  chain: readonly string[];
  /** Prefix of the XMLDSig namespace in the `Signature` ('' for the default namespace). */
  dsPrefix: string;
  /** `Signature/@Id`, when the profile sets one (XAdES `QualifyingProperties/@Target`). */
  signatureId?: string;
}

/**
 * A signing policy as a value. Limits of the core: inclusive C14N 1.0, RSA-SHA256, SHA-256 or SHA-384 digests
 * (the types say so); one `Signature` per document.
 */
export interface SignatureProfile {
  /** Who the profile is for, as error messages name it (e.g. "<who> documents carry exactly one"). */
  name: string;
  canonicalization: CanonicalizationAlgorithm;
  /** `InclusiveNamespaces PrefixList` of an exclusive `CanonicalizationMethod` (`#default` for the default namespace). */
  canonicalizationPrefixes?: readonly string[];
  signatureAlgorithm: SignatureAlgorithm;
  digestAlgorithm: DigestAlgorithm;
  /** The references of `SignedInfo`, in order. */
  references: readonly ReferenceSpec[];
  placement: SignaturePlacement;
  keyInfo: KeyInfoSpec;
  /** Prefix for the XMLDSig namespace ('' writes `<Signature xmlns="…xmldsig#">`). */
  dsPrefix: string;
  /** `Signature/@Id`. */
  signatureId?: string;
  /** `SignatureValue/@Id`. */
  signatureValueId?: string;
  /**
   * Extra signed objects: each string is the content of one `ds:Object`, written after `KeyInfo`.
   * The objects are parsed inside the `Signature` (so they may use `dsPrefix` and must declare their own
   * other namespaces), inserted at the signature's place, and canonicalised there: the namespace context
   * of a referenced object is the document's at the insertion point plus the `Signature`'s.
   */
  objects?: (context: SignedObjectContext) => readonly string[];
  /** Drop whitespace-only text before signing (outside `xml:space="preserve"`). */
  dropWhitespace: boolean;
  /** The attribute `URI="#id"` references resolve; defaults to an unqualified `Id`. */
  idAttribute?: IdAttribute;
}

/** Placement: the last child of the document element. */
export function appendToDocumentElement(): SignaturePlacement {
  return {
    description: 'a child of the document element (enveloped signature)',
    parent: (doc) => doc.documentElement,
    accepts: (signature, doc) => signature.parentNode === doc.documentElement,
  };
}

/**
 * Placement: appended to the element `locate` finds in the unsigned document (e.g. the last empty
 * extension element a document keeps for signatures); the verifier accepts a `Signature` whose parent `matches`.
 */
export function insertInto(description: string, locate: (doc: Document) => Element | null, matches: (parent: Element) => boolean): SignaturePlacement {
  return {
    description,
    parent: locate,
    accepts: (signature) => signature.parentNode !== null && signature.parentNode.nodeType === 1 && matches(signature.parentNode as Element),
  };
}

/** The `URI` attribute a reference writes. */
export function referenceUri(reference: ReferenceSpec): string {
  return reference.target === 'document' ? '' : `#${reference.target.id}`;
}

/** What the signer writes in one `Signature`. */
export interface SignatureValues {
  /** One DigestValue per reference ('' for a placeholder). */
  digests: readonly string[];
  signatureValue: string;
  certificate: string;
  /** Contents of the `ds:Object` elements. */
  objects?: readonly string[];
}

/**
 * `SignedInfo` as text. `canonical`: C14N 1.0 form (empty elements as start and end tag), carrying
 * `namespaces` (the XMLDSig declaration plus those inherited, already rendered and sorted); otherwise
 * the serialised form (empty elements self-closed, as xmldom writes them), with `namespaces` as given.
 * Attributes are written in canonical order (`Id`, `Type`, `URI`).
 */
export function renderSignedInfo(profile: SignatureProfile, digests: readonly string[], canonical: boolean, namespaces = ''): string {
  const q = qualifier(profile.dsPrefix);
  const empty = (name: string, attrs: string) => (canonical ? `<${q(name)}${attrs}></${q(name)}>` : `<${q(name)}${attrs}/>`);
  const withPrefixes = (name: string, uri: string, prefixes: readonly string[] | undefined) =>
    prefixes === undefined ? empty(name, algorithm(uri)) : `<${q(name)}${algorithm(uri)}>${inclusiveNamespaces(prefixes, canonical)}</${q(name)}>`;
  let out =
    `<${q('SignedInfo')}${namespaces}>` +
    withPrefixes('CanonicalizationMethod', profile.canonicalization, profile.canonicalizationPrefixes) +
    empty('SignatureMethod', algorithm(profile.signatureAlgorithm));
  profile.references.forEach((reference, i) => {
    out += `<${q('Reference')}${attr('Id', reference.id)}${attr('Type', reference.type)} URI="${escapeAttr(referenceUri(reference))}">`;
    if (reference.transforms.length > 0) {
      const transform = (t: TransformAlgorithm) => withPrefixes('Transform', t, t === EXC_C14N_ALGORITHM ? reference.inclusivePrefixes : undefined);
      out += `<${q('Transforms')}>${reference.transforms.map(transform).join('')}</${q('Transforms')}>`;
    }
    out += empty('DigestMethod', algorithm(profile.digestAlgorithm)) + `<${q('DigestValue')}>${digests[i] ?? ''}</${q('DigestValue')}></${q('Reference')}>`;
  });
  return `${out}</${q('SignedInfo')}>`;
}

/** The XMLDSig namespace declaration of the profile's `Signature` (` xmlns="…"` or ` xmlns:ds="…"`). */
export function dsigDeclaration(profile: SignatureProfile): string {
  return profile.dsPrefix ? ` xmlns:${profile.dsPrefix}="${DSIG_NS}"` : ` xmlns="${DSIG_NS}"`;
}

/** The `Signature` element as the signer writes it (empty elements self-closed, as xmldom serialises). */
export function renderSignature(profile: SignatureProfile, values: SignatureValues): string {
  const q = qualifier(profile.dsPrefix);
  const content =
    profile.keyInfo.content?.({ certificate: values.certificate, dsPrefix: profile.dsPrefix }) ??
    `<${q('X509Data')}><${q('X509Certificate')}>${values.certificate}</${q('X509Certificate')}></${q('X509Data')}>`;
  const keyInfo = `<${q('KeyInfo')}${attr('Id', profile.keyInfo.id)}>${content}</${q('KeyInfo')}>`;
  const objects = (values.objects ?? []).map((content) => `<${q('Object')}>${content}</${q('Object')}>`).join('');
  return (
    `<${q('Signature')}${dsigDeclaration(profile)}${attr('Id', profile.signatureId)}>` +
    renderSignedInfo(profile, values.digests, false) +
    `<${q('SignatureValue')}${attr('Id', profile.signatureValueId)}>${values.signatureValue}</${q('SignatureValue')}>` +
    keyInfo +
    objects +
    `</${q('Signature')}>`
  );
}

/** The namespace of exclusive C14N's `InclusiveNamespaces` element. */
export const EXC_C14N_NS = EXC_C14N_ALGORITHM;

/** `ec:InclusiveNamespaces` with its PrefixList (canonical form: start and end tag). */
function inclusiveNamespaces(prefixes: readonly string[], canonical: boolean): string {
  const attrs = ` xmlns:ec="${EXC_C14N_NS}" PrefixList="${escapeAttr(prefixes.join(' '))}"`;
  return canonical ? `<ec:InclusiveNamespaces${attrs}></ec:InclusiveNamespaces>` : `<ec:InclusiveNamespaces${attrs}/>`;
}

function qualifier(prefix: string): (name: string) => string {
  return prefix ? (name) => `${prefix}:${name}` : (name) => name;
}

function algorithm(uri: string): string {
  return ` Algorithm="${escapeAttr(uri)}"`;
}

function attr(name: string, value: string | undefined): string {
  return value === undefined ? '' : ` ${name}="${escapeAttr(value)}"`;
}

function escapeAttr(s: string): string {
  return s.replace(/[&<"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&quot;'));
}
