/**
 * `ecf dian attach`, in process through the dispatcher, with a .p12 made in memory (never committed): the signed
 * AttachedDocument with DIAN's response and without it (contingency), its embedded documents byte for byte, the
 * signature verified by ours and xmlsec1, the official XSD, a tampered document refused, and the usage exits.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { buildDianEvent, buildDianXml, readUbl } from '../../../src/dian/index.js';
import { at, textAt } from '../../../src/dian/ubl/tree.js';
import { createSelfSignedIdentity, signDianXml, verifyDianXml } from '../../../src/dian/sign/index.js';
import { createDianSchemaValidator } from '../../../src/dian/xsd/index.js';
import { fakeIo } from '../../ecf/helpers/cli.js';
import { CONTEXT } from '../helpers/build-fixtures.js';
import { dianXsdDir } from '../helpers/env.js';
import { minimalDianRequest } from '../helpers/requests.js';
import { unsignedDianResponse } from '../helpers/response.js';
import { xmlsec1Verify } from './xmlsec.js';
import { EVENT_CONTEXT, eventRequest } from '../events/fixtures.js';

const identity = createSelfSignedIdentity({ commonName: 'Proveedor de prueba', serialNumber: '900000001' });
const dian = createSelfSignedIdentity({ commonName: 'DIAN de prueba' });
const validator = createDianSchemaValidator(dianXsdDir());
const clock = { clock: () => new Date('2026-11-24T15:00:00Z') };

async function signed(xml: string, signer = identity.signer): Promise<string> {
  const r = await signDianXml(xml, signer, clock);
  if (!r.ok) throw new Error(r.message);
  return r.xml;
}

const built = buildDianXml('invoice', minimalDianRequest('invoice'), CONTEXT);
if (!built.ok) throw new Error(JSON.stringify(built.issues));
const documentPromise = signed(built.xml);
const responsePromise = signed(unsignedDianResponse(), dian.signer);
const ENV = { DIAN_P12_PW: identity.password };
const KEY = ['--p12', 'cert.p12', '--password-env', 'DIAN_P12_PW'];

const work = mkdtempSync(join(tmpdir(), 'ecf-dian-attach-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function cli(argv: string[], extra: Record<string, string | Uint8Array> = {}) {
  const files = { 'cert.p12': identity.p12, 'signed.xml': await documentPromise, 'response.xml': await responsePromise, ...extra };
  const f = fakeIo(files, ENV, { disk: true });
  const code = await runCli(argv, f.io);
  return { code, out: f.out(), err: f.err() };
}

function root(xml: string) {
  const r = readUbl(xml);
  if (!r.ok) throw new Error(r.message);
  return r.root;
}

describe('ecf dian attach', () => {
  it('builds and signs the AttachedDocument with the response; both documents ride byte for byte', async () => {
    const r = await cli(['dian', 'attach', '--document', 'signed.xml', '--response', 'response.xml', ...KEY]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe('');
    expect(verifyDianXml(r.out)).toEqual({ valid: true, certificate: identity.signer.certificate });
    const x = xmlsec1Verify(r.out, identity.certificatePem);
    expect(x.ok, x.output).toBe(true);
    expect(validator.validate(r.out, 'AttachedDocument')).toEqual({ valid: true, violations: [] });
    const container = root(r.out);
    expect(textAt(container, 'cbc:ID')).toBe('SETP990000001');
    expect(textAt(container, 'cbc:ProfileExecutionID')).toBe('2');
    expect(textAt(container, 'cbc:IssueDate')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(textAt(container, 'cbc:IssueTime')).toMatch(/^\d{2}:\d{2}:\d{2}-05:00$/);
    expect(at(container, 'cac:Attachment/cac:ExternalReference/cbc:Description')?.text).toBe(await documentPromise);
    const embedded = at(container, 'cac:ParentDocumentLineReference/cac:DocumentReference/cac:Attachment/cac:ExternalReference/cbc:Description')?.text;
    expect(embedded).toBe(await responsePromise);
    expect(verifyDianXml(embedded!)).toMatchObject({ valid: true, certificate: dian.signer.certificate });
  });

  it('an event (ApplicationResponse 031) gets its container too: the event and DIAN’s answer, parties from the event', async () => {
    const ev = buildDianEvent(eventRequest('031'), EVENT_CONTEXT, { prefix: 'EV' });
    if (!ev.ok) throw new Error(JSON.stringify(ev.issues));
    const event = await signed(ev.xml);
    const r = await cli(['dian', 'attach', '--document', 'event.xml', '--response', 'response.xml', ...KEY], { 'event.xml': event });
    expect(r.code, r.err).toBe(0);
    const x = xmlsec1Verify(r.out, identity.certificatePem);
    expect(x.ok, x.output).toBe(true);
    expect(validator.validate(r.out, 'AttachedDocument')).toEqual({ valid: true, violations: [] });
    const container = root(r.out);
    expect(textAt(container, 'cbc:ID')).toBe('EV7');
    expect(at(container, 'cac:Attachment/cac:ExternalReference/cbc:Description')?.text).toBe(event);
    expect(textAt(container, 'cac:SenderParty/cac:PartyTaxScheme/cbc:CompanyID')).toBe(textAt(root(event), 'cac:SenderParty/cac:PartyTaxScheme/cbc:CompanyID'));
  });

  it('without --response builds the contingency container, with --id, --environment, role, digest and --out', async () => {
    const out = join(work, 'attached.xml');
    const r = await cli([
      'dian',
      'attach',
      '--document',
      'signed.xml',
      '--id',
      'AD-77',
      '--environment',
      '1',
      '--role',
      'third-party',
      '--digest',
      'sha384',
      '--out',
      out,
      ...KEY,
    ]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^attached: signed\.xml \(no DIAN response\) → .*attached\.xml \(xmldsig-[^)]+\)\n$/);
    const xml = readFileSync(out, 'utf8');
    const container = root(xml);
    expect(textAt(container, 'cbc:ID')).toBe('AD-77');
    expect(textAt(container, 'cbc:ProfileExecutionID')).toBe('1');
    expect(at(container, 'cac:ParentDocumentLineReference')).toBeUndefined();
    expect(xml).toContain('<xades:ClaimedRole>third party</xades:ClaimedRole>');
    expect(xml).toContain('xmldsig-more#sha384');
    expect(verifyDianXml(xml)).toMatchObject({ valid: true });
    expect(validator.validate(xml, 'AttachedDocument')).toEqual({ valid: true, violations: [] });
  });

  it('refuses a document whose signature does not verify, and a response that is not an ApplicationResponse (exit 1)', async () => {
    const tampered = (await documentPromise).replace('<cbc:ID>SETP990000001<', '<cbc:ID>SETP990000002<');
    const t = await cli(['dian', 'attach', '--document', 'tampered.xml', ...KEY], { 'tampered.xml': tampered });
    expect(t.code).toBe(1);
    expect(t.out).toBe('');
    expect(t.err).toMatch(/^ecf dian attach: tampered\.xml: the document's signature does not verify \(digest_mismatch\)/);
    const w = await cli(['dian', 'attach', '--document', 'signed.xml', '--response', 'signed.xml', ...KEY]);
    expect(w.code).toBe(1);
    expect(w.err).toMatch(/La respuesta de la DIAN debe ser un ApplicationResponse, no Invoice/);
  });

  it('exits 2 on usage problems and unreadable files', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['dian', 'attach', ...KEY], /missing --document/],
      [['dian', 'attach', '--document', 'signed.xml', '--password-env', 'DIAN_P12_PW'], /missing --p12/],
      [['dian', 'attach', '--document', 'signed.xml', '--p12', 'cert.p12'], /missing the \.p12 password/],
      [['dian', 'attach', '--document', 'signed.xml', '--environment', '3', ...KEY], /--environment must be 1/],
      [['dian', 'attach', '--document', 'signed.xml', '--role', 'buyer', ...KEY], /--role must be supplier or third-party/],
      [['dian', 'attach', '--document', 'signed.xml', '--digest', 'sha1', ...KEY], /--digest must be sha256 or sha384/],
      [['dian', 'attach', '--document', 'signed.xml', '--bogus', 'x', ...KEY], /unknown option\(s\): --bogus/],
      [['dian', 'attach', '--document', 'signed.xml', 'extra.xml', ...KEY], /unexpected argument/],
      [['dian', 'attach', '--document', join(work, 'missing.xml'), ...KEY], /cannot read .*missing\.xml/],
      [['dian', 'attach', '--document', 'signed.xml', '--response', join(work, 'none.xml'), ...KEY], /cannot read .*none\.xml/],
      [['dian', 'attach', '--document', 'signed.xml', '--p12', join(work, 'missing.p12'), '--password-env', 'DIAN_P12_PW'], /cannot read .*missing\.p12/],
    ];
    for (const [argv, re] of cases) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toMatch(re);
      expect(r.out, argv.join(' ')).toBe('');
    }
  });
});
