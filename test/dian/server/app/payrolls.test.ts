/**
 * The payroll endpoints end to end against the in-process local DIAN, on SQLite and PostgreSQL, in process and over
 * real HTTP: 102 and 103 (replace and delete) accepted with the spec's status record, a rejection with DIAN's rule
 * messages, own validations at request paths, idempotent retries, a lost answer, DIAN down, the habilitación test
 * set (SendTestSetAsync → GetStatusZip), the `Authotization` spelling, tenant isolation, the OpenAPI parts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../helpers/env.js';
import { type Harness, startHarness } from '../helpers.js';

type Obj = Record<string, unknown>;
const load = (name: string): Obj => JSON.parse(readFileSync(join(repoRoot, `examples/dian/${name}.json`), 'utf8'));
const numbered = (body: Obj, prefix: string, consecutive: number): Obj => ({
  ...body,
  sequence: { ...(body.sequence as Obj), prefix, consecutive: String(consecutive) },
});

const DATA_KEYS = [
  'id',
  'payroll_id',
  'testing_set',
  'signed_xml_key',
  'generator_id',
  'signed_xml',
  'consecutive_id',
  'type',
  'xml_type',
  'status',
  'created_at',
  'updated_at',
];
const DIAN_RESPONSE_KEYS = [
  'ErrorMessage',
  'IsValid',
  'StatusCode',
  'StatusDescription',
  'StatusMessage',
  'XmlBase64Bytes',
  'XmlBytes',
  'XmlDocumentKey',
  'XmlFileName',
];
const NIL = { _attributes: { nil: 'true' } };
const TEST_SET = '11111111-2222-4333-8444-555555555555';

const MATRIX = [
  ['sqlite', 'in process'],
  ['sqlite', 'http'],
  ['postgres', 'in process'],
  ['postgres', 'http'],
] as const;

interface Answer {
  status: string;
  message: string;
  payrollId: string;
  document: Obj & { uuid: string; status: number; statusCode: number | null; Errors?: string[]; detailedErrors?: Record<string, string[]> };
}
interface StatusRecord {
  data: Obj & { status: number; id: number };
  dianResponse: {
    responseDian: null | {
      Envelope: {
        Header: { Action: string; Security: { Timestamp: { Created: string; Expires: string } } };
        Body: { GetStatusZipResponse: { GetStatusZipResult: { DianResponse: Obj & { ErrorMessage: { string: string[] } } } } };
      };
    };
    isValid: boolean;
    applicationResponseBytes: string | null;
    attachedDocumentBytes: string | null;
  };
}

describe.each(MATRIX)('DIAN service payrolls (%s, %s)', (engine, transport) => {
  let h: Harness;
  let cune = '';
  let payrollId = '';
  const call = (path: string, init: RequestInit = {}) => (transport === 'http' ? fetch(`${h.server.url}${path}`, init) : h.server.app.request(path, init));
  const post = (path: string, body: unknown, token = h.token, header = 'Authorization') =>
    call(path, {
      method: 'POST',
      headers: { [header]: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    });
  const submit = async (path: string, body: unknown, token = h.token, header = 'Authorization') => {
    const r = await post(path, body, token, header);
    return { http: r.status, body: (await r.json()) as Answer };
  };
  const status = async (id: string, token = h.token, header = 'Authotization') => {
    const r = await call(`/service/payrolls/${id}`, { headers: { [header]: `Bearer ${token}` } });
    return { http: r.status, body: (await r.json()) as StatusRecord };
  };
  const sim = () => h.server.simulator!;
  const sends = () => sim().stats().requests.SendNominaSync ?? 0;
  const dianResponse = (r: StatusRecord) => r.dianResponse.responseDian!.Envelope.Body.GetStatusZipResponse.GetStatusZipResult.DianResponse;

  beforeAll(async () => {
    h = await startHarness(engine);
  });
  afterAll(async () => {
    await h?.cleanup();
  });

  it('102: accepted, payrollId and CUNE; the status record has exactly the spec’s shape; a retry sends nothing', async () => {
    const before = sends();
    const r = await submit('/service/payrolls', load('payroll-min'));
    expect(r.http, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: 'success', document: { number: 'NOM1', xml_type: 102, status: 2, statusCode: 6 } });
    expect(r.body.payrollId).toMatch(/^\d+$/);
    expect(r.body.document.uuid).toMatch(/^[0-9a-f]{96}$/);
    cune = r.body.document.uuid;
    payrollId = r.body.payrollId;
    expect(sends()).toBe(before + 1);
    const files = unzipSync(Buffer.from(r.body.document.zipBase64Bytes as string, 'base64'));
    expect(Object.keys(files)[0]).toMatch(/^nie0901458732\d{2}[0-9a-f]{8}\.xml$/);

    const s = await status(payrollId);
    expect(s.http).toBe(200);
    expect(Object.keys(s.body).sort()).toEqual(['data', 'dianResponse']);
    expect(Object.keys(s.body.data).sort()).toEqual([...DATA_KEYS].sort());
    expect(Object.keys(s.body.dianResponse).sort()).toEqual(['applicationResponseBytes', 'attachedDocumentBytes', 'isValid', 'responseDian']);
    expect(s.body.data).toMatchObject({
      id: Number(payrollId),
      payroll_id: null,
      testing_set: null,
      signed_xml_key: cune,
      generator_id: '00000000-0000-4000-8000-000000000000',
      signed_xml: Object.keys(files)[0],
      consecutive_id: 1,
      type: 'sync',
      xml_type: 102,
      status: 2,
    });
    expect(s.body.data.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const envelope = s.body.dianResponse.responseDian!.Envelope;
    expect(envelope.Header.Action).toBe('http://wcf.dian.colombia/IWcfDianCustomerServices/SendNominaSyncResponse');
    expect(Date.parse(envelope.Header.Security.Timestamp.Expires) - Date.parse(envelope.Header.Security.Timestamp.Created)).toBe(300_000);
    const d = dianResponse(s.body);
    expect(Object.keys(d).sort()).toEqual([...DIAN_RESPONSE_KEYS].sort());
    expect(d).toMatchObject({ IsValid: 'true', StatusCode: '00', XmlBytes: NIL, XmlDocumentKey: cune });
    expect(s.body.dianResponse.isValid).toBe(true);
    expect(Buffer.from(s.body.dianResponse.applicationResponseBytes!, 'base64').toString('utf8')).toContain('ApplicationResponse');
    expect(s.body.dianResponse.attachedDocumentBytes).toBeNull();
    // by CUNE too, and with the usual header spelling
    expect((await status(cune, h.token, 'Authorization')).body.data.id).toBe(Number(payrollId));

    const again = await submit('/service/payrolls', load('payroll-min'));
    expect(again.http).toBe(200);
    expect(again.body).toEqual(r.body);
    expect(sends()).toBe(before + 1);
  });

  it('103 replace and delete of the accepted payroll are accepted; the record names its predecessor', async () => {
    const replace = { ...load('payroll-adjustment-replace'), predecessor: { ...(load('payroll-adjustment-replace').predecessor as Obj), cune } };
    const r = await submit('/service/payrolls/adjustment', replace);
    expect(r.http, JSON.stringify(r.body)).toBe(200);
    expect(r.body.document).toMatchObject({ number: 'NA1', xml_type: 103, status: 2 });
    const s = await status(r.body.payrollId);
    expect(s.body.data).toMatchObject({ xml_type: 103, status: 2, payroll_id: Number(payrollId) });
    expect(s.body.data.signed_xml).toMatch(/^niae/);

    const del = { ...load('payroll-adjustment-delete'), predecessor: { ...(load('payroll-adjustment-delete').predecessor as Obj), cune } };
    const d = await submit('/service/payrolls/adjustment', del);
    expect(d.http, JSON.stringify(d.body)).toBe(200);
    expect(d.body.document).toMatchObject({ number: 'NA2', xml_type: 103, status: 2 });
  });

  it('DIAN’s rejection: 422 statusCode 11 with the rule strings, the record shows them, the number is free again', async () => {
    sim().setScenarios([{ number: 'NOM90', rule: 'NIE140', kind: 'Rechazo', text: 'Debe existir el valor de la bonificación no salarial' }]);
    const body = numbered(load('payroll-min'), 'NOM', 90);
    const r = await submit('/service/payrolls', body);
    sim().setScenarios([]);
    expect(r.http, JSON.stringify(r.body)).toBe(422);
    expect(r.body).toMatchObject({ status: 'error', document: { number: 'NOM90', statusCode: 11, status: 3 } });
    expect(r.body.document.Errors).toContain('Regla: NIE140, Rechazo: Debe existir el valor de la bonificación no salarial');
    const s = await status(r.body.payrollId);
    expect(s.body.data.status).toBe(3);
    expect(s.body.dianResponse.isValid).toBe(false);
    expect(dianResponse(s.body)).toMatchObject({ IsValid: 'false', StatusCode: '99' });
    expect(dianResponse(s.body).ErrorMessage.string).toContain('Regla: NIE140, Rechazo: Debe existir el valor de la bonificación no salarial');
    // DIAN treats only accepted payrolls as duplicates: the same number goes again and is accepted now.
    const later = await submit('/service/payrolls', body);
    expect(later.http).toBe(200);
    expect(later.body.payrollId).toBe(r.body.payrollId);
    expect((await status(r.body.payrollId)).body.data.status).toBe(2);
  });

  it('own validations: 422 statusCode 13 with every problem at its request path, nothing sent', async () => {
    const before = sends();
    const bad = numbered(load('payroll-min'), 'NOM', 91);
    bad.employee = { ...(bad.employee as Obj), salary: undefined };
    bad.surprise = 1;
    bad.testSetId = 5;
    const r = await submit('/service/payrolls', bad);
    expect(r.http).toBe(422);
    expect(r.body.document.statusCode).toBe(13);
    expect(Object.keys(r.body.document.detailedErrors!)).toEqual(expect.arrayContaining(['employee.salary', 'surprise', 'testSetId']));
    // The totals beyond DIAN's ±2.00 tolerance are the service's own rule (DIAN-NOM-*).
    const sums = { ...numbered(load('payroll-min'), 'NOM', 92), voucher_total: 1 };
    const t = await submit('/service/payrolls', sums);
    expect(t.http).toBe(422);
    expect(Object.keys(t.body.document.detailedErrors!)).toContain('voucher_total');
    // A 103 without note_type, on the adjustment route.
    const note = await submit('/service/payrolls/adjustment', { ...load('payroll-adjustment-delete'), note_type: undefined });
    expect(note.http).toBe(422);
    expect(Object.keys(note.body.document.detailedErrors!)).toContain('note_type');
    expect(sends()).toBe(before);
  });

  it('another body on a used number is a 422 at sequence.consecutive', async () => {
    const other = { ...load('payroll-min'), notes: ['otra'] };
    const r = await submit('/service/payrolls', other);
    expect(r.http).toBe(422);
    expect(r.body.document.detailedErrors!['sequence.consecutive']?.[0]).toMatch(/ya fue usado/);
  });

  it('a lost answer is settled with GetStatus by the CUNE, never by a second send', async () => {
    const before = { send: sends(), status: sim().stats().requests.GetStatus ?? 0 };
    sim().setFaults({ dropAfterRate: 1, operations: ['SendNominaSync'], limit: 1 });
    const r = await submit('/service/payrolls', numbered(load('payroll-min'), 'NOM', 93));
    sim().setFaults({});
    expect(r.http, JSON.stringify(r.body)).toBe(200);
    expect(r.body.document.status).toBe(2);
    expect(sends()).toBe(before.send + 1);
    expect(sim().stats().requests.GetStatus).toBe(before.status + 1);
    expect((await status(r.body.payrollId)).body.dianResponse.responseDian!.Envelope.Header.Action).toMatch(/GetStatusResponse$/);
  });

  it('a lost answer DIAN cannot confirm at once: 503, then the status record asks GetStatus and the retry sends nothing', async () => {
    const body = numbered(load('payroll-min'), 'NOM', 98);
    const before = sends();
    sim().setFaults({ dropAfterRate: 1, operations: ['SendNominaSync', 'GetStatus'], limit: 2 });
    const first = await post('/service/payrolls', body);
    sim().setFaults({});
    expect(first.status).toBe(503);
    const unconfirmed = (await first.json()) as { message: string; payrollId: string };
    expect(unconfirmed.message).toMatch(/no se enviará de nuevo sin consultar su estado/);
    // The status record asks GetStatus by the CUNE and settles it.
    const statusCalls = sim().stats().requests.GetStatus ?? 0;
    const s = await status(unconfirmed.payrollId);
    expect(s.body.data.status).toBe(2);
    expect(s.body.dianResponse.responseDian!.Envelope.Header.Action).toMatch(/GetStatusResponse$/);
    expect(sim().stats().requests.GetStatus).toBe(statusCalls + 1);
    const retry = await submit('/service/payrolls', body);
    expect(retry.http, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.payrollId).toBe(unconfirmed.payrollId);
    expect(sim().stats().requests.GetStatus).toBe(statusCalls + 1);
    expect(sends()).toBe(before + 1);
    expect(sim().stats().documents.duplicates).toBe(0);
  });

  it('two identical requests at once: one SendNominaSync, the other told to retry (409) or given the same answer', async () => {
    const body = numbered(load('payroll-min'), 'NOM', 99);
    const before = sends();
    const [a, b] = await Promise.all([post('/service/payrolls', body), post('/service/payrolls', body)]);
    expect([
      [200, 200],
      [200, 409],
    ]).toContainEqual([a.status, b.status].sort());
    expect(sends()).toBe(before + 1);
    const again = await submit('/service/payrolls', body);
    expect(again.http).toBe(200);
    expect(again.body).toEqual(await (a.status === 200 ? a : b).json());
  });

  it('DIAN down: 503, nothing stored as sent, the number free', async () => {
    const body = numbered(load('payroll-min'), 'NOM', 94);
    sim().setOutage('503');
    const r = await post('/service/payrolls', body);
    sim().setOutage('off');
    expect(r.status).toBe(503);
    expect(r.headers.get('Retry-After')).toBeTruthy();
    expect(((await r.json()) as { message: string }).message).toMatch(/no fue enviada/);
    const later = await submit('/service/payrolls', body);
    expect(later.http).toBe(200);
  });

  it('habilitación: testSetId → SendTestSetAsync, pending (1), then GetStatusZip gives the accepted record (2) with testing_set', async () => {
    const before = { sync: sends(), async: sim().stats().requests.SendTestSetAsync ?? 0 };
    const r = await submit('/service/payrolls', { ...numbered(load('payroll-min'), 'NOM', 95), testSetId: TEST_SET });
    expect(r.http, JSON.stringify(r.body)).toBe(200);
    expect(r.body.document).toMatchObject({ status: 1, statusCode: null });
    expect(r.body.document.zipKey).toEqual(expect.any(String));
    expect(sends()).toBe(before.sync);
    expect(sim().stats().requests.SendTestSetAsync).toBe(before.async + 1);
    let s = await status(r.body.payrollId);
    for (let i = 0; i < 50 && s.body.data.status === 1; i++) {
      await new Promise((ok) => setTimeout(ok, 100));
      s = await status(r.body.payrollId);
    }
    expect(s.body.data).toMatchObject({ status: 2, testing_set: TEST_SET, type: 'test_set', signed_xml_key: r.body.document.zipKey });
    expect(s.body.dianResponse.responseDian!.Envelope.Header.Action).toBe('http://wcf.dian.colombia/IWcfDianCustomerServices/GetStatusZipResponse');
    expect(dianResponse(s.body)).toMatchObject({ IsValid: 'true', StatusCode: '00', XmlDocumentKey: r.body.document.uuid });
    expect(sim().stats().requests.SendTestSetAsync).toBe(before.async + 1);
    // The same request again: the stored answer, nothing uploaded again.
    const again = await submit('/service/payrolls', { ...numbered(load('payroll-min'), 'NOM', 95), testSetId: TEST_SET });
    expect(again.body.document.status).toBe(2);
    expect(sim().stats().requests.SendTestSetAsync).toBe(before.async + 1);
  });

  it('a lost test-set upload answer: 503 with payrollId, never uploaded again; the record settles it by GetStatus', async () => {
    const body = { ...numbered(load('payroll-min'), 'NOM', 100), testSetId: TEST_SET };
    const uploads = sim().stats().requests.SendTestSetAsync ?? 0;
    sim().setFaults({ dropAfterRate: 1, operations: ['SendTestSetAsync'], limit: 1 });
    const first = await post('/service/payrolls', body);
    sim().setFaults({});
    expect(first.status).toBe(503);
    const { payrollId: id } = (await first.json()) as { payrollId: string };
    // Asked again before DIAN processed the upload: still unconfirmed, nothing uploaded again.
    const early = await post('/service/payrolls', body);
    expect([503, 200]).toContain(early.status);
    expect(sim().stats().requests.SendTestSetAsync).toBe(uploads + 1);
    let s = await status(id);
    for (let i = 0; i < 50 && s.body.data.status !== 2; i++) {
      await new Promise((ok) => setTimeout(ok, 100));
      s = await status(id);
    }
    expect(s.body.data).toMatchObject({ status: 2, type: 'test_set', testing_set: TEST_SET });
    expect(s.body.dianResponse.responseDian!.Envelope.Header.Action).toMatch(/GetStatusResponse$/);
    const retry = await submit('/service/payrolls', body);
    expect(retry.http).toBe(200);
    expect(retry.body.document.status).toBe(2);
    expect(sim().stats().requests.SendTestSetAsync).toBe(uploads + 1);
  });

  it('the Authotization spelling works on both routes; the document routes keep to Authorization', async () => {
    const r = await submit('/service/payrolls', numbered(load('payroll-min'), 'NOM', 96), h.token, 'Authotization');
    expect(r.http).toBe(200);
    expect((await status(r.body.payrollId, h.token, 'Authotization')).http).toBe(200);
    expect((await post('/service/invoice', {}, h.token, 'Authotization')).status).toBe(401);
    expect((await call(`/service/payrolls/${r.body.payrollId}`)).status).toBe(401);
  });

  it('tenant isolation: another company’s payroll is a 404, by id and by CUNE; its employer must be the token’s company', async () => {
    expect((await status(payrollId, h.otherToken)).http).toBe(404);
    expect((await status(cune, h.otherToken)).http).toBe(404);
    expect((await status('999999', h.token)).http).toBe(404);
    const r = await submit('/service/payrolls', numbered(load('payroll-min'), 'NOM', 97), h.otherToken);
    expect(r.http).toBe(422);
    expect(Object.keys(r.body.document.detailedErrors!)).toContain('employer.nit');
  });

  it('the OpenAPI document has the payroll routes with their request schemas', async () => {
    const doc = (await (await call('/service/openapi.json')).json()) as { paths: Record<string, Obj>; components: { schemas: Record<string, Obj> } };
    expect(doc.paths['/service/payrolls']).toHaveProperty('post');
    expect(doc.paths['/service/payrolls/adjustment']).toHaveProperty('post');
    expect(doc.paths['/service/payrolls/{payrollId}']).toHaveProperty('get');
    const schema = doc.components.schemas.Request_payroll as { properties: Obj; required: string[] };
    expect(schema.properties).toHaveProperty('employee');
    expect(schema.properties).toHaveProperty('testSetId');
    expect(schema.required).toEqual(expect.arrayContaining(['employer', 'employee', 'sequence']));
  });
});
