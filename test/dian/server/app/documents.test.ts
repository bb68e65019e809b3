/**
 * The document endpoints end to end against the in-process local DIAN, on SQLite and PostgreSQL: every kind
 * accepted with the spec's response shape, own validations, DIAN rejections, idempotent retries, a lost
 * answer, DIAN down, tenant isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAN_KINDS, type DianKindId } from '../../../../src/dian/index.js';
import { example, type Harness, startHarness } from '../helpers.js';

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

const MATRIX = [
  ['sqlite', 'in process'],
  ['sqlite', 'http'],
  ['postgres', 'in process'],
  ['postgres', 'http'],
] as const;

describe.each(MATRIX)('DIAN service documents (%s, %s)', (engine, transport) => {
  let h: Harness;
  /** One request, through `app.request` or over a real socket to the listening server. */
  const call = (path: string, init: RequestInit = {}) => (transport === 'http' ? fetch(`${h.server.url}${path}`, init) : h.server.app.request(path, init));
  const post = (kind: DianKindId, body: unknown, token = h.token) =>
    call(DIAN_KINDS[kind].path, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    });
  const get = (id: string, token = h.token) => call(`/service/documents/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  const sends = () => h.server.simulator!.stats().requests.SendBillSync ?? 0;

  beforeAll(async () => {
    h = await startHarness(engine);
  });
  afterAll(async () => {
    await h?.cleanup();
  });

  it.each(Object.keys(DIAN_KINDS) as DianKindId[])('accepts %s end to end with the spec response shape', async (kind) => {
    const body = example(kind);
    const r = await post(kind, body);
    const json = (await r.json()) as { status: string; message: string; document: Record<string, unknown> };
    expect(r.status, JSON.stringify(json)).toBe(200);
    expect(json.status).toBe('success');
    expect(Object.keys(json.document).filter((k) => k !== 'notifications')).toEqual(SPEC_DOCUMENT_KEYS);
    expect(json.document.statusCode).toBe(6);
    expect(json.document.number).toBe(`${body.prefix}${body.number}`);
    expect(json.document.uuid).toMatch(/^[0-9a-f]{96}$/);
    // The zip holds the signed document; the PDF is a PDF; the AttachedDocument carries DIAN's answer.
    expect(
      Buffer.from(json.document.zipBase64Bytes as string, 'base64')
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
    expect(
      Buffer.from(json.document.pdfBase64Bytes as string, 'base64')
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const app = Buffer.from(json.document.appResponseBase64Bytes as string, 'base64').toString();
    expect(app).toContain('ApplicationResponse');
    expect(app).toContain(json.document.uuid as string);
    const attached = Buffer.from(json.document.attachedDocumentBase64Bytes as string, 'base64').toString();
    expect(attached).toContain('<AttachedDocument');
    expect(attached).toContain('ds:Signature');
    // Stored: by number and by CUFE.
    const byNumber = (await (await get(json.document.number as string)).json()) as { document: Record<string, unknown> };
    expect(byNumber.document).toMatchObject({ state: 'accepted', kind, uuid: json.document.uuid });
    const byKey = await get(json.document.uuid as string);
    expect(byKey.status).toBe(200);
  });

  it('own validations: 422 statusCode 13 with errors and detailedErrors at request paths, nothing sent', async () => {
    const before = sends();
    const body = example('invoice');
    body.number = 990000100;
    delete (body.customer as Record<string, unknown>).name;
    body.currency_type_code = 7;
    const r = await post('invoice', body);
    expect(r.status).toBe(422);
    const json = (await r.json()) as { status: string; document: { statusCode: number; errors: string[]; detailedErrors: Record<string, string[]> } };
    expect(json.status).toBe('error');
    expect(json.document.statusCode).toBe(13);
    expect(Object.keys(json.document.detailedErrors).sort()).toEqual(['currency_type_code', 'customer.name']);
    expect(json.document.errors.length).toBe(2);
    expect(sends()).toBe(before);
    expect((await get('SETP990000100')).status).toBe(404);
  });

  it('numbering: prefix, range and validity of the resolution', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ prefix: 'XX' }, 'prefix'],
      [{ number: 1 }, 'number'],
      [{ date: '2027-01-05' }, 'date'],
    ];
    for (const [change, path] of cases) {
      const r = await post('invoice', { ...example('invoice'), number: 990000101, ...change });
      const json = (await r.json()) as { document: { statusCode: number; detailedErrors: Record<string, string[]> } };
      expect(r.status).toBe(422);
      expect(json.document.statusCode).toBe(13);
      expect(Object.keys(json.document.detailedErrors)).toEqual([path]);
    }
  });

  it('DIAN rejection: 422 statusCode 11 with the Regla/Rechazo strings in Errors; the number can be sent again', async () => {
    h.server.simulator!.setScenarios([{ number: 'SETP990000200', rule: 'FAU04', kind: 'Rechazo', text: 'Base gravable distinta a la suma de las bases' }]);
    const r = await post('invoice', { ...example('invoice'), number: 990000200 });
    expect(r.status).toBe(422);
    const json = (await r.json()) as { status: string; document: { number: string; statusCode: number; statusDescription: string; Errors: string[] } };
    expect(json.status).toBe('error');
    expect(json.document.statusCode).toBe(11);
    expect(json.document.number).toBe('SETP990000200');
    expect(json.document.Errors).toContain('Regla: FAU04, Rechazo: Base gravable distinta a la suma de las bases');
    expect(((await (await get('SETP990000200')).json()) as { document: { state: string } }).document.state).toBe('rejected');
    // Once the cause is gone the same body is sent again and accepted (a rejected number is free).
    h.server.simulator!.setScenarios([]);
    const before = sends();
    const again = await post('invoice', { ...example('invoice'), number: 990000200 });
    expect(again.status).toBe(200);
    expect(sends()).toBe(before + 1);
  });

  it('a retry with the same body returns the stored answer without a second send; another body is refused', async () => {
    const body = { ...example('invoice'), number: 990000300 };
    const first = await post('invoice', body);
    expect(first.status).toBe(200);
    const firstJson = await first.json();
    const before = sends();
    // Same body, keys in another order.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await post('invoice', reordered);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(firstJson);
    expect(sends()).toBe(before);
    const other = await post('invoice', { ...body, notes: [{ text: 'otro contenido' }] });
    expect(other.status).toBe(422);
    const json = (await other.json()) as { document: { statusCode: number; detailedErrors: Record<string, string[]> } };
    expect(json.document.detailedErrors.number?.[0]).toMatch(/ya fue usado/);
    expect(sends()).toBe(before);
  });

  it('a lost answer is resolved with GetStatus, never by sending again', async () => {
    const sim = h.server.simulator!;
    const before = { send: sends(), status: sim.stats().requests.GetStatus ?? 0 };
    sim.setFaults({ dropAfterRate: 1, operations: ['SendBillSync'], limit: 1 });
    const r = await post('invoice', { ...example('invoice'), number: 990000400 });
    sim.setFaults({});
    const json = (await r.json()) as { document: { statusCode: number; appResponseBase64Bytes: string } };
    expect(r.status, JSON.stringify(json)).toBe(200);
    expect(json.document.statusCode).toBe(6);
    expect(Buffer.from(json.document.appResponseBase64Bytes, 'base64').toString()).toContain('ApplicationResponse');
    expect(sends()).toBe(before.send + 1);
    expect(sim.stats().requests.GetStatus).toBe(before.status + 1);
    expect(sim.stats().documents.duplicates).toBe(0);
  });

  it('a lost answer DIAN cannot confirm yet: 503, then the retry asks GetStatus and never sends again', async () => {
    const sim = h.server.simulator!;
    const body = { ...example('invoice'), number: 990000450 };
    const before = sends();
    sim.setFaults({ dropAfterRate: 1, operations: ['SendBillSync', 'GetStatus'], limit: 2 });
    const first = await post('invoice', body);
    sim.setFaults({});
    expect(first.status).toBe(503);
    expect(((await first.json()) as { message: string }).message).toMatch(/no se enviará de nuevo sin consultar su estado/);
    expect(((await (await get('SETP990000450')).json()) as { document: { state: string } }).document.state).toBe('sending');
    const retry = await post('invoice', body);
    expect(retry.status).toBe(200);
    expect(sends()).toBe(before + 1);
    expect(sim.stats().documents.duplicates).toBe(0);
  });

  it('two identical requests at once: one send, the other told to retry (409) or given the same answer', async () => {
    const body = { ...example('invoice'), number: 990000460 };
    const before = sends();
    const [a, b] = await Promise.all([post('invoice', body), post('invoice', body)]);
    const statuses = [a.status, b.status].sort();
    // Which one is second depends on scheduling; either way DIAN gets the document once.
    expect([
      [200, 200],
      [200, 409],
    ]).toContainEqual(statuses);
    expect(sends()).toBe(before + 1);
    const again = await post('invoice', body);
    expect(again.status).toBe(200);
    const first = await (a.status === 200 ? a : b).json();
    expect(await again.json()).toEqual(first);
  });

  it('DIAN down: 503 naming the contingency endpoint, the number stays free', async () => {
    const sim = h.server.simulator!;
    const body = { ...example('invoice'), number: 990000500 };
    sim.setOutage('503');
    const r = await post('invoice', body);
    sim.setOutage('off');
    expect(r.status).toBe(503);
    const json = (await r.json()) as { status: string; message: string };
    expect(json.status).toBe('error');
    expect(json.message).toContain('/service/contingency-invoice');
    expect((await get('SETP990000500')).status).toBe(404);
    const later = await post('invoice', body);
    expect(later.status).toBe(200);
  });

  it('tenant isolation: another company cannot read the document nor issue with this NIT', async () => {
    const mine = (await (await post('invoice', { ...example('invoice'), number: 990000600 })).json()) as { document: { uuid: string } };
    expect((await get('SETP990000600', h.otherToken)).status).toBe(404);
    expect((await get(mine.document.uuid, h.otherToken)).status).toBe(404);
    expect((await get('SETP990000600')).status).toBe(200);
    const foreign = await post('credit-note', { ...example('credit-note'), number: 77 }, h.otherToken);
    expect(foreign.status).toBe(422);
    const json = (await foreign.json()) as { document: { detailedErrors: Record<string, string[]> } };
    expect(Object.keys(json.document.detailedErrors)).toContain('identification_number');
  });

  it('refuses a missing or unknown token with 401', async () => {
    const none = await call('/service/invoice', { method: 'POST', body: '{}' });
    expect(none.status).toBe(401);
    expect(none.headers.get('WWW-Authenticate')).toBe('Bearer');
    expect((await post('invoice', example('invoice'), 'dian_nope')).status).toBe(401);
    // The misspelt header is not accepted on document endpoints.
    const misspelt = await call('/service/invoice', { method: 'POST', headers: { Authotization: `Bearer ${h.token}` }, body: '{}' });
    expect(misspelt.status).toBe(401);
  });

  it('a body that is not JSON is a 400 and one over the limit a 413, both in the error envelope', async () => {
    const bad = await call('/service/invoice', { method: 'POST', headers: { Authorization: `Bearer ${h.token}` }, body: '{"number":' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ status: 'error', document: null, message: expect.stringMatching(/JSON/) });
    const big = await call('/service/invoice', {
      method: 'POST',
      headers: { Authorization: `Bearer ${h.token}` },
      body: `{"x":"${'a'.repeat(2 * 1024 * 1024)}"}`,
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ status: 'error', document: null });
  });

  it('serves the OpenAPI document with every document endpoint and its request schema', async () => {
    const openapi = (await (await call('/service/openapi.json')).json()) as {
      paths: Record<string, { post?: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    for (const kind of Object.values(DIAN_KINDS)) {
      const ref = openapi.paths[kind.path]?.post?.requestBody.content['application/json']?.schema.$ref ?? '';
      const schema = openapi.components.schemas[ref.replace('#/components/schemas/', '')];
      expect(schema?.properties, kind.id).toHaveProperty(kind.linesField);
    }
  });
});
