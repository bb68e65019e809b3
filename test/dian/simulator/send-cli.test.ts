/**
 * `ecf dian send` and `ecf dian status` against the local DIAN over loopback HTTP, in process through the
 * dispatcher, with a .p12 made in memory: the operation follows the zip's document (invoice SendBillSync, with
 * --test-set SendTestSetAsync; event SendEventUpdateStatus; payroll SendNominaSync), answers print as JSON, exit
 * codes say accepted / rejected / usage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { buildDianPayroll } from '../../../src/dian/index.js';
import { createSelfSignedIdentity, signDianXml } from '../../../src/dian/sign/index.js';
import { startDianSimulator, type DianSimulator } from '../../../src/dian/simulator/index.js';
import { fakeIo } from '../../ecf/helpers/cli.js';
import { dianXsdDir } from '../helpers/env.js';
import { example, PAYROLL_CONTEXT } from '../payroll/fixtures.js';
import { BUYER, ISSUER, RANGE, signedEvent, signedInvoice, signer, zip1, zipOf } from './fixtures.js';

// The CLI stamps its WS-Security header with the system clock, so the simulator and the documents use it too.
const now = new Date();
const wire = createSelfSignedIdentity({ commonName: 'Cliente de prueba', serialNumber: ISSUER.nit });
const ENV = { WIRE_PW: wire.password };
let sim: DianSimulator;
let connection: string[];

beforeAll(async () => {
  const employer = (example('payroll-min').employer as { nit: string }).nit;
  sim = await startDianSimulator({
    xsdDir: dianXsdDir(),
    companies: [ISSUER, BUYER, { nit: employer, softwareId: PAYROLL_CONTEXT.software.id, pin: PAYROLL_CONTEXT.software.pin }],
    ranges: [RANGE],
    processingDelayMs: 0,
  });
  connection = ['--endpoint', sim.url, '--p12', 'wire.p12', '--password-env', 'WIRE_PW'];
});
afterAll(async () => {
  await sim.close();
});

async function cli(argv: string[], files: Record<string, Uint8Array> = {}) {
  const f = fakeIo({ 'wire.p12': wire.p12, ...files }, ENV);
  const code = await runCli(argv, f.io);
  const out = f.out();
  return { code, json: out.trim() ? JSON.parse(out) : null, err: f.err() };
}

describe('ecf dian send / status', () => {
  it('sends an invoice (SendBillSync), then finds it by CUFE; a resend is rejected with Regla 90 (exit 1)', async () => {
    const inv = await signedInvoice(990001001, undefined, now);
    const zip = { 'z1.zip': zip1(inv.xml) };
    const sent = await cli(['dian', 'send', ...connection, 'z1.zip'], zip);
    expect(sent.code, sent.err).toBe(0);
    expect(sent.json).toMatchObject({ isValid: true, statusCode: '00', xmlDocumentKey: inv.cufe });
    const status = await cli(['dian', 'status', ...connection, inv.cufe]);
    expect(status).toMatchObject({ code: 0, json: { isValid: true, xmlDocumentKey: inv.cufe } });
    const again = await cli(['dian', 'send', ...connection, 'z1.zip'], zip);
    expect(again.code).toBe(1);
    expect(again.json.messages.map((m: { rule: string }) => m.rule)).toEqual(['90']);
  });

  it('sends an event (SendEventUpdateStatus) and lists it with --events', async () => {
    const inv = await signedInvoice(990001002, undefined, now);
    expect((await cli(['dian', 'send', ...connection, 'i.zip'], { 'i.zip': zip1(inv.xml) })).code).toBe(0);
    const event = await signedEvent('030', inv);
    const sent = await cli(['dian', 'send', ...connection, 'e.zip'], { 'e.zip': zip1(event.xml, 'ar.xml') });
    expect(sent.code, JSON.stringify(sent.json)).toBe(0);
    const events = await cli(['dian', 'status', ...connection, '--events', inv.cufe]);
    expect(events.json.messages.map((m: { text: string }) => m.text).join(' ')).toContain('030');
  });

  it('sends a payroll document (SendNominaSync)', async () => {
    const built = buildDianPayroll('payroll', example('payroll-min'), PAYROLL_CONTEXT);
    if (!built.ok) throw new Error(JSON.stringify(built.issues));
    const signed = await signDianXml(built.xml, signer, { clock: () => now });
    if (!signed.ok) throw new Error(signed.message);
    const sent = await cli(['dian', 'send', ...connection, 'n.zip'], { 'n.zip': zip1(signed.xml, 'nie.xml') });
    expect(sent).toMatchObject({ code: 0, json: { isValid: true, xmlDocumentKey: built.codes.cune } });
  });

  it('ecf dian payroll send takes payroll only; ecf dian payroll status finds it by CUNE', async () => {
    const request = example('payroll-min');
    (request.sequence as { consecutive: number }).consecutive += 500;
    const built = buildDianPayroll('payroll', request, PAYROLL_CONTEXT);
    if (!built.ok) throw new Error(JSON.stringify(built.issues));
    const signed = await signDianXml(built.xml, signer, { clock: () => now });
    if (!signed.ok) throw new Error(signed.message);
    const sent = await cli(['dian', 'payroll', 'send', ...connection, 'n.zip'], { 'n.zip': zip1(signed.xml, 'nie.xml') });
    expect(sent).toMatchObject({ code: 0, json: { isValid: true, xmlDocumentKey: built.codes.cune } });
    expect(await cli(['dian', 'payroll', 'status', ...connection, built.codes.cune])).toMatchObject({ code: 0, json: { isValid: true } });
    const inv = await signedInvoice(990001004, undefined, now);
    const refused = await cli(['dian', 'payroll', 'send', ...connection, 'i.zip'], { 'i.zip': zip1(inv.xml) });
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('root Invoice');
  });

  it('a payroll test set goes by SendTestSetAsync; its verdict comes back by --zip-key and counts in the set', async () => {
    const employer = (example('payroll-min').employer as { nit: string }).nit;
    await fetch(`${sim.controlUrl}/companies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nit: employer, softwareId: PAYROLL_CONTEXT.software.id, pin: PAYROLL_CONTEXT.software.pin, testSetId: 'set-nomina' }),
    });
    const request = example('payroll-min');
    (request.sequence as { consecutive: number }).consecutive += 600;
    const built = buildDianPayroll('payroll', request, PAYROLL_CONTEXT);
    if (!built.ok) throw new Error(JSON.stringify(built.issues));
    const signed = await signDianXml(built.xml, signer, { clock: () => now });
    if (!signed.ok) throw new Error(signed.message);
    const sent = await cli(['dian', 'payroll', 'send', ...connection, '--test-set', 'set-nomina', 'n.zip'], { 'n.zip': zip1(signed.xml, 'nie.xml') });
    expect(sent.code, JSON.stringify(sent.json)).toBe(0);
    let verdicts = await cli(['dian', 'status', ...connection, '--zip-key', sent.json.zipKey]);
    for (let i = 0; i < 50 && verdicts.json[0]?.statusCode === '98'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      verdicts = await cli(['dian', 'status', ...connection, '--zip-key', sent.json.zipKey]);
    }
    expect(verdicts).toMatchObject({ code: 0, json: [{ isValid: true, xmlDocumentKey: built.codes.cune }] });
    const sets = (await (await fetch(`${sim.controlUrl}/test-sets`)).json()) as Record<string, { accepted: number }>;
    expect(sets['set-nomina']).toMatchObject({ accepted: 1 });
  });

  it('with --test-set sends SendTestSetAsync and reads the verdicts with --zip-key', async () => {
    const inv = await signedInvoice(990001003, undefined, now);
    const sent = await cli(['dian', 'send', ...connection, '--test-set', ISSUER.testSetId!, 't.zip'], { 't.zip': zip1(inv.xml) });
    expect(sent.code).toBe(0);
    const zipKey = sent.json.zipKey as string;
    let verdicts = await cli(['dian', 'status', ...connection, '--zip-key', zipKey]);
    for (let i = 0; i < 50 && verdicts.json[0]?.statusCode === '98'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      verdicts = await cli(['dian', 'status', ...connection, '--zip-key', zipKey]);
    }
    expect(verdicts).toMatchObject({ code: 0, json: [{ isValid: true, xmlDocumentKey: inv.cufe }] });
  });

  it('an unknown key is not valid (exit 1, StatusCode 90); usage and unreadable zips exit 2', async () => {
    expect(await cli(['dian', 'status', ...connection, 'f'.repeat(96)])).toMatchObject({ code: 1, json: { statusCode: '90' } });
    expect((await cli(['dian', 'send', ...connection])).code).toBe(2);
    expect((await cli(['dian', 'send', '--p12', 'wire.p12', '--password-env', 'WIRE_PW', 'x.zip'], { 'x.zip': zip1('<a/>') })).code).toBe(2);
    const two = zipOf({ name: 'a.xml', xml: '<a/>' }, { name: 'b.xml', xml: '<b/>' });
    const r = await cli(['dian', 'send', ...connection, 'two.zip'], { 'two.zip': two });
    expect(r.code).toBe(2);
    expect(r.err).toContain('holds 2 files');
    expect((await cli(['dian', 'send', ...connection, 'x.zip'], { 'x.zip': zip1('<a/>') })).code).toBe(2);
    expect((await cli(['dian', 'status', ...connection, '--wait', '--events', 'k'])).code).toBe(2);
  });

  it('a wrong .p12 password stops before anything is sent', async () => {
    const before = structuredClone(sim.stats().requests);
    const f = fakeIo({ 'wire.p12': wire.p12 }, { WIRE_PW: 'wrong' });
    expect(await runCli(['dian', 'status', ...connection, 'k'], f.io)).toBe(2);
    expect(f.err()).toContain('wire.p12');
    expect(sim.stats().requests).toEqual(before);
    expect(Object.values(before).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });
});
