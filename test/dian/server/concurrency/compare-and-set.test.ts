/**
 * The DIAN service's compare-and-set transitions under concurrent requests, on SQLite and PostgreSQL (one server,
 * the in-process local DIAN, its SendBillSync / SendEventUpdateStatus counters):
 * - N `send_dian: true` requests at once on one stored contingency document: DIAN receives it once; each request
 *   gets the stored 200 or the 409 with Retry-After (`contingency_pending` → `sending` is one conditional UPDATE);
 * - N identical requests at once taking over a stale `building` reservation (older than the 2-minute lease) of an
 *   invoice, and of an event: one request builds and sends, the others get the 409 or the stored 200;
 * - the same on a contingency document whose send could not be confirmed: GetStatus asked once, SendBillSync once;
 * - N requests at once re-using a number DIAN rejected: exactly one reservation takes it over.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAN_KINDS, type DianKindId, nitCheckDigit, sha384Hex } from '../../../../src/dian/index.js';
import { canonicalJson } from '../../../../src/dian/server/use-cases/issue.js';
import { EXAMPLE_NIT, example, type Harness, NOW, startHarness } from '../helpers.js';

type Answer = { status: string; document?: Record<string, unknown> | null; event?: Record<string, unknown> | null };
const N = 8;
const BUYER_NIT = '900373076';
/** Past the use cases' default lease (120,000 ms): a reservation this old is stale and may be taken over. */
const STALE_MS = 3 * 60_000;

describe.each(['sqlite', 'postgres'] as const)('compare-and-set on concurrent requests (%s)', (engine) => {
  let h: Harness;
  let now = NOW;
  const post = (path: string, body: unknown, token = h.token) =>
    h.server.app.request(path, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const postKind = (kind: DianKindId, body: unknown) => post(DIAN_KINDS[kind].path, body);
  const count = (op: string) => h.server.simulator!.stats().requests[op] ?? 0;
  const all = async (n: number, request: () => Response | Promise<Response>) =>
    Promise.all(
      Array.from({ length: n }, async () => {
        const r = await request();
        return { status: r.status, retryAfter: r.headers.get('Retry-After'), body: (await r.json()) as Answer };
      }),
    );
  const company = async (nit: string) => (await h.server.storage.getCompanyByNit(nit))!;

  beforeAll(async () => {
    h = await startHarness(engine, { clock: () => now });
  });
  afterAll(async () => {
    await h?.cleanup();
  });

  it(`${N} concurrent send_dian: true on one stored contingency document: sent once; each gets the stored 200 or the 409`, async () => {
    const body = { ...example('contingency-invoice'), number: 990001001 };
    const stored = await postKind('contingency-invoice', { ...body, send_dian: false });
    expect(stored.status).toBe(200);
    const before = count('SendBillSync');
    const answers = await all(N, () => postKind('contingency-invoice', { ...body, send_dian: true }));
    expect(count('SendBillSync')).toBe(before + 1);
    const ok = answers.filter((a) => a.status === 200);
    const busy = answers.filter((a) => a.status === 409);
    expect(ok.length + busy.length, JSON.stringify(answers.map((a) => [a.status, a.body]))).toBe(N);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const a of busy) {
      expect(a.retryAfter).toBe('5');
      expect(a.body.status).toBe('error');
    }
    const final = await postKind('contingency-invoice', { ...body, send_dian: true });
    const finalBody = (await final.json()) as Answer;
    expect(final.status).toBe(200);
    expect(finalBody.document!.statusCode).toBe(6);
    for (const a of ok) expect(a.body).toEqual(finalBody);
    expect(count('SendBillSync')).toBe(before + 1);
    expect((await h.server.storage.getDocumentByNumber((await company(EXAMPLE_NIT)).id, 'SETP', 990001001))!.state).toBe('accepted');
  });

  it(`${N} concurrent send_dian: true on a contingency document whose send was unconfirmed: GetStatus asked once, sent once`, async () => {
    const body = { ...example('contingency-invoice'), number: 990001006 };
    expect((await postKind('contingency-invoice', { ...body, send_dian: false })).status).toBe(200);
    const co = await company(EXAMPLE_NIT);
    const doc = (await h.server.storage.getDocumentByNumber(co.id, 'SETP', 990001006))!;
    // A send whose answer was lost and could not be confirmed (DIAN never received it): `sending`, marked unconfirmed.
    await h.server.storage.updateDocument(doc.id, { state: 'sending', dianAnswer: { unconfirmed: true } });
    const sends = count('SendBillSync');
    const asks = count('GetStatus');
    const answers = await all(N, () => postKind('contingency-invoice', { ...body, send_dian: true }));
    expect(count('GetStatus')).toBe(asks + 1);
    expect(count('SendBillSync')).toBe(sends + 1);
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length + answers.filter((a) => a.status === 409 && a.retryAfter === '5').length, JSON.stringify(answers.map((a) => [a.status, a.body]))).toBe(N);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const a of ok) expect(a.body.document!.statusCode).toBe(6);
    expect((await h.server.storage.getDocumentByNumber(co.id, 'SETP', 990001006))!.state).toBe('accepted');
  });

  it(`${N} concurrent identical invoices taking over a stale building reservation: built and sent once`, async () => {
    const body = { ...example('invoice'), number: 990001002 };
    const co = await company(EXAMPLE_NIT);
    // A request reserved the number and died before sending (its row stays `building`).
    const r = await h.server.storage.reserveDocument({
      companyId: co.id,
      kind: 'invoice',
      prefix: 'SETP',
      number: 990001002,
      requestHash: sha384Hex(canonicalJson(body)),
    });
    expect(r.outcome).toBe('reserved');
    now = new Date(NOW.getTime() + STALE_MS);
    try {
      const before = count('SendBillSync');
      const answers = await all(N, () => postKind('invoice', body));
      expect(count('SendBillSync')).toBe(before + 1);
      const ok = answers.filter((a) => a.status === 200);
      expect(ok.length + answers.filter((a) => a.status === 409 && a.retryAfter === '5').length, JSON.stringify(answers.map((a) => a.status))).toBe(N);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      const final = (await (await postKind('invoice', body)).json()) as Answer;
      expect(final.document!.statusCode).toBe(6);
      for (const a of ok) expect(a.body).toEqual(final);
      expect(count('SendBillSync')).toBe(before + 1);
    } finally {
      now = NOW;
    }
  });

  it(`${N} concurrent identical events taking over a stale building reservation: sent once`, async () => {
    // The examples' company invoices the second company, which then sends 030 (acuse de recibo) on it.
    const invoice = example('invoice');
    invoice.number = 990001003;
    invoice.customer = { ...(invoice.customer as object), identification_number: BUYER_NIT, dv: Number(nitCheckDigit(BUYER_NIT)), name: 'Otra Empresa S.A.S.' };
    const issued = await postKind('invoice', invoice);
    expect(issued.status).toBe(200);
    const cufe = ((await issued.json()) as { document: { uuid: string } }).document.uuid;
    const event = {
      number: 7001,
      identification_number: Number(BUYER_NIT),
      sender_party: { identification_type_code: 31, identification_number: BUYER_NIT, name: 'Otra Empresa S.A.S.' },
      receiver_party: { identification_type_code: 31, identification_number: EXAMPLE_NIT, name: 'Ferretería Ejemplo Andina S.A.S.' },
      document_reference: { number: 'SETP990001003', uuid: cufe },
      person: { identification_type_code: 13, identification_number: '52123456', first_name: 'Laura', family_name: 'Castro Peña', job_title: 'Jefe de bodega' },
    };
    const buyer = await company(BUYER_NIT);
    const r = await h.server.storage.reserveEvent({
      companyId: buyer.id,
      code: '030',
      number: 7001,
      requestHash: sha384Hex(canonicalJson({ ...event, event_code: '030' })),
      documentKey: cufe,
    });
    expect(r.outcome).toBe('reserved');
    now = new Date(NOW.getTime() + STALE_MS);
    try {
      const before = count('SendEventUpdateStatus');
      const answers = await all(N, () => post('/v1/030', event, h.otherToken));
      expect(count('SendEventUpdateStatus')).toBe(before + 1);
      const ok = answers.filter((a) => a.status === 200);
      expect(ok.length + answers.filter((a) => a.status === 409 && a.retryAfter === '5').length, JSON.stringify(answers.map((a) => [a.status, a.body]))).toBe(
        N,
      );
      expect(ok.length).toBeGreaterThanOrEqual(1);
      for (const a of ok) expect(a.body.event!.statusCode).toBe(5);
      expect((await h.server.storage.getEventByNumber(buyer.id, 7001))!.state).toBe('accepted');
    } finally {
      now = NOW;
    }
  });

  it(`${N} concurrent reservations of a number DIAN rejected: exactly one takes it over`, async () => {
    const co = await company(EXAMPLE_NIT);
    const input = { companyId: co.id, kind: 'invoice' as const, prefix: 'SETP', number: 990001004, requestHash: 'h1' };
    const first = await h.server.storage.reserveDocument(input);
    await h.server.storage.updateDocument(first.document.id, { state: 'rejected' });
    const results = await Promise.all(Array.from({ length: N }, () => h.server.storage.reserveDocument({ ...input, requestHash: 'h2' })));
    expect(results.filter((x) => x.outcome === 'reserved')).toHaveLength(1);
    expect(results.filter((x) => x.outcome === 'same')).toHaveLength(N - 1);
  });

  it('claimDocument: a second claim on the same observed row fails, even when the clock stands still', async () => {
    const co = await company(EXAMPLE_NIT);
    const r = await h.server.storage.reserveDocument({ companyId: co.id, kind: 'invoice', prefix: 'SETP', number: 990001005, requestHash: 'h' });
    const seen = { state: r.document.state, updatedAt: r.document.updatedAt };
    const claims = await Promise.all(Array.from({ length: N }, () => h.server.storage.claimDocument(r.document.id, seen, { response: null })));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(claims.find(Boolean)!.updatedAt).toBe(seen.updatedAt + 1);
    expect(await h.server.storage.claimDocument(r.document.id, { state: 'contingency_pending' }, { state: 'sending' })).toBeNull();
  });
});
