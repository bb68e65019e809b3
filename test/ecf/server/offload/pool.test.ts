/**
 * The offload pool (src/ecf/server/offload/pool.ts): child processes run the heavy steps off the event loop, with a
 * bounded queue, a time budget that kills and replaces a stuck process, and a shutdown that leaves none behind.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSchemaValidator } from '../../../../src/ecf/xsd/index.js';
import { verifyXml } from '../../../../src/ecf/sign/index.js';
import { createOffloadPool, isOffloadError, type OffloadPool } from '../../../../src/ecf/server/offload/index.js';
import { xsdDir } from '../../helpers/env.js';

const pools: OffloadPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});
function pool(options: Parameters<typeof createOffloadPool>[0]): OffloadPool {
  const p = createOffloadPool({ testTasks: true, ...options });
  pools.push(p);
  return p;
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (isOffloadError(e) ? e.code : `other: ${String(e)}`),
  );

const SEMILLA = '<?xml version="1.0" encoding="utf-8"?><SemillaModel><valor>abc</valor><fecha>2026-04-01T10:00:00.0000000-04:00</fecha></SemillaModel>';

describe('offload pool', () => {
  it('runs the SDK steps in a child process with the same results as in-process', async () => {
    const p = pool({ size: 1 });
    const xsd = createSchemaValidator(xsdDir());
    expect(await p.run('xsd', { xsdDir: xsdDir(), xml: SEMILLA, schema: 'Semilla' })).toEqual(xsd.validate(SEMILLA, 'Semilla'));
    const bad = SEMILLA.replace('<valor>abc</valor>', '');
    expect(await p.run('xsd', { xsdDir: xsdDir(), xml: bad, schema: 'Semilla' })).toEqual(xsd.validate(bad, 'Semilla'));
    expect(await p.run('verify', { xml: SEMILLA })).toEqual(verifyXml(SEMILLA));
    // Errors come back with their name and code (the RFCE derivation refuses a non-32).
    const err = await p.run('rfce', { signedXml: SEMILLA }).catch((e: unknown) => e as Error & { code?: string });
    expect(err).toMatchObject({ name: 'EcfValidationError', code: 'validation_failed' });
  });

  it('keeps the event loop free while a task runs', async () => {
    const p = pool({ size: 1 });
    await p.run('block', { ms: 1 }); // the process is up
    let timerFired = false;
    const task = p.run('block', { ms: 1500 }).then(() => timerFired);
    setTimeout(() => {
      timerFired = true;
    }, 10);
    // In-process, a 1.5 s busy wait would keep the 10 ms timer from firing until it ends.
    expect(await task).toBe(true);
  });

  it('kills a task past its budget, answers `timeout` and replaces the process', async () => {
    const p = pool({ size: 1, budgetMs: 300 });
    await p.run('block', { ms: 1 });
    const [first] = p.pids();
    expect(await refusal(p.run('block', { ms: 600_000 }))).toBe('timeout');
    // SIGKILL was sent; the process is gone once the kernel and Node reaped it.
    for (let i = 0; i < 100 && first !== undefined && alive(first); i++) await new Promise((r) => setTimeout(r, 20));
    expect(first !== undefined && alive(first)).toBe(false);
    expect(await p.run('block', { ms: 1 })).toBeGreaterThanOrEqual(0);
    expect(p.pids()).toHaveLength(1);
    expect(p.pids()[0]).not.toBe(first);
    expect(p.stats().killed).toBe(1);
  });

  it('refuses with `busy` beyond the queue bound, never a backlog', async () => {
    const p = pool({ size: 1, queueLimit: 1 });
    await p.run('block', { ms: 1 });
    const running = p.run('block', { ms: 800 });
    const queued = p.run('block', { ms: 1 });
    expect(await refusal(p.run('block', { ms: 1 }))).toBe('busy');
    expect(p.stats()).toMatchObject({ busy: 1, queued: 1 });
    await expect(running).resolves.toBeGreaterThanOrEqual(0);
    await expect(queued).resolves.toBeGreaterThanOrEqual(0);
  });

  it('close() rejects waiting tasks and leaves no process behind', async () => {
    const p = pool({ size: 2 });
    await Promise.all([p.run('block', { ms: 1 }), p.run('block', { ms: 1 })]);
    const pids = p.pids();
    expect(pids).toHaveLength(2);
    const running = refusal(p.run('block', { ms: 600_000 }));
    await p.close();
    expect(await running).toBe('closed');
    expect(pids.filter(alive)).toEqual([]);
    expect(p.pids()).toEqual([]);
    expect(await refusal(p.run('block', { ms: 1 }))).toBe('closed');
  });
});
