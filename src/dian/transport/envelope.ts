/**
 * DIAN's SOAP 1.2 request envelope (dian-protocol.md §5.1–§5.2): WS-Addressing `wsa:Action` and `wsa:To`
 * (with a `wsu:Id`), and a WS-Security header holding a `wsu:Timestamp`, the signer's certificate as an X.509
 * `BinarySecurityToken`, and an XMLDSig `Signature` over `wsa:To` only: exclusive C14N with the PrefixLists
 * DIAN expects (`wsa soap wcf` on SignedInfo, `soap wcf` on the reference), RSA-SHA256, SHA-256, and a
 * `KeyInfo` that points at the token through a `SecurityTokenReference`.
 *
 * The signature is made by the kit's generic XMLDSig core from {@link wsSecurityProfile} (a value), never by
 * a string template: the envelope is written unsigned, then signed in place.
 */
import type { Document, Element } from '@xmldom/xmldom';
import type { Signer } from '../../shared/ports.js';
import { parseXmlStrictly } from '../../shared/xml/strict-parser.js';
import { parseForSigning, serialize } from '../../shared/xmldsig/dom.js';
import {
  DIGEST_ALGORITHM,
  DSIG_NS,
  EXC_C14N_ALGORITHM,
  insertInto,
  SIGNATURE_ALGORITHM,
  type SignatureProfile,
} from '../../shared/xmldsig/signature-profile.js';
import { elementsWithId, signDocument } from '../../shared/xmldsig/xmldsig-sign.js';
import { type VerifyResult, findSignatures, verifySignatures } from '../../shared/xmldsig/xmldsig-verify.js';
import { ACTION_PREFIX, DIAN_OPERATIONS, type DianOperation, type DianOperationParams, WCF_NS } from './operations.js';

export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const WSA_NS = 'http://www.w3.org/2005/08/addressing';
export const WSSE_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
export const WSU_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
/** `BinarySecurityToken/@EncodingType`. */
export const BASE64_ENCODING = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary';
/** `BinarySecurityToken/@ValueType` and `SecurityTokenReference/Reference/@ValueType`. */
export const X509V3_TOKEN = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3';

/** PrefixList of SignedInfo's exclusive C14N, as DIAN's clients send it. */
export const SIGNED_INFO_PREFIXES = ['wsa', 'soap', 'wcf'] as const;
/** PrefixList of the `wsa:To` reference's exclusive C14N transform. */
export const TO_REFERENCE_PREFIXES = ['soap', 'wcf'] as const;

/** The `wsu:Id`s and `Id`s one envelope uses (unique per request; the client draws them at random). */
export interface EnvelopeIds {
  timestamp: string;
  token: string;
  signature: string;
  keyInfo: string;
  to: string;
}

/** Ids from one random suffix: `TS-…`, `X509-…`, `SIG-…`, `KI-…`, `ID-…`. */
export function envelopeIds(suffix: string): EnvelopeIds {
  return { timestamp: `TS-${suffix}`, token: `X509-${suffix}`, signature: `SIG-${suffix}`, keyInfo: `KI-${suffix}`, to: `ID-${suffix}` };
}

/** What an envelope carries besides the operation's values. */
export interface EnvelopeOptions {
  /** The service URL, written in `wsa:To`. */
  to: string;
  ids: EnvelopeIds;
  /** `wsu:Created` and `wsu:Expires`, UTC instants. */
  created: Date;
  expires: Date;
  /** The signer's leaf certificate, base64 DER (the `BinarySecurityToken`). */
  certificate: string;
}

/**
 * The request envelope of `operation`, unsigned (the `Signature` goes into `wsse:Security` when
 * {@link signDianEnvelope} signs it). Values are escaped; fields left undefined are not written.
 */
export function unsignedDianEnvelope<Op extends DianOperation>(operation: Op, params: DianOperationParams<Op>, options: EnvelopeOptions): string {
  const row = DIAN_OPERATIONS[operation];
  const values = params as Record<string, string | undefined>;
  let body = '';
  for (const field of row.request) {
    const value = values[field];
    if (value !== undefined) body += `<wcf:${field}>${escapeText(value)}</wcf:${field}>`;
  }
  const { ids } = options;
  return (
    `<soap:Envelope xmlns:soap="${SOAP12_NS}" xmlns:wcf="${WCF_NS}">` +
    `<soap:Header xmlns:wsa="${WSA_NS}">` +
    `<wsse:Security xmlns:wsse="${WSSE_NS}" xmlns:wsu="${WSU_NS}">` +
    `<wsu:Timestamp wsu:Id="${escapeAttr(ids.timestamp)}"><wsu:Created>${utc(options.created)}</wsu:Created><wsu:Expires>${utc(options.expires)}</wsu:Expires></wsu:Timestamp>` +
    `<wsse:BinarySecurityToken EncodingType="${BASE64_ENCODING}" ValueType="${X509V3_TOKEN}" wsu:Id="${escapeAttr(ids.token)}">${options.certificate}</wsse:BinarySecurityToken>` +
    '</wsse:Security>' +
    `<wsa:Action>${ACTION_PREFIX}${operation}</wsa:Action>` +
    `<wsa:To xmlns:wsu="${WSU_NS}" wsu:Id="${escapeAttr(ids.to)}">${escapeText(options.to)}</wsa:To>` +
    '</soap:Header>' +
    `<soap:Body><wcf:${operation}>${body}</wcf:${operation}></soap:Body>` +
    '</soap:Envelope>'
  );
}

/**
 * The WS-Security signature DIAN expects, as a profile of the generic XMLDSig core, for the Ids one envelope
 * uses: one reference to `wsa:To` (by `wsu:Id`), exclusive C14N throughout, the key named by a
 * `SecurityTokenReference` to the `BinarySecurityToken`.
 */
export function wsSecurityProfile(ids: Pick<EnvelopeIds, 'token' | 'signature' | 'keyInfo' | 'to'>): SignatureProfile {
  return {
    name: 'DIAN WS-Security',
    canonicalization: EXC_C14N_ALGORITHM,
    canonicalizationPrefixes: SIGNED_INFO_PREFIXES,
    signatureAlgorithm: SIGNATURE_ALGORITHM,
    digestAlgorithm: DIGEST_ALGORITHM,
    references: [{ target: { id: ids.to }, transforms: [EXC_C14N_ALGORITHM], inclusivePrefixes: TO_REFERENCE_PREFIXES }],
    placement: insertInto('inside the wsse:Security header', securityHeader, (parent) => parent.localName === 'Security' && parent.namespaceURI === WSSE_NS),
    keyInfo: {
      id: ids.keyInfo,
      content: () =>
        `<wsse:SecurityTokenReference xmlns:wsse="${WSSE_NS}"><wsse:Reference URI="#${escapeAttr(ids.token)}" ValueType="${X509V3_TOKEN}"/></wsse:SecurityTokenReference>`,
      certificate: referencedToken,
    },
    dsPrefix: 'ds',
    signatureId: ids.signature,
    dropWhitespace: false,
    idAttribute: { namespace: WSU_NS, localName: 'Id' },
  };
}

/**
 * Signs an envelope from {@link unsignedDianEnvelope} with the profile of its Ids.
 *
 * @throws SigningError when the signer fails or the envelope has no `wsse:Security` / `wsa:To` to sign
 */
export async function signDianEnvelope(unsigned: string, signer: Signer, ids: EnvelopeIds): Promise<string> {
  const doc = parseForSigning(unsigned);
  await signDocument(doc, wsSecurityProfile(ids), signer);
  return serialize(doc);
}

/** Outcome of {@link verifyDianEnvelope}: the XMLDSig result plus the envelope's timestamp and action. */
export interface EnvelopeVerifyResult extends VerifyResult {
  /** `wsa:Action`, when present. */
  action?: string;
  /** `wsu:Created` / `wsu:Expires`, when present and well-formed. */
  created?: Date;
  expires?: Date;
}

/**
 * Verifies the WS-Security signature of a request envelope (what DIAN, and the local DIAN, do first): exactly
 * one `Signature` inside `wsse:Security`, one reference to the `wsa:To` it names by `wsu:Id`, exclusive C14N,
 * RSA-SHA256, the key of the `BinarySecurityToken` its `SecurityTokenReference` points at. The timestamp is
 * returned for the caller to judge against its clock; trust in the certificate is the caller's decision.
 */
export function verifyDianEnvelope(xml: string): EnvelopeVerifyResult {
  const parsed = parseXmlStrictly(xml);
  const doc = parsed.doc;
  if (!doc?.documentElement || parsed.problems.length > 0 || parsed.thrown !== undefined) {
    return { valid: false, code: 'not_well_formed', reason: 'The envelope is not well-formed XML.' };
  }
  if (doc.doctype) return { valid: false, code: 'unsupported', reason: 'Envelopes with a DOCTYPE are not accepted.' };
  const root = doc.documentElement;
  const header = child(root, SOAP12_NS, 'Header');
  const to = header && child(header, WSA_NS, 'To');
  const action = header && child(header, WSA_NS, 'Action');
  const security = header && child(header, WSSE_NS, 'Security');
  const timestamp = security && child(security, WSU_NS, 'Timestamp');
  const times = {
    ...(action ? { action: (action.textContent ?? '').trim() } : {}),
    ...instant('created', timestamp && child(timestamp, WSU_NS, 'Created')),
    ...instant('expires', timestamp && child(timestamp, WSU_NS, 'Expires')),
  };
  const signatures = findSignatures(root);
  const signature = signatures[0];
  const toId = to?.getAttributeNS(WSU_NS, 'Id') ?? '';
  const keyInfo = signature && child(signature, DSIG_NS, 'KeyInfo');
  const profile = wsSecurityProfile({ token: '', signature: signature?.getAttribute('Id') ?? '', keyInfo: keyInfo?.getAttribute('Id') ?? '', to: toId });
  const tos = header ? children(header).filter((e) => e.localName === 'To' && e.namespaceURI === WSA_NS) : [];
  if (tos.length > 1) return { valid: false, code: 'unsupported', reason: 'The envelope carries more than one wsa:To.', ...times };
  const result = verifySignatures(signatures, profile, {
    placed: signature !== undefined && profile.placement.accepts(signature, doc),
    canonicalDocument: () => undefined,
    // every element carrying the id, wherever it is: a copy elsewhere (signature wrapping) makes two
    elementsWithId: (id) => elementsWithId(root, id, profile.idAttribute),
  });
  return { ...result, ...times };
}

/** The certificate of the `BinarySecurityToken` the signature's `SecurityTokenReference` points at. */
function referencedToken(signature: Element): string | undefined {
  const keyInfo = child(signature, DSIG_NS, 'KeyInfo');
  const str = keyInfo && child(keyInfo, WSSE_NS, 'SecurityTokenReference');
  const reference = str && child(str, WSSE_NS, 'Reference');
  const uri = reference?.getAttribute('URI') ?? '';
  if (!uri.startsWith('#') || reference?.getAttribute('ValueType') !== X509V3_TOKEN) return undefined;
  const security = signature.parentNode as Element | null;
  const tokens = security
    ? children(security).filter((e) => e.localName === 'BinarySecurityToken' && e.namespaceURI === WSSE_NS && e.getAttributeNS(WSU_NS, 'Id') === uri.slice(1))
    : [];
  if (tokens.length !== 1 || tokens[0]!.getAttribute('ValueType') !== X509V3_TOKEN) return undefined;
  const text = (tokens[0]!.textContent ?? '').replace(/\s+/g, '');
  return text || undefined;
}

function securityHeader(doc: Document): Element | null {
  const header = doc.documentElement && child(doc.documentElement, SOAP12_NS, 'Header');
  return (header && child(header, WSSE_NS, 'Security')) ?? null;
}

function child(el: Element, ns: string, local: string): Element | undefined {
  return children(el).find((e) => e.localName === local && e.namespaceURI === ns);
}

function children(el: Element): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  return out;
}

function instant(key: 'created' | 'expires', el: Element | undefined): { created?: Date; expires?: Date } {
  const text = (el?.textContent ?? '').trim();
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(text)) return {};
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? {} : { [key]: date };
}

/** UTC instant with milliseconds and `Z`, as WS-Security timestamps are written. */
function utc(date: Date): string {
  return date.toISOString();
}

function escapeText(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

function escapeAttr(s: string): string {
  return s.replace(/[&<"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&quot;'));
}
