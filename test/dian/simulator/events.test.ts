/**
 * Events on the local DIAN (SendEventUpdateStatus) and its persistence: 030 accepted and listed by GetStatusEvent,
 * a repeated event refused with LGC01, roles and order from the event table, the invoice must exist, the event CUDE
 * recomputed with the sender's PIN; a restart on the same dataDir keeps documents, events and pending zips.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDianApplicationResponse } from '../../../src/dian/index.js';
import { verifyDianXml } from '../../../src/dian/sign/index.js';
import { startDianSimulator, type DianSimulator } from '../../../src/dian/simulator/index.js';
import { dianXsdDir } from '../helpers/env.js';
import { BUYER, BUYER_NIT, client, clock, ISSUER, RANGE, signedEvent, signedInvoice, zip1 } from './fixtures.js';

let sim: DianSimulator;
const dir = mkdtempSync(join(tmpdir(), 'dian-sim-'));

beforeAll(async () => {
  sim = await startDianSimulator({ xsdDir: dianXsdDir(), clock, companies: [ISSUER, BUYER], ranges: [RANGE], dataDir: dir, processingDelayMs: 20 });
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

async function accepted(number: number) {
  const inv = await signedInvoice(number);
  const dian = client(sim.url);
  const r = await dian.sendBillSync('z.zip', zip1(inv.xml));
  await dian.close();
  expect(r.isValid).toBe(true);
  return inv;
}

const rules = (r: { messages: { rule: string | null; kind: string | null }[] }) => r.messages.filter((m) => m.kind === 'Rechazo').map((m) => m.rule);

describe('local DIAN: events', () => {
  it('030 is accepted with a signed 02 answer about the event; the same event again is LGC01', async () => {
    const inv = await accepted(990000401);
    const dian = client(sim.url);
    const ev = await signedEvent('030', inv);
    const r = await dian.sendEventUpdateStatus(zip1(ev.xml, 'ar.xml'));
    expect(r).toMatchObject({ isValid: true, statusCode: '00', xmlDocumentKey: ev.cude });
    const ar = Buffer.from(r.xmlBase64Bytes!, 'base64').toString('utf8');
    expect(verifyDianXml(ar).valid).toBe(true);
    expect(parseDianApplicationResponse(ar)).toMatchObject({ ok: true, isValid: true, documentKey: ev.cude, receiverId: BUYER_NIT });
    const again = await dian.sendEventUpdateStatus(zip1((await signedEvent('030', inv, 2)).xml, 'ar.xml'));
    expect(again.isValid).toBe(false);
    expect(rules(again)).toEqual(['LGC01']);
    expect((await dian.getStatusEvent(inv.cufe)).messages).toHaveLength(1);
    expect(await dian.getStatus(ev.cude)).toMatchObject({ isValid: true, xmlDocumentKey: ev.cude });
    await dian.close();
  });

  it('034 must come from the issuer to DIAN: addressed to the buyer it is refused (SIMROL01)', async () => {
    const inv = await accepted(990000402);
    const dian = client(sim.url);
    const wrong = await signedEvent('034', inv, 1, (xml) => {
      const at = xml.indexOf('<cac:ReceiverParty>');
      return xml.slice(0, at) + xml.slice(at).replace('800197268', BUYER_NIT);
    });
    const r = await dian.sendEventUpdateStatus(zip1(wrong.xml, 'ar.xml'));
    expect(r.isValid).toBe(false);
    expect(rules(r)).toContain('SIMROL01');
    const right = await dian.sendEventUpdateStatus(zip1((await signedEvent('034', inv, 2)).xml, 'ar.xml'));
    expect(right).toMatchObject({ isValid: true, statusCode: '00' });
    await dian.close();
  });

  it('032 before 030 is refused (order); an event on an invoice DIAN does not hold is NOTREFPLGNS; a CUDE with another PIN is AAD06', async () => {
    const inv = await accepted(990000403);
    const dian = client(sim.url);
    expect(rules(await dian.sendEventUpdateStatus(zip1((await signedEvent('032', inv)).xml, 'ar.xml')))).toEqual(['SIMORD01']);
    const ghost = { id: 'SETP990000999', cufe: 'e'.repeat(96) };
    expect(rules(await dian.sendEventUpdateStatus(zip1((await signedEvent('030', ghost)).xml, 'ar.xml')))).toEqual(['NOTREFPLGNS']);
    sim.addCompany({ ...BUYER, pin: '99999' });
    try {
      expect(rules(await dian.sendEventUpdateStatus(zip1((await signedEvent('030', inv)).xml, 'ar.xml')))).toEqual(['AAD06']);
    } finally {
      sim.addCompany(BUYER);
    }
    await dian.close();
  });
});

describe('local DIAN: persistence', () => {
  it('a restart on the same dataDir keeps documents and events, and processes a zip left pending', async () => {
    const inv = await accepted(990000501);
    let dian = client(sim.url);
    await dian.sendEventUpdateStatus(zip1((await signedEvent('030', inv)).xml, 'ar.xml'));
    const pending = await signedInvoice(990000502);
    const up = await dian.sendBillAsync('z.zip', zip1(pending.xml));
    await dian.close();
    await sim.close();
    const saved = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { zips: Record<string, { verdicts: unknown }> };
    expect(saved.zips[up.zipKey!]!.verdicts).toBeNull();

    sim = await startDianSimulator({ xsdDir: dianXsdDir(), clock, dataDir: dir, processingDelayMs: 20 });
    dian = client(sim.url);
    expect(await dian.getStatus(inv.cufe)).toMatchObject({ isValid: true, statusCode: '00' });
    expect((await dian.getStatusEvent(inv.cufe)).messages).toHaveLength(1);
    expect((await dian.getNumberingRange(ISSUER.nit, ISSUER.nit, ISSUER.softwareId)).ranges).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 100));
    expect((await dian.getStatusZip(up.zipKey!)).map((v) => v.statusCode)).toEqual(['00']);
    expect((await dian.sendBillSync('z.zip', zip1(inv.xml))).messages.map((m) => m.rule)).toEqual(['90']);
    await dian.close();
  });
});
