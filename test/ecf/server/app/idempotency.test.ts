/**
 * `Idempotency-Key` on POST /api/v1/documents/{tipo} (issue 16), in process: a repeated request with the same
 * key gets the same 202 and document without consuming a second e-NCF; the key with another request is a 422;
 * no key behaves as before; keys are per issuer, expire after 24 hours (injected clock) and are purged; a
 * refused request stores no key; several requests with one key in flight at once make one document.
 * Runs on SQLite here and on PostgreSQL through test/ecf/server/postgres-api/idempotency.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildEcfXml, type BuildContext, type IssuerProfile } from '../../../../src/ecf/index.js';
import { baseDoc } from '../../helpers/docs.js';
import { body, createHarness, ISSUER_PROFILE, NOW, type Harness } from './harness.js';

const HOUR = 60 * 60 * 1000;

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

function post(tipo: string, payload: unknown, key?: string, init: { token?: string; contentType?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': init.contentType ?? 'application/json' };
  if (key !== undefined) headers['idempotency-key'] = key;
  return h.call(`/api/v1/documents/${tipo}`, {
    method: 'POST',
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
    headers,
    ...(init.token !== undefined ? { token: init.token } : {}),
  });
}

/** Next number of the issuer's sequence of `tipo`, and how many documents it has. */
async function counters(issuerId = h.issuer.id, tipo = '31') {
  const next = (await h.storage.listSequences(issuerId)).find((s) => s.tipo === tipo)!.next;
  const docs = (await h.storage.listDocuments(issuerId, { limit: 1000 })).length;
  return { next, docs };
}

function xmlFor(n: number, doc = baseDoc('31')): string {
  const ctx: BuildContext = {
    emisor: ISSUER_PROFILE as unknown as IssuerProfile,
    encf: `E31${String(n).padStart(10, '0')}`,
    fecha_emision: '01-04-2026',
    fecha_vencimiento_secuencia: '31-12-2027',
  };
  return buildEcfXml('31', doc, ctx);
}

async function expectKeyRefusal(res: Response, reason: RegExp): Promise<void> {
  expect(res.status).toBe(422);
  const b = await body(res);
  expect(b.status).toBe('error');
  expect(b.document).toMatchObject({ status_code: 2, status: 'rejected_validation' });
  expect(b.document.detailed_errors['Idempotency-Key'].join(' ')).toMatch(reason);
  expect(res.headers.get('idempotent-replayed')).toBeNull();
}

describe('Idempotency-Key, JSON', () => {
  it('the same key and body → the same 202 and record, one e-NCF consumed, marked as a replay', async () => {
    const doc = baseDoc('31');
    const first = await post('31', doc, 'pedido-0001');
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const a = await body(first);
    const second = await post('31', doc, 'pedido-0001');
    expect(second.status).toBe(202);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const b = await body(second);
    expect(b).toEqual(a);
    expect(a.document).toMatchObject({ e_ncf: 'E310000000001', status: 'received' });
    expect(await counters()).toEqual({ next: 2, docs: 1 });
    // The next request with another key continues the sequence: nothing was burnt by the replay.
    expect((await body(await post('31', doc, 'pedido-0002'))).document.e_ncf).toBe('E310000000002');
  });

  it('the same key with another body, tipo or content type → 422 in Spanish, nothing issued', async () => {
    const doc = baseDoc('31');
    expect((await post('31', doc, 'k')).status).toBe(202);
    const changed = baseDoc('31');
    changed.items[0].nombre = 'Otro artículo';
    await expectKeyRefusal(await post('31', changed, 'k'), /ya se usó en las últimas 24 horas con otra solicitud/);
    // The same bytes with other whitespace are another body (the fingerprint is over the bytes).
    await expectKeyRefusal(await post('31', JSON.stringify(doc, null, 2), 'k'), /otra solicitud/);
    await expectKeyRefusal(await post('33', doc, 'k'), /otra solicitud/);
    await expectKeyRefusal(await post('31', xmlFor(5), 'k', { contentType: 'application/xml' }), /otra solicitud/);
    const res = await post('31', changed, 'k');
    expect((await body(res)).message).toMatch(/^La clave Idempotency-Key ya se usó con una solicitud diferente/);
    expect(await counters()).toEqual({ next: 2, docs: 1 });
  });

  it('a replay answers the document as it stands now, and does not wake the worker again', async () => {
    const woken: number[] = [];
    const own = await createHarness({ app: { onReceived: (r) => woken.push(r.id) } });
    try {
      const send = () =>
        own.call('/api/v1/documents/31', {
          method: 'POST',
          body: JSON.stringify(baseDoc('31')),
          headers: { 'content-type': 'application/json', 'idempotency-key': 'estado' },
        });
      const first = await body(await send());
      await own.storage.updateDocument(first.document.document_id, { status: 'in_process_authority', trackId: 'track-1' });
      const again = await body(await send());
      expect(again.document).toMatchObject({ document_id: first.document.document_id, status: 'in_process_authority', track_id: 'track-1' });
      expect(woken).toEqual([first.document.document_id]);
    } finally {
      await own.close();
    }
  });

  it('without the header every request is a new document (as before)', async () => {
    const doc = baseDoc('31');
    const a = await body(await post('31', doc));
    const b = await body(await post('31', doc));
    expect([a.document.e_ncf, b.document.e_ncf]).toEqual(['E310000000001', 'E310000000002']);
    expect(await counters()).toEqual({ next: 3, docs: 2 });
  });

  it('keys are per issuer: another issuer’s request with the same key is its own document', async () => {
    const doc = baseDoc('31');
    const mine = await body(await post('31', doc, 'compartida'));
    const theirs = await post('31', doc, 'compartida', { token: h.other.token });
    expect(theirs.status).toBe(202);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    const t = await body(theirs);
    expect(t.document.document_id).not.toBe(mine.document.document_id);
    expect(await counters(h.other.issuer.id)).toEqual({ next: 2, docs: 1 });
    expect(await counters()).toEqual({ next: 2, docs: 1 });
  });

  it('a key is honoured for 24 hours; after that (and the purge) the same request is a new document', async () => {
    const doc = baseDoc('31');
    const first = await body(await post('31', doc, 'diaria'));
    h.now.value = new Date(NOW.getTime() + 23 * HOUR);
    expect((await post('31', doc, 'diaria')).headers.get('idempotent-replayed')).toBe('true');
    h.now.value = new Date(NOW.getTime() + 25 * HOUR);
    // Another keyed request runs the purge (the key's row is gone), then the old key is new again.
    expect((await post('31', doc, 'otra')).status).toBe(202);
    expect(await h.storage.findIdempotencyKey(h.issuer.id, 'diaria', 0)).toBeNull();
    const again = await post('31', doc, 'diaria');
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    const b = await body(again);
    expect(b.document.document_id).not.toBe(first.document.document_id);
    expect(b.document.e_ncf).toBe('E310000000003');
  });

  it('an expired key not yet purged is treated as new too', async () => {
    const doc = baseDoc('31');
    await post('31', doc, 'k1'); // the app purges on its first keyed request, then only every 10 minutes
    h.now.value = new Date(NOW.getTime() + 5 * 60 * 1000);
    const first = await body(await post('31', doc, 'vencida'));
    h.now.value = new Date(NOW.getTime() + 5 * 60 * 1000 + 24 * HOUR + 1);
    const changed = baseDoc('31');
    changed.items[0].nombre = 'Otro artículo';
    // The purge ran 10 min + 24 h ago; with another body the expired key is not a conflict.
    const res = await post('31', changed, 'vencida');
    expect(res.status).toBe(202);
    expect((await body(res)).document.document_id).not.toBe(first.document.document_id);
  });

  it('a refused request stores no key: the corrected retry with the same key is issued', async () => {
    const bad = baseDoc('31');
    bad.totales.monto_total += 10;
    expect((await post('31', bad, 'corregir')).status).toBe(422);
    expect(await h.storage.findIdempotencyKey(h.issuer.id, 'corregir', 0)).toBeNull();
    const res = await post('31', baseDoc('31'), 'corregir');
    expect(res.status).toBe(202);
    expect((await body(res)).document.e_ncf).toBe('E310000000001');
  });

  it('several requests with one key in flight at once → one document, every answer the same record', async () => {
    const doc = baseDoc('31');
    const answers = await Promise.all(Array.from({ length: 10 }, () => post('31', doc, 'carrera')));
    const bodies = await Promise.all(answers.map(body));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(202));
    expect(new Set(bodies.map((b) => b.document.document_id)).size).toBe(1);
    expect(answers.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    expect(await counters()).toEqual({ next: 2, docs: 1 });
  });
});

describe('Idempotency-Key, passthrough XML', () => {
  it('the same key and XML → the same record (not a duplicate e-NCF refusal); another XML → 422', async () => {
    const xml = xmlFor(7);
    const first = await post('31', xml, 'xml-1', { contentType: 'application/xml' });
    expect(first.status).toBe(202);
    const a = await body(first);
    const second = await post('31', xml, 'xml-1', { contentType: 'application/xml' });
    expect(second.status).toBe(202);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await body(second)).toEqual(a);
    // Without the key, the same XML is still refused as a used e-NCF.
    const dup = await post('31', xml, undefined, { contentType: 'application/xml' });
    expect(dup.status).toBe(422);
    expect((await body(dup)).document.errors.join(' ')).toMatch(/E310000000007 ya fue utilizado/);
    await expectKeyRefusal(await post('31', xmlFor(8), 'xml-1', { contentType: 'application/xml' }), /otra solicitud/);
    // text/xml is another content type, so another request.
    await expectKeyRefusal(await post('31', xml, 'xml-1', { contentType: 'text/xml' }), /otra solicitud/);
    expect((await h.storage.listDocuments(h.issuer.id, { limit: 10 })).map((d) => d.encf)).toEqual(['E310000000007']);
  });

  it('several passthrough requests with one key at once → one document', async () => {
    const xml = xmlFor(9);
    const answers = await Promise.all(Array.from({ length: 8 }, () => post('31', xml, 'xml-carrera', { contentType: 'application/xml' })));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(202));
    const ids = new Set((await Promise.all(answers.map(body))).map((b) => b.document.document_id));
    expect(ids.size).toBe(1);
    expect((await h.storage.listDocuments(h.issuer.id, { limit: 10 })).map((d) => d.encf)).toEqual(['E310000000009']);
  });
});

describe('Idempotency-Key, the header itself', () => {
  it('an empty, too long or non-ASCII key → 422 at Idempotency-Key, nothing consumed', async () => {
    const doc = baseDoc('31');
    await expectKeyRefusal(await post('31', doc, ''), /no puede estar vacío/);
    await expectKeyRefusal(await post('31', doc, '""'), /no puede estar vacío/);
    await expectKeyRefusal(await post('31', doc, 'a'.repeat(256)), /como máximo 255 caracteres; se recibieron 256/);
    await expectKeyRefusal(await post('31', doc, 'clave-año'), /ASCII imprimibles/);
    await expectKeyRefusal(await post('31', doc, '"mal"formada"'), /comillas está mal formada/);
    expect(await counters()).toEqual({ next: 1, docs: 0 });
    const res = await post('31', doc, 'a'.repeat(255));
    expect(res.status).toBe(202);
  });

  it('a structured-field string is the same key as its unquoted value', async () => {
    const doc = baseDoc('31');
    const a = await body(await post('31', doc, '"8e03978e-40d5-43e8-bc93-6894a57f9324"'));
    const again = await post('31', doc, '8e03978e-40d5-43e8-bc93-6894a57f9324');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await body(again)).document.document_id).toBe(a.document.document_id);
  });
});
