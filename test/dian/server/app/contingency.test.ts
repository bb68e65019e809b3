/**
 * Contingency against the in-process local DIAN, on SQLite and PostgreSQL: DIAN down while issuing normally
 * (503), the contingency invoice issued without transmission (AttachedDocument without ApplicationResponse,
 * PDF, zip; nothing sent), listed as pending with its hours left, transmitted once DIAN is back (the same
 * document, the full set, idempotent), a date outside every declared window refused, and the deadline warnings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { DIAN_KINDS, type DianKindId } from '../../../../src/dian/index.js';
import { example, type Harness, NOW, startHarness } from '../helpers.js';

type Answer = { status: string; message: string; document: Record<string, unknown> | null };

describe.each(['sqlite', 'postgres'] as const)('DIAN service contingency (%s)', (engine) => {
  let h: Harness;
  let now = NOW;
  const warnings: { obj: Record<string, unknown>; msg?: string }[] = [];
  const logger = {
    debug() {},
    info() {},
    error() {},
    warn(obj: object, msg?: string) {
      warnings.push({ obj: obj as Record<string, unknown>, msg });
    },
  };
  const post = (kind: DianKindId, body: unknown, token = h.token) =>
    h.server.app.request(DIAN_KINDS[kind].path, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const get = (path: string, token = h.token) => h.server.app.request(path, { headers: { Authorization: `Bearer ${token}` } });
  const sends = () => h.server.simulator!.stats().requests.SendBillSync ?? 0;
  const contingency = (number: number, sendDian: boolean, extra: Record<string, unknown> = {}) =>
    post('contingency-invoice', { ...example('contingency-invoice'), number, send_dian: sendDian, ...extra });
  const decoded = (b64: unknown) => Buffer.from(b64 as string, 'base64');

  beforeAll(async () => {
    h = await startHarness(engine, { clock: () => now, logger });
  });
  afterAll(async () => {
    await h?.cleanup();
  });

  it('DIAN down: 503; contingency without transmission; pending; then transmitted once DIAN is back', async () => {
    const sim = h.server.simulator!;
    sim.setOutage('503');
    const normal = await post('invoice', { ...example('invoice'), number: 990000700 });
    expect(normal.status).toBe(503);
    expect(((await normal.json()) as Answer).message).toContain('/service/contingency-invoice');

    // send_dian false while DIAN is down: the document, signed, with the AttachedDocument but no answer of DIAN.
    const before = sends();
    const r = await contingency(990000701, false);
    const pending = (await r.json()) as Answer;
    expect(r.status, JSON.stringify(pending)).toBe(200);
    expect(sends()).toBe(before);
    const doc = pending.document!;
    expect(doc.number).toBe('SETP990000701');
    expect(doc.uuid).toMatch(/^[0-9a-f]{96}$/);
    expect(doc.appResponseBase64Bytes).toBeNull();
    const attached = decoded(doc.attachedDocumentBase64Bytes).toString('utf8');
    expect(attached).toContain('<AttachedDocument');
    expect(attached).not.toContain('ApplicationResponse');
    expect(decoded(doc.pdfBase64Bytes).subarray(0, 5).toString()).toBe('%PDF-');
    const files = unzipSync(new Uint8Array(decoded(doc.zipBase64Bytes)));
    const xml = Buffer.from(Object.values(files)[0]!).toString('utf8');
    expect(xml).toContain('<cbc:InvoiceTypeCode>04</cbc:InvoiceTypeCode>');
    expect(xml).toContain(doc.uuid as string);

    // The same request again: the stored answer; the document is pending.
    const again = await contingency(990000701, false);
    expect(await again.json()).toEqual(pending);
    const stored = (await (await get('/service/documents/SETP990000701')).json()) as { document: { state: string } };
    expect(stored.document.state).toBe('contingency_pending');

    // Pending, with its hours left: window end (2025-03-15T04:59:59Z) + 48 h − now (15:00Z) = 61.99… h.
    const list = (await (await get('/service/contingency/pending')).json()) as { deadlineHours: number; documents: Record<string, unknown>[] };
    expect(list.deadlineHours).toBe(48);
    expect(list.documents).toEqual([
      {
        number: 'SETP990000701',
        kind: 'contingency-invoice',
        uuid: doc.uuid,
        issuedAt: '2025-03-14T15:24:37.000Z',
        deadline: '2025-03-17T04:59:59.000Z',
        hoursLeft: 61.9,
      },
    ]);
    expect(((await (await get('/service/contingency/pending', h.otherToken)).json()) as { documents: unknown[] }).documents).toEqual([]);

    // send_dian true while DIAN is still down: 503, still pending (not released).
    const early = await contingency(990000701, true);
    expect(early.status).toBe(503);
    expect(((await early.json()) as Answer).message).toMatch(/sigue pendiente/);
    expect(((await (await get('/service/contingency/pending')).json()) as { documents: unknown[] }).documents).toHaveLength(1);

    // DIAN back: the stored document is sent; the full set; idempotent.
    sim.setOutage('off');
    const sent = await contingency(990000701, true);
    const full = (await sent.json()) as Answer;
    expect(sent.status, JSON.stringify(full)).toBe(200);
    expect(sends()).toBe(before + 1);
    expect(full.document!.statusCode).toBe(6);
    expect(full.document!.uuid).toBe(doc.uuid);
    expect(full.document!.zipBase64Bytes).toBe(doc.zipBase64Bytes);
    expect(typeof full.document!.appResponseBase64Bytes).toBe('string');
    expect(decoded(full.document!.attachedDocumentBase64Bytes).toString('utf8')).toContain('ApplicationResponse');
    const replay = await contingency(990000701, true);
    expect(await replay.json()).toEqual(full);
    const late = await contingency(990000701, false);
    expect(await late.json()).toEqual(full);
    expect(sends()).toBe(before + 1);
    expect(((await (await get('/service/contingency/pending')).json()) as { documents: unknown[] }).documents).toEqual([]);
  });

  it('send_dian true on a number never stored: built and sent at once', async () => {
    const before = sends();
    const r = await contingency(990000702, true);
    const json = (await r.json()) as Answer;
    expect(r.status, JSON.stringify(json)).toBe(200);
    expect(json.document!.statusCode).toBe(6);
    expect(sends()).toBe(before + 1);
  });

  it('a date outside every declared contingency window: 422 at date, in Spanish, nothing stored', async () => {
    const r = await contingency(990000703, false, { date: '2025-03-13', time: '18:00:00' });
    const json = (await r.json()) as { document: { statusCode: number; detailedErrors: { path?: string; field?: string; message?: string }[] } };
    expect(r.status).toBe(422);
    expect(json.document.statusCode).toBe(13);
    expect(JSON.stringify(json.document.detailedErrors)).toContain('date');
    expect(JSON.stringify(json.document.detailedErrors)).toContain('ventana de contingencia');
    expect((await get('/service/documents/SETP990000703')).status).toBe(404);
    // Another company has no window at all.
    const other = await post('contingency-invoice', { ...example('contingency-invoice'), identification_number: 900373076, send_dian: false }, h.otherToken);
    expect(other.status).toBe(422);
    expect(JSON.stringify(await other.json())).toContain('ventana de contingencia');
  });

  it('warns about pending documents within 24 h of their deadline (at start and on each check)', async () => {
    expect((await contingency(990000705, false)).status).toBe(200);
    warnings.length = 0;
    expect(await h.server.checkContingencyDeadlines()).toEqual([]);
    expect(warnings).toEqual([]);
    now = new Date(Date.parse('2025-03-17T04:59:59Z') - 10 * 3_600_000);
    try {
      const near = await h.server.checkContingencyDeadlines();
      expect(near.map((p) => `${p.prefix}${p.number}`)).toEqual(['SETP990000705']);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.obj).toMatchObject({ number: 'SETP990000705', hoursLeft: 10, deadline: '2025-03-17T04:59:59.000Z' });
      const list = (await (await get('/service/contingency/pending')).json()) as { documents: { hoursLeft: number }[] };
      expect(list.documents.map((d) => d.hoursLeft)).toEqual([10]);
    } finally {
      now = NOW;
    }
  });
});
