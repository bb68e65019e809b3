/**
 * Issue 13, items 3 and 4: hostile-but-parsable inbound bodies whose XSD validation costs libxml2 seconds
 * (hundreds of thousands of `&amp;` in one text value) must not stop other requests. Three are posted at once to
 * /fe/recepcion/api/ecf of an app whose heavy steps run in the offload pool; while they are in the pool a cheap
 * GET is answered; every hostile answer is a documented refusal (never 500). When a pre-scan refuses such bodies
 * before any parser, nothing reaches the pool and that is checked instead.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { buildEcfXmlFromJson } from '../../../src/ecf/index.js';
import { createOffloadPool, poolOffload } from '../../../src/ecf/server/offload/index.js';
import { baseContext, baseDoc } from '../helpers/docs.js';
import { xsdDir } from '../helpers/env.js';
import { createHarness } from '../server/app/harness.js';
import { scale } from './mode.js';

const AMPS = scale(300_000, 2_300_000);
const pool = createOffloadPool({ size: 2, budgetMs: scale(60_000, 600_000) });
afterAll(() => pool.close());

describe('hostile inbound bodies in the offload pool', () => {
  it(
    'three heavy bodies at once: a cheap GET is answered while they validate, each gets a refusal',
    async () => {
      const h = await createHarness({
        app: { offload: poolOffload(pool, { xsdDir: xsdDir(), requestBudgetMs: scale(60_000, 600_000) }), inbound: { requireAuth: false } },
      });
      try {
        const doc = baseDoc('31');
        doc.comprador = { ...doc.comprador, rnc: h.issuer.rnc };
        const xml = buildEcfXmlFromJson('31', doc, { ...baseContext('31'), emisor: { ...baseContext('31').emisor, rnc: '101672919' } }).replace(
          /<RazonSocialComprador>[^<]*</,
          `<RazonSocialComprador>${'&amp;'.repeat(AMPS)}<`,
        );
        const done: string[] = [];
        const hostile = [0, 1, 2].map((i) =>
          Promise.resolve(h.app.request('/fe/recepcion/api/ecf', { method: 'POST', body: xml, headers: { 'content-type': 'application/xml' } })).then((r) => {
            done.push(`hostile${i}`);
            return r.status;
          }),
        );
        // Wait until the pool holds them (or they were all refused before reaching it).
        for (let i = 0; i < 500 && pool.stats().busy === 0 && done.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
        const reachedPool = pool.stats().busy > 0;
        const cheap = await h.call('/api/v1/statuses');
        done.push('get');
        expect(cheap.status).toBe(200);
        const statuses = await Promise.all(hostile);
        // 200 = a signed ARECF "not received" (Estado 1, motivo 1), 400 = refused, 413 = too large, 503 = pool full.
        for (const s of statuses) expect([200, 400, 413, 503]).toContain(s);
        if (reachedPool) expect(done.indexOf('get')).toBeLessThan(3);
      } finally {
        await h.close();
      }
    },
    scale(120_000, 1_800_000),
  );
});
