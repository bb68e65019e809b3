/**
 * The OpenAPI document (generated from the route schemas) and the docs page: a structurally valid OpenAPI 3
 * document listing every route the app serves, every $ref resolvable, the committed copy up to date.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../../src/ecf/server/app/index.js';
import { serveCommand } from '../../../../src/ecf/cli/serve.js';
import { fakeIo } from '../../helpers/cli.js';
import { repoRoot } from '../../helpers/env.js';
import { expectSelfContainedDocsPage } from '../../../shared/server-kit/docs-page-check.js';
import { lintOpenApi } from '../../../shared/server-kit/openapi-lint.js';
import { body, createHarness, type Harness } from './harness.js';

let h: Harness;
let doc: any;
beforeAll(async () => {
  h = await createHarness();
  const res = await h.call('/api/v1/openapi.json', { token: null });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = await body(res);
});
afterAll(async () => {
  await h.close();
});

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function resolveRef(ref: string): unknown {
  expect(ref.startsWith('#/')).toBe(true);
  return ref
    .slice(2)
    .split('/')
    .reduce<any>((o, k) => (o === undefined ? undefined : o[k.replace(/~1/g, '/').replace(/~0/g, '~')]), doc);
}

function walk(node: unknown, visit: (n: Record<string, unknown>, path: string) => void, path = '#'): void {
  if (Array.isArray(node)) node.forEach((n, i) => walk(n, visit, `${path}/${i}`));
  else if (node && typeof node === 'object') {
    visit(node as Record<string, unknown>, path);
    for (const [k, v] of Object.entries(node)) walk(v, visit, `${path}/${k}`);
  }
}

describe('GET /api/v1/openapi.json', () => {
  it('is an OpenAPI 3 document with info, paths and the bearer scheme', () => {
    expect(doc.openapi).toMatch(/^3\.0\.\d$/);
    expect(typeof doc.info.title).toBe('string');
    expect(typeof doc.info.version).toBe('string');
    expect(doc.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(doc.paths).every((p) => p.startsWith('/'))).toBe(true);
  });

  it('lists every route the app serves, with its method', () => {
    const served = h.app.routes
      .filter((r) => METHODS.includes(r.method.toLowerCase()))
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([^/]+)/g, '{$1}')}`);
    const documented = Object.entries(doc.paths).flatMap(([p, item]: [string, any]) => METHODS.filter((m) => item[m]).map((m) => `${m} ${p}`));
    expect(new Set(served)).toEqual(new Set(documented));
    expect(documented).toEqual(
      expect.arrayContaining([
        'post /api/v1/documents/{tipo}',
        'get /api/v1/documents',
        'get /api/v1/documents/{eNCF}',
        'get /api/v1/documents/{eNCF}/track-ids',
        'get /api/v1/documents/{eNCF}/authority-status',
        'get /api/v1/documents/{eNCF}/xml',
        'get /api/v1/documents/{eNCF}/pdf',
        'get /api/v1/statuses',
        'get /api/v1/openapi.json',
        'get /api/v1/docs',
      ]),
    );
  });

  it('every operation: unique operationId, responses with descriptions, declared path parameters, error envelopes', () => {
    const ids = new Set<string>();
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const m of METHODS.filter((x) => item[x])) {
        const op = item[m];
        expect(typeof op.operationId).toBe('string');
        expect(ids.has(op.operationId)).toBe(false);
        ids.add(op.operationId);
        expect(Object.keys(op.responses).length).toBeGreaterThan(0);
        for (const [code, r] of Object.entries<any>(op.responses)) {
          expect(code).toMatch(/^[1-5]\d\d$/);
          expect(typeof (r.$ref ? (resolveRef(r.$ref) as any).description : r.description)).toBe('string');
        }
        const pathParams = (op.parameters ?? []).filter((p: any) => p.in === 'path');
        expect(pathParams.map((p: any) => p.name).sort()).toEqual([...templated].sort());
        for (const p of pathParams) expect(p.required).toBe(true);
        const secured = op.security === undefined || op.security.length > 0;
        if (secured) expect(op.responses['401']).toBeDefined();
      }
    }
    expect(doc.paths['/api/v1/openapi.json'].get.security).toEqual([]);
    expect(doc.paths['/api/v1/docs'].get.security).toEqual([]);
  });

  it('lints with zero errors under Redocly’s recommended ruleset, one rule off on purpose; the only warnings are known', async () => {
    // no-identical-paths is off (docs/server.md "OpenAPI"): POST /api/v1/documents/{tipo} and GET
    // /api/v1/documents/{eNCF} share a template under two parameter names; renaming either changes the published API.
    const problems = await lintOpenApi(doc, ['no-identical-paths']);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(problems.map((p) => `${p.ruleId} ${p.pointer}`).sort()).toEqual([
      'no-ambiguous-paths #/paths/~1api~1v1~1documents~1{eNCF}',
      'operation-4xx-response #/paths/~1api~1v1~1docs/get/responses',
      'operation-4xx-response #/paths/~1api~1v1~1openapi.json/get/responses',
    ]);
  });

  it('every $ref resolves', () => {
    const refs: string[] = [];
    walk(doc, (n) => {
      if (typeof n.$ref === 'string') refs.push(n.$ref);
    });
    expect(refs.length).toBeGreaterThan(10);
    for (const r of refs) expect(resolveRef(r), r).toBeDefined();
  });

  it('describes the issue body in both representations and the spec’s 422 shape', () => {
    const op = doc.paths['/api/v1/documents/{tipo}'].post;
    expect(Object.keys(op.requestBody.content).sort()).toEqual(['application/json', 'application/xml', 'text/xml']);
    expect(Object.keys(op.responses).sort()).toEqual(['202', '401', '413', '415', '422', '500']);
    const tipo = op.parameters.find((p: any) => p.name === 'tipo');
    const tipoSchema = tipo.schema.$ref ? resolveRef(tipo.schema.$ref) : tipo.schema;
    expect((tipoSchema as any).enum).toEqual(['31', '32', '33', '34', '41', '43', '44', '45', '46', '47']);
    const rejected = doc.components.schemas.RejectedValidation;
    expect(Object.keys(rejected.properties).sort()).toEqual(['detailed_errors', 'errors', 'status', 'status_code', 'status_description']);
    expect(rejected.required).not.toContain('detailed_errors');
    const record = doc.components.schemas.DocumentRecord;
    const recordProps = record.allOf
      ? record.allOf.flatMap((p: any) => Object.keys((p.$ref ? resolveRef(p.$ref) : p).properties ?? {}))
      : Object.keys(record.properties);
    expect(new Set(recordProps)).toEqual(
      new Set([
        'document_id',
        'ecf_type_code',
        'e_ncf',
        'track_id',
        'status_code',
        'status',
        'status_description',
        'is_valid_fiscally',
        'security_code',
        'issued_at',
        'signed_at',
        'total_amount',
        'total_itbis',
        'sequence_reusable',
        'errors',
        'commercial_approvals',
      ]),
    );
    expect(Object.keys(doc.paths['/api/v1/documents/{eNCF}/authority-status'].get.responses)).toEqual(expect.arrayContaining(['502', '503']));
  });

  it('is the same document offline (openApiDocument, ecf serve --print-openapi) and in schemas/openapi.json', async () => {
    expect(openApiDocument()).toEqual(doc);
    const { io, out } = fakeIo();
    expect(await serveCommand.run(['--print-openapi'], io)).toBe(0);
    expect(JSON.parse(out())).toEqual(doc);
    const committed = JSON.parse(readFileSync(join(repoRoot, 'schemas/openapi.json'), 'utf8'));
    // Regenerate with: npx tsx src/cli/main.ts serve --print-openapi > schemas/openapi.json
    expect(committed).toEqual(doc);
  });
});

describe('GET /api/v1/docs', () => {
  it('a self-contained HTML page: no external assets, inline code allowed only by hash', async () => {
    const { html } = await expectSelfContainedDocsPage(await h.call('/api/v1/docs', { token: null }));
    expect(html).toContain('<code>/api/v1/openapi.json</code>');
  });
});
