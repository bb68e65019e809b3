/**
 * A product-neutral lease loop: claims due jobs with a lease, hands each one to `process` in a few lanes at
 * once, pauses when nothing was due, backs off when a pass fails (storage unreachable, typically), wakes on
 * demand and stops after the jobs in hand are finished.
 *
 * It knows nothing of what a job is: the product gives a `claim` port (one call of its storage) and a
 * `process` callback that advances one job and persists it under the lease. Kernel material (server kit):
 * imports nothing product-specific.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../ports.js';

/** The logger the loop (and the worker) uses: the kit's `Logger` port (a pino `Logger` fits). */
export type LoopLogger = Logger;

/** Claims up to `limit` jobs due at `now` for `owner`, each protected for `leaseMs` (e.g. `Storage.claimDue`). */
export type ClaimDue<J> = (now: number, owner: string, leaseMs: number, limit: number) => Promise<readonly J[]>;

export interface LeaseLoopOptions<J> {
  claim: ClaimDue<J>;
  /** Advances one claimed job; must not throw for failures of the job itself (record them instead). */
  process: (job: J) => Promise<void>;
  /** Lease owner name; unique per loop (default: see `defaultOwner`). */
  owner?: string;
  /** How long a claim protects a job (default 120 s). */
  leaseMs?: number;
  /** Jobs claimed per pass (default 32). */
  batchSize?: number;
  /** Pause of the loop when fewer than a batch were due (default 250 ms). */
  pollIntervalMs?: number;
  /** Jobs of a batch handled at once (default 8). */
  concurrency?: number;
  /** Milliseconds since the epoch (default `Date.now`). */
  now?: () => number;
  logger?: LoopLogger;
}

export interface LeaseLoop {
  /** Starts the loop (no-op when running). */
  start(): void;
  /** Stops the loop after the jobs in hand are finished. */
  stop(): Promise<void>;
  /** One pass: claims due jobs and processes each of them; returns how many were claimed. */
  runOnce(): Promise<number>;
  /** Ends the loop's pause now (e.g. right after a job was created). */
  wake(): void;
  /** The lease owner name. */
  readonly owner: string;
}

/** Longest pause after failed passes in a row. */
const MAX_FAILURE_PAUSE_MS = 30_000;

/** A lease owner name unique per process and loop: host, pid and a random suffix. */
export function defaultOwner(prefix = 'worker'): string {
  return `${prefix}-${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * Lets the event loop run I/O callbacks (HTTP requests of an in-process server) between CPU-heavy steps.
 * Without it the lanes' steps chain as microtasks and a request waits behind a whole batch.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** What is logged of an error: type, code, status, retry flags and a bounded message (never what it carries). */
export function errorSummary(e: unknown): Record<string, unknown> {
  if (e instanceof Error) {
    const extra = e as { code?: unknown; status?: unknown; retryable?: unknown; outcomeUnknown?: unknown };
    return {
      name: e.name,
      code: extra.code,
      status: extra.status,
      retryable: extra.retryable,
      outcomeUnknown: extra.outcomeUnknown,
      message: e.message.slice(0, 500),
    };
  }
  return { message: String(e).slice(0, 500) };
}

export function createLeaseLoop<J>(options: LeaseLoopOptions<J>): LeaseLoop {
  const { claim, process: handle } = options;
  const owner = options.owner ?? defaultOwner();
  const leaseMs = options.leaseMs ?? 120_000;
  const batchSize = options.batchSize ?? 32;
  const idleMs = options.pollIntervalMs ?? 250;
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const now = options.now ?? Date.now;
  const log = options.logger;

  async function runOnce(): Promise<number> {
    const jobs = await claim(now(), owner, leaseMs, batchSize);
    if (jobs.length === 0) return 0;
    log?.debug({ owner, claimed: jobs.length }, 'claimed documents');
    let next = 0;
    const lanes = Array.from({ length: Math.min(concurrency, jobs.length) }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        await yieldToEventLoop();
        await handle(job);
      }
    });
    await Promise.all(lanes);
    return jobs.length;
  }

  let running: Promise<void> | null = null;
  let stopping = false;
  let wakeUp: (() => void) | null = null;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });

  async function loop(): Promise<void> {
    log?.info({ owner }, 'worker started');
    let failures = 0;
    while (!stopping) {
      let handled = 0;
      try {
        handled = await runOnce();
        failures = 0;
      } catch (e) {
        // Storage unreachable, typically: back off (up to 30 s) instead of hammering it and the logs.
        failures++;
        log?.error({ owner, failures, err: errorSummary(e) }, 'worker pass failed');
      }
      if (stopping) break;
      if (failures > 0) await pause(Math.min(MAX_FAILURE_PAUSE_MS, idleMs * 2 ** Math.min(failures, 16)));
      else if (handled < batchSize) await pause(idleMs);
    }
    log?.info({ owner }, 'worker stopped');
  }

  return {
    owner,
    start() {
      if (running) return;
      stopping = false;
      running = loop().finally(() => {
        running = null;
      });
    },
    async stop() {
      stopping = true;
      wakeUp?.();
      await running;
    },
    runOnce,
    wake() {
      wakeUp?.();
    },
  };
}
