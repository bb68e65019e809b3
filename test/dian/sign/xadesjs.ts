/**
 * xadesjs (PeculiarVentures, on xmldsigjs and WebCrypto) as a second independent verifier of DIAN signatures,
 * beside xmlsec1: its own parser, C14N, digests and RSA check, and its own reading of the XAdES properties.
 *
 * One adaptation, documented in docs/dian.md ("Independent verifiers"): xmldsigjs 2.8's enveloped-signature
 * transform removes only `ds:Signature` elements that are direct children of the node it transforms (the document
 * element for `URI=""`), while XMLDSig §6.6.4 removes the Signature holding the transform wherever it is. DIAN
 * puts it four levels down (`ext:UBLExtensions/…/ext:ExtensionContent`), so xadesjs would digest the document with
 * the signature still inside. The helper therefore hands xadesjs, as the content to verify, a copy of the
 * document without that one Signature element (what the transform is defined to output); the C14N, every digest,
 * the SignatureValue check and the key taken from KeyInfo are xadesjs's own.
 */
import { type KeyObject, webcrypto } from 'node:crypto';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import * as xmldom from '@xmldom/xmldom';
import * as xadesjs from 'xadesjs';
import xpath from 'xpath';

const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const SIGNED_PROPERTIES_TYPE = 'http://uri.etsi.org/01903#SignedProperties';
/** WebCrypto digest names of the digest URIs a DIAN signature may use. */
const DIGESTS: Record<string, string> = {
  'http://www.w3.org/2001/04/xmlenc#sha256': 'SHA-256',
  'http://www.w3.org/2001/04/xmldsig-more#sha384': 'SHA-384',
};

// xadesjs and xmldsigjs may each get their own copy of xml-core (npm nests them when their peer versions differ):
// each copy keeps its own DOM/XPath registry, so the dependencies go to every copy the two packages load.
const dependencies = { DOMParser: xmldom.DOMParser, XMLSerializer: xmldom.XMLSerializer, DOMImplementation: xmldom.DOMImplementation, xpath };
const xadesjsEntry = createRequire(import.meta.url).resolve('xadesjs');
// The xmldsigjs that xadesjs itself loads, wherever npm put it.
const xmldsigjsEntry = createRequire(xadesjsEntry).resolve('xmldsigjs');
for (const owner of [xadesjsEntry, xmldsigjsEntry]) {
  const cjs = createRequire(owner).resolve('xml-core');
  const esm = cjs.replace(/([\\/])build[\\/]cjs[\\/]index\.js$/, '$1build$1esm$1index.js');
  const core = (await import(pathToFileURL(esm).href)) as { setNodeDependencies(deps: object): void };
  core.setNodeDependencies(dependencies);
}
xadesjs.Application.setEngine('NodeJS', webcrypto as unknown as Crypto);

/** One `xades:Cert` of `SigningCertificate` as xadesjs reads it. */
export interface XadesjsCert {
  digestAlgorithm: string;
  digest: string;
  issuer: string;
  serial: string;
}

/** What xadesjs read from the qualifying properties of a signature it verified. */
export interface XadesjsView {
  signingTime: Date;
  policy: string;
  roles: string[];
  certs: XadesjsCert[];
  /** The certificates of KeyInfo/X509Data, base64 DER. */
  keyInfo: string[];
}

/** xadesjs's verdict: `ok` when the signature value, the three references and the XAdES view all hold. */
export type XadesjsVerdict = { ok: true; view: XadesjsView } | { ok: false; reason: string };

/**
 * Verifies the one DIAN signature of `signed` with xadesjs: SignatureValue and references (xadesjs `Verify`),
 * then the XAdES view: `QualifyingProperties/@Target` names the signature, the references point at its KeyInfo
 * and its SignedProperties (typed), a SigningTime, a policy and a role are there, and the first
 * `SigningCertificate/Cert` is the KeyInfo certificate (digest with its DigestMethod, serial and issuer).
 */
export async function xadesjsVerify(signed: string): Promise<XadesjsVerdict> {
  try {
    const doc = xadesjs.Parse(signed);
    const signatures = doc.getElementsByTagNameNS(DSIG_NS, 'Signature');
    if (signatures.length !== 1) return { ok: false, reason: `${signatures.length} ds:Signature elements` };
    const signature = signatures[0]!;
    const signedXml = new xadesjs.SignedXml(doc);
    signedXml.LoadXml(signature);
    const content = doc.documentElement.cloneNode(true) as Element;
    const inner = content.getElementsByTagNameNS(DSIG_NS, 'Signature')[0]!;
    inner.parentNode!.removeChild(inner);
    if (!(await signedXml.Verify({ content }))) return { ok: false, reason: 'xadesjs: SignatureValue does not verify' };
    return xadesView(signedXml);
  } catch (e) {
    return { ok: false, reason: `xadesjs: ${e instanceof Error ? e.message : String(e)}` };
  }
}

async function xadesView(signedXml: xadesjs.SignedXml): Promise<XadesjsVerdict> {
  const properties = signedXml.Properties;
  if (!properties) return { ok: false, reason: 'no xades:QualifyingProperties' };
  const signature = signedXml.XmlSignature;
  if (properties.Target !== `#${signature.Id}`) return { ok: false, reason: `QualifyingProperties/@Target ${properties.Target} is not #${signature.Id}` };
  const references = signature.SignedInfo.References.GetIterator();
  const keyInfoId = signature.KeyInfo.Id;
  if (!keyInfoId || !references.some((r) => r.Uri === `#${keyInfoId}`)) return { ok: false, reason: 'no Reference to KeyInfo' };
  const signedProperties = properties.SignedProperties;
  if (!references.some((r) => r.Uri === `#${signedProperties.Id}` && r.Type === SIGNED_PROPERTIES_TYPE)) {
    return { ok: false, reason: 'no typed Reference to SignedProperties' };
  }
  const ssp = signedProperties.SignedSignatureProperties;
  const policy = ssp.SignaturePolicyIdentifier.SignaturePolicyId?.SigPolicyId?.Identifier?.Value ?? '';
  const roles = ssp.SignerRole.ClaimedRoles.GetIterator().map((r) => String(r.Value));
  const certs: XadesjsCert[] = ssp.SigningCertificate.GetIterator().map((c) => ({
    digestAlgorithm: c.CertDigest.DigestMethod.Algorithm,
    digest: Buffer.from(c.CertDigest.DigestValue).toString('base64'),
    issuer: c.IssuerSerial.X509IssuerName,
    serial: c.IssuerSerial.X509SerialNumber,
  }));
  const keyInfo = signature.KeyInfo.GetIterator().flatMap((item) => {
    const certificates = (item as { Certificates?: { GetRaw(): Uint8Array; SerialNumber: string; Issuer: string }[] }).Certificates ?? [];
    return certificates;
  });
  const signingTime = ssp.SigningTime.Value;
  if (!(signingTime instanceof Date) || Number.isNaN(signingTime.getTime())) return { ok: false, reason: 'no SigningTime' };
  if (!policy) return { ok: false, reason: 'no SigPolicyId/Identifier' };
  if (roles.length === 0) return { ok: false, reason: 'no ClaimedRole' };
  const leaf = keyInfo[0];
  const first = certs[0];
  if (!leaf || !first) return { ok: false, reason: 'no KeyInfo certificate or no SigningCertificate/Cert' };
  const hash = DIGESTS[first.digestAlgorithm];
  if (!hash) return { ok: false, reason: `CertDigest method ${first.digestAlgorithm}` };
  const digest = Buffer.from(await webcrypto.subtle.digest(hash, leaf.GetRaw())).toString('base64');
  if (digest !== first.digest) return { ok: false, reason: 'the first SigningCertificate/Cert is not the KeyInfo certificate (CertDigest)' };
  if (first.serial !== leaf.SerialNumber) return { ok: false, reason: `IssuerSerial serial ${first.serial} is not ${leaf.SerialNumber}` };
  if (!sameName(first.issuer, leaf.Issuer)) return { ok: false, reason: `IssuerSerial issuer ${first.issuer} is not ${leaf.Issuer}` };
  return {
    ok: true,
    view: { signingTime, policy, roles, certs, keyInfo: keyInfo.map((c) => Buffer.from(c.GetRaw()).toString('base64')) },
  };
}

/** Attribute types xadesjs writes as dotted OIDs, by the names RFC 4514 strings use. */
const OID_NAMES: Record<string, string> = { '2.5.4.5': 'serialnumber', '1.2.840.113549.1.9.1': 'emailaddress', e: 'emailaddress' };

/** An RFC 4514 value: `#` and the hex of a short DER string (tag, one length byte, bytes) is that string. */
function attributeValue(value: string): string {
  if (!value.startsWith('#')) return value;
  const der = Buffer.from(value.slice(1), 'hex');
  return der.length >= 2 && der[1]! < 0x80 ? der.subarray(2, 2 + der[1]!).toString('utf8') : value;
}

/** Two distinguished names with the same attributes (xadesjs writes them in certificate order with `, `). */
function sameName(a: string, b: string): boolean {
  const set = (s: string) =>
    s
      .split(/,\s*/)
      .map((p) => {
        const [type = '', ...value] = p.trim().split('=');
        return `${OID_NAMES[type.toLowerCase()] ?? type.toLowerCase()}=${attributeValue(value.join('='))}`;
      })
      .sort()
      .join('\n');
  return set(a) === set(b);
}

const EXT_NS = 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2';

/** A key and certificate for {@link xadesjsSignDian}: the WebCrypto form of a signer's key. */
export interface XadesjsKey {
  key: CryptoKey;
  /** Leaf certificate, base64 DER. */
  certificate: string;
}

/** Imports a node:crypto RSA private key for xadesjs (RSASSA-PKCS1-v1_5, SHA-256). */
export async function xadesjsKey(privateKey: KeyObject, certificate: string): Promise<XadesjsKey> {
  const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'der' });
  const key = await webcrypto.subtle.importKey('pkcs8', pkcs8, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
  return { key: key as unknown as CryptoKey, certificate };
}

/**
 * xadesjs signing an unsigned DIAN document the way DIAN's profile asks (the peer of `signDianXml`): inclusive C14N,
 * RSA-SHA256, SHA-256 references to the document (enveloped), the KeyInfo and the SignedProperties, the signing
 * certificate, DIAN's policy and the supplier role; the Signature is appended to the last `ext:ExtensionContent`.
 */
export async function xadesjsSignDian(unsigned: string, signer: XadesjsKey, policy: { url: string; hash: string }, signingTime: Date): Promise<string> {
  const doc = xadesjs.Parse(unsigned);
  const signedXml = new xadesjs.SignedXml();
  const id = 'xmldsig-xadesjs';
  signedXml.XmlSignature.Id = id;
  signedXml.XmlSignature.KeyInfo.Id = `${id}-keyinfo`;
  signedXml.SignedProperties.Id = `${id}-signedprops`;
  signedXml.Properties!.Target = `#${id}`;
  const signature = await signedXml.Sign({ name: 'RSASSA-PKCS1-v1_5' }, signer.key, doc, {
    x509: [signer.certificate],
    references: [
      { id: `${id}-ref0`, uri: '', hash: 'SHA-256', transforms: ['enveloped'] },
      { uri: `#${id}-keyinfo`, hash: 'SHA-256' },
    ],
    signingCertificate: signer.certificate,
    signingTime: { value: signingTime },
    policy: { hash: 'SHA-256', digestValue: policy.hash, identifier: { value: policy.url } },
    signerRole: { claimed: ['supplier'] },
  });
  const contents = doc.getElementsByTagNameNS(EXT_NS, 'ExtensionContent');
  contents[contents.length - 1]!.appendChild(signature.GetXml()!);
  return new xmldom.XMLSerializer().serializeToString(doc as unknown as xmldom.Node);
}
