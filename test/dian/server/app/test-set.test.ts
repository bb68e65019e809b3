/**
 * Habilitación's test-set mode against the in-process local DIAN, on SQLite and PostgreSQL: a company with a test
 * set sends with SendTestSetAsync (the local DIAN's counters and test-set tally), the verdict read with
 * GetStatusZip (200 with the spec's shape; 422 with DIAN's rule strings); a verdict not ready within the polling
 * budget → 202 (`test_set_pending`), and the same request again resolves it without a second send (five at once: one
 * asks DIAN); a lost upload
 * answer resolved by GetStatus by the CUFE, never sent again; the test set switched off → SendBillSync again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAN_KINDS, type DianKindId } from '../../../../src/dian/index.js';
import { setCompanyTestSet } from '../../../../src/dian/server/index.js';
import { DIAN_SIM_EXAMPLE_COMPANY, DIAN_SIM_EXAMPLE_RANGE, type DianSimulator, startDianSimulator } from '../../../../src/dian/simulator/index.js';
import { dianXsdDir } from '../../helpers/env.js';
import { EXAMPLE_NIT, example, type Harness, NOW, startHarness } from '../helpers.js';

const SPEC_DOCUMENT_KEYS = [
  'number',
  'statusCode',
  'statusDescription',
  'uuid',
  'zipBase64Bytes',
  'pdfBase64Bytes',
  'appResponseBase64Bytes',
  'attachedDocumentBase64Bytes',
];
const TEST_SET = '5f5c1e0a-7d2b-4c1e-9a3f-2b6d8e4c1a90';
const POLLING = { attempts: 4, firstDelayMs: 50, factor: 2 };

type Answer = { status: string; message: string; document: Record<string, unknown> | null };
const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe.each(['sqlite', 'postgres'] as const)('DIAN service, habilitación test set (%s)', (engine) => {
  let h: Harness;
  const slept: number[] = [];
  let sleep: (ms: number) => Promise<void> = realSleep;
  const post = (kind: DianKindId, body: unknown, token = h.token) =>
    h.server.app.request(DIAN_KINDS[kind].path, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const get = (path: string, token = h.token) => h.server.app.request(path, { headers: { Authorization: `Bearer ${token}` } });
  const requests = (op: string) => h.server.simulator!.stats().requests[op] ?? 0;
  const tally = () => h.server.simulator!.testSets()[TEST_SET] ?? { accepted: 0, rejected: 0 };
  const state = async (number: string) => ((await (await get(`/service/documents/${number}`)).json()) as { document: { state: string } }).document.state;
  /** Waits (real time, bounded) until the local DIAN has given `n` verdicts in the test set. */
  const processed = async (n: number) => {
    for (let i = 0; i < 100 && tally().accepted + tally().rejected < n; i++) await realSleep(50);
    expect(tally().accepted + tally().rejected).toBe(n);
  };

  beforeAll(async () => {
    h = await startHarness(engine, {
      testSetPolling: POLLING,
      sleep: (ms) => {
        slept.push(ms);
        return sleep(ms);
      },
    });
    await setCompanyTestSet(h.server.storage, EXAMPLE_NIT, TEST_SET);
    h.server.simulator!.setProcessingDelay(0);
  });
  afterAll(async () => {
    await h?.cleanup();
  });

  it('sends with SendTestSetAsync, reads the verdict with GetStatusZip: 200 with the spec shape, counted in the test set', async () => {
    const before = { async: requests('SendTestSetAsync'), sync: requests('SendBillSync'), zip: requests('GetStatusZip') };
    const r = await post('invoice', { ...example('invoice'), number: 990000800 });
    const json = (await r.json()) as Answer;
    expect(r.status, JSON.stringify(json)).toBe(200);
    expect(json.status).toBe('success');
    const doc = json.document!;
    expect(Object.keys(doc).filter((k) => k !== 'notifications')).toEqual(SPEC_DOCUMENT_KEYS);
    expect(doc.statusCode).toBe(6);
    expect(doc.uuid).toMatch(/^[0-9a-f]{96}$/);
    expect(typeof doc.appResponseBase64Bytes).toBe('string');
    expect(Buffer.from(doc.attachedDocumentBase64Bytes as string, 'base64').toString('utf8')).toContain('ApplicationResponse');
    expect(requests('SendTestSetAsync')).toBe(before.async + 1);
    expect(requests('SendBillSync')).toBe(before.sync);
    expect(requests('GetStatusZip')).toBeGreaterThan(before.zip);
    expect(tally()).toEqual({ accepted: 1, rejected: 0 });
    // The local DIAN's control API gives the same tally over HTTP.
    expect(((await (await fetch(`${h.server.simulator!.controlUrl}/test-sets`)).json()) as Record<string, unknown>)[TEST_SET]).toEqual({
      accepted: 1,
      rejected: 0,
    });
    expect(await state('SETP990000800')).toBe('accepted');
    // The same request again: the stored answer, nothing sent or polled.
    const zips = requests('GetStatusZip');
    const again = await post('invoice', { ...example('invoice'), number: 990000800 });
    expect(await again.json()).toEqual(json);
    expect(requests('SendTestSetAsync')).toBe(before.async + 1);
    expect(requests('GetStatusZip')).toBe(zips);
  });

  it('events keep SendEventUpdateStatus in test-set mode (it takes no testSetId): a 034 on the test-set invoice is accepted', async () => {
    const invoice = (await (await get('/service/documents/SETP990000800')).json()) as { document: { uuid: string } };
    const before = { event: requests('SendEventUpdateStatus'), async: requests('SendTestSetAsync') };
    const r = await h.server.app.request('/v1/034', {
      method: 'POST',
      headers: { Authorization: `Bearer ${h.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        number: 1,
        identification_number: Number(EXAMPLE_NIT),
        document_reference: { number: 'SETP990000800', uuid: invoice.document.uuid },
        notes: [{ text: 'Declaro bajo la gravedad de juramento que han pasado tres días hábiles desde la recepción sin aceptación, rechazo ni reclamo.' }],
      }),
    });
    const json = (await r.json()) as { event: { statusCode: number } };
    expect(r.status, JSON.stringify(json)).toBe(200);
    expect(json.event.statusCode).toBe(5);
    expect(requests('SendEventUpdateStatus')).toBe(before.event + 1);
    expect(requests('SendTestSetAsync')).toBe(before.async);
  });

  it("DIAN's rejection read from GetStatusZip: 422 statusCode 11 with the rule strings, counted as rejected", async () => {
    h.server.simulator!.setScenarios([{ number: 'SETP990000801', rule: 'FAU04', kind: 'Rechazo', text: 'Base gravable distinta a la suma de las bases' }]);
    const r = await post('invoice', { ...example('invoice'), number: 990000801 });
    h.server.simulator!.setScenarios([]);
    const json = (await r.json()) as { status: string; document: { number: string; statusCode: number; Errors: string[] } };
    expect(r.status, JSON.stringify(json)).toBe(422);
    expect(json.status).toBe('error');
    expect(json.document.number).toBe('SETP990000801');
    expect(json.document.statusCode).toBe(11);
    expect(json.document.Errors).toContain('Regla: FAU04, Rechazo: Base gravable distinta a la suma de las bases');
    expect(tally()).toEqual({ accepted: 1, rejected: 1 });
    expect(await state('SETP990000801')).toBe('rejected');
  });

  it('a verdict not ready within the polling budget: 202 test_set_pending; the same request later resolves it without a second send', async () => {
    const sim = h.server.simulator!;
    sim.setProcessingDelay(3_600_000);
    sleep = async () => {};
    slept.length = 0;
    const sends = requests('SendTestSetAsync');
    const body = { ...example('invoice'), number: 990000802 };
    const r = await post('invoice', body);
    const pending = (await r.json()) as Answer;
    expect(r.status, JSON.stringify(pending)).toBe(202);
    expect(r.headers.get('Retry-After')).toBe('5');
    expect(slept).toEqual([50, 100, 200, 400]);
    expect(pending.status).toBe('success');
    const doc = pending.document!;
    expect(Object.keys(doc)).toEqual([...SPEC_DOCUMENT_KEYS, 'notifications', 'zipKey']);
    expect(doc.statusCode).toBeNull();
    expect(doc.statusDescription).toMatch(/^En proceso en DIAN \(set de pruebas\)/);
    expect(doc.uuid).toMatch(/^[0-9a-f]{96}$/);
    expect(typeof doc.zipKey).toBe('string');
    expect(doc.appResponseBase64Bytes).toBeNull();
    expect(await state('SETP990000802')).toBe('test_set_pending');
    expect(requests('SendTestSetAsync')).toBe(sends + 1);

    // Still processing: the same request polls again (202 again), nothing sent.
    const still = await post('invoice', body);
    expect(still.status).toBe(202);
    expect(((await still.json()) as Answer).document!.zipKey).toBe(doc.zipKey);
    expect(requests('SendTestSetAsync')).toBe(sends + 1);
    expect((await (await get('/service/test-set')).json()) as unknown).toEqual({
      status: 'success',
      testSetId: TEST_SET,
      testSets: [{ testSetId: TEST_SET, accepted: 1, rejected: 1, pending: 1 }],
    });

    // DIAN finishes; five identical retries at once: one claims the document and reads the verdict (one
    // GetStatusZip), the others get the 409 or the stored answer; none sends.
    sleep = realSleep;
    sim.setProcessingDelay(0);
    await processed(3);
    const polls = requests('GetStatusZip');
    const racing = await Promise.all(Array.from({ length: 5 }, () => post('invoice', body)));
    expect(racing.map((x) => x.status).every((st) => st === 200 || st === 409)).toBe(true);
    expect(requests('GetStatusZip')).toBe(polls + 1);
    const done = racing.find((x) => x.status === 200)!;
    const full = (await done.json()) as Answer;
    expect(done.status, JSON.stringify(full)).toBe(200);
    expect(full.document!.statusCode).toBe(6);
    expect(full.document!.uuid).toBe(doc.uuid);
    expect(full.document!.zipBase64Bytes).toBe(doc.zipBase64Bytes);
    expect(requests('SendTestSetAsync')).toBe(sends + 1);
    expect(await state('SETP990000802')).toBe('accepted');
    expect(await (await post('invoice', body)).json()).toEqual(full);
  });

  it('a lost SendTestSetAsync answer (no ZipKey): GetStatus by the CUFE, 503 until DIAN has a verdict, never sent again', async () => {
    const sim = h.server.simulator!;
    sim.setProcessingDelay(3_600_000);
    const sends = requests('SendTestSetAsync');
    const body = { ...example('invoice'), number: 990000803 };
    sim.setFaults({ dropAfterRate: 1, operations: ['SendTestSetAsync'], limit: 1 });
    const first = await post('invoice', body);
    sim.setFaults({});
    expect(first.status).toBe(503);
    expect(((await first.json()) as Answer).message).toMatch(/no se enviará de nuevo/);
    expect(requests('SendTestSetAsync')).toBe(sends + 1);
    expect(await state('SETP990000803')).toBe('test_set_pending');
    // DIAN has no verdict yet (GetStatus 90: proves nothing for an asynchronous zip): still 503, not resent.
    const statuses = requests('GetStatus');
    const second = await post('invoice', body);
    expect(second.status).toBe(503);
    expect(requests('GetStatus')).toBe(statuses + 1);
    expect(requests('SendTestSetAsync')).toBe(sends + 1);
    // DIAN processes the zip it did receive; the same request finds the verdict by the CUFE.
    sim.setProcessingDelay(0);
    await processed(4);
    const third = await post('invoice', body);
    const json = (await third.json()) as Answer;
    expect(third.status, JSON.stringify(json)).toBe(200);
    expect(json.document!.statusCode).toBe(6);
    expect(requests('SendTestSetAsync')).toBe(sends + 1);
  });

  it('the test set switched off: SendBillSync again; the progress stays listed', async () => {
    await setCompanyTestSet(h.server.storage, EXAMPLE_NIT, null);
    const before = { async: requests('SendTestSetAsync'), sync: requests('SendBillSync') };
    const r = await post('invoice', { ...example('invoice'), number: 990000804 });
    expect(r.status).toBe(200);
    expect(requests('SendBillSync')).toBe(before.sync + 1);
    expect(requests('SendTestSetAsync')).toBe(before.async);
    expect((await (await get('/service/test-set')).json()) as unknown).toEqual({
      status: 'success',
      testSetId: null,
      testSets: [{ testSetId: TEST_SET, accepted: 3, rejected: 1, pending: 0 }],
    });
    // Another company never had a test set.
    expect((await (await get('/service/test-set', h.otherToken)).json()) as unknown).toEqual({ status: 'success', testSetId: null, testSets: [] });
    await setCompanyTestSet(h.server.storage, EXAMPLE_NIT, TEST_SET);
  });
});

describe.each(['sqlite', 'postgres'] as const)('DIAN service, a test set DIAN does not know (%s)', (engine) => {
  let sim: DianSimulator;
  let h: Harness;
  beforeAll(async () => {
    // A DIAN of its own (not the embedded one, which is told each company's test set): the software has none there.
    const { testSetId: _none, ...company } = DIAN_SIM_EXAMPLE_COMPANY;
    sim = await startDianSimulator({ xsdDir: dianXsdDir(), clock: () => NOW, companies: [company], ranges: [DIAN_SIM_EXAMPLE_RANGE], processingDelayMs: 0 });
    h = await startHarness(engine, { authority: { endpoint: sim.url } });
    await setCompanyTestSet(h.server.storage, EXAMPLE_NIT, 'aaaaaaaa-0000-4000-8000-000000000000');
  });
  afterAll(async () => {
    await h?.cleanup();
    await sim?.close();
  });

  it('the upload refused (no ZipKey): 502 naming the test set, nothing kept, the number free for SendBillSync', async () => {
    const auth = { Authorization: `Bearer ${h.token}` };
    const body = JSON.stringify({ ...example('invoice'), number: 990000810 });
    const r = await h.server.app.request('/service/invoice', { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body });
    const json = (await r.json()) as Answer;
    expect(r.status, JSON.stringify(json)).toBe(502);
    expect(json.message).toMatch(/set de pruebas aaaaaaaa-0000-4000-8000-000000000000/);
    expect(json.message).toMatch(/no existe o no está asociado/);
    expect(sim.stats().requests.SendTestSetAsync).toBe(1);
    expect((await h.server.app.request('/service/documents/SETP990000810', { headers: auth })).status).toBe(404);
    expect(await (await h.server.app.request('/service/test-set', { headers: auth })).json()).toMatchObject({ testSets: [] });
    await setCompanyTestSet(h.server.storage, EXAMPLE_NIT, null);
    const again = await h.server.app.request('/service/invoice', { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body });
    expect(again.status).toBe(200);
    expect(sim.stats().requests.SendBillSync).toBe(1);
  });
});
