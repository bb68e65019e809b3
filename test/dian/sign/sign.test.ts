/**
 * DIAN XAdES-EPES (src/dian/sign): a document built by `buildDianXml` is signed into its last empty
 * `ext:ExtensionContent`, verified by our verifier and by xmlsec1, validated against DIAN's XSDs, and refused
 * when tampered with or moved. Certificates are made in memory (never committed).
 */
import { createHash, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildDianXml } from '../../../src/dian/index.js';
import {
  bogotaTime,
  createSelfSignedIdentity,
  DIAN_POLICY_HASH,
  DIAN_POLICY_URL,
  signDianXml,
  verifyDianXml,
  type SignDianOptions,
} from '../../../src/dian/sign/index.js';
import { CONTEXT } from '../helpers/build-fixtures.js';
import { minimalDianRequest } from '../helpers/requests.js';
import { xmlsec1Verify } from './xmlsec.js';

function built(): string {
  const r = buildDianXml('invoice', minimalDianRequest('invoice'), CONTEXT);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.xml;
}

const identity = createSelfSignedIdentity({ commonName: 'Proveedor de prueba', serialNumber: '900000001' });
const fixed: SignDianOptions = { clock: () => new Date('2024-05-10T15:04:05.678Z'), newId: () => 'fixed-id' };

async function sign(xml: string, options: SignDianOptions = fixed): Promise<string> {
  const r = await signDianXml(xml, identity.signer, options);
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r.xml;
}

function cut(signed: string): { before: string; signature: string; after: string } {
  const start = signed.indexOf('<ds:Signature ');
  const end = signed.indexOf('</ds:Signature>') + '</ds:Signature>'.length;
  return { before: signed.slice(0, start), signature: signed.slice(start, end), after: signed.slice(end) };
}

describe('signDianXml', () => {
  const unsigned = built();
  const signedPromise = sign(unsigned);

  it('inserts the Signature into the last empty ext:ExtensionContent and changes no other byte', async () => {
    const signed = await signedPromise;
    const { before, signature, after } = cut(signed);
    expect(before + after).toBe(unsigned);
    expect(before.endsWith('<ext:ExtensionContent>')).toBe(true);
    expect(after.startsWith('</ext:ExtensionContent></ext:UBLExtension></ext:UBLExtensions>')).toBe(true);
    expect(signature.startsWith('<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#" Id="xmldsig-fixed-id">')).toBe(true);
  });

  it('writes the three references in order, the C14N and RSA-SHA256 methods and the XAdES-EPES properties', async () => {
    const { signature } = cut(await signedPromise);
    expect(signature).toContain('<ds:CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/>');
    expect(signature).toContain('<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>');
    expect([...signature.matchAll(/<ds:Reference([^>]*)>/g)].map((m) => m[1])).toEqual([
      ' Id="xmldsig-fixed-id-ref0" URI=""',
      ' URI="#xmldsig-fixed-id-keyinfo"',
      ' Type="http://uri.etsi.org/01903#SignedProperties" URI="#xmldsig-fixed-id-signedprops"',
    ]);
    expect(signature).toContain('<ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>');
    expect(signature.match(/xmlenc#sha256/g)).toHaveLength(5);
    expect(signature).toContain('<ds:KeyInfo Id="xmldsig-fixed-id-keyinfo"><ds:X509Data><ds:X509Certificate>');
    expect(signature).toContain('<xades:QualifyingProperties xmlns:xades="http://uri.etsi.org/01903/v1.3.2#" Target="#xmldsig-fixed-id">');
    expect(signature).toContain('<xades:SigningTime>2024-05-10T10:04:05-05:00</xades:SigningTime>');
    const cert = new X509Certificate(Buffer.from(identity.signer.certificate, 'base64'));
    expect(signature).toContain(`<ds:DigestValue>${createHash('sha256').update(cert.raw).digest('base64')}</ds:DigestValue>`);
    expect(signature).toContain(`<ds:X509SerialNumber>${BigInt(`0x${cert.serialNumber}`)}</ds:X509SerialNumber>`);
    expect(signature).toContain(`<xades:Identifier>${DIAN_POLICY_URL}</xades:Identifier>`);
    expect(signature).toContain(`<ds:DigestValue>${DIAN_POLICY_HASH.sha256}</ds:DigestValue>`);
    expect(signature).toContain('<xades:ClaimedRole>supplier</xades:ClaimedRole>');
  });

  it('is deterministic with a fixed clock and id source', async () => {
    expect(await sign(unsigned)).toBe(await signedPromise);
    expect(await sign(unsigned, { ...fixed, newId: () => 'other' })).not.toBe(await signedPromise);
  });

  it('verifies with our verifier and with xmlsec1 (the certificate trusted)', async () => {
    const signed = await signedPromise;
    expect(verifyDianXml(signed)).toEqual({ valid: true, certificate: identity.signer.certificate });
    const r = xmlsec1Verify(signed, identity.certificatePem);
    expect(r.ok, r.output).toBe(true);
  });

  it('signs with SHA-384 and the third-party role on option; both verifiers accept it', async () => {
    const signed = await sign(unsigned, { ...fixed, digest: 'sha384', role: 'third party' });
    expect(signed).not.toContain('xmlenc#sha256');
    expect(signed.match(/xmldsig-more#sha384/g)).toHaveLength(5);
    expect(signed).toContain(`<ds:DigestValue>${DIAN_POLICY_HASH.sha384}</ds:DigestValue>`);
    expect(signed).toContain('<xades:ClaimedRole>third party</xades:ClaimedRole>');
    expect(verifyDianXml(signed)).toMatchObject({ valid: true });
    const r = xmlsec1Verify(signed, identity.certificatePem);
    expect(r.ok, r.output).toBe(true);
  });

  it('refuses a tampered content, tampered SignedProperties or a moved Signature', async () => {
    const signed = await signedPromise;
    const content = signed.replace('<cbc:ID>SETP990000001<', '<cbc:ID>SETP990000002<');
    expect(content).not.toBe(signed);
    const properties = signed.replace('<xades:ClaimedRole>supplier', '<xades:ClaimedRole>third party');
    const { before, signature, after } = cut(signed);
    const moved = (before + after).replace('</ext:UBLExtensions>', '</ext:UBLExtensions>').replace(/<cbc:UBLVersionID>/, `${signature}<cbc:UBLVersionID>`);
    expect(moved).not.toBe(before + after);
    expect(verifyDianXml(content)).toMatchObject({ valid: false, code: 'digest_mismatch' });
    expect(verifyDianXml(properties)).toMatchObject({ valid: false, code: 'digest_mismatch' });
    expect(verifyDianXml(moved)).toMatchObject({ valid: false, code: 'unsupported', reason: expect.stringContaining('ext:ExtensionContent') });
    for (const xml of [content, properties]) expect(xmlsec1Verify(xml, identity.certificatePem).ok).toBe(false);
  });

  it('returns errors as values: no place for the signature, already signed, a bad clock', async () => {
    const signed = await signedPromise;
    expect(await signDianXml(signed, identity.signer, fixed)).toMatchObject({ ok: false, code: 'already_signed' });
    const full = unsigned.replace(/<ext:ExtensionContent><\/ext:ExtensionContent>(?!.*ExtensionContent)/s, '<ext:ExtensionContent><x/></ext:ExtensionContent>');
    expect(full).not.toBe(unsigned);
    expect(await signDianXml(full, identity.signer, fixed)).toMatchObject({ ok: false, code: 'no_signature_place' });
    expect(await signDianXml('<a>', identity.signer, fixed)).toMatchObject({ ok: false, code: 'not_well_formed' });
    expect(await signDianXml(unsigned, identity.signer, { clock: () => new Date(Number.NaN) })).toMatchObject({ ok: false, code: 'invalid_clock' });
    // From JavaScript, without options or a clock: a value naming what is missing, not a TypeError.
    expect(await signDianXml(unsigned, identity.signer, undefined as never)).toMatchObject({
      ok: false,
      code: 'invalid_clock',
      message: expect.stringContaining('options.clock'),
    });
    expect(await signDianXml(unsigned, identity.signer, {} as never)).toMatchObject({ ok: false, code: 'invalid_clock' });
    const failing = { certificate: identity.signer.certificate, sign: () => Promise.reject(new Error('HSM offline')) };
    expect(await signDianXml(unsigned, failing, fixed)).toMatchObject({ ok: false, code: 'signer_failed', message: expect.stringContaining('HSM offline') });
    const notCertificate = { certificate: 'AAAA', sign: identity.signer.sign };
    expect(await signDianXml(unsigned, notCertificate, fixed)).toMatchObject({ ok: false, code: 'signer_failed' });
  });

  it('keeps the bytes of a self-closed or indented, CRLF document', async () => {
    const crlf = unsigned
      .replace(/></g, '>\r\n<')
      .replace(/<ext:ExtensionContent>\r\n<\/ext:ExtensionContent>(?![\s\S]*ExtensionContent)/, '<ext:ExtensionContent />');
    expect(crlf).toContain('<ext:ExtensionContent />');
    const signed = await sign(crlf);
    const { before, after } = cut(signed);
    expect(before.endsWith('<ext:ExtensionContent >')).toBe(true);
    expect(after.startsWith('</ext:ExtensionContent>\r\n</ext:UBLExtension>')).toBe(true);
    expect(verifyDianXml(signed)).toMatchObject({ valid: true });
    expect(xmlsec1Verify(signed, identity.certificatePem).ok).toBe(true);
  });

  it('bogotaTime writes the instant at UTC-5', () => {
    expect(bogotaTime(new Date('2024-01-01T03:00:00Z'))).toBe('2023-12-31T22:00:00-05:00');
  });
});
