/**
 * XMLDSig signing per DGII's profile (`DGII_SIGNATURE_PROFILE`, ./profile.ts).
 *
 * Two paths; both write the same `Signature` element, byte for byte, as xml-crypto 6 would for the
 * same (whitespace-normalised) document, key and profile:
 * - fast path: ecf-kit's compact XML (also when indented) is canonicalised at string level
 *   (./compact-c14n.ts) and signed with one SHA-256 and one RSA operation. The output is the input
 *   text itself, with whitespace-only text dropped and `FechaHoraFirma` (signEcf) and the
 *   `Signature` inserted before the root's end tag: entity references, empty-element forms and the
 *   declaration stay as written;
 * - general path: anything else (attributes, namespaces, comments, CDATA, character references, …)
 *   is parsed with @xmldom/xmldom, stripped of whitespace-only text and signed by the generic
 *   profile-driven signer (./xmldsig-sign.ts) with DGII's profile value.
 */
import { createHash } from 'node:crypto';
import type { Element } from '@xmldom/xmldom';
import { SigningError } from '../../shared/errors/signing-error.js';
import type { Clock, Signer } from '../../shared/ports.js';
import { appendChildElement, scanCompact, serializeWithSignature, type CompactDocument } from '../../shared/xmldsig/compact-c14n.js';
import { normalizeForSigning, parseForSigning, serialize } from '../../shared/xmldsig/dom.js';
import { canonicalSignedInfo, DGII_SIGNATURE_PROFILE, signatureElement } from './profile.js';
import { checkedCertificate, signatureValue, signDocument } from '../../shared/xmldsig/xmldsig-sign.js';
import { formatDateTimeDO } from '../time.js';

type Prepared = { compact: CompactDocument } | { general: string };

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
    const stamped = doc.childNames.includes('FechaHoraFirma') ? doc : appendChildElement(doc, 'FechaHoraFirma', signingTime(clock));
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
    throw new SigningError(`signEcf signs e-CF documents (root <ECF>), got <${name}>. Use signXml for RFCE, ARECF, ACECF, ANECF and the seed.`, {
      code: 'wrong_root',
    });
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
    // DGII's fast path: the profile's one reference (the whole document, enveloped) over the compact
    // canonical form, SignedInfo and Signature written as text (./profile.ts renders them from the value).
    const digest = sha256Base64(prepared.compact.canonical);
    const value = await signatureValue(signer, canonicalSignedInfo(digest));
    return serializeWithSignature(prepared.compact, signatureElement(digest, value, certificate));
  }
  const doc = parseForSigning(prepared.general);
  await signDocument(doc, DGII_SIGNATURE_PROFILE, signer);
  return serialize(doc);
}

function sha256Base64(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

function childElements(node: Element): Element[] {
  const out: Element[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) if (c.nodeType === 1) out.push(c as Element);
  return out;
}
