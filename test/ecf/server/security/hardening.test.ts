/**
 * What else a reviewer checks on the HTTP surface (issue 8, part 5, item 5): response headers on every
 * kind of answer, no CORS, credentials only from the Authorization header, authentication before any body
 * is read, the small body limit of the one unauthenticated service that reads a body, XML external
 * entities, and tenant prefixes that are not RNCs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_MAX_BODY_BYTES } from '../../../../src/ecf/server/inbound/index.js';
import { baseDoc } from '../../helpers/docs.js';
import { B, createTenantHarness, deliver, foreignEcf, inboundLogin, xmlForm, type TenantHarness } from './harness.js';

let h: TenantHarness;
let inboundToken: string;
beforeAll(async () => {
  h = await createTenantHarness('sqlite', 'hard');
  inboundToken = await inboundLogin(h, `/t/${B.rnc}`, h.foreign);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe('response headers', () => {
  it('every answer — success, each error class, inbound, documentation — has nosniff and no-store', async () => {
    const json = { 'content-type': 'application/json' };
    const answers: Record<string, Response> = {
      'API 200': await h.api(h.a.token, '/api/v1/statuses'),
      'API 202': await h.api(h.a.token, '/api/v1/documents/31', { method: 'POST', body: JSON.stringify(baseDoc('31')), headers: json }),
      'API 401': await h.api(null, '/api/v1/documents'),
      'API 404': await h.api(h.a.token, '/api/v1/documents/E310000000999'),
      'unknown route 404': await h.api(h.a.token, '/api/v2/nada'),
      'API 413': await h.api(h.a.token, '/api/v1/documents/31', { method: 'POST', body: 'x'.repeat(13 * 1024 * 1024), headers: json }),
      'API 415': await h.api(h.a.token, '/api/v1/documents/31', { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } }),
      'API 422': await h.api(h.a.token, '/api/v1/documents/31', { method: 'POST', body: '{', headers: json }),
      'inbound seed': await h.request(`/t/${B.rnc}/fe/autenticacion/api/semilla`),
      'inbound 401': await h.request(`/t/${B.rnc}/fe/recepcion/api/ecf`, { method: 'POST', body: xmlForm('<ECF/>') }),
      'inbound 404': await h.request('/t/999999999/fe/autenticacion/api/semilla'),
      'inbound 405': await h.request(`/t/${B.rnc}/fe/recepcion/api/ecf`),
      'docs page': await h.api(null, '/api/v1/docs'),
      openapi: await h.api(null, '/api/v1/openapi.json'),
    };
    const expected: Record<string, number> = {
      'API 200': 200,
      'API 202': 202,
      'API 401': 401,
      'API 404': 404,
      'unknown route 404': 404,
      'API 413': 413,
      'API 415': 415,
      'API 422': 422,
      'inbound seed': 200,
      'inbound 401': 401,
      'inbound 404': 404,
      'inbound 405': 405,
      'docs page': 200,
      openapi: 200,
    };
    for (const [name, res] of Object.entries(answers)) {
      expect(res.status, name).toBe(expected[name]);
      expect(res.headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(res.headers.get('cache-control'), name).toBe('no-store');
    }
    expect(answers['docs page']!.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
  });

  it("sends no CORS headers: another origin's page cannot read an answer, preflights are not granted", async () => {
    const origin = 'https://atacante.example';
    const simple = await h.api(h.a.token, '/api/v1/statuses', { headers: { origin } });
    expect(simple.status).toBe(200);
    const preflight = await h.request('/api/v1/documents', {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    for (const res of [simple, preflight]) {
      const names: string[] = [];
      res.headers.forEach((_value, name) => names.push(name));
      expect(names.filter((k) => k.startsWith('access-control-'))).toEqual([]);
    }
    expect(preflight.status).not.toBe(204);
  });
});

describe('credentials', () => {
  it('a token is taken from the Authorization header only, never from the URL or a cookie', async () => {
    for (const where of [`?token=${h.a.token}`, `?access_token=${h.a.token}`, `?authorization=Bearer%20${h.a.token}`]) {
      expect((await h.api(null, `/api/v1/documents${where}`)).status, where).toBe(401);
    }
    expect((await h.api(null, '/api/v1/documents', { headers: { cookie: `token=${h.a.token}` } })).status).toBe(401);
    expect((await h.api(h.a.token, '/api/v1/documents')).status).toBe(200);
  });

  it('reception and approvals authenticate before reading the body: an oversized body without a token is a 401, not a 413', async () => {
    const huge = 'x'.repeat(13 * 1024 * 1024);
    for (const service of ['recepcion', 'aprobacioncomercial']) {
      const res = await h.request(`/t/${B.rnc}/fe/${service}/api/ecf`, { method: 'POST', body: huge, headers: { 'content-type': 'application/xml' } });
      expect(res.status, service).toBe(401);
    }
    const withToken = await h.request(`/t/${B.rnc}/fe/recepcion/api/ecf`, {
      method: 'POST',
      body: huge,
      headers: { authorization: `Bearer ${inboundToken}`, 'content-type': 'application/xml' },
    });
    expect(withToken.status).toBe(413);
  });
});

describe('inbound input', () => {
  it('the seed validation (no token needed) reads at most SEED_MAX_BODY_BYTES; a real signed seed is far below it', async () => {
    const seed = await (await h.request(`/t/${B.rnc}/fe/autenticacion/api/semilla`)).text();
    const { signXml } = await import('../../../../src/ecf/sign/index.js');
    const signed = await signXml(seed, h.foreign.signer);
    expect(Buffer.byteLength(signed)).toBeLessThan(SEED_MAX_BODY_BYTES / 4);
    const padded = signed.replace('</SemillaModel>', `<!--${'x'.repeat(SEED_MAX_BODY_BYTES)}--></SemillaModel>`);
    const tooBig = await h.request(`/t/${B.rnc}/fe/autenticacion/api/validacioncertificado`, {
      method: 'POST',
      body: xmlForm(padded),
      headers: { accept: 'application/json' },
    });
    expect(tooBig.status).toBe(413);
    const ok = await h.request(`/t/${B.rnc}/fe/autenticacion/api/validacioncertificado`, {
      method: 'POST',
      body: xmlForm(signed),
      headers: { accept: 'application/json' },
    });
    expect(ok.status).toBe(200);
  });

  it('an external entity is never resolved: the e-CF is refused and the answer carries nothing of the file', async () => {
    const xml = (await foreignEcf(h, B.rnc, 5))
      .replace(/^<\?xml[^>]*\?>/, '<?xml version="1.0" encoding="utf-8"?><!DOCTYPE ECF [<!ENTITY x SYSTEM "file:///etc/passwd">]>')
      .replace('<RazonSocialEmisor>', '<RazonSocialEmisor>&x;');
    expect(xml).toContain('<!DOCTYPE');
    const res = await deliver(h, B.rnc, inboundToken, xml);
    const text = await res.text();
    expect(text).not.toContain('root:');
    expect(await h.storage.getReceivedDocument(h.b.issuer.id, 'E310000000005')).toBeNull();
    const api = await h.api(h.b.token, '/api/v1/documents/31', {
      method: 'POST',
      body: '<?xml version="1.0"?><!DOCTYPE ECF [<!ENTITY x SYSTEM "file:///etc/passwd">]><ECF>&x;</ECF>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(api.status).toBe(422);
    expect(await api.text()).not.toContain('root:');
  });

  it('a tenant prefix that is not an RNC (traversal, encoded slashes, SQL) is a plain 404', async () => {
    // (A literal `/t/../fe/…` (or %2e%2e) is normalized by URL parsing to the root service, which is public anyway.)
    for (const prefix of ['..%2F..%2Fetc', `${B.rnc}'%20OR%20'1'='1`, `${B.rnc}0`, 'abc']) {
      const res = await h.request(`/t/${prefix}/fe/autenticacion/api/semilla`);
      expect(res.status, prefix).toBe(404);
    }
  });

  it('the file name of an upload is not used: a traversal name is delivered and recorded like any other', async () => {
    const form = new FormData();
    form.append('xml', new Blob([await foreignEcf(h, B.rnc, 6)], { type: 'text/xml' }), '../../../../tmp/ecf-kit-traversal.xml');
    const res = await h.request(`/t/${B.rnc}/fe/recepcion/api/ecf`, { method: 'POST', body: form, headers: { authorization: `Bearer ${inboundToken}` } });
    expect(res.status).toBe(200);
    expect((await h.storage.getReceivedDocument(h.b.issuer.id, 'E310000000006'))?.encf).toBe('E310000000006');
    const { existsSync } = await import('node:fs');
    expect(existsSync('/tmp/ecf-kit-traversal.xml')).toBe(false);
  });
});
