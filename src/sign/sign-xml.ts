/**
 * XMLDSig signing per DGII's profile (see ./profile.ts).
 *
 * Two paths; both write the same `Signature` element, byte for byte, as xml-crypto 6 would for the
 * same (whitespace-normalised) document, key and profile:
 * - fast path: ecf-kit's compact XML (also when indented) is canonicalised at string level
 *   (./compact-c14n.ts) and signed with one SHA-256 and one RSA operation. The output is the input
 *   text itself, with whitespace-only text dropped and `FechaHoraFirma` (signEcf) and the
 *   `Signature` inserted before the root's end tag: entity references, empty-element forms and the
 *   declaration stay as written;
 * - general path: anything else (attributes, namespaces, comments, CDATA, character references, …)
 *   is parsed with @xmldom/xmldom, stripped of whitespace-only text, canonicalised with the linear
 *   inclusive C14N of ./c14n.ts and serialised by xmldom, as xml-crypto's `computeSignature` does.
 */
import { createHash } from 'node:crypto';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { isEcfError } from '../errors/ecf-error.js';
import { SigningError } from '../errors/signing-error.js';
import type { Clock, Signer } from '../ports.js';
import { canonicalizeDocument, canonicalSubtreeString } from './c14n.js';
import { appendChildElement, scanCompact, serializeWithSignature, type CompactDocument } from './compact-c14n.js';
import { normalizeForSigning, parseForSigning, serialize } from './dom.js';
import { canonicalSignedInfo, signatureElement } from './profile.js';
import { formatDateTimeDO } from '../time.js';

type Prepared = { compact: CompactDocument } | { general: string };

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Signs an XML document with DGII's XMLDSig profile: inclusive C14N 1.0, RSA-SHA256, SHA-256
 * digest, one `Reference URI=""` with the enveloped-signature transform, the leaf certificate in
 * `KeyInfo`, and `<Signature xmlns="http://www.w3.org/2000/09/xmldsig#">` appended as the last
 * child of the document element. Whitespace-only text nodes are dropped first
 * (`preserveWhitespace = false`, DT p. 60). Compact input (what ecf-kit's builder writes, or the
 * same indented) comes back as its own bytes plus the `Signature`: entity references, empty
 * elements and the XML declaration stay as written. Input with attributes, namespaces, comments,
 * CDATA or character references is re-serialised by @xmldom/xmldom (docs/signing.md lists what
 * that may change). The returned string is the signed document: store and send it byte for byte.
 *
 * @throws SigningError `not_well_formed`, `already_signed`, `unsupported_xml`, `signer_failed`
 * @example
 * const signed = await signXml(seedXml, p12Signer(readP12(bytes, password)));
 * //=> '<?xml version="1.0" encoding="utf-8"?><SemillaModel …><valor>…</valor>…<Signature xmlns="http://www.w3.org/2000/09/xmldsig#">…</Signature></SemillaModel>'
 */
export async function signXml(xml: string, signer: Signer): Promise<string> {
  return signPrepared(prepare(xml), signer);
}

/**
 * Signs an e-CF (root `ECF`): first stamps `<FechaHoraFirma>` from the clock in GMT-4
 * (`dd-MM-yyyy HH:mm:ss`, `formatDateTimeDO`) as the last child of `ECF`, then signs with
 * {@link signXml}. An existing `FechaHoraFirma` (passthrough XML) is kept as it is.
 *
 * @throws SigningError `wrong_root` when the document element is not `ECF`, plus those of {@link signXml}
 * @throws RangeError when the clock returns an invalid date
 * @example
 * await signEcf(xml, signer, () => new Date('2026-01-01T03:30:00Z'))
 * //=> '…<FechaHoraFirma>31-12-2025 23:30:00</FechaHoraFirma><Signature …>…</Signature></ECF>'
 */
export async function signEcf(xml: string, signer: Signer, clock: Clock): Promise<string> {
  const prepared = prepare(xml);
  if ('compact' in prepared) {
    const doc = prepared.compact;
    assertEcfRoot(doc.rootName);
    const stamped = doc.childNames.includes('FechaHoraFirma')
      ? doc
      : appendChildElement(doc, 'FechaHoraFirma', signingTime(clock));
    return signPrepared({ compact: stamped }, signer);
  }
  const doc = parseForSigning(prepared.general);
  const root = doc.documentElement!;
  assertEcfRoot(root.localName ?? root.nodeName);
  if (!childElements(root).some((e) => e.localName === 'FechaHoraFirma')) {
    const stamp = doc.createElementNS(root.namespaceURI, root.prefix ? `${root.prefix}:FechaHoraFirma` : 'FechaHoraFirma');
    stamp.appendChild(doc.createTextNode(signingTime(clock)));
    root.appendChild(stamp);
  }
  return signPrepared({ general: serialize(doc) }, signer);
}

/** `FechaHoraFirma` from the clock: `dd-MM-yyyy HH:mm:ss` in GMT-4. */
function signingTime(clock: Clock): string {
  const now = clock();
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    throw new RangeError(`signEcf: the clock returned an invalid date (${String(now)}); FechaHoraFirma cannot be written.`);
  }
  return formatDateTimeDO(now);
}

/** The document element's tag is required to be `ECF` by {@link signEcf}. */
function assertEcfRoot(name: string): void {
  if (name !== 'ECF') {
    throw new SigningError(
      `signEcf signs e-CF documents (root <ECF>), got <${name}>. Use signXml for RFCE, ARECF, ACECF, ANECF and the seed.`,
      { code: 'wrong_root' },
    );
  }
}

function prepare(xml: string): Prepared {
  const compact = scanCompact(xml);
  if (compact) return { compact };
  const normalized = normalizeForSigning(xml);
  const again = scanCompact(normalized);
  return again ? { compact: again } : { general: normalized };
}

async function signPrepared(prepared: Prepared, signer: Signer): Promise<string> {
  const certificate = checkedCertificate(signer);
  if ('compact' in prepared) {
    const digest = sha256Base64(prepared.compact.canonical);
    const value = await signatureValue(signer, canonicalSignedInfo(digest));
    return serializeWithSignature(prepared.compact, signatureElement(digest, value, certificate));
  }
  return signGeneral(prepared.general, certificate, signer);
}

/**
 * General path: the steps of xml-crypto's `computeSignature` (the document canonicalised, the Signature
 * appended, SignedInfo canonicalised in its context), with the linear C14N of ./c14n.ts that the verifier
 * uses, and the RSA operation delegated to the Signer.
 */
async function signGeneral(xml: string, certificate: string, signer: Signer): Promise<string> {
  const doc = parseForSigning(xml);
  const root = doc.documentElement!;
  const hash = createHash('sha256');
  canonicalizeDocument(doc, null, (chunk) => hash.update(chunk, 'utf8'));
  const digest = hash.digest('base64');

  const template = new DOMParser({ onError: () => undefined }).parseFromString(signatureElement(digest, '', certificate), 'text/xml');
  const signature = doc.importNode(template.documentElement!, true) as Element;
  root.appendChild(signature);
  const signedInfo = childElements(signature)[0]!;
  const value = await signatureValue(signer, canonicalSubtreeString(signedInfo));
  const valueElement = childElements(signature).find((e) => e.localName === 'SignatureValue')!;
  valueElement.appendChild(doc.createTextNode(value));
  return serialize(doc);
}

async function signatureValue(signer: Signer, canonicalSignedInfoXml: string): Promise<string> {
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

function checkedCertificate(signer: Signer): string {
  const certificate = signer.certificate;
  if (typeof certificate !== 'string' || !BASE64.test(certificate)) {
    throw new SigningError(
      'Signer.certificate must be the leaf certificate as base64 DER, without PEM armour or line breaks.',
      { code: 'signer_failed' },
    );
  }
  return certificate;
}

function sha256Base64(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

function childElements(node: Element): Element[] {
  const out: Element[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) if (c.nodeType === 1) out.push(c as Element);
  return out;
}
