/**
 * GET /service/documents on SQLite and PostgreSQL: newest first, pages through an opaque keyset cursor (ties
 * on the creation time broken by id), filters by kind, state, creation time and number, refuses bad
 * parameters with their path, and shows only the token's company.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAN_KINDS, type DianKindId } from '../../../../src/dian/index.js';
import { example, type Harness, NOW, startHarness } from '../helpers.js';

type Page = { status: string; documents: { number: string; kind: string; state: string; createdAt: string }[]; nextCursor: string | null };

describe.each(['sqlite', 'postgres'] as const)('DIAN service document listing (%s)', (engine) => {
  let h: Harness;
  let now = NOW;
  const post = (kind: DianKindId, body: unknown) =>
    h.server.app.request(DIAN_KINDS[kind].path, {
      method: 'POST',
      headers: { Authorization: `Bearer ${h.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const list = async (query: string, token = h.token) => {
    const r = await h.server.app.request(`/service/documents${query}`, { headers: { Authorization: `Bearer ${token}` } });
    return { status: r.status, json: (await r.json()) as Page & { message?: string; errors?: { path: string }[] } };
  };

  beforeAll(async () => {
    h = await startHarness(engine, { clock: () => now });
    // Five documents a minute apart, the last two at the same instant (the id breaks the tie).
    const issue = async (kind: DianKindId, number: number, minute: number) => {
      now = new Date(NOW.getTime() + minute * 60_000);
      const r = await post(kind, { ...example(kind), number });
      expect(r.status, await r.clone().text()).toBe(200);
    };
    await issue('invoice', 990000801, 0);
    await issue('invoice', 990000802, 1);
    await issue('pos', 990000803, 2);
    await issue('invoice', 990000804, 3);
    await issue('invoice', 990000805, 3);
    now = NOW;
  });
  afterAll(async () => {
    await h?.cleanup();
  });

  it('pages newest first with an opaque cursor until nextCursor is null', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const { status, json } = await list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(status).toBe(200);
      expect(json.documents.length).toBeLessThanOrEqual(2);
      seen.push(...json.documents.map((d) => d.number));
      cursor = json.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(['SETP990000805', 'SETP990000804', 'SETP990000803', 'SETP990000802', 'SETP990000801']);
    const all = await list('');
    expect(all.json.documents.map((d) => d.number)).toEqual(seen);
    expect(all.json.nextCursor).toBeNull();
  });

  it('filters by kind, state, creation time and number', async () => {
    expect((await list('?kind=pos')).json.documents.map((d) => d.number)).toEqual(['SETP990000803']);
    expect((await list('?state=accepted')).json.documents).toHaveLength(5);
    expect((await list('?state=rejected')).json.documents).toEqual([]);
    const from = new Date(NOW.getTime() + 60_000).toISOString();
    const to = new Date(NOW.getTime() + 2 * 60_000).toISOString();
    expect((await list(`?from=${from}&to=${to}`)).json.documents.map((d) => d.number)).toEqual(['SETP990000803', 'SETP990000802']);
    expect((await list('?from=2025-03-15')).json.documents).toEqual([]);
    expect((await list('?to=2025-03-14')).json.documents).toHaveLength(5);
    expect((await list('?number=SETP990000802')).json.documents.map((d) => d.kind)).toEqual(['invoice']);
    expect((await list('?number=990000804')).json.documents.map((d) => d.number)).toEqual(['SETP990000804']);
    expect((await list('?number=XX990000804')).json.documents).toEqual([]);
    expect((await list('?kind=invoice&limit=1')).json.documents.map((d) => d.number)).toEqual(['SETP990000805']);
  });

  it('refuses bad parameters with their paths (400, Spanish)', async () => {
    const r = await list('?limit=101&kind=nope&state=x&from=ayer&cursor=abc&number=12-3');
    expect(r.status).toBe(400);
    expect(r.json.errors!.map((e) => e.path).sort()).toEqual(['cursor', 'from', 'kind', 'limit', 'number', 'state']);
    expect(r.json.message).toContain('"limit" debe ser un entero entre 1 y 100');
    expect((await list('?limit=0')).status).toBe(400);
  });

  it('is described in the OpenAPI document with the contingency listing', async () => {
    const openapi = (await (await h.server.app.request('/service/openapi.json')).json()) as {
      paths: Record<string, { get?: { parameters?: { name: string }[] } }>;
    };
    expect(openapi.paths['/service/documents']?.get?.parameters?.map((p) => p.name)).toEqual(['kind', 'state', 'from', 'to', 'number', 'limit', 'cursor']);
    expect(openapi.paths['/service/contingency/pending']?.get).toBeDefined();
  });

  it('shows only the token company documents', async () => {
    const other = await list('', h.otherToken);
    expect(other.status).toBe(200);
    expect(other.json.documents).toEqual([]);
    const mine = await list('?limit=1');
    const viaOther = await list(`?cursor=${mine.json.nextCursor}`, h.otherToken);
    expect(viaOther.json.documents).toEqual([]);
    expect((await h.server.app.request('/service/documents')).status).toBe(401);
  });
});
