/**
 * `GET /api/v1/directory` and `/api/v1/directory/{rnc}` against the simulator's directory: snake_case
 * entries, 404 / 422, the in-memory cache (per RNC, expiring with the clock), and authority failures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDgiiClient } from '../../../../src/ecf/dgii/index.js';
import { createApp } from '../../../../src/ecf/server/app/index.js';
import { SIMULATOR_RNC } from '../../../../src/ecf/simulator/index.js';
import { schemaValidator } from '../../helpers/xsd.js';
import { deadUrl } from '../app/harness.js';
import { body, createV2Harness, NOW, type V2Harness } from './harness.js';

let h: V2Harness;
beforeAll(async () => {
  h = await createV2Harness();
  h.sim.addDirectoryEntry({
    nombre: 'PROVEEDOR UNO SRL',
    rnc: '101000001',
    urlRecepcion: 'https://fe.uno.do',
    urlAceptacion: 'https://fe.uno.do/fe/aprobacioncomercial/api/ecf',
    urlOpcional: null,
  });
});
afterAll(async () => {
  await h?.close();
});

describe('directory', () => {
  it('lists the authority’s directory in snake_case', async () => {
    const res = await h.call('/api/v1/directory');
    expect(res.status).toBe(200);
    const b = await body(res);
    expect(b.status).toBe('success');
    expect(b.data).toContainEqual({
      nombre: 'PROVEEDOR UNO SRL',
      rnc: '101000001',
      url_recepcion: 'https://fe.uno.do',
      url_aceptacion: 'https://fe.uno.do/fe/aprobacioncomercial/api/ecf',
      url_opcional: null,
    });
    expect(b.data.map((e: any) => e.rnc)).toContain(SIMULATOR_RNC);
    for (const e of b.data) expect(Object.keys(e).sort()).toEqual(['nombre', 'rnc', 'url_aceptacion', 'url_opcional', 'url_recepcion']);
  });

  it('one RNC: its entry, 404 when absent, 422 when malformed', async () => {
    const res = await h.call('/api/v1/directory/101000001');
    expect(res.status).toBe(200);
    expect((await body(res)).data).toMatchObject({ nombre: 'PROVEEDOR UNO SRL', rnc: '101000001', url_recepcion: 'https://fe.uno.do' });
    const missing = await h.call('/api/v1/directory/101000077');
    expect(missing.status).toBe(404);
    expect((await body(missing)).message).toBe('El RNC 101000077 no figura en el directorio de emisores electrónicos de la autoridad tributaria.');
    const bad = await h.call('/api/v1/directory/12-34');
    expect(bad.status).toBe(422);
    expect((await body(bad)).document.detailed_errors.rnc[0]).toMatch(/9 dígitos \(RNC\) u 11 \(cédula\)/);
  });

  it('answers are cached for 5 minutes per RNC', async () => {
    h.now.value = NOW;
    expect((await h.call('/api/v1/directory/101000002')).status).toBe(404);
    h.sim.addDirectoryEntry({ nombre: 'PROVEEDOR DOS SRL', rnc: '101000002', urlRecepcion: 'https://fe.dos.do', urlAceptacion: null, urlOpcional: null });
    const requests = h.sim.stats().requests;
    expect((await h.call('/api/v1/directory/101000002')).status).toBe(404);
    expect(h.sim.stats().requests).toBe(requests);
    h.now.value = new Date(NOW.getTime() + 4 * 60_000);
    expect((await h.call('/api/v1/directory/101000002')).status).toBe(404);
    h.now.value = new Date(NOW.getTime() + 5 * 60_000 + 1);
    const fresh = await h.call('/api/v1/directory/101000002');
    expect(fresh.status).toBe(200);
    expect((await body(fresh)).data.nombre).toBe('PROVEEDOR DOS SRL');
    h.now.value = NOW;
  });

  it('an unreachable authority → 503; an issuer without a usable certificate → 409; no token → 401', async () => {
    const dead = createDgiiClient({ environment: 'testecf', baseUrl: await deadUrl(), retries: 0, timeoutMs: 2_000 });
    try {
      const app = createApp({ storage: h.storage, transport: dead, signers: h.signers, schemas: schemaValidator(), clock: h.clock, environment: 'testecf' });
      const res = await app.request('/api/v1/directory/101000001', { headers: { authorization: `Bearer ${h.token}` } });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('30');
      expect((await body(res)).message).toMatch(/La autoridad tributaria no está disponible/);
    } finally {
      await dead.close();
    }
    const x = await h.addIssuer('101000019', []);
    await h.storage.updateIssuer(x.issuer.id, { signingMode: 'own' });
    expect((await h.call('/api/v1/directory', { token: x.token })).status).toBe(409);
    expect((await h.call('/api/v1/directory', { token: null })).status).toBe(401);
  });
});
