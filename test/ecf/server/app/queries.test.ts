/**
 * Authentication, the record, the list, the status catalog, xml/pdf before signing, error mapping
 * (404/500 envelopes) and the authority endpoints when the authority cannot be reached.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { Writable } from 'node:stream';
import { createApp } from '../../../../src/ecf/server/app/index.js';
import { createSignerProvider } from '../../../../src/ecf/server/signers.js';
import type { Storage } from '../../../../src/ecf/server/storage/types.js';
import { STATUSES } from '../../../../src/ecf/server/statuses.js';
import { generateToken, hashToken } from '../../../../src/shared/server-kit/tokens.js';
import { createDgiiClient } from '../../../../src/ecf/dgii/index.js';
import { baseDoc } from '../../helpers/docs.js';
import { schemaValidator } from '../../helpers/xsd.js';
import { body, createHarness, deadUrl, NOW, type Harness } from './harness.js';

let h: Harness;
let first: string;
beforeAll(async () => {
  h = await createHarness();
  first = (await body(await h.post('31', baseDoc('31')))).document.e_ncf;
});
afterAll(async () => {
  await h.close();
});

describe('authentication', () => {
  const paths = ['/api/v1/statuses', '/api/v1/documents', '/api/v1/documents/E310000000001', '/api/v1/documents/E310000000001/xml'];

  it('401 envelope when the token is missing, malformed, unknown or revoked', async () => {
    const revoked = generateToken();
    const rec = await h.storage.addToken(h.issuer.id, hashToken(revoked), 'revoked');
    await h.storage.revokeToken(rec.id);
    const variants: [string, Record<string, string>][] = [
      ['missing', {}],
      ['no scheme', { authorization: h.token }],
      ['basic scheme', { authorization: `Basic ${h.token}` }],
      ['empty bearer', { authorization: 'Bearer ' }],
      ['unknown token', { authorization: `Bearer ${generateToken()}` }],
      ['revoked token', { authorization: `Bearer ${revoked}` }],
    ];
    for (const path of paths) {
      for (const [name, headers] of variants) {
        const res = await h.call(path, { headers, token: null });
        expect(res.status, `${name} ${path}`).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
        const b = await body(res);
        expect(b).toEqual({ status: 'error', message: expect.stringMatching(/Token de acceso ausente, inválido o revocado/), document: null });
      }
    }
    const post = await h.post('31', baseDoc('31'), { token: generateToken() });
    expect(post.status).toBe(401);
  });

  it('the scheme is case-insensitive', async () => {
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      const res = await h.call('/api/v1/statuses', { headers: { authorization: `${scheme} ${h.token}` }, token: null });
      expect(res.status, scheme).toBe(200);
    }
  });

  it('documentation needs no token', async () => {
    expect((await h.call('/api/v1/openapi.json', { token: null })).status).toBe(200);
    expect((await h.call('/api/v1/docs', { token: null })).status).toBe(200);
  });
});

describe('GET /api/v1/documents/{eNCF}', () => {
  it('200 with the full record', async () => {
    const res = await h.call(`/api/v1/documents/${first}`);
    expect(res.status).toBe(200);
    const b = await body(res);
    expect(b.status).toBe('success');
    expect(Object.keys(b.document).sort()).toEqual([
      'commercial_approvals',
      'document_id',
      'e_ncf',
      'ecf_type_code',
      'errors',
      'is_valid_fiscally',
      'issued_at',
      'security_code',
      'sequence_reusable',
      'signed_at',
      'status',
      'status_code',
      'status_description',
      'total_amount',
      'total_itbis',
      'track_id',
    ]);
    expect(b.document).toMatchObject({
      e_ncf: first,
      ecf_type_code: '31',
      track_id: null,
      status_code: 1,
      status: 'received',
      is_valid_fiscally: false,
      security_code: null,
      issued_at: '01-04-2026',
      signed_at: null,
      total_amount: '236.00',
      total_itbis: '36.00',
      sequence_reusable: null,
      errors: null,
      commercial_approvals: [],
    });
  });

  it('reflects what the worker recorded (statuses and fields)', async () => {
    const e = (await body(await h.post('33', baseDoc('33')))).document.e_ncf;
    const rec = (await h.storage.getDocumentByEncf(h.issuer.id, e))!;
    await h.storage.updateDocument(rec.id, {
      status: 'rejected_authority',
      trackId: 'trk-1',
      securityCode: 'AbC123',
      signedAt: '01-04-2026 10:00:05',
      sequenceReusable: true,
      errors: ['El RNC del comprador no es válido.'],
    });
    const b = await body(await h.call(`/api/v1/documents/${e}`));
    expect(b.document).toMatchObject({
      status: 'rejected_authority',
      status_code: 5,
      track_id: 'trk-1',
      security_code: 'AbC123',
      signed_at: '01-04-2026 10:00:05',
      sequence_reusable: true,
      errors: ['El RNC del comprador no es válido.'],
      is_valid_fiscally: false,
    });
    expect(b.document.status_description).toBe(STATUSES.find((s) => s.status === 'rejected_authority')!.description);
  });

  it('404 for an unknown e-NCF, a malformed one, and another issuer’s', async () => {
    // A type this issuer never issued here, so the same e-NCF exists only for the other issuer.
    const theirs = (await body(await h.post('47', baseDoc('47'), { token: h.other.token }))).document.e_ncf;
    expect(await h.storage.getDocumentByEncf(h.issuer.id, theirs)).toBeNull();
    for (const path of [
      `/api/v1/documents/E319999999999`,
      '/api/v1/documents/nada',
      `/api/v1/documents/${theirs}`,
      `/api/v1/documents/${theirs}/xml`,
      `/api/v1/documents/${theirs}/pdf`,
      `/api/v1/documents/${theirs}/track-ids`,
      `/api/v1/documents/${theirs}/authority-status`,
    ]) {
      const res = await h.call(path);
      expect(res.status, path).toBe(404);
      const b = await body(res);
      expect(b.status).toBe('error');
      expect(b.message).toMatch(/No existe el e-NCF/);
      expect(b.document).toBeNull();
    }
    // The owner sees it.
    expect((await h.call(`/api/v1/documents/${theirs}`, { token: h.other.token })).status).toBe(200);
  });
});

describe('xml and pdf before signing / acceptance', () => {
  it('409 with the current record until signed; the signed XML afterwards', async () => {
    const e = (await body(await h.post('31', baseDoc('31')))).document.e_ncf;
    const xml = await h.call(`/api/v1/documents/${e}/xml`);
    expect(xml.status).toBe(409);
    const b = await body(xml);
    expect(b.message).toMatch(/aún no ha sido firmado/);
    expect(b.document).toMatchObject({ e_ncf: e, status: 'received' });
    const pdf = await h.call(`/api/v1/documents/${e}/pdf`);
    expect(pdf.status).toBe(409);
    expect((await body(pdf)).message).toMatch(/solo para documentos aceptados.*received/);

    const rec = (await h.storage.getDocumentByEncf(h.issuer.id, e))!;
    const stand = rec.unsignedXml.replace('</ECF>', '<FechaHoraFirma>01-04-2026 10:00:00</FechaHoraFirma></ECF>');
    await h.storage.updateDocument(rec.id, { signedXml: stand, status: 'in_process_authority' });
    const ok = await h.call(`/api/v1/documents/${e}/xml`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(ok.headers.get('content-disposition')).toContain(`130182452${e}.xml`);
    expect(await ok.text()).toBe(stand);
    // Signed but not accepted yet: still no PDF.
    expect((await h.call(`/api/v1/documents/${e}/pdf`)).status).toBe(409);
  });
});

describe('GET /api/v1/documents (list)', () => {
  it('pages with a cursor, newest first, and filters by status, tipo and dates', async () => {
    const t = await createHarness();
    try {
      const issued: string[] = [];
      for (let i = 0; i < 5; i++) issued.push((await body(await t.post('31', baseDoc('31')))).document.e_ncf);
      t.now.value = new Date('2026-04-03T14:00:00Z');
      for (let i = 0; i < 2; i++) issued.push((await body(await t.post('43', baseDoc('43')))).document.e_ncf);
      const rec = (await t.storage.getDocumentByEncf(t.issuer.id, issued[0]!))!;
      await t.storage.updateDocument(rec.id, { status: 'accepted_authority' });

      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const q: string = `/api/v1/documents?limit=3${cursor ? `&cursor=${cursor}` : ''}`;
        const b = await body(await t.call(q));
        expect(b.status).toBe('success');
        expect(b.data.items.length).toBeLessThanOrEqual(3);
        seen.push(...b.data.items.map((d: any) => d.e_ncf));
        cursor = b.data.next_cursor;
        pages++;
      } while (cursor && pages < 10);
      expect(pages).toBe(3);
      expect(seen).toEqual([...issued].reverse());

      const by = async (q: string) => (await body(await t.call(`/api/v1/documents?${q}`))).data.items.map((d: any) => d.e_ncf);
      expect(await by('tipo=43')).toEqual([issued[6], issued[5]]);
      expect(await by('status=accepted_authority')).toEqual([issued[0]]);
      expect(await by('desde=02-04-2026')).toEqual([issued[6], issued[5]]);
      expect(await by('hasta=01-04-2026')).toHaveLength(5);
      expect(await by('desde=01-04-2026&hasta=01-04-2026&tipo=31&status=received')).toEqual([issued[4], issued[3], issued[2], issued[1]]);
      // Another issuer's documents never appear.
      expect((await body(await t.call('/api/v1/documents', { token: t.other.token }))).data).toEqual({ items: [], next_cursor: null });
    } finally {
      await t.close();
    }
  });

  it('422 with detailed_errors for invalid parameters', async () => {
    const cases: [string, string][] = [
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['limit=abc', 'limit'],
      ['status=perdido', 'status'],
      ['tipo=30', 'tipo'],
      ['desde=2026-04-01', 'desde'],
      ['hasta=31-02-2026', 'hasta'],
      ['cursor=-1', 'cursor'],
      ['desde=02-04-2026&hasta=01-04-2026', 'desde'],
    ];
    for (const [q, key] of cases) {
      const res = await h.call(`/api/v1/documents?${q}`);
      expect(res.status, q).toBe(422);
      const b = await body(res);
      expect(b.status).toBe('error');
      expect(b.message).toBe('Parámetros de consulta inválidos.');
      expect(b.document.detailed_errors[key], q).toBeDefined();
    }
    expect((await h.call('/api/v1/documents?limit=200')).status).toBe(200);
  });
});

describe('GET /api/v1/statuses', () => {
  it('the catalog with codes, Spanish descriptions and terminal flags', async () => {
    const b = await body(await h.call('/api/v1/statuses'));
    expect(b.status).toBe('success');
    expect(b.data.map((s: any) => [s.status, s.status_code, s.terminal])).toEqual([
      ['received', 1, false],
      ['rejected_validation', 2, true],
      ['in_process_authority', 3, false],
      ['accepted_authority', 4, true],
      ['rejected_authority', 5, true],
      ['system_error', 6, false],
    ]);
    for (const s of b.data) expect(s.description.length).toBeGreaterThan(10);
  });
});

describe('authority endpoints when the authority is unreachable', () => {
  it('track-ids: the local history, and the live part says it could not ask', async () => {
    const e = (await body(await h.post('31', baseDoc('31')))).document.e_ncf;
    const rec = (await h.storage.getDocumentByEncf(h.issuer.id, e))!;
    await h.storage.addSubmission(rec.id, 'ecf', 'track-123', 'En Proceso');
    const res = await h.call(`/api/v1/documents/${e}/track-ids`);
    expect(res.status).toBe(200);
    const b = await body(res);
    expect(b.data.e_ncf).toBe(e);
    expect(b.data.envios).toEqual([
      { tipo_envio: 'ecf', track_id: 'track-123', estado: 'En Proceso', fecha: expect.stringMatching(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/) },
    ]);
    expect(b.data.autoridad).toEqual({ consultada: false, track_ids: [], error: expect.stringMatching(/autoridad tributaria/) });
  });

  it('authority-status: 409 before signing, 503 envelope when the authority does not answer', async () => {
    const e = (await body(await h.post('31', baseDoc('31')))).document.e_ncf;
    const unsigned = await h.call(`/api/v1/documents/${e}/authority-status`);
    expect(unsigned.status).toBe(409);
    expect((await body(unsigned)).message).toMatch(/aún no ha sido firmado/);
    const rec = (await h.storage.getDocumentByEncf(h.issuer.id, e))!;
    await h.storage.updateDocument(rec.id, { securityCode: 'AbC123', signedAt: '01-04-2026 10:00:00' });
    const res = await h.call(`/api/v1/documents/${e}/authority-status`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('30');
    const b = await body(res);
    expect(b).toMatchObject({ status: 'error', message: expect.stringMatching(/no está disponible/) });
    expect(b.document.errors).toHaveLength(1);
  });

  it('authority-status: 409 when the issuer has no usable signer', async () => {
    const t = await createHarness();
    try {
      await t.storage.updateIssuer(t.issuer.id, { signingMode: 'own' });
      const e = (await body(await t.post('31', baseDoc('31')))).document.e_ncf;
      const rec = (await t.storage.getDocumentByEncf(t.issuer.id, e))!;
      await t.storage.updateDocument(rec.id, { securityCode: 'AbC123' });
      const res = await t.call(`/api/v1/documents/${e}/authority-status`);
      expect(res.status).toBe(409);
      expect((await body(res)).message).toMatch(/certificado de firma utilizable/);
    } finally {
      await t.close();
    }
  });
});

describe('error mapping', () => {
  it('unknown routes → 404 envelope', async () => {
    const res = await h.call('/api/v1/nada');
    expect(res.status).toBe(404);
    expect(await body(res)).toEqual({ status: 'error', message: 'Recurso no encontrado: GET /api/v1/nada.', document: null });
    expect((await h.call('/otra', { token: null })).status).toBe(404);
  });

  it('an unexpected failure → 500 with a generic Spanish message, the detail only in the log', async () => {
    const t = await createHarness();
    const lines: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _e, cb) {
          lines.push(String(chunk));
          cb();
        },
      }),
    );
    try {
      const broken = new Proxy(t.storage, {
        get(target, prop, receiver) {
          if (prop === 'getDocumentByEncf')
            return async () => {
              throw new Error('disk on fire at /var/secret/path');
            };
          return Reflect.get(target, prop, receiver);
        },
      }) as Storage;
      const cert = (await import('../../helpers/certs.js')).modernP12();
      const app = createApp({
        storage: broken,
        transport: createDgiiClient({ environment: 'testecf', baseUrl: await deadUrl(), retries: 0 }),
        signers: createSignerProvider({ key: null, provider: { p12: cert.p12, password: cert.password } }),
        schemas: schemaValidator(),
        clock: () => NOW,
        environment: 'testecf',
        logger,
      });
      const res = await app.request('/api/v1/documents/E310000000001', { headers: { authorization: `Bearer ${t.token}` } });
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ status: 'error', message: 'Error interno del servicio. Intente nuevamente más tarde.', document: null });
      expect(text).not.toMatch(/disk on fire|at |secret/);
      expect(lines.join('')).toContain('disk on fire');
      // The access log never carries the token.
      expect(lines.join('')).not.toContain(t.token);
    } finally {
      await t.close();
    }
  });
});
