/**
 * The generic XMLDSig verifier, driven by a {@link SignatureProfile}: the document is parsed once with
 * @xmldom/xmldom 0.9 (strict policy, ../xml/strict-parser.ts), the Signature's structure and SignedInfo are
 * checked against the profile before any cryptography (expected algorithms, the number, URIs, `Type` and
 * transforms of the references, where the Signature may be), every reference is digested with the linear
 * C14N of ./c14n.ts, then SignedInfo is checked against SignatureValue with the key of the embedded
 * certificate. It proves integrity and that the embedded certificate's key signed; trust in that
 * certificate is the caller's decision.
 *
 * Generic: no product or authority here (each product's profile value and fast path live in its own sign folder).
 */
import { createHash, verify as cryptoVerify, X509Certificate, type KeyObject } from 'node:crypto';
import type { Element, Node } from '@xmldom/xmldom';
import { firstProblem, parseXmlStrictly } from '../xml/strict-parser.js';
import { canonicalizeDocument, canonicalizeSubtree, canonicalSubtreeString, type C14nSink } from './c14n.js';
import { canonicalizeExclusive, exclusiveCanonicalString, prefixListTokens } from './exc-c14n.js';
import {
  DIGEST_HASH,
  DSIG_NS,
  EXC_C14N_ALGORITHM,
  EXC_C14N_NS,
  referenceUri,
  SIGNATURE_HASH,
  type ReferenceSpec,
  type SignatureProfile,
} from './signature-profile.js';
import { elementsWithId } from './xmldsig-sign.js';

/** Why a signature did not verify. */
export type VerifyFailure =
  | 'not_well_formed'
  | 'no_signature'
  | 'multiple_signatures'
  | 'wrong_reference_uri'
  | 'no_certificate'
  | 'digest_mismatch'
  | 'bad_signature'
  | 'unsupported';

/** Outcome of a verification. */
export interface VerifyResult {
  valid: boolean;
  /** Stable failure code, when not valid. */
  code?: VerifyFailure;
  /** English explanation, when not valid. */
  reason?: string;
  /** The embedded signing certificate (base64 DER), when one was found. */
  certificate?: string;
}

/** What the checks need from the document around the Signature. */
export interface SignatureContext {
  /** Whether the Signature is where the profile puts it. */
  placed: boolean;
  /** Writes the canonical document without `signature` (a `URI=""` reference with the enveloped transform). */
  canonicalDocument(sink: C14nSink, signature: Element): void;
  /** Every element carrying `Id="id"` (a `URI="#id"` reference). */
  elementsWithId(id: string): Element[];
}

/**
 * Verifies the one XMLDSig `Signature` of `xml` against `profile` (the DOM path: any well-formed input
 * without a DOCTYPE).
 *
 * @example
 * verifyXmlWithProfile(signed, profile) //=> { valid: true, certificate: 'MIID…' }
 */
export function verifyXmlWithProfile(xml: string, profile: SignatureProfile): VerifyResult {
  const parsed = parseXmlStrictly(xml);
  const doc = parsed.doc;
  if (!doc?.documentElement || parsed.problems.length > 0 || parsed.thrown !== undefined) {
    return fail('not_well_formed', `The XML is not well-formed: ${firstProblem(parsed, 'no document element')}`);
  }
  if (doc.doctype) return fail('unsupported', 'Documents with a DOCTYPE are not accepted (entity declarations are not part of the signing profile).');
  const root = doc.documentElement;
  const signatures = findSignatures(root);
  const first = signatures[0];
  return verifySignatures(signatures, profile, {
    placed: first !== undefined && profile.placement.accepts(first, doc),
    canonicalDocument: (sink, signature) => canonicalizeDocument(doc, signature, sink),
    elementsWithId: (id) => elementsWithId(root, id, profile.idAttribute),
  });
}

/**
 * The checks and the cryptography, whatever path found the Signature elements: `signatures` are the
 * XMLDSig Signature elements found in the document.
 */
export function verifySignatures(signatures: Element[], profile: SignatureProfile, context: SignatureContext): VerifyResult {
  if (signatures.length === 0) return fail('no_signature', 'The document has no XMLDSig Signature element.');
  if (signatures.length > 1) {
    return fail('multiple_signatures', `The document has ${signatures.length} Signature elements; ${profile.name} documents carry exactly one.`);
  }
  const signature = signatures[0]!;
  const certificate = profile.keyInfo.certificate ? profile.keyInfo.certificate(signature) : embeddedCertificate(signature);
  const shape = structureProblem(signature);
  if (shape) return fail('unsupported', `The Signature does not have the XMLDSig structure: ${shape}`, certificate);
  if (!context.placed) return fail('unsupported', `The Signature must be ${profile.placement.description}.`, certificate);
  const [signedInfo, signatureValueElement] = childElements(signature) as [Element, Element];
  const references = childElements(signedInfo).filter((e) => e.localName === 'Reference');
  const expected = profile.references.map(referenceUri);
  if (references.length !== expected.length || references.some((r, i) => r.getAttribute('URI') !== expected[i])) {
    const uris = references.map((r) => JSON.stringify(r.getAttribute('URI'))).join(', ');
    return fail('wrong_reference_uri', `Expected ${describeReferences(profile)}, found: ${uris || 'none'}.`, certificate);
  }
  const problem = signedInfoProblem(signedInfo, profile);
  if (problem) return fail('unsupported', `The signature cannot be checked: ${problem}`, certificate);
  if (!certificate) {
    return fail(
      'no_certificate',
      profile.keyInfo.certificate
        ? 'The Signature names no certificate to verify with.'
        : 'The Signature has no KeyInfo/X509Data/X509Certificate to verify with.',
    );
  }

  const method = SIGNATURE_HASH[profile.signatureAlgorithm];
  let publicKey: KeyObject;
  try {
    publicKey = new X509Certificate(Buffer.from(certificate, 'base64')).publicKey;
  } catch (e) {
    return fail(
      'unsupported',
      `The signature cannot be checked: the embedded certificate cannot be read (${e instanceof Error ? e.message : String(e)}).`,
      certificate,
    );
  }
  if (publicKey.asymmetricKeyType !== method.keyType) {
    return fail(
      'unsupported',
      `The signature cannot be checked: the embedded certificate has a ${publicKey.asymmetricKeyType ?? 'unknown'} key; the profile signs with ${method.name}.`,
      certificate,
    );
  }

  // 1. References: each target canonicalised and hashed, against its DigestValue.
  for (let i = 0; i < references.length; i++) {
    const spec = profile.references[i]!;
    const digestValue = base64Content(childElements(references[i]!).find((e) => e.localName === 'DigestValue')!);
    const hash = createHash(DIGEST_HASH[profile.digestAlgorithm]);
    const sink = (chunk: string) => hash.update(chunk, 'utf8');
    const exclusive = exclusivePrefixes(references[i]!);
    if (spec.target === 'document') {
      if (exclusive) canonicalizeExclusive(signature.ownerDocument!.documentElement!, exclusive, sink, signature);
      else context.canonicalDocument(sink, signature);
    } else {
      const targets = context.elementsWithId(spec.target.id);
      if (targets.length !== 1) {
        return fail(
          'unsupported',
          `The signature cannot be checked: ${targets.length === 0 ? 'no element carries' : 'several elements carry'} Id="${spec.target.id}" (Reference URI="#${spec.target.id}").`,
          certificate,
        );
      }
      if (exclusive) canonicalizeExclusive(targets[0]!, exclusive, sink);
      else canonicalizeSubtree(targets[0]!, sink);
    }
    const digest = hash.digest();
    if (digestValue === null || !digest.equals(Buffer.from(digestValue, 'base64'))) {
      return fail(
        'digest_mismatch',
        spec.target === 'document'
          ? 'The signed content was altered after signing (digest mismatch): the DigestValue does not match the canonical document.'
          : `The signed content was altered after signing (digest mismatch): the DigestValue of Reference URI="#${spec.target.id}" does not match the element it points to.`,
        certificate,
      );
    }
  }

  // 2. SignedInfo, canonicalised in its context, against SignatureValue with the embedded key.
  const value = base64Content(signatureValueElement);
  const c14n = childElements(signedInfo)[0]!;
  const canonicalSignedInfo =
    profile.canonicalization === EXC_C14N_ALGORITHM ? exclusiveCanonicalString(signedInfo, prefixListOf(c14n)) : canonicalSubtreeString(signedInfo);
  const signedBytes = Buffer.from(canonicalSignedInfo, 'utf8');
  if (value === null || !cryptoVerify(method.hash, signedBytes, publicKey, Buffer.from(value, 'base64'))) {
    return fail(
      'bad_signature',
      'The SignatureValue does not match SignedInfo for the embedded certificate (SignedInfo altered, or signed with another key).',
      certificate,
    );
  }
  return { valid: true, certificate };
}

/** Every `Signature` element in the XMLDSig namespace, in one iterative walk. */
export function findSignatures(root: Element): Element[] {
  const found: Element[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.nodeType !== 1) continue;
    const el = n as Element;
    if (el.localName === 'Signature' && el.namespaceURI === DSIG_NS) found.push(el);
    for (let c = el.lastChild; c; c = c.previousSibling) if (c.nodeType === 1) stack.push(c);
  }
  return found;
}

function describeReferences(profile: SignatureProfile): string {
  const refs = profile.references;
  if (refs.length === 1 && refs[0]!.target === 'document') return 'exactly one Reference with URI="" (the whole document)';
  return `exactly ${refs.length} Reference${refs.length === 1 ? '' : 's'} with URI ${refs.map((r) => JSON.stringify(referenceUri(r))).join(', ')}`;
}

/**
 * The profile's SignedInfo, checked before any cryptography: CanonicalizationMethod, SignatureMethod, then
 * the profile's References, each with its accepted transforms, its `Type` when the profile sets one, and the
 * profile's DigestMethod; every element in the XMLDSig namespace and nothing else.
 */
function signedInfoProblem(signedInfo: Element, profile: SignatureProfile): string | null {
  const parts = childElements(signedInfo);
  if (parts.some((e) => e.namespaceURI !== DSIG_NS)) return 'SignedInfo holds an element outside the XMLDSig namespace.';
  const names = parts.map((e) => e.localName);
  const count = profile.references.length;
  if (names.join(',') !== ['CanonicalizationMethod', 'SignatureMethod', ...profile.references.map(() => 'Reference')].join(',')) {
    return `SignedInfo must hold CanonicalizationMethod, SignatureMethod and ${count === 1 ? 'one Reference' : `${count} References`}, found ${names.join(', ')}.`;
  }
  const [c14n, method, ...references] = parts as [Element, Element, ...Element[]];
  if (c14n.getAttribute('Algorithm') !== profile.canonicalization || !parametersAllowed(c14n)) {
    return `CanonicalizationMethod must be ${profile.canonicalization}, found ${JSON.stringify(c14n.getAttribute('Algorithm'))}.`;
  }
  if (method.getAttribute('Algorithm') !== profile.signatureAlgorithm || childElements(method).length > 0) {
    return `SignatureMethod must be ${profile.signatureAlgorithm}, found ${JSON.stringify(method.getAttribute('Algorithm'))}.`;
  }
  for (let i = 0; i < references.length; i++) {
    const problem = referenceProblem(references[i]!, profile.references[i]!, profile);
    if (problem) return problem;
  }
  return null;
}

function referenceProblem(reference: Element, spec: ReferenceSpec, profile: SignatureProfile): string | null {
  const accepted = spec.acceptedTransforms ?? [spec.transforms];
  const inner = childElements(reference);
  if (inner.some((e) => e.namespaceURI !== DSIG_NS)) return 'Reference holds an element outside the XMLDSig namespace.';
  const innerNames = inner.map((e) => e.localName).join(',');
  const withoutTransforms = innerNames === 'DigestMethod,DigestValue' && accepted.some((list) => list.length === 0);
  if (innerNames !== 'Transforms,DigestMethod,DigestValue' && !withoutTransforms) {
    return `Reference must hold Transforms, DigestMethod and DigestValue, found ${inner.map((e) => e.localName).join(', ')}.`;
  }
  if (spec.type !== undefined && reference.getAttribute('Type') !== spec.type) {
    return `the Reference URI=${JSON.stringify(referenceUri(spec))} must have Type="${spec.type}", found ${JSON.stringify(reference.getAttribute('Type'))}.`;
  }
  const [transforms, digestMethod] = (withoutTransforms ? [null, inner[0]] : inner) as [Element | null, Element];
  if (transforms) {
    const algorithms = childElements(transforms).map((t) =>
      t.localName === 'Transform' && t.namespaceURI === DSIG_NS && parametersAllowed(t) ? t.getAttribute('Algorithm') : '?',
    );
    const allowed = algorithms.length >= 1 && accepted.some((list) => list.length === algorithms.length && list.every((a, k) => a === algorithms[k]));
    if (!allowed) {
      const description = spec.transformsDescription ?? accepted.map((list) => (list.length ? list.join(' then ') : 'none')).join(', or ');
      return `the Reference transforms must be ${description}, found ${algorithms.join(', ') || 'none'}.`;
    }
  }
  if (digestMethod.getAttribute('Algorithm') !== profile.digestAlgorithm || childElements(digestMethod).length > 0) {
    return `DigestMethod must be ${profile.digestAlgorithm}, found ${JSON.stringify(digestMethod.getAttribute('Algorithm'))}.`;
  }
  return null;
}

/**
 * Whether a CanonicalizationMethod or Transform holds only what its algorithm takes: nothing, or for exclusive
 * C14N at most one `InclusiveNamespaces` (with no children).
 */
function parametersAllowed(method: Element): boolean {
  const inner = childElements(method);
  if (inner.length === 0) return true;
  return (
    method.getAttribute('Algorithm') === EXC_C14N_ALGORITHM &&
    inner.length === 1 &&
    inner[0]!.localName === 'InclusiveNamespaces' &&
    inner[0]!.namespaceURI === EXC_C14N_NS &&
    childElements(inner[0]!).length === 0
  );
}

/** The PrefixList of an exclusive CanonicalizationMethod or Transform (empty without InclusiveNamespaces). */
function prefixListOf(method: Element): string[] {
  const inclusive = childElements(method)[0];
  return inclusive ? prefixListTokens(inclusive.getAttribute('PrefixList')) : [];
}

/** The PrefixList when a Reference's transforms are exclusive C14N, null otherwise. */
function exclusivePrefixes(reference: Element): string[] | null {
  const transforms = childElements(reference).find((e) => e.localName === 'Transforms');
  const exclusive = transforms && childElements(transforms).find((t) => t.getAttribute('Algorithm') === EXC_C14N_ALGORITHM);
  return exclusive ? prefixListOf(exclusive) : null;
}

const BASE64_TEXT = /^[A-Za-z0-9+/]+={0,2}$/;

/** Base64 text of an element (whitespace removed), or null when it holds anything else. */
function base64Content(el: Element): string | null {
  if (childElements(el).length > 0) return null;
  const text = (el.textContent ?? '').replace(/[ \t\r\n]+/g, '');
  return BASE64_TEXT.test(text) && text.length % 4 === 0 ? text : null;
}

/** Most elements a Signature may contain, all levels counted (an enveloped RSA-SHA256 signature carries about a dozen). */
const MAX_SIGNATURE_ELEMENTS = 64;

function childElements(el: Element): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  return out;
}

/**
 * The element sequence of xmldsig-core-schema, checked before any cryptography (Signature = SignedInfo,
 * SignatureValue, KeyInfo?, Object*, all in the XMLDSig namespace), and a bound on its size: a duplicated
 * SignedInfo, SignatureValue or KeyInfo, or a signature padded with thousands of elements, is refused here.
 */
function structureProblem(signature: Element): string | null {
  let count = 0;
  const stack: Element[] = [signature];
  while (stack.length > 0) {
    for (let n = stack.pop()!.firstChild; n; n = n.nextSibling) {
      if (n.nodeType !== 1) continue;
      if (++count > MAX_SIGNATURE_ELEMENTS) return `more than ${MAX_SIGNATURE_ELEMENTS} elements.`;
      stack.push(n as Element);
    }
  }
  const names = childElements(signature).map((c) => (c.namespaceURI === DSIG_NS ? c.localName : `{${c.namespaceURI ?? ''}}${c.localName}`));
  let i = 0;
  if (names[i] === 'SignedInfo') i++;
  else return 'it must start with one SignedInfo.';
  if (names[i] === 'SignatureValue') i++;
  else return 'SignedInfo must be followed by one SignatureValue.';
  if (names[i] === 'KeyInfo') i++;
  const extra = names.slice(i).find((n) => n !== 'Object');
  return extra ? `unexpected ${extra} after SignatureValue/KeyInfo.` : null;
}

/** The first KeyInfo/X509Data/X509Certificate of the Signature (never one from an Object). */
function embeddedCertificate(signature: Element): string | undefined {
  const dsig = (el: Element | undefined, name: string) => el && childElements(el).find((e) => e.localName === name && e.namespaceURI === DSIG_NS);
  const keyInfo = dsig(signature, 'KeyInfo');
  const x509Data = keyInfo && childElements(keyInfo).find((e) => e.localName === 'X509Data' && e.namespaceURI === DSIG_NS && dsig(e, 'X509Certificate'));
  const node = dsig(x509Data, 'X509Certificate');
  const text = node?.textContent?.replace(/\s+/g, '');
  return text ? text : undefined;
}

function fail(code: VerifyFailure, reason: string, certificate?: string): VerifyResult {
  return certificate === undefined ? { valid: false, code, reason } : { valid: false, code, reason, certificate };
}
