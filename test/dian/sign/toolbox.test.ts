/**
 * DIAN's own samples (test/dian/fixtures/toolbox): our verifier accepts exactly the samples xmlsec1 verifies
 * (protocol §4: four official samples verify; they name the policy with the v1 URL, one digests with SHA-384).
 * Our own signatures carry the v2 URL; a policy that is not DIAN's is refused.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createSelfSignedIdentity,
  DIAN_POLICY_URL,
  DIAN_POLICY_URL_V1,
  dianSignatureIds,
  dianSignatureProfile,
  signDianXml,
  verifyDianXml,
} from '../../../src/dian/sign/index.js';
import { signXmlWithProfile } from '../../../src/shared/xmldsig/xmldsig-sign.js';
import { repoRoot } from '../helpers/env.js';
import { xmlsec1Verify } from './xmlsec.js';

const dir = join(repoRoot, 'test/dian/fixtures/toolbox');
const samples = readdirSync(dir).filter((f) => f.endsWith('.xml'));
const VERIFYING = ['consumidor-final.xml', 'creditnote.xml', 'debitnote.xml', 'genericapagoanticipado.xml'];

describe('DIAN toolbox samples', () => {
  it('xmlsec1 verifies exactly four of them', () => {
    expect(samples.length).toBe(44);
    const ok = samples.filter((f) => xmlsec1Verify(readFileSync(join(dir, f), 'utf8')).ok);
    expect(ok).toEqual(VERIFYING);
  });

  it('our verifier accepts exactly those four, with the v1 policy URL they carry', () => {
    const ok = samples.filter((f) => verifyDianXml(readFileSync(join(dir, f), 'utf8')).valid);
    expect(ok).toEqual(VERIFYING);
    for (const f of VERIFYING) expect(readFileSync(join(dir, f), 'utf8')).toContain(DIAN_POLICY_URL_V1);
    expect(readFileSync(join(dir, 'consumidor-final.xml'), 'utf8')).toContain('http://www.w3.org/2001/04/xmldsig-more#sha384');
  });
});

describe('the signature policy', () => {
  const identity = createSelfSignedIdentity({ commonName: 'Proveedor' });
  const xml =
    '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:ext="urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2">' +
    '<ext:UBLExtensions><ext:UBLExtension><ext:ExtensionContent/></ext:UBLExtension></ext:UBLExtensions><ID>1</ID></Invoice>';

  it('our signature names the v2 URL and verifies', async () => {
    const r = await signDianXml(xml, identity.signer, { clock: () => new Date('2024-05-10T12:00:00Z') });
    if (!r.ok) throw new Error(r.message);
    expect(r.xml).toContain(`<xades:Identifier>${DIAN_POLICY_URL}</xades:Identifier>`);
    expect(verifyDianXml(r.xml)).toMatchObject({ valid: true });
  });

  it('a correctly signed document with another policy, or another role, is refused as xades', async () => {
    const ids = dianSignatureIds('p');
    const other = await signXmlWithProfile(
      xml,
      dianSignatureProfile(ids, 'sha256', { signingTime: '2024-05-10T07:00:00-05:00', role: 'supplier', policyUrl: 'https://example.com/policy.pdf' }),
      identity.signer,
    );
    expect(xmlsec1Verify(other, identity.certificatePem).ok).toBe(true);
    expect(verifyDianXml(other)).toMatchObject({ valid: false, code: 'xades', reason: expect.stringContaining('policy') });
    const role = await signXmlWithProfile(
      xml,
      dianSignatureProfile(ids, 'sha256', { signingTime: '2024-05-10T07:00:00-05:00', role: 'buyer' as 'supplier' }),
      identity.signer,
    );
    expect(verifyDianXml(role)).toMatchObject({ valid: false, code: 'xades', reason: expect.stringContaining('ClaimedRole') });
  });

  it('a SigningCertificate that lists another certificate is refused as xades', async () => {
    const profile = dianSignatureProfile(dianSignatureIds('c'), 'sha256', { signingTime: '2024-05-10T07:00:00-05:00', role: 'supplier' });
    const other = createSelfSignedIdentity({ commonName: 'Otro' }).signer.certificate;
    const signed = await signXmlWithProfile(xml, { ...profile, objects: (context) => profile.objects!({ ...context, certificate: other }) }, identity.signer);
    expect(xmlsec1Verify(signed, identity.certificatePem).ok).toBe(true);
    expect(verifyDianXml(signed)).toMatchObject({ valid: false, code: 'xades', reason: expect.stringContaining('SigningCertificate') });
  });
});
