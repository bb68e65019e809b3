/**
 * Issue 13, finding 13: the worker's count of "No encontrado" answers survives a restart (it is stored with
 * the document), and polls of a transmission the authority does not find are never more than
 * NOT_FOUND_MAX_MS apart, however long the document was in process before.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator } from '../../../../src/ecf/simulator/index.js';
import { DEFAULT_POLL, NOT_FOUND_MAX_MS } from '../../../../src/ecf/server/worker/index.js';
import { xsdDir } from '../../helpers/env.js';
import { createBench, type Bench } from './harness.js';

let bench: Bench | null = null;
afterEach(async () => {
  await bench?.close();
  bench = null;
});

describe('worker: "No encontrado" across a restart', () => {
  it('a new worker over the same storage continues the count, reconciles on time, and never waits past the cap', async () => {
    bench = await createBench();
    const doc = await bench.insert('31');
    // The production poll schedule (0.5 s doubling to 5 min): the bench's short one would hide the back-off.
    const options = { notFoundRetries: 3, pollSchedule: DEFAULT_POLL };
    const first = bench.worker(options);
    await first.runOnce();
    const sent = await bench.get(doc.id);
    expect(sent).toMatchObject({ status: 'in_process_authority', sendAttempts: 1 });
    // The authority forgets the transmission (restarted without its state, same port).
    const port = bench.sim.port;
    await bench.sim.close();
    bench.sim = await startSimulator({ xsdDir: xsdDir(), port, processingDelayMs: 30 });
    // A document that has been polled many times already: the next regular poll would be 5 minutes away.
    await bench.storage.updateDocument(doc.id, { attempts: 12, nextAttemptAt: Date.now() });

    const pass = async (worker: ReturnType<Bench['worker']>) => {
      await bench!.storage.updateDocument(doc.id, { nextAttemptAt: Date.now() }); // time passes: due now
      const before = Date.now();
      expect(await worker.runOnce()).toBe(1);
      const d = await bench!.get(doc.id);
      if (d.nextAttemptAt !== null) expect(d.nextAttemptAt - before).toBeLessThanOrEqual(NOT_FOUND_MAX_MS);
      return d;
    };

    const once = await pass(first);
    expect(once).toMatchObject({ authorityState: 'No encontrado', notFoundPolls: 1, sendAttempts: 1 });

    // The process crashed: a new worker instance over the same storage.
    const second = bench.worker(options);
    expect(await pass(second)).toMatchObject({ notFoundPolls: 2, sendAttempts: 1 });
    expect(await pass(second)).toMatchObject({ notFoundPolls: 3, sendAttempts: 1 });
    // The fourth answer in a row exceeds notFoundRetries (3): track ids show nothing, so it is sent again now.
    const resent = await pass(second);
    expect(resent).toMatchObject({ status: 'in_process_authority', sendAttempts: 2, notFoundPolls: 0 });
    expect(resent.trackId).not.toBe(sent.trackId);
  });
});
