/**
 * Events against the official ApplicationResponse XSD, unsigned and signed; signed events verify with
 * verifyDianXml, xmlsec1 and xadesjs (two independent verifiers); a fixed clock and id source give the same bytes twice.
 */
import { describe, expect, it } from 'vitest';
import { buildDianEvent, checkDianRulesXml, computeDocumentCodes, readUbl } from '../../../src/dian/index.js';
import { createSelfSignedIdentity, signDianXml, verifyDianXml } from '../../../src/dian/sign/index.js';
import { createDianSchemaValidator, detectDianSchemaId } from '../../../src/dian/xsd/index.js';
import { dianXsdDir } from '../helpers/env.js';
import { xadesjsVerify } from '../sign/xadesjs.js';
import { xmlsec1Verify } from '../sign/xmlsec.js';
import { EVENT_CONTEXT, EVENT_REQUESTS, NOW } from './fixtures.js';

const validator = createDianSchemaValidator(dianXsdDir());
const identity = createSelfSignedIdentity({ commonName: 'Adquiriente de prueba' });

function unsigned(request: unknown): string {
  const r = buildDianEvent(request, EVENT_CONTEXT, { prefix: 'EV' });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.xml;
}

async function signed(xml: string, role: 'supplier' | 'third party' = 'supplier'): Promise<string> {
  const r = await signDianXml(xml, identity.signer, { clock: () => NOW, newId: () => 'evento-1', role });
  if (!r.ok) throw new Error(r.message);
  return r.xml;
}

describe('events and the ApplicationResponse XSD', () => {
  it.each(EVENT_REQUESTS)('%s: unsigned is valid (signature place filled in memory), signed is valid as sent', async (_code, request) => {
    const xml = unsigned(request);
    expect(detectDianSchemaId(xml)).toBe('ApplicationResponse');
    expect(validator.validate(xml, 'ApplicationResponse', { unsigned: true })).toEqual({ valid: true, violations: [] });
    expect(validator.validate(xml, 'ApplicationResponse').valid).toBe(false); // the empty ExtensionContent
    const s = await signed(xml);
    expect(validator.validate(s, 'ApplicationResponse')).toEqual({ valid: true, violations: [] });
  });

  it('a misplaced element is refused by the XSD (the order the builder writes matters)', () => {
    const xml = unsigned(EVENT_REQUESTS[0]![1]);
    const swapped = xml.replace(/(<cbc:IssueDate>[^<]*<\/cbc:IssueDate>)(<cbc:IssueTime>[^<]*<\/cbc:IssueTime>)/, '$2$1');
    expect(swapped).not.toBe(xml);
    expect(validator.validate(swapped, 'ApplicationResponse', { unsigned: true }).valid).toBe(false);
  });
});

describe('signing events', () => {
  it.each(EVENT_REQUESTS)(
    '%s: verifies with verifyDianXml, xmlsec1 and xadesjs; only the signature is added; the CUDE still recomputes',
    async (_code, request) => {
      const xml = unsigned(request);
      const s = await signed(xml);
      expect(verifyDianXml(s)).toMatchObject({ valid: true, certificate: identity.signer.certificate });
      const x = xmlsec1Verify(s, identity.certificatePem);
      expect(x.ok, x.output).toBe(true);
      const peer = await xadesjsVerify(s);
      expect(peer.ok, peer.ok ? '' : peer.reason).toBe(true);
      const tampered = await xadesjsVerify(s.replace('</cbc:IssueDate>', '</cbc:IssueDate><cbc:Note>x</cbc:Note>'));
      expect(tampered.ok).toBe(false);
      const start = s.indexOf('<ds:Signature ');
      const end = s.indexOf('</ds:Signature>') + '</ds:Signature>'.length;
      expect(s.slice(0, start) + s.slice(end)).toBe(xml);
      const tree = readUbl(s);
      if (!tree.ok) throw new Error(tree.message);
      expect(computeDocumentCodes(tree.root, { pin: EVENT_CONTEXT.software.pin })).toMatchObject({ ok: true, matches: true });
    },
  );

  it('a provider signing for the company claims the third-party role', async () => {
    const s = await signed(unsigned(EVENT_REQUESTS[1]![1]), 'third party');
    expect(s).toContain('<xades:ClaimedRole>third party</xades:ClaimedRole>');
    expect(verifyDianXml(s).valid).toBe(true);
  });

  it('signing twice with a fixed clock and id source gives identical bytes; a tampered event is refused', async () => {
    const xml = unsigned(EVENT_REQUESTS[4]![1]);
    const a = await signed(xml);
    expect(await signed(xml)).toBe(a);
    expect(a).toContain('<xades:SigningTime>2024-05-10T10:00:00-05:00</xades:SigningTime>');
    // DIAN's AAD09e: the event's date is its signing date; one signed the next Bogotá day is refused
    expect(checkDianRulesXml(a, { today: '2024-05-10' }).filter((f) => f.kind === 'Rechazo')).toEqual([]);
    const late = await signDianXml(xml, identity.signer, { clock: () => new Date('2024-05-11T06:00:00Z'), newId: () => 'evento-1' });
    if (!late.ok) throw new Error(late.message);
    expect(checkDianRulesXml(late.xml, { today: '2024-05-11' }).map((f) => f.rule)).toContain('AAD09e');
    const tampered = a.replace('<cbc:ResponseCode>034<', '<cbc:ResponseCode>033<');
    expect(tampered).not.toBe(a);
    expect(verifyDianXml(tampered).valid).toBe(false);
  });
});
