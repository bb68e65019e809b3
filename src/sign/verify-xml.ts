/**
 * XMLDSig verification for DGII's profile (./profile.ts), our own: the document is parsed once with
 * @xmldom/xmldom 0.9 (the parser the rest of ecf-kit reads with), its structure is checked before any
 * cryptography, and both canonical forms come from the linear C14N of ./c14n.ts. It replaces xml-crypto,
 * whose XPath node sets made verification quadratic (about 20 s for a valid 10,000-line e-CF 32, issue
 * 13 item 4); xml-crypto and xmlsec1 remain differential oracles in the tests.
 */
import { createHash, verify as cryptoVerify, X509Certificate, type KeyObject } from 'node:crypto';
import { DOMParser, type Document, type Element, type Node } from '@xmldom/xmldom';
import { canonicalizeDocument, canonicalSubtreeString, type C14nSink } from './c14n.js';
import { scanCompact } from './compact-c14n.js';
import { C14N_ALGORITHM, DIGEST_ALGORITHM, DSIG_NS, ENVELOPED_TRANSFORM, SIGNATURE_ALGORITHM } from './profile.js';
import { xml10LineEndings } from '../xml/xml10.js';

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

/** Outcome of {@link verifyXml}. */
export interface VerifyResult {
  valid: boolean;
  /** Stable failure code, when not valid. */
  code?: VerifyFailure;
  /** English explanation, when not valid. */
  reason?: string;
  /** The embedded signing certificate (base64 DER), when one was found. */
  certificate?: string;
}

/**
 * Verifies the XMLDSig signature of a document against the certificate embedded in its `KeyInfo`.
 * Expects DGII's shape: exactly one `Signature`, with one `Reference URI=""`. It proves integrity
 * and that the embedded certificate's key signed it; it does not decide whether that certificate
 * is trusted (chain, revocation, delegation at DGII).
 *
 * @example
 * verifyXml(signed) //=> { valid: true, certificate: 'MIID…' }
 * verifyXml(signed.replace('1000.00', '1.00')) //=> { valid: false, code: 'digest_mismatch', reason: '…', certificate: 'MIID…' }
 */
export function verifyXml(xml: string): VerifyResult {
  const compact = splitCompact(xml);
  if (compact) {
    return verifySignature([compact.signature], true, (sink) => sink(compact.canonical));
  }
  let problem: string | undefined;
  let doc: Document | undefined;
  try {
    doc = parseStrict(xml, (message) => (problem ??= message));
  } catch (e) {
    problem ??= e instanceof Error ? e.message : String(e);
  }
  if (!doc?.documentElement || problem !== undefined) {
    return fail('not_well_formed', `The XML is not well-formed: ${problem ?? 'no document element'}`);
  }
  if (doc.doctype) return fail('unsupported', 'Documents with a DOCTYPE are not accepted (entity declarations are not part of the signing profile).');
  const root = doc.documentElement;
  const signatures = findSignatures(root);
  return verifySignature(signatures, signatures[0]?.parentNode === root, (sink, signature) => canonicalizeDocument(doc, signature, sink));
}

function parseStrict(xml: string, onProblem: (message: string) => void): Document {
  return new DOMParser({
    normalizeLineEndings: xml10LineEndings,
    onError: (level, message) => {
      if (level !== 'warning' || !/replacement character/.test(message)) onProblem(message);
    },
  }).parseFromString(xml, 'text/xml');
}

const SIGNATURE_START = `<Signature xmlns="${DSIG_NS}"`;
const END_TAG = /^<\/([A-Za-z_][A-Za-z0-9_.-]*)>$/;

/**
 * Fast path for what ecf-kit's signer and xml-crypto write: a compact document (./compact-c14n.ts: no
 * attributes, namespaces, comments, whitespace-only text, …) whose last child is
 * `<Signature xmlns="…xmldsig#">…</Signature>`. The document without the signature is canonicalised at
 * string level by the signer's own scanner, and only the small Signature element is parsed with xmldom.
 * As the rest has no namespace declarations and no `xml:*` attributes, the Signature's context is exactly
 * the one it has when parsed alone. Anything else returns null and takes the DOM path, which decides.
 */
function splitCompact(xml: string): { canonical: string; signature: Element } | null {
  const close = xml.lastIndexOf('</');
  const endTag = close < 0 ? null : END_TAG.exec(xml.slice(close));
  if (!endTag) return null;
  const start = xml.lastIndexOf(SIGNATURE_START, close);
  if (start < 0) return null;
  const signatureText = xml.slice(start, close);
  if (!signatureText.endsWith('</Signature>')) return null;
  const rest = scanCompact(xml.slice(0, start) + xml.slice(close));
  if (!rest || rest.droppedWhitespace || rest.rootName !== endTag[1]) return null;
  let problem = false;
  let part: Document;
  try {
    part = parseStrict(signatureText, () => (problem = true));
  } catch {
    return null;
  }
  const element = part.documentElement;
  if (problem || !element || part.childNodes.length !== 1 || part.doctype) return null;
  if (element.localName !== 'Signature' || element.namespaceURI !== DSIG_NS || findSignatures(element).length !== 1) return null;
  return { canonical: rest.canonical, signature: element };
}

/**
 * The checks and the cryptography common to both paths: `signatures` are the XMLDSig Signature elements
 * found, `enveloped` says whether the only one is a child of the document element, `canonicalDocument`
 * writes the canonical document without that signature.
 */
function verifySignature(signatures: Element[], enveloped: boolean, canonicalDocument: (sink: C14nSink, signature: Element) => void): VerifyResult {
  if (signatures.length === 0) return fail('no_signature', 'The document has no XMLDSig Signature element.');
  if (signatures.length > 1) {
    return fail('multiple_signatures', `The document has ${signatures.length} Signature elements; DGII documents carry exactly one.`);
  }
  const signature = signatures[0]!;
  const certificate = embeddedCertificate(signature);
  const shape = structureProblem(signature);
  if (shape) return fail('unsupported', `The Signature does not have the XMLDSig structure: ${shape}`, certificate);
  if (!enveloped) {
    return fail('unsupported', 'The Signature must be a child of the document element (enveloped signature).', certificate);
  }
  const [signedInfo, signatureValueElement] = childElements(signature) as [Element, Element];
  const references = childElements(signedInfo).filter((e) => e.localName === 'Reference');
  if (references.length !== 1 || references[0]!.getAttribute('URI') !== '') {
    const uris = references.map((r) => JSON.stringify(r.getAttribute('URI'))).join(', ');
    return fail('wrong_reference_uri', `Expected exactly one Reference with URI="" (the whole document), found: ${uris || 'none'}.`, certificate);
  }
  const profile = signedInfoProblem(signedInfo);
  if (profile) return fail('unsupported', `The signature cannot be checked: ${profile}`, certificate);
  if (!certificate) return fail('no_certificate', 'The Signature has no KeyInfo/X509Data/X509Certificate to verify with.');

  let publicKey: KeyObject;
  try {
    publicKey = new X509Certificate(Buffer.from(certificate, 'base64')).publicKey;
  } catch (e) {
    return fail('unsupported', `The signature cannot be checked: the embedded certificate cannot be read (${e instanceof Error ? e.message : String(e)}).`, certificate);
  }
  if (publicKey.asymmetricKeyType !== 'rsa') {
    return fail('unsupported', `The signature cannot be checked: the embedded certificate has a ${publicKey.asymmetricKeyType ?? 'unknown'} key; the profile signs with RSA.`, certificate);
  }

  // 1. Reference: the whole document without the enveloped Signature, canonicalised, hashed.
  const digestValue = base64Content(childElements(references[0]!).find((e) => e.localName === 'DigestValue')!);
  const hash = createHash('sha256');
  canonicalDocument((chunk) => hash.update(chunk, 'utf8'), signature);
  const digest = hash.digest();
  if (digestValue === null || !digest.equals(Buffer.from(digestValue, 'base64'))) {
    return fail('digest_mismatch', 'The signed content was altered after signing (digest mismatch): the DigestValue does not match the canonical document.', certificate);
  }

  // 2. SignedInfo, canonicalised in its context, against SignatureValue with the embedded key.
  const value = base64Content(signatureValueElement);
  const signedBytes = Buffer.from(canonicalSubtreeString(signedInfo), 'utf8');
  if (value === null || !cryptoVerify('sha256', signedBytes, publicKey, Buffer.from(value, 'base64'))) {
    return fail('bad_signature', 'The SignatureValue does not match SignedInfo for the embedded certificate (SignedInfo altered, or signed with another key).', certificate);
  }
  return { valid: true, certificate };
}

/** Every `Signature` element in the XMLDSig namespace, in one iterative walk. */
function findSignatures(root: Element): Element[] {
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

/**
 * DGII's profile for SignedInfo, checked before any cryptography: CanonicalizationMethod (inclusive C14N
 * 1.0 without comments), SignatureMethod (RSA-SHA256), one Reference whose transforms are the
 * enveloped-signature transform (optionally followed by the same C14N) and whose DigestMethod is SHA-256,
 * every element in the XMLDSig namespace and nothing else.
 */
function signedInfoProblem(signedInfo: Element): string | null {
  const parts = childElements(signedInfo);
  if (parts.some((e) => e.namespaceURI !== DSIG_NS)) return 'SignedInfo holds an element outside the XMLDSig namespace.';
  const names = parts.map((e) => e.localName);
  if (names.join(',') !== 'CanonicalizationMethod,SignatureMethod,Reference') {
    return `SignedInfo must hold CanonicalizationMethod, SignatureMethod and one Reference, found ${names.join(', ')}.`;
  }
  const [c14n, method, reference] = parts as [Element, Element, Element];
  if (c14n.getAttribute('Algorithm') !== C14N_ALGORITHM || childElements(c14n).length > 0) {
    return `CanonicalizationMethod must be ${C14N_ALGORITHM}, found ${JSON.stringify(c14n.getAttribute('Algorithm'))}.`;
  }
  if (method.getAttribute('Algorithm') !== SIGNATURE_ALGORITHM || childElements(method).length > 0) {
    return `SignatureMethod must be ${SIGNATURE_ALGORITHM}, found ${JSON.stringify(method.getAttribute('Algorithm'))}.`;
  }
  const inner = childElements(reference);
  if (inner.some((e) => e.namespaceURI !== DSIG_NS)) return 'Reference holds an element outside the XMLDSig namespace.';
  if (inner.map((e) => e.localName).join(',') !== 'Transforms,DigestMethod,DigestValue') {
    return `Reference must hold Transforms, DigestMethod and DigestValue, found ${inner.map((e) => e.localName).join(', ')}.`;
  }
  const [transforms, digestMethod] = inner as [Element, Element];
  const list = childElements(transforms);
  const algorithms = list.map((t) => (t.localName === 'Transform' && t.namespaceURI === DSIG_NS && childElements(t).length === 0 ? t.getAttribute('Algorithm') : '?'));
  const allowed = algorithms.length >= 1 && algorithms.length <= 2 && algorithms[0] === ENVELOPED_TRANSFORM && (algorithms.length === 1 || algorithms[1] === C14N_ALGORITHM);
  if (!allowed) return `the Reference transforms must be the enveloped-signature transform (optionally then C14N 1.0), found ${algorithms.join(', ') || 'none'}.`;
  if (digestMethod.getAttribute('Algorithm') !== DIGEST_ALGORITHM || childElements(digestMethod).length > 0) {
    return `DigestMethod must be ${DIGEST_ALGORITHM}, found ${JSON.stringify(digestMethod.getAttribute('Algorithm'))}.`;
  }
  return null;
}

const BASE64_TEXT = /^[A-Za-z0-9+/]+={0,2}$/;

/** Base64 text of an element (whitespace removed), or null when it holds anything else. */
function base64Content(el: Element): string | null {
  if (childElements(el).length > 0) return null;
  const text = (el.textContent ?? '').replace(/[ \t\r\n]+/g, '');
  return BASE64_TEXT.test(text) && text.length % 4 === 0 ? text : null;
}

/** Most elements a Signature may contain, all levels counted (DGII's carry about a dozen). */
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
