/**
 * Sustained issuing at a fixed, modest arrival rate through the real thing: the reference server in its own
 * process (embedded SQLite, its worker on, a provider certificate) sending to the DGII simulator in another
 * process (ECF_AUTHORITY=<url>), driven by bench/load.ts's open-loop generator (request i is sent at
 * t0 + i/rate whatever happened to the earlier ones). Correctness only, no timing: every answer is a 202,
 * every document is signed, sent once and accepted by the authority, the e-NCF are consecutive with no gap
 * and no duplicate, and the server logs no error. The latency and memory figures are bench/load.ts's job.
 *
 * Reduced: 25 documents/s for 20 s. Full (ECF_RELIABILITY=full): 30/s for 120 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encf31, openLoop, serverErrors, startRig, waitDrained, type LoadRig } from '../../../bench/load.js';
import { scale } from './mode.js';

const RATE = scale(25, 30);
const DURATION_S = scale(20, 120);
const TOTAL = RATE * DURATION_S;

let rig: LoadRig | null = null;

beforeAll(async () => {
  rig = await startRig({ adapter: 'sqlite', label: 'load_test' });
}, 90_000);

afterAll(async () => {
  await rig?.close();
  rig = null;
}, 60_000);

describe(`sustained issuing at ${RATE} documents/s for ${DURATION_S} s (server and simulator in their own processes)`, () => {
  it(
    'answers every POST with 202 and gets every document accepted, numbered without gaps, with no error logged',
    async () => {
      const r = rig!;
      const run = await openLoop({ url: r.url, token: r.token, rate: RATE, durationS: DURATION_S }).done;

      // Every scheduled request was sent and answered 202, none failed in transport.
      expect(run.aborted).toBeNull();
      expect(run.errors).toEqual({});
      expect(run.scheduled).toBe(TOTAL);
      expect(run.statuses).toEqual({ 202: TOTAL });
      // The answers carried distinct e-NCF: exactly E310000000001 … E31<TOTAL>.
      expect([...run.encfs].sort()).toEqual(Array.from({ length: TOTAL }, (_, i) => encf31(i + 1)));

      // The worker finishes everything: nothing left with a next attempt.
      const drained = await waitDrained(r.db, scale(90_000, 180_000));
      expect(drained, 'backlog did not drain').not.toBeNull();
      expect(await r.db.statusCounts()).toEqual({ accepted_authority: TOTAL });
      expect(await r.db.unsent()).toBe(0);
      // The stored numbering is the sequence itself, in order.
      expect(await r.db.numbering()).toEqual(Array.from({ length: TOTAL }, (_, i) => ({ encf: encf31(i + 1), consecutive: i + 1 })));

      // The authority received each e-CF exactly once (no blind resend, none lost).
      const stats = (await (await fetch(`${r.simulator.url}/_simulator/stats`)).json()) as { receptions: Record<string, number> };
      const receptions = Object.entries(stats.receptions);
      expect(receptions).toHaveLength(TOTAL);
      expect(receptions.filter(([, n]) => n !== 1)).toEqual([]);

      // The server logged (the log is pino JSON: the parser saw lines) and logged no error.
      const log = serverErrors(r.serverLog);
      expect(log.jsonLines).toBeGreaterThan(0);
      expect(log.errors).toEqual([]);

      // And it stops cleanly.
      rig = null;
      const { serverExit } = await r.close();
      expect(serverExit).toBe(0);
    },
    scale(150_000, 400_000),
  );
});
