/**
 * Property: over random interleavings of issues, voidings (some with the connection dropped before or after
 * the authority processed them) and retries of pending voidings, no number that is voided — or whose voiding
 * is still unknown — is ever handed out, and no number is handed out twice.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createV2Harness, voidRanges, type V2Harness } from './harness.js';

let h: V2Harness;
beforeAll(async () => {
  h = await createV2Harness();
});
afterAll(async () => {
  await h?.close();
});

const SEQUENCE_SIZE = 30;

type Step =
  | { kind: 'issue' }
  | { kind: 'void'; ranges: { from: number; len: number }[]; fault: 'none' | 'dropBefore' | 'dropAfter' }
  | { kind: 'retry'; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'issue' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('void' as const),
      ranges: fc.array(fc.record({ from: fc.integer({ min: 1, max: SEQUENCE_SIZE + 2 }), len: fc.integer({ min: 1, max: 4 }) }), {
        minLength: 1,
        maxLength: 2,
      }),
      fault: fc.constantFrom('none' as const, 'none' as const, 'dropBefore' as const, 'dropAfter' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('retry' as const), pick: fc.nat() }) },
);

let run = 0;

describe('voiding never lets a voided or pending number be issued', () => {
  it('holds over random interleavings of issues, voidings, dropped connections and retries', async () => {
    let statusesSeen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 30 }), async (steps) => {
        // A fresh issuer (and so a fresh RNC at the authority) per run.
        const rnc = `1${String(20_000_000 + run++).padStart(8, '0')}`;
        const { issuer, token } = await h.addIssuer(rnc, [{ tipo: '31', size: SEQUENCE_SIZE }]);
        const issued = new Set<number>();
        // What the authority voided, as far as the answers (and the known faults) tell: a 201, or a
        // dropped-after request the simulator applied (it refuses ranges overlapping earlier voidings).
        const authorityVoided = new Set<number>();
        const numbers = (ranges: { from: number; to: number }[]) => ranges.flatMap((r) => Array.from({ length: r.to - r.from + 1 }, (_, i) => r.from + i));
        const withheld = async () => (await h.storage.listVoidBatches(issuer.id, 1000)).filter((b) => b.accepted !== false);
        try {
          for (const s of steps) {
            if (s.kind === 'issue') {
              const res = await h.issue('31', token);
              statusesSeen.add(res.status);
              if (res.status !== 202) {
                expect(res.status).toBe(422);
                continue;
              }
              const n = Number((await body(res)).document.e_ncf.slice(3));
              expect(issued.has(n)).toBe(false);
              expect(authorityVoided.has(n), `E31 ${n} was voided at the authority`).toBe(false);
              issued.add(n);
              for (const b of await withheld()) {
                for (const r of b.ranges) expect(n < r.from || n > r.to, `E31 ${n} issued inside ${b.lote} (accepted ${b.accepted})`).toBe(true);
              }
            } else if (s.kind === 'void') {
              h.sim.setFaults(s.fault === 'none' ? {} : { [`${s.fault}Rate`]: 1, paths: ['anularrango'], limit: 1 });
              const ranges = s.ranges.map((r) => ({ from: r.from, to: r.from + r.len - 1 }));
              const res = await voidRanges(
                h,
                ranges.map((r) => ({ tipo: '31', desde: r.from, hasta: r.to })),
                token,
              );
              h.sim.setFaults({});
              statusesSeen.add(res.status);
              expect([201, 422, 502, 503]).toContain(res.status);
              const applied = res.status === 201 || (res.status !== 422 && s.fault === 'dropAfter' && !numbers(ranges).some((n) => authorityVoided.has(n)));
              if (applied) for (const n of numbers(ranges)) authorityVoided.add(n);
            } else {
              const pending = (await h.storage.listVoidBatches(issuer.id, 1000)).filter((b) => b.accepted === null);
              if (pending.length === 0) continue;
              const b = pending[s.pick % pending.length]!;
              const res = await voidRanges(
                h,
                b.ranges.map((r) => ({ tipo: r.tipo, desde: r.from, hasta: r.to })),
                token,
              );
              statusesSeen.add(res.status);
              expect([201, 422]).toContain(res.status);
              expect((await body(res)).data.lote).toBe(b.lote);
              if (res.status === 201) for (const n of numbers(b.ranges)) authorityVoided.add(n);
            }
          }
          // At the end: nothing issued lies in a voided or still-unknown range.
          for (const b of await withheld()) {
            for (const r of b.ranges) for (const n of issued) expect(n < r.from || n > r.to).toBe(true);
          }
          for (const n of issued) expect(authorityVoided.has(n)).toBe(false);
        } finally {
          h.sim.setFaults({});
        }
      }),
      { numRuns: 15, seed: 20260401, endOnFailure: true },
    );
    // The runs exercised acceptance, refusal and unknown outcomes.
    expect([...statusesSeen]).toEqual(expect.arrayContaining([201, 202, 422]));
    expect(statusesSeen.has(502) || statusesSeen.has(503)).toBe(true);
    statusesSeen = new Set();
  }, 120_000);
});
