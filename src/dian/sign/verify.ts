/**
 * Verifying a DIAN XAdES-EPES signature: the Ids are free, so the DIAN profile (./profile.ts) is built from
 * the Ids the signature names, the generic verifier (src/shared/xmldsig/xmldsig-verify.ts) checks structure,
 * digests and SignatureValue, then the XAdES part is checked here: the references point at this signature's
 * `KeyInfo` and `SignedProperties`, `QualifyingProperties/@Target` names the signature, the policy is DIAN's
 * (v1 or v2 identifier, the hash of the digest algorithm used) and the first `SigningCertificate/Cert` digests the
 * embedded certificate (further Certs, the signer's issuers, are accepted).
 */
import { createHash } from 'node:crypto';
import type { Element } from '@xmldom/xmldom';
import { firstProblem, parseXmlStrictly } from '../../shared/xml/strict-parser.js';
import { canonicalizeDocument } from '../../shared/xmldsig/c14n.js';
import { DIGEST_HASH, DSIG_NS, type DigestAlgorithm } from '../../shared/xmldsig/signature-profile.js';
import { elementsWithId } from '../../shared/xmldsig/xmldsig-sign.js';
import { findSignatures, verifySignatures, type VerifyFailure, type VerifyResult } from '../../shared/xmldsig/xmldsig-verify.js';
import {
  DIAN_DIGEST_URI,
  DIAN_POLICY_HASH,
  DIAN_POLICY_URL,
  DIAN_POLICY_URL_V1,
  dianSignatureProfile,
  XADES_NS,
  type DianDigest,
  type DianSignatureIds,
} from './profile.js';

/** Why a DIAN signature did not verify: the generic reasons, or `xades` (qualifying properties wrong). */
export type DianVerifyFailure = VerifyFailure | 'xades';

/** Outcome of {@link verifyDianXml}: `reason` in English (logs), `message` in Spanish (API clients), when not valid. */
export interface DianVerifyResult extends Omit<VerifyResult, 'code'> {
  code?: DianVerifyFailure;
  /** Spanish message for API clients ({@link dianVerifyMessage} of `code`), when not valid. */
  message?: string;
}

/** The Spanish message an API client gets for each failure code (the English `reason` stays for logs). */
export const DIAN_VERIFY_MESSAGES: Readonly<Record<DianVerifyFailure, string>> = {
  not_well_formed: 'El documento no es un XML bien formado; no se puede verificar su firma.',
  no_signature: 'El documento no tiene firma: falta ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/ds:Signature.',
  multiple_signatures: 'El documento tiene más de una ds:Signature; un documento DIAN lleva exactamente una firma del emisor.',
  wrong_reference_uri:
    'La firma no tiene las tres referencias que exige la DIAN en ds:SignedInfo: el documento (URI=""), ds:KeyInfo y xades:SignedProperties, en ese orden.',
  no_certificate: 'La firma no incluye el certificado del firmante en ds:KeyInfo/ds:X509Data/ds:X509Certificate.',
  digest_mismatch: 'El documento o las propiedades firmadas cambiaron después de firmar: un ds:DigestValue de ds:SignedInfo no coincide.',
  bad_signature: 'El valor de la firma (ds:SignatureValue) no corresponde a ds:SignedInfo con la clave del certificado incluido.',
  unsupported:
    'La firma no tiene la forma que exige la DIAN (ubicación en el último ext:ExtensionContent, algoritmos C14N, RSA-SHA256 y SHA-256/384, identificadores) o el documento trae DOCTYPE.',
  xades:
    'Las propiedades XAdES de la firma no cumplen la política de la DIAN (xades:QualifyingProperties: SigningTime, SigningCertificate, política de firma o rol).',
};

/**
 * The Spanish message for a verification failure code, for API clients.
 *
 * @example
 * dianVerifyMessage('digest_mismatch') //=> 'El documento o las propiedades firmadas cambiaron después de firmar: …'
 */
export function dianVerifyMessage(code: DianVerifyFailure): string {
  return DIAN_VERIFY_MESSAGES[code];
}

/**
 * Verifies the one XAdES-EPES signature of a DIAN document against the certificate it embeds. It proves
 * integrity and that the embedded certificate's key signed; trust in that certificate is the caller's decision.
 *
 * @example
 * verifyDianXml(signed) //=> { valid: true, certificate: 'MIID…' }
 * verifyDianXml(tampered) //=> { valid: false, code: 'digest_mismatch', reason: 'The signed content was altered …', message: 'El documento o …' }
 */
export function verifyDianXml(xml: string): DianVerifyResult {
  const result = verifyDian(xml);
  return result.valid || !result.code ? result : { ...result, message: dianVerifyMessage(result.code) };
}

function verifyDian(xml: string): DianVerifyResult {
  const parsed = parseXmlStrictly(xml);
  const doc = parsed.doc;
  if (!doc?.documentElement || parsed.problems.length > 0 || parsed.thrown !== undefined) {
    return { valid: false, code: 'not_well_formed', reason: `The XML is not well-formed: ${firstProblem(parsed, 'no document element')}` };
  }
  if (doc.doctype) return { valid: false, code: 'unsupported', reason: 'Documents with a DOCTYPE are not accepted.' };
  const root = doc.documentElement;
  const signatures = findSignatures(root);
  const signature = signatures[0];
  const named = signature ? namedIds(signature) : { ids: placeholderIds, digest: 'sha256' as const };
  const profile = dianSignatureProfile(named.ids, named.digest, { signingTime: '', role: 'supplier' });
  const result: DianVerifyResult = verifySignatures(signatures, profile, {
    placed: signature !== undefined && profile.placement.accepts(signature, doc),
    canonicalDocument: (sink, s) => canonicalizeDocument(doc, s, sink),
    elementsWithId: (id) => elementsWithId(root, id),
  });
  if (!result.valid || !signature) return result;
  const problem = xadesProblem(signature, named.ids, result.certificate!);
  return problem ? { valid: false, code: 'xades', reason: problem, certificate: result.certificate! } : result;
}

const placeholderIds: DianSignatureIds = { signature: '', documentReference: '', signatureValue: '', keyInfo: '', signedProperties: '' };

/** The Ids the signature names (its own, and the targets of its second and third references) and its digest. */
function namedIds(signature: Element): { ids: DianSignatureIds; digest: DianDigest } {
  const signedInfo = dsig(signature, 'SignedInfo');
  const references = signedInfo ? elements(signedInfo).filter((e) => e.localName === 'Reference' && e.namespaceURI === DSIG_NS) : [];
  const target = (i: number) => {
    const uri = references[i]?.getAttribute('URI') ?? '';
    return uri.startsWith('#') ? uri.slice(1) : '';
  };
  const method = references[0] && dsig(references[0], 'DigestMethod')?.getAttribute('Algorithm');
  return {
    ids: {
      signature: signature.getAttribute('Id') ?? '',
      documentReference: references[0]?.getAttribute('Id') ?? '',
      signatureValue: '',
      keyInfo: target(1),
      signedProperties: target(2),
    },
    digest: method === DIAN_DIGEST_URI.sha384 ? 'sha384' : 'sha256',
  };
}

/** What is wrong with the XAdES part of a cryptographically valid signature, or null. */
function xadesProblem(signature: Element, ids: DianSignatureIds, certificate: string): string | null {
  const keyInfo = dsig(signature, 'KeyInfo');
  if (!keyInfo || keyInfo.getAttribute('Id') !== ids.keyInfo) return 'The second Reference must point at the KeyInfo of the Signature.';
  const qualifying = elements(signature)
    .filter((e) => e.localName === 'Object' && e.namespaceURI === DSIG_NS)
    .flatMap((o) => elements(o).filter((e) => e.localName === 'QualifyingProperties' && e.namespaceURI === XADES_NS));
  if (qualifying.length !== 1) return `The Signature must hold one ds:Object/xades:QualifyingProperties, found ${qualifying.length}.`;
  const q = qualifying[0]!;
  if (q.getAttribute('Target') !== `#${ids.signature}`)
    return `QualifyingProperties/@Target must be "#${ids.signature}", found ${JSON.stringify(q.getAttribute('Target'))}.`;
  const signedProperties = xades(q, 'SignedProperties');
  if (!signedProperties || signedProperties.getAttribute('Id') !== ids.signedProperties) {
    return 'The third Reference must point at the SignedProperties of the Signature.';
  }
  const sig = xades(signedProperties, 'SignedSignatureProperties');
  if (!sig || !xades(sig, 'SigningTime')) return 'SignedSignatureProperties must hold a SigningTime.';
  const policy = path(sig, ['SignaturePolicyIdentifier', 'SignaturePolicyId']);
  const identifier = policy && path(policy, ['SigPolicyId', 'Identifier'])?.textContent?.trim();
  if (identifier !== DIAN_POLICY_URL && identifier !== DIAN_POLICY_URL_V1)
    return `The signature policy must be DIAN's (${DIAN_POLICY_URL}), found ${JSON.stringify(identifier ?? null)}.`;
  const policyHash = policy && xades(policy, 'SigPolicyHash');
  const policyMethod = policyHash && dsig(policyHash, 'DigestMethod')?.getAttribute('Algorithm');
  const policyDigest = (Object.keys(DIAN_DIGEST_URI) as DianDigest[]).find((d) => DIAN_DIGEST_URI[d] === policyMethod);
  if (!policyHash || !policyDigest || dsig(policyHash, 'DigestValue')?.textContent?.trim() !== DIAN_POLICY_HASH[policyDigest]) {
    return 'SigPolicyHash must be the digest of DIAN policy document with its DigestMethod (SHA-256 or SHA-384).';
  }
  // The first Cert is the signer's; further Certs (its issuers, as DIAN's samples carry them) are accepted unchecked.
  const certs = path(sig, ['SigningCertificate']);
  const first = certs ? elements(certs).find((e) => e.localName === 'Cert' && e.namespaceURI === XADES_NS) : undefined;
  const digest = first && xades(first, 'CertDigest');
  const algorithm = digest && dsig(digest, 'DigestMethod')?.getAttribute('Algorithm');
  const hash = algorithm ? DIGEST_HASH[algorithm as DigestAlgorithm] : undefined;
  const der = Buffer.from(certificate, 'base64');
  if (hash === undefined || dsig(digest!, 'DigestValue')?.textContent?.trim() !== createHash(hash).update(der).digest('base64')) {
    return 'The first SigningCertificate/Cert must be the embedded certificate (its CertDigest the digest of that certificate).';
  }
  const role = path(sig, ['SignerRole', 'ClaimedRoles', 'ClaimedRole'])?.textContent?.trim();
  if (role !== 'supplier' && role !== 'third party') return `ClaimedRole must be "supplier" or "third party", found ${JSON.stringify(role ?? null)}.`;
  return null;
}

function path(el: Element, names: string[]): Element | undefined {
  let at: Element | undefined = el;
  for (const name of names) at = at && xades(at, name);
  return at;
}

function xades(el: Element, name: string): Element | undefined {
  return elements(el).find((e) => e.localName === name && e.namespaceURI === XADES_NS);
}

function dsig(el: Element, name: string): Element | undefined {
  return elements(el).find((e) => e.localName === name && e.namespaceURI === DSIG_NS);
}

function elements(el: Element): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  return out;
}
