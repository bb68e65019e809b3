/**
 * Signature verification with xml-crypto, an implementation independent of ecf-kit's fast signing
 * path, so verify-after-sign is a real check.
 */
import { DOMParser, type Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { DSIG_NS } from './profile.js';
import { protectXml11LineEnds, xml10LineEndings } from '../xml/xml10.js';

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
  let problem: string | undefined;
  let doc;
  try {
    doc = new DOMParser({ normalizeLineEndings: xml10LineEndings, onError: (level, message) => { if (level !== 'warning' || !/replacement character/.test(message)) problem ??= message; } })
      .parseFromString(xml, 'text/xml');
  } catch (e) {
    problem ??= e instanceof Error ? e.message : String(e);
  }
  if (!doc?.documentElement || problem !== undefined) {
    return fail('not_well_formed', `The XML is not well-formed: ${problem ?? 'no document element'}`);
  }
  const signatures = Array.from(doc.getElementsByTagNameNS(DSIG_NS, 'Signature'));
  if (signatures.length === 0) return fail('no_signature', 'The document has no XMLDSig Signature element.');
  if (signatures.length > 1) {
    return fail('multiple_signatures', `The document has ${signatures.length} Signature elements; DGII documents carry exactly one.`);
  }
  const signature = signatures[0]!;
  const certificate = embeddedCertificate(signature);
  const shape = structureProblem(signature);
  if (shape) return fail('unsupported', `The Signature does not have the XMLDSig structure: ${shape}`, certificate);
  const references = Array.from(signature.getElementsByTagNameNS(DSIG_NS, 'Reference'));
  if (references.length !== 1 || references[0]!.getAttribute('URI') !== '') {
    const uris = references.map((r) => JSON.stringify(r.getAttribute('URI'))).join(', ');
    return fail('wrong_reference_uri', `Expected exactly one Reference with URI="" (the whole document), found: ${uris || 'none'}.`, certificate);
  }
  if (!certificate) return fail('no_certificate', 'The Signature has no KeyInfo/X509Data/X509Certificate to verify with.');

  const pem = `-----BEGIN CERTIFICATE-----\n${certificate.replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`;
  const checker = new SignedXml({ publicCert: pem });
  try {
    checker.loadSignature(signature as unknown as globalThis.Node);
    if (checker.checkSignature(protectXml11LineEnds(xml))) return { valid: true, certificate };
    const detail = checker.getReferences().map((r) => (r as { validationError?: Error }).validationError?.message).find(Boolean);
    return fail('digest_mismatch', `The signed content was altered after signing (digest mismatch)${detail ? `: ${detail}` : '.'}`, certificate);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (/invalid signature: the signature value/.test(message)) {
      return fail('bad_signature', 'The SignatureValue does not match SignedInfo for the embedded certificate (SignedInfo altered, or signed with another key).', certificate);
    }
    return fail('unsupported', `The signature cannot be checked: ${message}`, certificate);
  }
}

/** Most elements a Signature may contain, all levels counted (DGII's carry about a dozen). */
const MAX_SIGNATURE_ELEMENTS = 64;

function childElements(el: Element): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  return out;
}

/**
 * The element sequence of xmldsig-core-schema, checked before xml-crypto sees the signature (Signature =
 * SignedInfo, SignatureValue, KeyInfo?, Object*), and a bound on its size. Besides refusing what is not an
 * XMLDSig signature, this keeps xml-crypto's XPath lookups, which take time quadratic in the number of
 * siblings, away from signatures padded with thousands of SignatureValue, KeyInfo, Transform or unknown
 * elements (minutes of CPU for one 12 MB request).
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
  const names = childElements(signature).map((c) => c.localName ?? c.nodeName);
  let i = 0;
  if (names[i] === 'SignedInfo') i++;
  else return 'it must start with one SignedInfo.';
  if (names[i] === 'SignatureValue') i++;
  else return 'SignedInfo must be followed by one SignatureValue.';
  if (names[i] === 'KeyInfo') i++;
  const extra = names.slice(i).find((n) => n !== 'Object');
  return extra ? `unexpected ${extra} after SignatureValue/KeyInfo.` : null;
}

function embeddedCertificate(signature: Element): string | undefined {
  const node = signature.getElementsByTagNameNS(DSIG_NS, 'X509Certificate')[0];
  const text = node?.textContent?.replace(/\s+/g, '');
  return text ? text : undefined;
}

function fail(code: VerifyFailure, reason: string, certificate?: string): VerifyResult {
  return certificate === undefined ? { valid: false, code, reason } : { valid: false, code, reason, certificate };
}
