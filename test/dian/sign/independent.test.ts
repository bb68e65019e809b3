/**
 * Two independent verifiers of our DIAN signatures: xmlsec1 (libxml2/OpenSSL) and xadesjs (xmldsigjs/WebCrypto,
 * ./xadesjs.ts). Every kind's maximal example and the AttachedDocument, signed by signDianXml, verify with both;
 * tampered copies are refused by both, so the helpers can fail. And the other way: xadesjs signing under DIAN's
 * profile makes a signature our verifier (and xmlsec1) accepts.
 */
import { describe, expect, it } from 'vitest';
import { buildAttachedDocument, type DianKindId } from '../../../src/dian/index.js';
import {
  createSelfSignedIdentity,
  DIAN_POLICY_HASH,
  DIAN_POLICY_URL,
  dianSignatureIds,
  dianSignatureProfile,
  readP12,
  signDianXml,
  verifyDianXml,
  type SignDianOptions,
} from '../../../src/dian/sign/index.js';
import { signXmlWithProfile } from '../../../src/shared/xmldsig/xmldsig-sign.js';
import { buildExample, EXAMPLE_KINDS } from '../helpers/examples.js';
import { unsignedDianResponse } from '../helpers/response.js';
import { xadesjsKey, xadesjsSignDian, xadesjsVerify } from './xadesjs.js';
import { xmlsec1Verify } from './xmlsec.js';

const identity = createSelfSignedIdentity({ commonName: 'Proveedor de prueba', serialNumber: '900000001' });
const options: SignDianOptions = { clock: () => new Date('2025-03-14T15:24:37Z') };

async function sign(xml: string, extra: Partial<SignDianOptions> = {}): Promise<string> {
  const r = await signDianXml(xml, identity.signer, { ...options, ...extra });
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r.xml;
}

async function signedExample(kind: DianKindId): Promise<string> {
  const built = buildExample(kind, 'max');
  if (!built.ok) throw new Error(`${kind}: ${JSON.stringify(built.issues)}`);
  return sign(built.xml);
}

describe('xadesjs and xmlsec1 verify our DIAN signatures', () => {
  it.each(EXAMPLE_KINDS)('%s (maximal example)', async (kind) => {
    const signed = await signedExample(kind);
    const x = await xadesjsVerify(signed);
    expect(x.ok ? '' : x.reason).toBe('');
    if (!x.ok) return;
    expect(x.view.policy).toBe(DIAN_POLICY_URL);
    expect(x.view.roles).toEqual(['supplier']);
    expect(x.view.signingTime.toISOString()).toBe('2025-03-14T15:24:37.000Z');
    expect(x.view.keyInfo).toEqual([identity.signer.certificate]);
    expect(x.view.certs).toHaveLength(1);
    const r = xmlsec1Verify(signed, identity.certificatePem);
    expect(r.ok, r.output).toBe(true);
  });

  it('SHA-384 and the third-party role verify with xadesjs too', async () => {
    const signed = await sign((buildExample('invoice', 'max') as { xml: string }).xml, { digest: 'sha384', role: 'third party' });
    const x = await xadesjsVerify(signed);
    expect(x.ok ? x.view.roles : x.reason).toEqual(['third party']);
    expect(x.ok && x.view.certs[0]!.digestAlgorithm).toBe('http://www.w3.org/2001/04/xmldsig-more#sha384');
  });

  it('the signed AttachedDocument, with and without the ApplicationResponse, verifies with both', async () => {
    const signedXml = await signedExample('invoice');
    const applicationResponseXml = await sign(unsignedDianResponse());
    expect((await xadesjsVerify(applicationResponseXml)).ok).toBe(true);
    const base = { signedXml, environment: '2', id: 'AD-0001', issueDate: '2025-03-15', issueTime: '09:30:00-05:00' } as const;
    for (const input of [{ ...base, applicationResponseXml }, base]) {
      const built = buildAttachedDocument(input);
      if (!built.ok) throw new Error(built.message);
      const signed = await sign(built.xml);
      const x = await xadesjsVerify(signed);
      expect(x.ok ? '' : x.reason).toBe('');
      const r = xmlsec1Verify(signed, identity.certificatePem);
      expect(r.ok, r.output).toBe(true);
    }
  });

  it('xadesjs refuses tampered content, SignedProperties, KeyInfo and SignatureValue (as xmlsec1 does)', async () => {
    const signed = await signedExample('invoice');
    const value = signed.match(/<ds:SignatureValue[^>]*>(.)/)!;
    const attacks = {
      content: signed.replace(/<cbc:PayableAmount currencyID="COP">/, '<cbc:PayableAmount currencyID="COP">1'),
      properties: signed.replace('<xades:ClaimedRole>supplier', '<xades:ClaimedRole>third party'),
      keyInfo: signed.replace('<ds:KeyInfo Id=', '<ds:KeyInfo xml:lang="es" Id='),
      signatureValue: signed.replace(value[0], value[0].slice(0, -1) + (value[1] === 'A' ? 'B' : 'A')),
    };
    for (const [name, xml] of Object.entries(attacks)) {
      expect(xml, name).not.toBe(signed);
      expect((await xadesjsVerify(xml)).ok, name).toBe(false);
      expect(xmlsec1Verify(xml, identity.certificatePem).ok, name).toBe(false);
    }
  });

  it('xadesjs refuses a signature by another key, and a SigningCertificate naming another certificate (xmlsec1 does not read XAdES)', async () => {
    const unsigned = (buildExample('invoice', 'max') as { xml: string }).xml;
    const other = createSelfSignedIdentity({ commonName: 'Otro' });
    const forged = await signDianXml(unsigned, { certificate: identity.signer.certificate, sign: other.signer.sign }, options);
    if (!forged.ok) throw new Error(forged.message);
    expect(await xadesjsVerify(forged.xml)).toMatchObject({ ok: false, reason: expect.stringContaining('SignatureValue') });
    expect(xmlsec1Verify(forged.xml, identity.certificatePem).ok).toBe(false);

    const profile = dianSignatureProfile(dianSignatureIds('c'), 'sha256', { signingTime: '2025-03-14T10:24:37-05:00', role: 'supplier' });
    const listed = await signXmlWithProfile(
      unsigned,
      { ...profile, objects: (context) => profile.objects!({ ...context, certificate: other.signer.certificate }) },
      identity.signer,
    );
    expect(xmlsec1Verify(listed, identity.certificatePem).ok).toBe(true);
    expect(await xadesjsVerify(listed)).toMatchObject({ ok: false, reason: expect.stringContaining('SigningCertificate') });
  });

  it('the other way: a DIAN signature made by xadesjs verifies with verifyDianXml and xmlsec1', async () => {
    const id = readP12(identity.p12, identity.password);
    const unsigned = (buildExample('credit-note', 'max') as { xml: string }).xml;
    const signed = await xadesjsSignDian(
      unsigned,
      await xadesjsKey(id.privateKey, id.certificate),
      { url: DIAN_POLICY_URL, hash: DIAN_POLICY_HASH.sha256 },
      new Date(),
    );
    expect(signed).toContain('<ds:Reference Id="xmldsig-xadesjs-ref0" URI="">');
    expect(verifyDianXml(signed)).toEqual({ valid: true, certificate: id.certificate });
    const r = xmlsec1Verify(signed, identity.certificatePem);
    expect(r.ok, r.output).toBe(true);
    const tampered = signed.replace('<xades:ClaimedRole>supplier', '<xades:ClaimedRole>third party');
    expect(verifyDianXml(tampered)).toMatchObject({ valid: false, code: 'digest_mismatch' });
  });
});
