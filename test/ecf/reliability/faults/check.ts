/**
 * What a fault run must show, shared by the SQLite and PostgreSQL variants (test/reliability/faults-*.test.ts).
 */
import { expect } from 'vitest';
import { RNC, expectedOutcome, markerOf, planOf, type ScenarioResult } from './run.js';

export function checkFaultRun(r: ScenarioResult, docs: number): void {
  const { posts, rows, stats, figures } = r;
  // Printed first, so the figures are there even when an assertion below fails.
  console.log(`FAULTS_FIGURES ${JSON.stringify(figures)}`);

  expect(r.unexpected, r.unexpected.join('\n\n')).toEqual([]);
  expect(r.converged, r.diagnostics).toBe(true);

  // ---- every request got its 202 in the end; the only refusals on the way were "try again" (503)
  expect(posts).toHaveLength(docs);
  const unanswered = posts.filter((p) => p.encf === null);
  expect(unanswered.map((p) => `${p.index}: ${p.statuses.join(',')} ${p.lastError ?? ''}`)).toEqual([]);
  const refusals = posts.flatMap((p) => p.statuses.filter((s) => s !== 202).map((s) => ({ index: p.index, status: s, error: p.lastError })));
  expect(
    refusals.filter((x) => x.status !== 503),
    JSON.stringify(refusals.slice(0, 5)),
  ).toEqual([]);

  // ---- stored documents = the 202s: one row per request (by the marker), the e-NCF its 202 gave
  const answered = new Set(posts.map((p) => p.encf));
  const orphans = rows.filter((row) => !answered.has(row.encf)).map((row) => `${row.encf} (request ${markerOf(row.unsignedXml)})`);
  expect(orphans, 'stored documents no 202 announced (a refusal whose data had been committed?)').toEqual([]);
  expect(rows.length).toBe(docs);
  const byEncf = new Map(rows.map((row) => [row.encf, row]));
  for (const p of posts) {
    const row = byEncf.get(p.encf!);
    expect(row, `no row for the 202 of request ${p.index} (${p.encf})`).toBeDefined();
    expect(markerOf(row!.unsignedXml), `row ${row!.encf} carries another request's document`).toBe(p.index);
    expect(row!.tipo).toBe(p.tipo);
    expect(row!.summary, `${row!.encf}: RFCE or full e-CF`).toBe(planOf(p.index).kind === 'rfce');
  }
  const markers = rows.map((row) => markerOf(row.unsignedXml));
  expect(new Set(markers).size, 'a request stored twice').toBe(docs);

  // ---- e-NCF unique and consecutive per type: 1…n, no duplicate, no gap
  const byType = new Map<string, number[]>();
  for (const row of rows) {
    const list = byType.get(row.tipo) ?? [];
    list.push(row.consecutive);
    byType.set(row.tipo, list);
  }
  for (const [tipo, list] of byType) {
    const sorted = [...list].sort((a, b) => a - b);
    expect(sorted, `consecutives of type ${tipo}`).toEqual(Array.from({ length: sorted.length }, (_, i) => i + 1));
  }
  for (const row of rows) expect(row.encf).toBe(`E${row.tipo}${String(row.consecutive).padStart(10, '0')}`);

  // ---- every row reached the verdict its e-NCF gets from the simulator's scenarios, and was let go
  for (const row of rows) {
    const want = expectedOutcome(row.encf);
    const got =
      row.status === 'rejected_authority'
        ? 'rejected'
        : row.status !== 'accepted_authority'
          ? row.status
          : row.authorityState === 'Aceptado Condicional'
            ? 'accepted_conditional'
            : 'accepted';
    expect(got, `${row.encf} (${row.summary ? 'RFCE' : 'e-CF'}): status ${row.status}, state ${row.authorityState}`).toBe(want);
    expect(row.transmission).toBe('sent');
    expect(row.nextAttemptAt).toBeNull();
    expect(row.leaseOwner).toBeNull();
    if (want === 'rejected') expect(row.sequenceReusable).toBe(false);
    if (!row.summary) expect(row.trackId).not.toBeNull();
  }
  expect(figures.outcomes.accepted).toBeGreaterThan(0);
  expect(figures.outcomes.accepted_conditional).toBeGreaterThan(0);
  expect(figures.outcomes.rejected).toBeGreaterThan(0);
  expect(rows.some((row) => row.summary && row.status === 'rejected_authority')).toBe(true);

  // ---- none transmitted twice: the simulator received each e-NCF exactly once, by the right service
  for (const row of rows) {
    const key = `${RNC}${row.encf}`;
    if (row.summary) {
      expect(stats.rfce[key] ?? 0, `${row.encf}: RFCE receptions`).toBe(1);
      expect(stats.receptions[key] ?? 0, `${row.encf}: sent to e-CF reception`).toBe(0);
    } else {
      expect(stats.receptions[key] ?? 0, `${row.encf}: e-CF receptions`).toBe(1);
      expect(stats.rfce[key] ?? 0, `${row.encf}: sent as RFCE`).toBe(0);
    }
  }
  const known = new Set(rows.map((row) => `${RNC}${row.encf}`));
  expect(Object.keys(stats.receptions).filter((k) => !known.has(k))).toEqual([]);
  expect(Object.keys(stats.rfce).filter((k) => !known.has(k))).toEqual([]);
  // One recorded submission per e-CF (the adopted track id when the answer was lost), one per RFCE verdict.
  const subs = new Map<number, number>();
  for (const s of r.submissions) subs.set(s.documentId, (subs.get(s.documentId) ?? 0) + 1);
  for (const row of rows) expect(subs.get(row.id) ?? 0, `${row.encf}: submissions recorded`).toBe(1);

  // ---- the faults really happened, and unknown outcomes were resolved by asking
  const f = figures.faults;
  expect(f.http500).toBeGreaterThan(0);
  expect(f.http503).toBeGreaterThan(0);
  expect(f.drop_before).toBeGreaterThan(0);
  expect(f.drop_after).toBeGreaterThan(0);
  expect(f.slow_or_jitter).toBeGreaterThan(0);
  expect(f.timeouts, 'no upload outlasted the transport timeout').toBeGreaterThan(0);
  expect(figures.adopted_track_ids + figures.adopted_rfce_verdicts, 'no unknown outcome was resolved by a query').toBeGreaterThan(0);
  expect(figures.worker_kills).toBeGreaterThan(0);
  expect(figures.max_workers_alive).toBe(2);

  // ---- the workers stopped cleanly on SIGTERM, and so did the server
  expect(r.finalWorkerExits.length).toBeGreaterThan(0);
  for (const exit of r.finalWorkerExits) expect(exit).toEqual({ code: 0, signal: null });
  expect(r.serverExit).toEqual({ code: 0, signal: null });
}
