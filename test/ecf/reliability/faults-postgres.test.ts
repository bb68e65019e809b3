/**
 * Fault run on PostgreSQL (issue 8, part 3): as faults-sqlite.test.ts, on a private PostgreSQL cluster started
 * in a temp dir (random port, fsync on) that is restarted (`pg_ctl restart`, alternately `-m fast` and
 * `-m immediate`) while POSTs and workers are active. The server and the workers reconnect on their own; POSTs
 * that meet the restart get a 503 and the client retries them; afterwards the stored documents are exactly the
 * 202s, numbered with no duplicate and no gap. The cluster is stopped and removed at the end, also on failure.
 */
import { describe, expect, it } from 'vitest';
import { FULL, scale } from './mode.js';
import { checkFaultRun } from './faults/check.js';
import { runFaultScenario } from './faults/run.js';

const DOCS = scale(300, 10_000);

describe('fault run: PostgreSQL with restarts', () => {
  it(
    `${DOCS} documents under authority faults, worker kills and database restarts`,
    async () => {
      const result = await runFaultScenario({ storage: 'postgres', docs: DOCS, full: FULL, seed: 20_261_122 });
      checkFaultRun(result, DOCS);
      expect(result.figures.pg_restarts).toBeGreaterThan(0);
      // POSTs in flight during a restart were refused with 503 (and retried), never a 500; the envelope says why.
      expect(result.figures.post_503).toBeGreaterThan(0);
      for (const p of result.posts.filter((x) => x.statuses.includes(503))) {
        expect(JSON.parse(p.lastError!)).toMatchObject({
          status: 'error',
          message: expect.stringContaining('base de datos'),
          document: { errors: [expect.any(String)] },
        });
      }
    },
    scale(240_000, 4 * 3_600_000),
  );
});
