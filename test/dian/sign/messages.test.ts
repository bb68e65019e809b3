/**
 * Spanish messages of verifyDianXml for API clients: one per failure code, and each attack on a signed document
 * yields its code with that message (the English `reason` stays for logs).
 */
import { describe, expect, it } from 'vitest';
import { buildDianXml } from '../../../src/dian/index.js';
import {
  createSelfSignedIdentity,
  DIAN_VERIFY_MESSAGES,
  dianSignatureIds,
  dianSignatureProfile,
  dianVerifyMessage,
  signDianXml,
  verifyDianXml,
  type DianVerifyFailure,
} from '../../../src/dian/sign/index.js';
import { signXmlWithProfile } from '../../../src/shared/xmldsig/xmldsig-sign.js';
import { CONTEXT } from '../helpers/build-fixtures.js';
import { minimalDianRequest } from '../helpers/requests.js';

const identity = createSelfSignedIdentity({ commonName: 'Proveedor de prueba' });
const built = buildDianXml('invoice', minimalDianRequest('invoice'), CONTEXT);
if (!built.ok) throw new Error(JSON.stringify(built.issues));
const unsigned = built.xml;

async function attacks(): Promise<Array<[DianVerifyFailure, string, string]>> {
  const r = await signDianXml(unsigned, identity.signer, { clock: () => new Date('2024-05-10T15:00:00Z'), newId: () => 'm' });
  if (!r.ok) throw new Error(r.message);
  const signed = r.xml;
  const start = signed.indexOf('<ds:Signature ');
  const end = signed.indexOf('</ds:Signature>') + '</ds:Signature>'.length;
  const signature = signed.slice(start, end);
  const value = signed.match(/<ds:SignatureValue[^>]*>(.)/)!;
  const policy = dianSignatureProfile(dianSignatureIds('p'), 'sha256', {
    signingTime: '2024-05-10T10:00:00-05:00',
    role: 'supplier',
    policyUrl: 'https://example.com/policy.pdf',
  });
  return [
    ['not_well_formed', 'truncated', signed.slice(0, 200)],
    ['no_signature', 'unsigned', unsigned],
    ['multiple_signatures', 'signature twice', signed.slice(0, end) + signature + signed.slice(end)],
    ['wrong_reference_uri', 'document reference to an Id', signed.replace(' URI=""', ' URI="#m"')],
    ['no_certificate', 'X509Data removed', signed.replace(/<ds:X509Data>.*?<\/ds:X509Data>/, '')],
    ['digest_mismatch', 'content altered', signed.replace('<cbc:ID>SETP990000001<', '<cbc:ID>SETP990000002<')],
    ['bad_signature', 'SignatureValue altered', signed.replace(value[0], value[0].slice(0, -1) + (value[1] === 'A' ? 'B' : 'A'))],
    ['unsupported', 'Signature moved', (signed.slice(0, start) + signed.slice(end)).replace('<cbc:UBLVersionID>', `${signature}<cbc:UBLVersionID>`)],
    ['unsupported', 'DOCTYPE', signed.replace(/^(<\?xml[^>]*\?>)?/, (d) => `${d}<!DOCTYPE Invoice>`)],
    ['xades', 'another policy', await signXmlWithProfile(unsigned, policy, identity.signer)],
  ];
}

describe('Spanish verification messages', () => {
  it('every failure code has a Spanish message that names what failed', () => {
    const codes = Object.keys(DIAN_VERIFY_MESSAGES) as DianVerifyFailure[];
    expect(codes.sort()).toEqual(
      [
        'bad_signature',
        'digest_mismatch',
        'multiple_signatures',
        'no_certificate',
        'no_signature',
        'not_well_formed',
        'unsupported',
        'wrong_reference_uri',
        'xades',
      ].sort(),
    );
    const messages = codes.map(dianVerifyMessage);
    expect(new Set(messages).size).toBe(codes.length);
    for (const m of messages) expect(m).toMatch(/^(El|La|Las) .*(firma|documento|XML).*\.$/);
  });

  it('each attack yields its code, the English reason and the Spanish message', async () => {
    const cases = await attacks();
    expect(new Set(cases.map(([code]) => code)).size).toBe(Object.keys(DIAN_VERIFY_MESSAGES).length);
    for (const [code, name, xml] of cases) {
      const r = verifyDianXml(xml);
      expect(r, name).toMatchObject({ valid: false, code, message: dianVerifyMessage(code) });
      expect(r.reason, name).toMatch(/^[A-Z]/);
      expect(r.reason, name).not.toBe(r.message);
    }
  });

  it('a valid signature carries no message', async () => {
    const r = await signDianXml(unsigned, identity.signer, { clock: () => new Date('2024-05-10T15:00:00Z') });
    expect(r.ok && verifyDianXml(r.xml)).toEqual({ valid: true, certificate: identity.signer.certificate });
  });
});
