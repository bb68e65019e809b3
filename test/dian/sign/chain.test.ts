/**
 * The signer's chain in `xades:SigningCertificate` (protocol §4; DIAN's samples list the leaf, its intermediate
 * and the root): a .p12 holding root, intermediate and leaf (out of order, with an unrelated CA) gives a signer
 * whose chain is [intermediate, root]; the signature lists one Cert per certificate in chain order, KeyInfo
 * carries the leaf only, and our verifier, xmlsec1 (trusting the root) and xadesjs accept it.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDianXml } from '../../../src/dian/index.js';
import { dianSignatureIds, dianSignatureProfile, p12Signer, readP12, signDianXml, verifyDianXml, type Signer } from '../../../src/dian/sign/index.js';
import { issuerChain } from '../../../src/shared/xmldsig/signer.js';
import { signXmlWithProfile } from '../../../src/shared/xmldsig/xmldsig-sign.js';
import { CONTEXT } from '../helpers/build-fixtures.js';
import { createTestChain } from '../helpers/chain.js';
import { minimalDianRequest } from '../helpers/requests.js';
import { xadesjsVerify } from './xadesjs.js';
import { xmlsec1Verify } from './xmlsec.js';

const chain = createTestChain();
const signer = p12Signer(readP12(chain.p12, chain.password));
const built = buildDianXml('invoice', minimalDianRequest('invoice'), CONTEXT);
if (!built.ok) throw new Error(JSON.stringify(built.issues));
const unsigned = built.xml;

async function sign(s: Signer): Promise<string> {
  const r = await signDianXml(unsigned, s, { clock: () => new Date('2026-03-14T15:00:00Z'), newId: () => 'chain' });
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r.xml;
}

function certEntries(signed: string): Array<{ digest: string; issuer: string; serial: string }> {
  return [
    ...signed.matchAll(
      /<xades:Cert>.*?<ds:DigestValue>([^<]+)<\/ds:DigestValue>.*?<ds:X509IssuerName>([^<]*)<\/ds:X509IssuerName><ds:X509SerialNumber>(\d+)</g,
    ),
  ].map((m) => ({ digest: m[1]!, issuer: m[2]!, serial: m[3]! }));
}

function expected(der: string, issuer: string): { digest: string; issuer: string; serial: string } {
  const cert = new X509Certificate(Buffer.from(der, 'base64'));
  return { digest: createHash('sha256').update(cert.raw).digest('base64'), issuer, serial: BigInt(`0x${cert.serialNumber}`).toString() };
}

/**
 * Issuer names as DIAN's toolbox samples write them: certificate order (country first), no spaces, the e-mail by its
 * OID with the hex of its DER IA5String (the tail is byte for byte the samples' Andes SCD e-mail).
 */
const INTERMEDIATE = 'C=CO,O=Autoridad de Prueba,CN=CA PRUEBAS Clase II,1.2.840.113549.1.9.1=#1614696e666f40616e6465737363642e636f6d2e636f';
const ROOT = 'C=CO,O=Autoridad de Prueba,CN=ROOT CA PRUEBAS';
const toolbox = join(import.meta.dirname, '../fixtures/toolbox');

describe('the signer chain in SigningCertificate', () => {
  it('p12Signer orders the .p12 issuers from the leaf up and leaves out unrelated certificates', () => {
    expect(signer.certificate).toBe(chain.leaf);
    expect(signer.chain).toEqual([chain.intermediate, chain.root]);
    expect(issuerChain(chain.leaf, [chain.root, chain.intermediate])).toEqual([chain.intermediate, chain.root]);
    expect(issuerChain(chain.leaf, [chain.root, chain.unrelated])).toEqual([]);
    expect(issuerChain(chain.intermediate, [chain.leaf, chain.root])).toEqual([chain.root]);
    expect(issuerChain(chain.root, [chain.root, chain.intermediate])).toEqual([]);
  });

  it('lists leaf, intermediate and root as Certs in that order; KeyInfo has the leaf only', async () => {
    const signed = await sign(signer);
    expect(certEntries(signed)).toEqual([expected(chain.leaf, INTERMEDIATE), expected(chain.intermediate, ROOT), expected(chain.root, ROOT)]);
    expect(readFileSync(join(toolbox, 'ejemplificacionicui-1.xml'), 'utf8')).toContain(
      `,1.2.840.113549.1.9.1=#1614696e666f40616e6465737363642e636f6d2e636f</ds:X509IssuerName>`,
    );
    expect(signed.match(/<ds:X509Certificate>([^<]+)</g)).toEqual([`<ds:X509Certificate>${chain.leaf}<`]);
  });

  it('verifies with ours, xmlsec1 (root trusted, intermediate given) and xadesjs', async () => {
    const signed = await sign(signer);
    expect(verifyDianXml(signed)).toEqual({ valid: true, certificate: chain.leaf });
    const r = xmlsec1Verify(signed, chain.rootPem, [chain.intermediatePem]);
    expect(r.ok, r.output).toBe(true);
    expect(xmlsec1Verify(signed, chain.rootPem).ok).toBe(false);
    const x = await xadesjsVerify(signed);
    expect(x.ok ? x.view.certs.map((c) => c.digest) : x.reason).toEqual([chain.leaf, chain.intermediate, chain.root].map((c) => expected(c, '').digest));
  });

  it('a signer without a chain writes one Cert; a chain whose first Cert is not the signer is refused', async () => {
    const bare = await sign({ certificate: signer.certificate, sign: signer.sign });
    expect(certEntries(bare)).toEqual([expected(chain.leaf, INTERMEDIATE)]);
    expect(verifyDianXml(bare)).toMatchObject({ valid: true });
    // The intermediate first and the leaf second: the leaf is listed, but the first Cert is not the signer's.
    const reordered = await signWithCerts([chain.intermediate, chain.leaf]);
    expect(verifyDianXml(reordered)).toMatchObject({ valid: false, code: 'xades', reason: expect.stringContaining('first SigningCertificate/Cert') });
    expect(xmlsec1Verify(reordered, chain.rootPem, [chain.intermediatePem]).ok).toBe(true);
    expect(await xadesjsVerify(reordered)).toMatchObject({ ok: false, reason: expect.stringContaining('SigningCertificate') });
  });

  it('refuses a chain entry that is not base64 DER', async () => {
    const r = await signDianXml(unsigned, { ...signer, chain: ['-----BEGIN CERTIFICATE-----'] }, { clock: () => new Date('2026-03-14T15:00:00Z') });
    expect(r).toMatchObject({ ok: false, code: 'signer_failed' });
  });
});

/** Signed with the DIAN profile but SigningCertificate listing `certificates` (in that order), KeyInfo the leaf. */
async function signWithCerts(certificates: string[]): Promise<string> {
  const profile = dianSignatureProfile(dianSignatureIds('r'), 'sha256', { signingTime: '2026-03-14T10:00:00-05:00', role: 'supplier' });
  const [first, ...rest] = certificates;
  return signXmlWithProfile(unsigned, { ...profile, objects: (context) => profile.objects!({ ...context, certificate: first!, chain: rest }) }, signer);
}
