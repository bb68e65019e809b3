/**
 * XMLDSig verification for DGII's profile (`DGII_SIGNATURE_PROFILE`, ./profile.ts), our own: the checks
 * and the cryptography are the generic profile-driven verifier's (./xmldsig-verify.ts); this module adds
 * DGII's fast path for compact documents. It replaces xml-crypto, whose XPath node sets made verification
 * quadratic (about 20 s for a valid 10,000-line e-CF 32, issue 13 item 4); xml-crypto and xmlsec1 remain
 * differential oracles in the tests.
 */
import type { Document, Element } from '@xmldom/xmldom';
import { parseXmlStrictly } from '../../shared/xml/strict-parser.js';
import { scanCompact } from '../../shared/xmldsig/compact-c14n.js';
import { DGII_SIGNATURE_PROFILE, DSIG_NS } from './profile.js';
import { elementsWithId } from '../../shared/xmldsig/xmldsig-sign.js';
import { findSignatures, verifySignatures, verifyXmlWithProfile, type VerifyResult } from '../../shared/xmldsig/xmldsig-verify.js';

export type { VerifyFailure, VerifyResult } from '../../shared/xmldsig/xmldsig-verify.js';

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
    // Outside the Signature a compact document has no attributes, so an `Id` can only be inside it.
    return verifySignatures([compact.signature], DGII_SIGNATURE_PROFILE, {
      placed: true,
      canonicalDocument: (sink) => sink(compact.canonical),
      elementsWithId: (id) => elementsWithId(compact.signature, id),
    });
  }
  return verifyXmlWithProfile(xml, DGII_SIGNATURE_PROFILE);
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
  const parsed = parseXmlStrictly(signatureText);
  if (parsed.thrown !== undefined) return null;
  const part: Document = parsed.doc!;
  const element = part.documentElement;
  if (parsed.problems.length > 0 || !element || part.childNodes.length !== 1 || part.doctype) return null;
  if (element.localName !== 'Signature' || element.namespaceURI !== DSIG_NS || findSignatures(element).length !== 1) return null;
  return { canonical: rest.canonical, signature: element };
}
