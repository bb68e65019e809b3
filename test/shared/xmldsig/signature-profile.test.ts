/**
 * The generic XMLDSig core (src/shared/xmldsig/signature-profile.ts, xmldsig-sign.ts, xmldsig-verify.ts) carries a
 * profile other than DGII's: a XAdES-EPES-shaped value (three references, KeyInfo and SignedProperties by
 * Id, the latter with its Type; the Signature inserted into a chosen UBL element; QualifyingProperties in a
 * signed ds:Object). Not XAdES itself: the shape only, checked by our verifier and by xmlsec1.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Document, Element } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { createSelfSignedIdentity } from '../../../src/shared/xmldsig/self-signed.js';
import { verifyXml } from '../../../src/ecf/sign/verify-xml.js';
import {
  C14N_ALGORITHM,
  DIGEST_ALGORITHM,
  DSIG_NS,
  ENVELOPED_TRANSFORM,
  insertInto,
  SIGNATURE_ALGORITHM,
  type SignatureProfile,
} from '../../../src/shared/xmldsig/signature-profile.js';
import { signXmlWithProfile } from '../../../src/shared/xmldsig/xmldsig-sign.js';
import { verifyXmlWithProfile } from '../../../src/shared/xmldsig/xmldsig-verify.js';
import { requireTool, withTempDir } from '../../ecf/helpers/certs.js';

const EXT_NS = 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2';
const XADES_NS = 'http://uri.etsi.org/01903/v1.3.2#';
const SIGNED_PROPERTIES_TYPE = 'http://uri.etsi.org/01903#SignedProperties';

const invoice =
  '<?xml version="1.0" encoding="UTF-8"?>' +
  '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" ' +
  `xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2" xmlns:ext="${EXT_NS}">` +
  '<ext:UBLExtensions>' +
  '<ext:UBLExtension><ext:ExtensionContent><Other xmlns="urn:example:other">data</Other></ext:ExtensionContent></ext:UBLExtension>' +
  '<ext:UBLExtension><ext:ExtensionContent/></ext:UBLExtension>' +
  '</ext:UBLExtensions>' +
  '<cbc:ID>SETP990000002</cbc:ID><cbc:IssueDate>2026-01-10</cbc:IssueDate><cbc:Note>Peña &amp; Cía "x"</cbc:Note>' +
  '</Invoice>';

function extensionContents(doc: Document): Element[] {
  return Array.from(doc.getElementsByTagNameNS(EXT_NS, 'ExtensionContent')) as Element[];
}

/** The last `ext:ExtensionContent`, when it is empty (UBL's place for the signature). */
function lastEmptyExtensionContent(doc: Document): Element | null {
  const last = extensionContents(doc).at(-1);
  return last && !last.firstChild ? last : null;
}

const xadesShaped: SignatureProfile = {
  name: 'XAdES-EPES test',
  canonicalization: C14N_ALGORITHM,
  signatureAlgorithm: SIGNATURE_ALGORITHM,
  digestAlgorithm: DIGEST_ALGORITHM,
  dsPrefix: 'ds',
  signatureId: 'xmldsig-1',
  signatureValueId: 'xmldsig-1-sigvalue',
  keyInfo: { id: 'xmldsig-1-keyinfo' },
  references: [
    { id: 'xmldsig-1-ref0', target: 'document', transforms: [ENVELOPED_TRANSFORM] },
    { target: { id: 'xmldsig-1-keyinfo' }, transforms: [] },
    { target: { id: 'xmldsig-1-signedprops' }, type: SIGNED_PROPERTIES_TYPE, transforms: [] },
  ],
  placement: insertInto(
    'in the last ext:ExtensionContent of ext:UBLExtensions',
    lastEmptyExtensionContent,
    (parent) => parent.localName === 'ExtensionContent' && parent.namespaceURI === EXT_NS && extensionContents(parent.ownerDocument!).at(-1) === parent,
  ),
  objects: ({ certificate, dsPrefix, signatureId }) => {
    const cert = new X509Certificate(Buffer.from(certificate, 'base64'));
    const certDigest = createHash('sha256').update(cert.raw).digest('base64');
    const ds = (name: string) => `${dsPrefix}:${name}`;
    return [
      `<xades:QualifyingProperties xmlns:xades="${XADES_NS}" Target="#${signatureId}">` +
        '<xades:SignedProperties Id="xmldsig-1-signedprops"><xades:SignedSignatureProperties>' +
        '<xades:SigningTime>2026-01-10T08:00:00-05:00</xades:SigningTime>' +
        `<xades:SigningCertificate><xades:Cert><xades:CertDigest><${ds('DigestMethod')} Algorithm="${DIGEST_ALGORITHM}"/>` +
        `<${ds('DigestValue')}>${certDigest}</${ds('DigestValue')}></xades:CertDigest>` +
        `<xades:IssuerSerial><${ds('X509IssuerName')}>${cert.issuer.replace(/\n/g, ',')}</${ds('X509IssuerName')}>` +
        `<${ds('X509SerialNumber')}>${BigInt(`0x${cert.serialNumber}`).toString()}</${ds('X509SerialNumber')}></xades:IssuerSerial>` +
        '</xades:Cert></xades:SigningCertificate>' +
        '<xades:SignaturePolicyIdentifier><xades:SignaturePolicyId><xades:SigPolicyId><xades:Identifier>urn:example:policy</xades:Identifier></xades:SigPolicyId>' +
        `<xades:SigPolicyHash><${ds('DigestMethod')} Algorithm="${DIGEST_ALGORITHM}"/><${ds('DigestValue')}>${createHash('sha256').update('policy').digest('base64')}</${ds('DigestValue')}></xades:SigPolicyHash>` +
        '</xades:SignaturePolicyId></xades:SignaturePolicyIdentifier>' +
        '<xades:SignerRole><xades:ClaimedRoles><xades:ClaimedRole>supplier</xades:ClaimedRole></xades:ClaimedRoles></xades:SignerRole>' +
        '</xades:SignedSignatureProperties></xades:SignedProperties></xades:QualifyingProperties>',
    ];
  },
  dropWhitespace: false,
};

/** xmlsec1 --verify, with SignedProperties/@Id declared as an ID attribute. */
function xmlsec1Verify(signed: string): { ok: boolean; output: string } {
  requireTool('xmlsec1');
  return withTempDir((dir) => {
    const file = join(dir, 'signed.xml');
    writeFileSync(file, signed);
    const r = spawnSync('xmlsec1', ['--verify', '--insecure', '--id-attr:Id', `${XADES_NS}:SignedProperties`, file], { encoding: 'utf8' });
    return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
  });
}

describe('the generic XMLDSig core carries a XAdES-EPES-shaped profile', () => {
  const identity = createSelfSignedIdentity({ commonName: 'Proveedor de prueba', serialNumber: '900000001' });
  const signedPromise = signXmlWithProfile(invoice, xadesShaped, identity.signer);

  it('signs into the chosen element, with three references, KeyInfo and SignedProperties by Id, a signed ds:Object', async () => {
    const signed = await signedPromise;
    const start = signed.indexOf('<ds:Signature ');
    expect(signed.slice(0, start).endsWith('<ext:UBLExtension><ext:ExtensionContent>')).toBe(true);
    expect(signed.slice(signed.indexOf('</ds:Signature>'))).toBe(
      '</ds:Signature></ext:ExtensionContent></ext:UBLExtension></ext:UBLExtensions><cbc:ID>SETP990000002</cbc:ID><cbc:IssueDate>2026-01-10</cbc:IssueDate><cbc:Note>Peña &amp; Cía "x"</cbc:Note></Invoice>',
    );
    expect(signed).toContain(`<ds:Signature xmlns:ds="${DSIG_NS}" Id="xmldsig-1">`);
    const uris = [...signed.matchAll(/<ds:Reference([^>]*)>/g)].map((m) => m[1]);
    expect(uris).toEqual([' Id="xmldsig-1-ref0" URI=""', ' URI="#xmldsig-1-keyinfo"', ` Type="${SIGNED_PROPERTIES_TYPE}" URI="#xmldsig-1-signedprops"`]);
    expect(signed).toContain('<ds:KeyInfo Id="xmldsig-1-keyinfo"><ds:X509Data><ds:X509Certificate>');
    expect(signed).toContain('</ds:KeyInfo><ds:Object><xades:QualifyingProperties');
  });

  it('verifies with our verifier and with xmlsec1', async () => {
    const signed = await signedPromise;
    expect(verifyXmlWithProfile(signed, xadesShaped)).toEqual({ valid: true, certificate: identity.signer.certificate });
    const xmlsec = xmlsec1Verify(signed);
    expect(xmlsec.ok, xmlsec.output).toBe(true);
  });

  it('a change to the signed properties, the document or another extension is caught by both', async () => {
    const signed = await signedPromise;
    const tampered = [
      signed.replace('2026-01-10T08:00:00-05:00', '2026-01-11T08:00:00-05:00'),
      signed.replace('<cbc:ID>SETP990000002', '<cbc:ID>SETP990000003'),
      signed.replace('<Other xmlns="urn:example:other">data', '<Other xmlns="urn:example:other">date'),
    ];
    for (const xml of tampered) {
      expect(verifyXmlWithProfile(xml, xadesShaped)).toMatchObject({ valid: false, code: 'digest_mismatch' });
      expect(xmlsec1Verify(xml).ok).toBe(false);
    }
  });

  it('the profile is enforced: a Signature elsewhere, a missing Type or DGII expectations refuse it', async () => {
    const signed = await signedPromise;
    const start = signed.indexOf('<ds:Signature ');
    const end = signed.indexOf('</ds:Signature>') + '</ds:Signature>'.length;
    const signature = signed.slice(start, end);
    const moved = signed.slice(0, start) + signed.slice(end).replace('<cbc:IssueDate>', `${signature}<cbc:IssueDate>`);
    expect(verifyXmlWithProfile(moved, xadesShaped)).toMatchObject({
      valid: false,
      code: 'unsupported',
      reason: expect.stringContaining('in the last ext:ExtensionContent'),
    });
    const untyped = signed.replace(` Type="${SIGNED_PROPERTIES_TYPE}"`, '');
    expect(verifyXmlWithProfile(untyped, xadesShaped)).toMatchObject({ valid: false, code: 'unsupported', reason: expect.stringContaining('Type=') });
    expect(verifyXml(signed)).toMatchObject({ valid: false });
  });
});
