/**
 * Contract of DIAN's request envelope (src/dian/transport/envelope.ts, dian-protocol.md §5.1–§5.2): for every
 * operation of the table, the SOAP 1.2 envelope carries its Action and To, the WS-Security header (timestamp,
 * X.509 token, signature over wsa:To with exclusive C14N and DIAN's PrefixLists), and the signature verifies
 * with xmlsec1 (an independent verifier, wsu:Id declared as an id) and with ours; tampering is refused by both.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseXmlStrictly } from '../../../src/shared/xml/strict-parser.js';
import { createSelfSignedIdentity } from '../../../src/shared/xmldsig/self-signed.js';
import {
  envelopeIds,
  signDianEnvelope,
  SOAP12_NS,
  unsignedDianEnvelope,
  verifyDianEnvelope,
  WSA_NS,
  WSSE_NS,
  WSU_NS,
} from '../../../src/dian/transport/envelope.js';
import { ACTION_PREFIX, DIAN_ENDPOINTS, DIAN_OPERATIONS, type DianOperation, WCF_NS } from '../../../src/dian/transport/operations.js';
import { requireTool, withTempDir } from '../../ecf/helpers/certs.js';

const identity = createSelfSignedIdentity({ commonName: 'Emisor de prueba', serialNumber: '900000001' });
const ids = envelopeIds('5f0c2a');
const created = new Date('2026-03-02T15:00:00Z');
const expires = new Date('2026-03-02T15:05:00Z');
const to = DIAN_ENDPOINTS['2'];

const PARAMS: Record<string, string> = {
  fileName: 'z0090000000010000000000000001.zip',
  contentFile: 'UEsDBBQAAAAIAA==',
  testSetId: '8b7c2b9e-1f0a-4c55-9a55-1c1b2d3e4f50',
  trackId: 'a'.repeat(96),
  accountCode: '900000001',
  accountCodeT: '900000001',
  softwareCode: '56f2ae4e-9812-4fad-9255-08fcfcd5ccb0',
};

async function signed(operation: DianOperation): Promise<string> {
  const params = Object.fromEntries(DIAN_OPERATIONS[operation].request.map((f) => [f, PARAMS[f]]));
  const unsigned = unsignedDianEnvelope(operation, params, { to, ids, created, expires, certificate: identity.signer.certificate });
  return signDianEnvelope(unsigned, identity.signer, ids);
}

/** xmlsec1 with wsu:Id declared as the id of wsa:To and the token's certificate as the key. */
function xmlsec1(xml: string): { ok: boolean; output: string } {
  requireTool('xmlsec1');
  return withTempDir((dir) => {
    writeFileSync(join(dir, 'envelope.xml'), xml);
    writeFileSync(join(dir, 'cert.pem'), identity.certificatePem);
    const r = spawnSync(
      'xmlsec1',
      ['--verify', '--insecure', '--pubkey-cert-pem', join(dir, 'cert.pem'), '--id-attr:Id', `${WSA_NS}:To`, join(dir, 'envelope.xml')],
      { encoding: 'utf8' },
    );
    return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
  });
}

function el(xml: string, ns: string, local: string) {
  return parseXmlStrictly(xml).doc!.getElementsByTagNameNS(ns, local);
}

describe('DIAN request envelope', () => {
  for (const operation of Object.keys(DIAN_OPERATIONS) as DianOperation[]) {
    it(`${operation}: Action, To, body children in order, and a signature xmlsec1 and ours verify`, async () => {
      const xml = await signed(operation);
      expect(el(xml, WSA_NS, 'Action').item(0)!.textContent).toBe(`${ACTION_PREFIX}${operation}`);
      const toEl = el(xml, WSA_NS, 'To').item(0)!;
      expect(toEl.textContent).toBe(to);
      expect(toEl.getAttributeNS(WSU_NS, 'Id')).toBe(ids.to);
      const call = el(xml, WCF_NS, operation).item(0)!;
      expect(call.parentNode!.localName).toBe('Body');
      expect(call.parentNode!.namespaceURI).toBe(SOAP12_NS);
      const children = [];
      for (let n = call.firstChild; n; n = n.nextSibling) children.push((n as unknown as { localName: string }).localName);
      expect(children).toEqual([...DIAN_OPERATIONS[operation].request]);
      const external = xmlsec1(xml);
      expect(external.ok, external.output).toBe(true);
      expect(verifyDianEnvelope(xml)).toMatchObject({
        valid: true,
        certificate: identity.signer.certificate,
        action: `${ACTION_PREFIX}${operation}`,
        created,
        expires,
      });
    });
  }

  it('writes the WS-Security header DIAN expects: timestamp, X.509 token, one reference to wsa:To with exclusive C14N', async () => {
    const xml = await signed('SendBillSync');
    const security = el(xml, WSSE_NS, 'Security').item(0)!;
    const names: string[] = [];
    for (let n = security.firstChild; n; n = n.nextSibling) names.push((n as unknown as { localName: string }).localName);
    expect(names).toEqual(['Timestamp', 'BinarySecurityToken', 'Signature']);
    expect(el(xml, WSU_NS, 'Created').item(0)!.textContent).toBe('2026-03-02T15:00:00.000Z');
    expect(el(xml, WSSE_NS, 'BinarySecurityToken').item(0)!.textContent).toBe(identity.signer.certificate);
    expect(xml).toContain('<ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"><ec:InclusiveNamespaces');
    expect(xml).toContain('PrefixList="wsa soap wcf"');
    expect(xml).toContain(`<ds:Reference URI="#${ids.to}"><ds:Transforms><ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#">`);
    expect(xml).toContain('PrefixList="soap wcf"');
    expect(xml).toContain(`<wsse:Reference URI="#${ids.token}"`);
  });

  it('signs the same request with the same ids and times to the same bytes', async () => {
    expect(await signed('GetStatus')).toBe(await signed('GetStatus'));
  });

  it('escapes values (a file name cannot inject elements)', async () => {
    const unsigned = unsignedDianEnvelope('GetStatus', { trackId: 'a<b>&"' }, { to, ids, created, expires, certificate: identity.signer.certificate });
    expect(el(unsigned, WCF_NS, 'trackId').item(0)!.textContent).toBe('a<b>&"');
  });

  describe('refuses tampering (ours and xmlsec1 agree)', () => {
    // xmlsec1 is given the key from outside (it does not follow a SecurityTokenReference), so the swapped token is ours alone
    const attacks: Array<[string, (xml: string) => string, string, boolean]> = [
      ['another endpoint in wsa:To', (x) => x.replace(`>${to}</wsa:To>`, '>https://evil.example/x.svc</wsa:To>'), 'digest_mismatch', true],
      ['a changed SignedInfo PrefixList', (x) => x.replace('PrefixList="wsa soap wcf"', 'PrefixList="wsa soap"'), 'bad_signature', true],
      ['a token that is another certificate', (x) => x.replace(identity.signer.certificate, other.signer.certificate), 'bad_signature', false],
    ];
    const other = createSelfSignedIdentity({ commonName: 'Otro', serialNumber: '800000001' });
    for (const [name, attack, code, external] of attacks) {
      it(name, async () => {
        const tampered = attack(await signed('SendBillSync'));
        expect(verifyDianEnvelope(tampered)).toMatchObject({ valid: false, code });
        if (external) expect(xmlsec1(tampered).ok).toBe(false);
      });
    }

    it('a second element carrying the signed wsu:Id, or a second wsa:To (wrapping), is refused', async () => {
      const xml = await signed('SendBillSync');
      const copy = `<wsa:To xmlns:wsu="${WSU_NS}" wsu:Id="${ids.to}">${to}</wsa:To>`;
      const inBody = xml.replace('<soap:Body>', `<soap:Body><x xmlns:wsu="${WSU_NS}" wsu:Id="${ids.to}"/>`);
      expect(verifyDianEnvelope(inBody)).toMatchObject({ valid: false, code: 'unsupported' });
      const twoTos = xml.replace('</soap:Header>', `${copy.replace(ids.to, 'other')}</soap:Header>`);
      expect(verifyDianEnvelope(twoTos)).toMatchObject({ valid: false, code: 'unsupported' });
    });

    it('a signature outside wsse:Security, or none, is refused', async () => {
      const xml = await signed('SendBillSync');
      const signature = xml.slice(xml.indexOf('<ds:Signature'), xml.indexOf('</ds:Signature>') + '</ds:Signature>'.length);
      const moved = xml.replace(signature, '').replace('<soap:Body>', `<soap:Body>${signature}`);
      expect(verifyDianEnvelope(moved)).toMatchObject({ valid: false, code: 'unsupported' });
      expect(verifyDianEnvelope(xml.replace(signature, ''))).toMatchObject({ valid: false, code: 'no_signature' });
    });
  });
});
