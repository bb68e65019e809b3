/**
 * The DIAN service's OpenAPI document and its HTML page: the document lints clean with a real OpenAPI linter
 * (Redocly, recommended ruleset), lists exactly the routes the app serves, and `GET /service/docs` is a
 * self-contained page (no external assets, inline code allowed by hash only, Spanish text) that renders it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dianOpenApi } from '../../../../src/dian/server/app/openapi.js';
import { expectSelfContainedDocsPage } from '../../../shared/server-kit/docs-page-check.js';
import { lintOpenApi } from '../../../shared/server-kit/openapi-lint.js';
import { type Harness, startHarness } from '../helpers.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

describe('the DIAN OpenAPI document', () => {
  let h: Harness;
  let doc: Record<string, any>;
  beforeAll(async () => {
    // startDianServer mounts the mail service, so the mail routes are served too.
    h = await startHarness('sqlite');
    const r = await h.server.app.request('/service/openapi.json');
    expect(r.status).toBe(200);
    doc = (await r.json()) as Record<string, any>;
  });
  afterAll(async () => {
    await h?.cleanup();
  });

  it('lints with zero errors under Redocly’s recommended ruleset (no rule turned off); the only warnings are known', async () => {
    const problems = await lintOpenApi(doc);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    // The two public routes answer no client error (docs/dian/server.md "OpenAPI"): no 4XX response to document.
    expect(problems.map((p) => `${p.ruleId} ${p.pointer}`).sort()).toEqual([
      'operation-4xx-response #/paths/~1service~1docs/get/responses',
      'operation-4xx-response #/paths/~1service~1openapi.json/get/responses',
    ]);
    // The document served is the one dianOpenApi() builds.
    expect(doc).toEqual(dianOpenApi());
  });

  it('lists exactly the routes the app serves, each with its method', () => {
    const served = h.server.app.routes
      .filter((r) => METHODS.includes(r.method.toLowerCase()))
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([^/]+)/g, '{$1}')}`);
    const documented = Object.entries(doc.paths).flatMap(([p, item]: [string, any]) => METHODS.filter((m) => item[m]).map((m) => `${m} ${p}`));
    expect(new Set(served)).toEqual(new Set(documented));
    expect(documented).toEqual(
      expect.arrayContaining([
        'post /service/invoice',
        'post /v1/031',
        'post /utilities/mail/send',
        'get /service/documents/{id}',
        'post /service/payrolls',
        'post /service/payrolls/adjustment',
        'get /service/payrolls/{payrollId}',
        'get /service/openapi.json',
        'get /service/docs',
      ]),
    );
  });

  it('public routes are the document and its page; every other operation documents and answers 401 without a token', async () => {
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const m of METHODS.filter((x) => item[x])) {
        const op = item[m];
        const url = path.replace(/\{[^}]+\}/g, 'x');
        const r = await h.server.app.request(url, { method: m.toUpperCase(), ...(m === 'post' ? { body: '{}' } : {}) });
        if (path === '/service/openapi.json' || path === '/service/docs') {
          expect(op.security, path).toEqual([]);
          expect(r.status, path).toBe(200);
        } else {
          expect(op.security, path).toBeUndefined();
          expect(op.responses['401'], `${m} ${path}`).toBeDefined();
          expect(r.status, `${m} ${path}`).toBe(401);
        }
      }
    }
  });

  it('GET /service/docs: a self-contained HTML page in Spanish over /service/openapi.json, inline code allowed only by hash', async () => {
    const { html, script } = await expectSelfContainedDocsPage(await h.server.app.request('/service/docs'));
    expect(html).toContain('data-openapi="openapi.json"');
    expect(html).toContain('<code>/service/openapi.json</code>');
    expect(html).toContain('Autenticación');
    expect(html).not.toMatch(/e-CF|DGII/);
    expect(script).toContain('Parámetros');
    // No token needed, over real HTTP too.
    const real = await fetch(`${h.server.url}/service/docs`);
    expect(real.status).toBe(200);
  });
});
