/**
 * The generic XMLDSig signer, driven by a {@link SignatureProfile}: over an @xmldom/xmldom document, the
 * `Signature` (with the profile's references, `KeyInfo` and extra objects) is rendered, inserted where the
 * profile says, each reference digested in place (linear C14N 1.0 of ./c14n.ts), `SignedInfo`
 * canonicalised in its context and signed by the {@link Signer}. The steps are xml-crypto's
 * `computeSignature`, so for an enveloped RSA-SHA256 profile the output is byte for byte what xml-crypto 6 writes.
 *
 * Generic: no product or authority here (each product's profile value and fast path live in its own sign folder).
 */
import { createHash } from 'node:crypto';
import type { Document, Element, Node } from '@xmldom/xmldom';
import { isEcfError } from '../errors/ecf-error.js';
import { SigningError } from '../errors/signing-error.js';
import type { Signer } from '../ports.js';
import { firstProblem, parseXmlStrictly } from '../xml/strict-parser.js';
import { canonicalizeDocument, canonicalizeSubtree, canonicalSubtreeString } from './c14n.js';
import { assertUnsigned, dropWhitespace, parseForSigning, serialize } from './dom.js';
import { canonicalizeExclusive, exclusiveCanonicalString } from './exc-c14n.js';
import { DIGEST_HASH, DSIG_NS, EXC_C14N_ALGORITHM, type IdAttribute, renderSignature, type SignatureProfile } from './signature-profile.js';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Signs `xml` with `profile`: parsed strictly (DOCTYPE refused), refused when already signed,
 * whitespace-only text dropped when the profile says so, signed, serialised by xmldom.
 *
 * @throws SigningError `not_well_formed`, `already_signed`, `unsupported_xml`, `signer_failed`
 */
export async function signXmlWithProfile(xml: string, profile: SignatureProfile, signer: Signer): Promise<string> {
  const doc = parseForSigning(xml);
  assertUnsigned(doc);
  if (profile.dropWhitespace) dropWhitespace(doc);
  await signDocument(doc, profile, signer);
  return serialize(doc);
}

/** Signs a parsed document in place with `profile`; returns the inserted `Signature` element. */
export async function signDocument(doc: Document, profile: SignatureProfile, signer: Signer): Promise<Element> {
  const certificate = checkedCertificate(signer);
  const parent = profile.placement.parent(doc);
  if (!parent) {
    throw new SigningError(`The document has no place for the Signature: it must be ${profile.placement.description}.`, { code: 'unsupported_xml' });
  }
  const objects =
    profile.objects?.({
      certificate,
      chain: checkedChain(signer),
      dsPrefix: profile.dsPrefix,
      ...(profile.signatureId === undefined ? {} : { signatureId: profile.signatureId }),
    }) ?? [];
  const templateText = renderSignature(profile, { digests: profile.references.map(() => ''), signatureValue: '', certificate, objects });
  const template = parseXmlStrictly(templateText);
  if (!template.doc?.documentElement || template.problems.length > 0 || template.thrown !== undefined) {
    throw new SigningError(`The signature profile "${profile.name}" writes a Signature that is not well-formed: ${firstProblem(template, 'no element')}`, {
      code: 'unsupported_xml',
      cause: template.thrown,
    });
  }
  const signature = doc.importNode(template.doc.documentElement, true) as Element;
  parent.appendChild(signature);

  const signedInfo = dsigChild(signature, 'SignedInfo')!;
  const references = childElements(signedInfo).filter((e) => e.localName === 'Reference');
  profile.references.forEach((reference, i) => {
    const hash = createHash(DIGEST_HASH[profile.digestAlgorithm]);
    const sink = (chunk: string) => hash.update(chunk, 'utf8');
    const target = reference.target === 'document' ? null : elementById(doc, reference.target.id, profile);
    const exclusive = reference.transforms.includes(EXC_C14N_ALGORITHM) ? (reference.inclusivePrefixes ?? []) : null;
    canonicalizeReference(doc, target, signature, exclusive, sink);
    dsigChild(references[i]!, 'DigestValue')!.appendChild(doc.createTextNode(hash.digest('base64')));
  });

  const canonicalSignedInfo =
    profile.canonicalization === EXC_C14N_ALGORITHM
      ? exclusiveCanonicalString(signedInfo, profile.canonicalizationPrefixes ?? [])
      : canonicalSubtreeString(signedInfo);
  const value = await signatureValue(signer, canonicalSignedInfo);
  dsigChild(signature, 'SignatureValue')!.appendChild(doc.createTextNode(value));
  return signature;
}

/**
 * Writes the canonical form a reference digests: the whole document without `signature` (`target` null, the
 * enveloped transform) or the target element in its context; `exclusive` is the PrefixList when the
 * reference's transforms are exclusive C14N (an exclusive whole-document reference covers the document
 * element, not processing instructions outside it), null for inclusive C14N 1.0.
 */
export function canonicalizeReference(
  doc: Document,
  target: Element | null,
  signature: Element,
  exclusive: readonly string[] | null,
  sink: (chunk: string) => void,
): void {
  if (exclusive !== null) canonicalizeExclusive(target ?? doc.documentElement!, exclusive, sink, target ? null : signature);
  else if (target) canonicalizeSubtree(target, sink);
  else canonicalizeDocument(doc, signature, sink);
}

/** Calls the signer over canonical `SignedInfo`; returns the base64 SignatureValue. */
export async function signatureValue(signer: Signer, canonicalSignedInfoXml: string): Promise<string> {
  let signature: Uint8Array;
  try {
    signature = await signer.sign(Buffer.from(canonicalSignedInfoXml, 'utf8'));
  } catch (cause) {
    if (isEcfError(cause)) throw cause;
    throw new SigningError(`The signer failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      code: 'signer_failed',
      cause,
    });
  }
  if (!(signature instanceof Uint8Array) || signature.length === 0) {
    throw new SigningError('The signer returned no signature bytes (expected a non-empty Uint8Array).', {
      code: 'signer_failed',
    });
  }
  return Buffer.from(signature.buffer, signature.byteOffset, signature.byteLength).toString('base64');
}

/** The signer's leaf certificate, checked to be base64 DER. */
export function checkedCertificate(signer: Signer): string {
  const certificate = signer.certificate;
  if (typeof certificate !== 'string' || !BASE64.test(certificate)) {
    throw new SigningError('Signer.certificate must be the leaf certificate as base64 DER, without PEM armour or line breaks.', { code: 'signer_failed' });
  }
  return certificate;
}

/** The signer's issuer chain, each base64 DER; throws `signer_failed` when an entry is not. */
export function checkedChain(signer: Signer): readonly string[] {
  const chain = signer.chain ?? [];
  if (!Array.isArray(chain) || chain.some((c) => typeof c !== 'string' || !BASE64.test(c))) {
    throw new SigningError('Signer.chain must list the issuer certificates as base64 DER, without PEM armour or line breaks.', { code: 'signer_failed' });
  }
  return chain;
}

/** The one element whose `Id` attribute (the profile's) is `id`. */
function elementById(doc: Document, id: string, profile: SignatureProfile): Element {
  const found = elementsWithId(doc.documentElement!, id, profile.idAttribute);
  if (found.length !== 1) {
    throw new SigningError(
      `The signature profile "${profile.name}" references #${id}, which ${found.length === 0 ? 'no element carries' : 'several elements carry'}.`,
      {
        code: 'unsupported_xml',
      },
    );
  }
  return found[0]!;
}

/**
 * Every element under `root` (itself included) whose `Id` attribute is `id`, in one iterative walk;
 * `attribute` names another id attribute (e.g. `wsu:Id`).
 */
export function elementsWithId(root: Element, id: string, attribute?: IdAttribute): Element[] {
  const found: Element[] = [];
  const stack: Node[] = [root];
  const read = attribute ? (el: Element) => el.getAttributeNS(attribute.namespace || null, attribute.localName) : (el: Element) => el.getAttribute('Id');
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    if (read(el) === id) found.push(el);
    for (let c = el.lastChild; c; c = c.previousSibling) if (c.nodeType === 1) stack.push(c);
  }
  return found;
}

function dsigChild(el: Element, name: string): Element | undefined {
  return childElements(el).find((e) => e.localName === name && e.namespaceURI === DSIG_NS);
}

function childElements(node: Element): Element[] {
  const out: Element[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) if (c.nodeType === 1) out.push(c as Element);
  return out;
}
