/**
 * The local DIAN's protocol over real loopback HTTP with the DIAN client: WS-Security refusals (garbled signature,
 * unsigned, expired, from the future, wrong Action, unknown operation), every operation of DIAN_OPERATIONS answered
 * in the shape the client reads, the outage switch, a lost answer resolved by GetStatus, the control API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDianSimulator, type DianSimulator } from '../../../src/dian/simulator/index.js';
import {
  createDianClient,
  DIAN_OPERATIONS,
  isAuthorityError,
  isTransportError,
  readDianAnswer,
  type DianOperation,
} from '../../../src/dian/transport/index.js';
import { envelopeIds, signDianEnvelope, unsignedDianEnvelope } from '../../../src/dian/transport/envelope.js';
import { dianXsdDir } from '../helpers/env.js';
import { BUYER, client, clock, ISSUER, NOW, RANGE, signedEvent, signedInvoice, signer, zip1 } from './fixtures.js';

let sim: DianSimulator;

beforeAll(async () => {
  sim = await startDianSimulator({ xsdDir: dianXsdDir(), clock, companies: [ISSUER, BUYER], ranges: [RANGE], processingDelayMs: 30, seed: 7 });
});
afterAll(async () => {
  await sim.close();
});

async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
}

async function post(body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(sim.url, { method: 'POST', headers: { 'content-type': 'application/soap+xml; charset=utf-8' }, body });
  return { status: res.status, text: await res.text() };
}

const envelopeOptions = (created = NOW) => ({
  to: sim.url,
  ids: envelopeIds('t1'),
  created,
  expires: new Date(created.getTime() + 300_000),
  certificate: signer.certificate,
});

describe('local DIAN: WS-Security and the SOAP envelope', () => {
  it('a garbled signature is a Sender fault wsse:InvalidSecurity, which the client reads as AuthorityError unauthorized', async () => {
    const garbled = { certificate: signer.certificate, sign: async (d: Uint8Array) => (await signer.sign(d)).map((b) => b ^ 0xff) };
    const dian = createDianClient({ signer: garbled, endpoint: sim.url, retries: 2, backoffMs: 1, clock, sleep: async () => {} });
    const e = await failure(dian.getStatus('a'.repeat(96)));
    await dian.close();
    expect(isAuthorityError(e) && [e.code, e.status]).toEqual(['unauthorized', 500]);
  });

  it('an unsigned envelope is refused with HTTP 500 and a SOAP 1.2 Sender fault InvalidSecurity', async () => {
    const r = await post(unsignedDianEnvelope('GetStatus', { trackId: 'x' }, envelopeOptions()));
    expect(r.status).toBe(500);
    const read = readDianAnswer('GetStatus', r.text);
    expect(read.kind === 'fault' && [read.fault.code, read.fault.subcode]).toEqual(['s:Sender', 'a:InvalidSecurity']);
  });

  it('an expired timestamp, and one from the future beyond the skew, are MessageExpired (client: unauthorized)', async () => {
    for (const offset of [-3_600_000, 3_600_000]) {
      const dian = client(sim.url, { clockOffsetMs: offset });
      const e = await failure(dian.getStatus('a'.repeat(96)));
      await dian.close();
      expect(isAuthorityError(e) && e.code).toBe('unauthorized');
      expect(isAuthorityError(e) && e.mensajes[0]!.codigo).toBe('a:MessageExpired');
    }
    expect(sim.stats().refused.expired).toBeGreaterThanOrEqual(2);
  });

  it('an Action that is not the Body operation, and an unknown operation, are Sender faults', async () => {
    const ids = envelopeIds('t2');
    const wrongAction = unsignedDianEnvelope('GetStatus', { trackId: 'x' }, { ...envelopeOptions(), ids }).replace(
      '/IWcfDianCustomerServices/GetStatus<',
      '/IWcfDianCustomerServices/GetStatusZip<',
    );
    const r1 = await post(await signDianEnvelope(wrongAction, signer, ids));
    const read1 = readDianAnswer('GetStatus', r1.text);
    expect([r1.status, read1.kind === 'fault' && read1.fault.subcode]).toEqual([500, 'a:ActionMismatch']);
    const unknown = unsignedDianEnvelope('GetStatus', { trackId: 'x' }, { ...envelopeOptions(), ids }).replaceAll('wcf:GetStatus>', 'wcf:GetTaxPayer>');
    const r2 = await post(await signDianEnvelope(unknown, signer, ids));
    const read2 = readDianAnswer('GetStatus', r2.text);
    expect([r2.status, read2.kind === 'fault' && read2.fault.code]).toEqual([500, 's:Sender']);
  });
});

describe('local DIAN: every operation answers in the shape the client reads', () => {
  it('covers each row of DIAN_OPERATIONS', async () => {
    const dian = client(sim.url);
    const inv = await signedInvoice(990000101);
    const seen = new Set<DianOperation>();
    const track = <T>(op: DianOperation, p: Promise<T>) =>
      p.then((v) => {
        seen.add(op);
        return v;
      });

    expect(await track('SendBillSync', dian.sendBillSync('z.zip', zip1(inv.xml)))).toMatchObject({ isValid: true, statusCode: '00' });
    expect(await track('GetStatus', dian.getStatus(inv.cufe))).toMatchObject({ statusCode: '00', xmlDocumentKey: inv.cufe });
    expect(await track('GetStatus', dian.getStatus('f'.repeat(96)))).toMatchObject({ isValid: false, statusCode: '90' });

    const ranges = await track('GetNumberingRange', dian.getNumberingRange(ISSUER.nit, ISSUER.nit, ISSUER.softwareId));
    expect(ranges).toMatchObject({
      operationCode: '100',
      ranges: [{ prefix: 'SETP', fromNumber: '990000000', toNumber: '995000000', technicalKey: RANGE.technicalKey }],
    });
    expect((await dian.getNumberingRange(ISSUER.nit, ISSUER.nit, 'otro-software')).ranges).toEqual([]);

    const xml = await track('GetXmlByDocumentKey', dian.getXmlByDocumentKey(inv.cufe));
    expect(xml.code).toBe('100');
    expect(Buffer.from(xml.xmlBytesBase64!, 'base64').toString('utf8')).toBe(inv.xml);

    const event = await signedEvent('030', inv);
    expect(await track('SendEventUpdateStatus', dian.sendEventUpdateStatus(zip1(event.xml, 'ar.xml')))).toMatchObject({
      isValid: true,
      xmlDocumentKey: event.cude,
    });
    const events = await track('GetStatusEvent', dian.getStatusEvent(inv.cufe));
    expect(events.statusCode).toBe('00');
    expect(events.messages.map((m) => m.text)).toEqual([expect.stringContaining(`Evento 030`)]);
    expect(events.messages[0]!.text).toContain(event.cude);

    const notes = await track('GetReferenceNotes', dian.getReferenceNotes(inv.cufe));
    expect(notes).toMatchObject({ statusCode: '00', messages: [] });

    const nomina = await track(
      'SendNominaSync',
      dian.sendNominaSync(zip1('<NominaIndividual xmlns="dian:gov:co:facturaelectronica:NominaIndividual"/>', 'nie.xml')),
    );
    expect(nomina).toMatchObject({ isValid: false, statusCode: '99' });
    expect(nomina.messages[0]!.rule).toBe('ZB01');

    const async = await track('SendBillAsync', dian.sendBillAsync('z.zip', zip1((await signedInvoice(990000102)).xml)));
    expect(async.zipKey).toMatch(/^[0-9a-f-]{36}$/);
    const first = await track('GetStatusZip', dian.getStatusZip(async.zipKey!));
    expect(first.map((r) => r.statusCode)).toEqual(['98']);
    await new Promise((r) => setTimeout(r, 150));
    expect((await dian.getStatusZip(async.zipKey!)).map((r) => [r.statusCode, r.isValid])).toEqual([['00', true]]);
    expect((await dian.getStatusZip('no-such-zip')).map((r) => r.statusCode)).toEqual(['66']);

    const set = await track('SendTestSetAsync', dian.sendTestSetAsync('z.zip', zip1((await signedInvoice(990000103)).xml), ISSUER.testSetId!));
    expect(set.zipKey).not.toBeNull();
    // wait for its verdict, so that the test set's counts the next test reads are settled
    for (let i = 0; i < 100 && (await dian.getStatusZip(set.zipKey!))[0]!.statusCode === '98'; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await dian.getStatusZip(set.zipKey!)).map((r) => r.statusCode)).toEqual(['00']);
    const unknownSet = await dian.sendTestSetAsync('z.zip', zip1(inv.xml), 'no-existe');
    expect(unknownSet).toMatchObject({ zipKey: null, items: [{ success: false }] });
    await dian.close();
    expect([...seen].sort()).toEqual(Object.keys(DIAN_OPERATIONS).sort());
  });
});

describe('local DIAN: test set, outage, lost answers, control API', () => {
  it('SendTestSetAsync: ZipKey, 98 while processing, then one verdict per document, counted in the test set', async () => {
    const dian = client(sim.url);
    const good = await signedInvoice(990000201);
    const bad = await signedInvoice(990000202, (r) => {
      (r.legal_monetary_totals as Record<string, number>).payable_amount = 1;
    });
    const { zipOf } = await import('./fixtures.js');
    const counts = async () =>
      ((await (await fetch(`${sim.controlUrl}/test-sets`)).json()) as Record<string, { accepted: number; rejected: number }>)[ISSUER.testSetId!] ?? {
        accepted: 0,
        rejected: 0,
      };
    const before = await counts();
    const up = await dian.sendTestSetAsync('z.zip', zipOf({ name: 'a.xml', xml: good.xml }, { name: 'b.xml', xml: bad.xml }), ISSUER.testSetId!);
    expect((await dian.getStatusZip(up.zipKey!))[0]!.statusCode).toBe('98');
    await new Promise((r) => setTimeout(r, 200));
    const verdicts = await dian.getStatusZip(up.zipKey!);
    await dian.close();
    expect(verdicts.map((v) => [v.xmlFileName, v.statusCode, v.xmlDocumentKey])).toEqual([
      ['a.xml', '00', good.cufe],
      ['b.xml', '99', bad.cufe],
    ]);
    expect(await counts()).toEqual({ accepted: before.accepted + 1, rejected: before.rejected + 1 });
  });

  it('outage 503: a query is retried and then fails with TransportError 503; off again, it answers', async () => {
    const put = (mode: string) => fetch(`${sim.controlUrl}/outage`, { method: 'PUT', body: JSON.stringify({ mode }) });
    expect((await put('503')).status).toBe(200);
    const before = sim.stats().outage;
    const dian = client(sim.url, { retries: 2 });
    const e = await failure(dian.getStatus('a'.repeat(96)));
    expect(isTransportError(e) && [e.status, e.retryable]).toEqual([503, true]);
    expect(sim.stats().outage - before).toBe(3);
    await put('off');
    expect((await dian.getStatus('a'.repeat(96))).statusCode).toBe('90');
    await dian.close();
  });

  it('outage hang: the client times out; the upload outcome is unknown', async () => {
    sim.setOutage('hang');
    const dian = client(sim.url, { timeoutMs: 300 });
    const e = await failure(dian.sendBillSync('z.zip', zip1((await signedInvoice(990000301)).xml)));
    sim.setOutage('off');
    await dian.close();
    expect(isTransportError(e) && e.outcomeUnknown).toBe(true);
  });

  it('an answer dropped after processing: outcomeUnknown, GetStatus by CUFE finds it accepted, the resend gets Regla 90', async () => {
    sim.setFaults({ dropAfterRate: 1, limit: 1, operations: ['SendBillSync'] });
    const dian = client(sim.url, { retries: 2 });
    const inv = await signedInvoice(990000302);
    const e = await failure(dian.sendBillSync('z.zip', zip1(inv.xml)));
    expect(isTransportError(e) && e.outcomeUnknown).toBe(true);
    expect(await dian.getStatus(inv.cufe)).toMatchObject({ isValid: true, statusCode: '00' });
    const again = await dian.sendBillSync('z.zip', zip1(inv.xml));
    expect(again.messages.map((m) => m.rule)).toEqual(['90']);
    await dian.close();
    sim.setFaults({});
  });

  it('outage window: PUT /control/outage {mode: "503", forMs} answers 503 for that long, then off on its own; bad forMs is a 400', async () => {
    const put = (body: unknown) => fetch(`${sim.controlUrl}/outage`, { method: 'PUT', body: JSON.stringify(body) });
    const set = await put({ mode: '503', forMs: 400 });
    expect(await set.json()).toEqual({ mode: '503', forMs: 400 });
    const dian = client(sim.url, { retries: 0 });
    const e = await failure(dian.getStatus('b'.repeat(96)));
    expect(isTransportError(e) && e.status).toBe(503);
    await new Promise((r) => setTimeout(r, 600));
    expect(await (await fetch(`${sim.controlUrl}/outage`)).json()).toEqual({ mode: 'off' });
    expect((await dian.getStatus('b'.repeat(96))).statusCode).toBe('90');
    await dian.close();
    for (const bad of [
      { mode: '503', forMs: 0 },
      { mode: 'off', forMs: 10 },
      { mode: 'hang', forMs: 'x' },
    ]) {
      const r = await put(bad);
      expect(r.status).toBe(400);
      expect(((await r.json()) as { error: string }).error).toContain('outage.forMs');
    }
    expect(await (await fetch(`${sim.controlUrl}/outage`)).json()).toEqual({ mode: 'off' });
  });

  it('GET /control/received counts each receipt of a declared key: a send, a resend refused as duplicate, an event', async () => {
    const dian = client(sim.url);
    const inv = await signedInvoice(990000303);
    expect((await dian.sendBillSync('r.zip', zip1(inv.xml))).isValid).toBe(true);
    const received = async () => (await (await fetch(`${sim.controlUrl}/received`)).json()) as Record<string, number>;
    expect((await received())[inv.cufe]).toBe(1);
    expect((await dian.sendBillSync('r.zip', zip1(inv.xml))).messages.map((m) => m.rule)).toEqual(['90']);
    expect((await received())[inv.cufe]).toBe(2);
    const event = await signedEvent('030', inv);
    await dian.sendEventUpdateStatus(zip1(event.xml, 'ar.xml'));
    expect((await received())[event.cude]).toBe(1);
    // GetStatus is a query, not a receipt.
    await dian.getStatus(inv.cufe);
    expect(sim.received()[inv.cufe]).toBe(2);
    await dian.close();
  });

  it('the control API seeds companies and ranges, refuses bad input with a Spanish 400, and reports stats', async () => {
    const res = await fetch(`${sim.controlUrl}/ranges`, { method: 'POST', body: JSON.stringify({ ...RANGE, prefix: 'FE', from: '10', to: '5' }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain('no puede ser mayor');
    const ok = await fetch(`${sim.controlUrl}/companies`, { method: 'POST', body: JSON.stringify({ nit: '900999999', softwareId: 's', pin: '1' }) });
    expect(((await ok.json()) as { nit: string }[]).map((c) => c.nit)).toContain('900999999');
    const stats = (await (await fetch(`${sim.controlUrl}/stats`)).json()) as { requests: Record<string, number> };
    expect(stats.requests.SendBillSync).toBeGreaterThan(0);
    expect((await fetch(`${sim.controlUrl}/nothing`)).status).toBe(404);
  });
});
