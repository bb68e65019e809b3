/**
 * Crash safety with real processes: `ecf worker` runs as a child process (tsx) on a SQLite file shared with the
 * test, against the simulator in this process (with latency on receptions, so uploads are in flight). The
 * first worker is killed with SIGKILL while documents are being transmitted; a second one finishes the job.
 * Every document must reach a verdict and none may be received twice by the simulator.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot, xsdDir } from '../../helpers/env.js';
import type { DocumentRecord } from '../../../../src/ecf/server/storage/types.js';
import { createBench, waitTerminal, type Bench } from './harness.js';

const RUNNER = join(repoRoot, 'test/ecf/server/worker/fixtures/run-worker.ts');

let bench: Bench | null = null;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await bench?.close();
  bench = null;
});

function startWorker(b: Bench, owner: string): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', RUNNER, '--owner', owner, '--lease-ms', '1500', '--interval-ms', '20', '--concurrency', '6', '--batch-size', '12'],
    {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ECF_DATA_DIR: b.dir,
        ECF_XSD_DIR: xsdDir(),
        ECF_AUTHORITY: b.sim.url,
        ECF_CERT_KEY: Buffer.from(b.key).toString('hex'),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

describe('worker: crash safety across processes', () => {
  it('SIGKILL mid-transmission, a new worker resumes: all documents decided, none received twice', async () => {
    bench = await createBench({ sim: { processingDelayMs: 30 } });
    const docs = [];
    for (let i = 0; i < 16; i++) docs.push(await bench.insert(i % 4 === 3 ? '32' : '31'));
    // Uploads take 300 ms at the simulator, and half of the answers are lost after processing: a kill lands
    // while some uploads are in flight and some documents were received without the worker knowing.
    bench.sim.setFaults({ latencyMs: 300, dropAfterRate: 0.5, paths: ['facturaselectronicas', 'recepcionfc'], methods: ['POST'] });
    const received = (encf: string) => {
      const key = `${bench!.issuer.rnc}${encf}`;
      const stats = bench!.sim.stats();
      return (stats.receptions[key] ?? 0) + (stats.rfce[key] ?? 0);
    };

    const first = startWorker(bench, 'first');
    // Wait for a document the simulator holds but the worker still has as `sending`, then kill without warning.
    let unknown: DocumentRecord[] = [];
    const deadline = Date.now() + 30_000;
    while (unknown.length === 0 && Date.now() < deadline && first.child.exitCode === null) {
      await new Promise((r) => setTimeout(r, 10));
      const now = await Promise.all(docs.map((d) => bench!.get(d.id)));
      unknown = now.filter((d) => d.transmission === 'sending' && received(d.encf) === 1);
    }
    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull();
    const atKill = await Promise.all(docs.map((d) => bench!.get(d.id)));
    expect(unknown.length, `nothing received-but-unknown; worker output:\n${first.output()}`).toBeGreaterThan(0);
    expect(atKill.some((d) => d.status !== 'accepted_authority')).toBe(true);
    bench.sim.setFaults({ latencyMs: 50 });

    const second = startWorker(bench, 'second');
    const done = await waitTerminal(
      bench.storage,
      docs.map((d) => d.id),
      40_000,
    );
    expect(
      done.map((d) => d.status),
      second.output(),
    ).toEqual(docs.map(() => 'accepted_authority'));

    const stats = bench.sim.stats();
    for (const d of done) {
      const key = `${bench.issuer.rnc}${d.encf}`;
      expect((stats.receptions[key] ?? 0) + (stats.rfce[key] ?? 0), `${d.encf} received more than once`).toBe(1);
      expect(d.leaseOwner).toBeNull();
    }
    // Documents the simulator had received while the first worker still had them as `sending` were adopted,
    // not sent again.
    for (const u of unknown) {
      const d = done.find((x) => x.id === u.id)!;
      expect(d.status).toBe('accepted_authority');
      expect(d.sendAttempts).toBe(atKill.find((x) => x.id === u.id)!.sendAttempts);
    }

    // SIGTERM: the worker finishes what it holds and exits cleanly.
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(second.output()).toMatch(/SIGTERM/);
  });
});
