/**
 * The worker under transport faults injected by the real simulator: retried errors, outcomes the worker cannot
 * know (the connection dropped after DGII processed the upload), an authority that lost a transmission, and
 * two workers sharing one storage (SQLite and PostgreSQL).
 */
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startSimulator } from '../../../../src/ecf/simulator/index.js';
import { createPostgresStorage } from '../../../../src/ecf/server/storage/postgres.js';
import { createSqliteStorage } from '../../../../src/ecf/server/storage/sqlite.js';
import type { DocumentPatch, Storage } from '../../../../src/ecf/server/storage/types.js';
import { xsdDir } from '../../helpers/env.js';
import { createBench, runUntilTerminal, waitTerminal, type Bench } from './harness.js';

let bench: Bench | null = null;
afterEach(async () => {
  await bench?.close();
  bench = null;
});

const receptions = (b: Bench, encf: string) => b.sim.stats().receptions[`${b.issuer.rnc}${encf}`];

describe('worker: retried transport errors', () => {
  it('HTTP 503 on reception (not processed): back to pending and resent until it goes through', async () => {
    bench = await createBench();
    const doc = await bench.insert('31');
    bench.sim.setFaults({ http503Rate: 1, paths: ['facturaselectronicas'], limit: 2 });
    const worker = bench.worker();
    await worker.runOnce();
    const first = await bench.get(doc.id);
    expect(first).toMatchObject({ status: 'received', transmission: 'pending', sendAttempts: 1, attempts: 1, trackId: null });
    expect(first.signedXml).not.toBeNull();
    const [done] = await runUntilTerminal(worker, bench.storage, [doc.id]);
    expect(done).toMatchObject({ status: 'accepted_authority', sendAttempts: 3, signedXml: first.signedXml });
    expect(bench.sim.stats().faults.http503).toBe(2);
    expect(receptions(bench, doc.encf)).toBe(1);
  });

  it('HTTP 500 on reception (outcome unknown): asks track ids, finds none, resends', async () => {
    bench = await createBench();
    const doc = await bench.insert('31');
    bench.sim.setFaults({ http500Rate: 1, paths: ['facturaselectronicas'], limit: 2 });
    const worker = bench.worker();
    await worker.runOnce();
    expect(await bench.get(doc.id)).toMatchObject({ status: 'received', transmission: 'sending', sendAttempts: 1 });
    const [done] = await runUntilTerminal(worker, bench.storage, [doc.id]);
    expect(done).toMatchObject({ status: 'accepted_authority', sendAttempts: 3 });
    expect(bench.sim.stats().faults.http500).toBe(2);
    expect(receptions(bench, doc.encf)).toBe(1);
    expect(await bench.storage.listSubmissions(doc.id)).toHaveLength(1);
  });

  it('HTTP 500 and dropped connections on result polls: same status, retried', async () => {
    bench = await createBench();
    const doc = await bench.insert('31');
    bench.sim.setFaults({ http500Rate: 0.5, dropBeforeRate: 0.5, paths: ['consultaresultado'], limit: 4 });
    const [done] = await runUntilTerminal(bench.worker(), bench.storage, [doc.id]);
    expect(done).toMatchObject({ status: 'accepted_authority', sendAttempts: 1 });
    const f = bench.sim.stats().faults;
    expect(f.http500 + f.dropBefore).toBe(4);
  });
});

describe('worker: unknown outcomes are resolved by asking, never by resending', () => {
  it('connection dropped after DGII processed the e-CF: adopts the track id, one reception per document', async () => {
    bench = await createBench();
    const docs = [];
    for (let i = 0; i < 6; i++) docs.push(await bench.insert('31'));
    bench.sim.setFaults({ dropAfterRate: 1, paths: ['facturaselectronicas'], methods: ['POST'] });
    const worker = bench.worker();
    await worker.runOnce();
    for (const d of docs) expect(await bench.get(d.id)).toMatchObject({ status: 'received', transmission: 'sending', trackId: null });
    worker.start();
    const done = await waitTerminal(
      bench.storage,
      docs.map((d) => d.id),
    );
    await worker.stop();
    expect(bench.sim.stats().faults.dropAfter).toBe(6);
    for (const d of done) {
      expect(d).toMatchObject({ status: 'accepted_authority', sendAttempts: 1 });
      expect(receptions(bench, d.encf)).toBe(1);
      const subs = await bench.storage.listSubmissions(d.id);
      expect(subs.map((s) => s.trackId)).toEqual([d.trackId]);
    }
  });

  it('connection dropped after DGII judged the RFCE: adopts its verdict without resending', async () => {
    bench = await createBench();
    const doc = await bench.insert('32');
    bench.sim.setFaults({ dropAfterRate: 1, paths: ['recepcionfc'], methods: ['POST'], limit: 1 });
    const worker = bench.worker();
    await worker.runOnce();
    expect(await bench.get(doc.id)).toMatchObject({ transmission: 'sending', status: 'received' });
    const [done] = await runUntilTerminal(worker, bench.storage, [doc.id]);
    expect(done).toMatchObject({ status: 'accepted_authority', authorityState: 'Aceptado', sendAttempts: 1 });
    expect(bench.sim.stats().rfce[`${bench.issuer.rnc}${doc.encf}`]).toBe(1);
  });

  it('an RFCE that never arrived (dropped before processing) is sent again after asking', async () => {
    bench = await createBench();
    const doc = await bench.insert('32');
    // A timeout-like failure the client cannot classify as "not sent": simulate with a 500 (outcome unknown).
    bench.sim.setFaults({ http500Rate: 1, paths: ['recepcionfc'], methods: ['POST'], limit: 1 });
    const [done] = await runUntilTerminal(bench.worker(), bench.storage, [doc.id]);
    expect(done).toMatchObject({ status: 'accepted_authority', sendAttempts: 2 });
    expect(bench.sim.stats().rfce[`${bench.issuer.rnc}${doc.encf}`]).toBe(1);
  });

  it('the authority lost a transmission (No encontrado): after a few polls, track ids, then one resend', async () => {
    bench = await createBench();
    const doc = await bench.insert('31');
    const worker = bench.worker({ notFoundRetries: 2 });
    await worker.runOnce();
    const sent = await bench.get(doc.id);
    expect(sent.status).toBe('in_process_authority');
    // The authority forgets everything (a simulator restarted without its state file, on the same port).
    const port = bench.sim.port;
    await bench.sim.close();
    bench.sim = await startSimulator({ xsdDir: xsdDir(), port, processingDelayMs: 30 });

    const [done] = await runUntilTerminal(worker, bench.storage, [doc.id]);
    expect(done).toMatchObject({ status: 'accepted_authority', sendAttempts: 2 });
    expect(done!.trackId).not.toBe(sent.trackId);
    expect(receptions(bench, doc.encf)).toBe(1);
    expect((await bench.storage.listSubmissions(doc.id)).map((s) => s.trackId)).toEqual([sent.trackId, done!.trackId]);
  });
});

/** Storage wrappers that record which worker holds which document, and any overlap. */
function overlapProbe() {
  const holder = new Map<number, string>();
  const overlaps: string[] = [];
  let claims = 0;
  const wrap = (real: Storage, owner: string): Storage =>
    Object.assign(Object.create(real) as Storage, {
      claimDue: async (now: number, o: string, leaseMs: number, limit: number) => {
        const docs = await real.claimDue(now, o, leaseMs, limit);
        for (const d of docs) {
          const other = holder.get(d.id);
          if (other !== undefined) overlaps.push(`document ${d.id} claimed by ${owner} while ${other} held it`);
          holder.set(d.id, owner);
          claims++;
        }
        return docs;
      },
      updateDocument: async (id: number, patch: DocumentPatch, leaseOwner?: string) => {
        // Marked free before the release is written, so a claim that sees the release never looks like an overlap.
        if (patch.leaseOwner === null && holder.get(id) === owner) holder.delete(id);
        return real.updateDocument(id, patch, leaseOwner);
      },
    });
  return { wrap, overlaps, claims: () => claims };
}

async function twoWorkers(b: Bench, storageA: Storage, storageB: Storage, n: number) {
  const docs = [];
  for (let i = 0; i < n; i++) docs.push(await b.insert(i % 4 === 0 ? '32' : '31'));
  const probe = overlapProbe();
  // Latency widens the windows in which both workers are busy.
  b.sim.setFaults({ latencyMs: 15, jitterMs: 15 });
  const a = b.worker({ storage: probe.wrap(storageA, 'A'), owner: 'A', concurrency: 4, batchSize: 6 });
  const c = b.worker({ storage: probe.wrap(storageB, 'B'), owner: 'B', concurrency: 4, batchSize: 6 });
  a.start();
  c.start();
  const done = await waitTerminal(
    b.storage,
    docs.map((d) => d.id),
    45_000,
  );
  await Promise.all([a.stop(), c.stop()]);
  expect(probe.overlaps).toEqual([]);
  expect(probe.claims()).toBeGreaterThan(n);
  for (const d of done) {
    expect(d.status).toBe('accepted_authority');
    expect(d.sendAttempts).toBe(1);
    const key = `${b.issuer.rnc}${d.encf}`;
    expect((b.sim.stats().receptions[key] ?? 0) + (b.sim.stats().rfce[key] ?? 0)).toBe(1);
  }
  return done;
}

describe('worker: two workers on one storage', () => {
  it('SQLite (two storage handles on one file): never the same document at once, each sent once', async () => {
    bench = await createBench();
    const second = createSqliteStorage({ file: bench.dbFile });
    try {
      await twoWorkers(bench, bench.storage, second, 24);
    } finally {
      await second.close();
    }
  });

  describe('PostgreSQL', () => {
    const URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const schema = `ecf_worker_${process.pid}_${Date.now().toString(36)}`;
    afterAll(async () => {
      const c = new pg.Client({ connectionString: URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await c.end();
    });

    it('two connection pools: never the same document at once, each sent once', async () => {
      const one = createPostgresStorage({ connectionString: URL, schema });
      const two = createPostgresStorage({ connectionString: URL, schema });
      try {
        await one.migrate();
        // The bench's issuer, sequences and documents live in PostgreSQL for this test.
        bench = await createBench({ storage: one });
        await twoWorkers(bench, one, two, 24);
      } finally {
        await two.close();
      }
    });
  });
});
