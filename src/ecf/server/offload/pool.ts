/**
 * A bounded pool of child processes for the server's CPU-heavy steps (XSD validation, signature
 * verification, RFCE derivation, PDF rendering), so they never run on the event loop that answers requests.
 *
 * Why processes and not worker threads: libxmljs loads and validates correctly in several worker threads at
 * once, but `Worker.terminate()` while libxml2 is inside `xmlSchemaValidateStream` aborts the WHOLE process
 * (`FATAL ERROR: v8::ToLocalChecked Empty MaybeLocal` from libxmljs' error callback, reproduced with Node 20
 * and libxmljs 1.0.11): a time budget could not be enforced on threads without risking the server. A child
 * process is killed with SIGKILL safely, whatever native code it runs.
 *
 * - `size` processes (default 2), each runs one task at a time; they start on first use and stay.
 * - A bounded queue (`queueLimit`, default 64): beyond it `run` rejects at once with `OffloadError`
 *   `busy` (the HTTP layers answer 503 with Retry-After). Request tasks go ahead of background ones.
 * - A time budget per task (from the moment the process takes it): past it the process is killed and
 *   replaced and the caller gets `OffloadError` `timeout`.
 * - `close()` refuses new tasks, rejects the queued ones (`closed`) and kills the processes.
 *
 * The child entry is `child.ts` next to this file under tsx/vitest (forked with tsx's loader), and
 * `offload-child.js` / `.cjs` next to the bundle in dist (a tsup entry of its own).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EcfError } from '../../index.js';
import type { TaskMap, TaskName } from './tasks.js';

export type OffloadErrorCode = 'busy' | 'timeout' | 'crashed' | 'closed';

/** A task the pool could not run to its end. `message` is English (for logs); the HTTP layers answer in Spanish. */
export class OffloadError extends EcfError {
  declare readonly code: OffloadErrorCode;
  /** Seconds a caller should wait before trying again (busy, closed). */
  readonly retryAfterSeconds: number;
  constructor(code: OffloadErrorCode, message: string, retryAfterSeconds = 5) {
    super(message, { code });
    this.name = 'OffloadError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export function isOffloadError(e: unknown): e is OffloadError {
  return e instanceof Error && e.name === 'OffloadError' && typeof (e as { code?: unknown }).code === 'string';
}

export type Priority = 'request' | 'background';

export interface OffloadPoolOptions {
  /** Child processes (default 2, for a 2-core machine). */
  size?: number;
  /** Tasks waiting for a process beyond which `run` refuses (default 64). */
  queueLimit?: number;
  /** Default time budget of a task in ms (default 30 000). */
  budgetMs?: number;
  /** Registers the test-only `block` task in the children. */
  testTasks?: boolean;
  logger?: { warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
}

export interface RunOptions {
  budgetMs?: number;
  priority?: Priority;
}

export interface OffloadPool {
  run<K extends TaskName>(task: K, input: TaskMap[K]['in'], options?: RunOptions): Promise<TaskMap[K]['out']>;
  close(): Promise<void>;
  /** Live child process ids (tests check none is left after `close`). */
  pids(): number[];
  stats(): { size: number; busy: number; queued: number; started: number; killed: number; completed: number };
}

interface Job {
  id: number;
  task: TaskName;
  input: unknown;
  budgetMs: number;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

interface Slot {
  child: ChildProcess | null;
  ready: Promise<void> | null;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

/** How to start a child: the TS source under tsx (dev, tests) or the bundled file (dist). */
function childCommand(): { path: string; execArgv: string[] } {
  const here = import.meta.url;
  if (/\.[cm]?ts$/.test(new URL(here).pathname)) {
    const loader = pathToFileURL(createRequire(here).resolve('tsx')).href;
    return { path: fileURLToPath(new URL('./child.ts', here)), execArgv: ['--import', loader] };
  }
  const ext = here.endsWith('.cjs') ? '.cjs' : '.js';
  const path = fileURLToPath(new URL(`./offload-child${ext}`, here));
  if (!existsSync(path))
    throw new EcfError(`offload child entry not found at ${path} (is the package built with its offload-child entry?)`, { code: 'offload_unavailable' });
  return { path, execArgv: [] };
}

/**
 * @example
 * const pool = createOffloadPool({ size: 2 });
 * const r = await pool.run('verify', { xml: signed });
 * await pool.close();
 */
export function createOffloadPool(options: OffloadPoolOptions = {}): OffloadPool {
  const size = Math.max(1, options.size ?? 2);
  const queueLimit = Math.max(0, options.queueLimit ?? 64);
  const defaultBudget = options.budgetMs ?? 30_000;
  const log = options.logger;
  const slots: Slot[] = Array.from({ length: size }, () => ({ child: null, ready: null, job: null, timer: null }));
  const queues: Record<Priority, Job[]> = { request: [], background: [] };
  let nextId = 1;
  let closed = false;
  let started = 0;
  let killed = 0;
  let completed = 0;

  const spawn = (slot: Slot): Promise<void> => {
    const { path, execArgv } = childCommand();
    const child = fork(path, [], {
      execArgv,
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, ECF_OFFLOAD_TEST_TASKS: options.testTasks ? '1' : '0' },
    });
    started++;
    slot.child = child;
    const ready = new Promise<void>((resolve, reject) => {
      child.on(
        'message',
        (m: { ready?: boolean; id?: number; ok?: boolean; value?: unknown; error?: { name: string; message: string; code?: unknown; issues?: unknown } }) => {
          if (m.ready) return resolve();
          const job = slot.job;
          if (!job || m.id !== job.id || slot.child !== child) return;
          finish(slot);
          completed++;
          if (m.ok) job.resolve(m.value);
          else job.reject(Object.assign(new Error(m.error!.message), { name: m.error!.name, code: m.error!.code, issues: m.error!.issues }));
          dispatch();
        },
      );
      child.once('exit', (code, signal) => {
        reject(new Error(`offload process exited before it was ready (${signal ?? code})`));
        if (slot.child !== child) return;
        slot.child = null;
        slot.ready = null;
        const job = slot.job;
        if (job) {
          finish(slot);
          log?.error({ task: job.task, code, signal }, 'offload process died during a task');
          job.reject(new OffloadError('crashed', `offload process died during task ${job.task} (${signal ?? code})`));
        }
        dispatch();
      });
      child.on('error', (err) => log?.error({ err }, 'offload process error'));
    });
    ready.catch(() => undefined);
    slot.ready = ready;
    return ready;
  };

  function finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
  }

  function start(slot: Slot, job: Job): void {
    slot.job = job;
    const ready = slot.ready ?? spawn(slot);
    ready.then(
      () => {
        if (slot.job !== job || !slot.child) return;
        slot.timer = setTimeout(() => {
          if (slot.job !== job) return;
          const child = slot.child;
          slot.child = null;
          slot.ready = null;
          finish(slot);
          killed++;
          child?.kill('SIGKILL');
          log?.warn({ task: job.task, budgetMs: job.budgetMs }, 'offload task exceeded its time budget; process killed and replaced');
          job.reject(new OffloadError('timeout', `offload task ${job.task} exceeded its budget of ${job.budgetMs} ms`));
          dispatch();
        }, job.budgetMs);
        slot.child.send({ id: job.id, task: job.task, input: job.input });
      },
      (err: unknown) => {
        if (slot.job !== job) return;
        finish(slot);
        job.reject(new OffloadError('crashed', `offload process could not start: ${(err as Error).message}`));
        dispatch();
      },
    );
  }

  function dispatch(): void {
    if (closed) return;
    for (const slot of slots) {
      if (slot.job) continue;
      const job = queues.request.shift() ?? queues.background.shift();
      if (!job) return;
      start(slot, job);
    }
  }

  return {
    run(task, input, opts = {}) {
      if (closed) return Promise.reject(new OffloadError('closed', 'offload pool is closed'));
      const queued = queues.request.length + queues.background.length;
      const idle = slots.some((s) => !s.job);
      if (!idle && queued >= queueLimit) {
        return Promise.reject(new OffloadError('busy', `offload queue full (${queueLimit} waiting)`));
      }
      return new Promise((resolve, reject) => {
        queues[opts.priority ?? 'request'].push({
          id: nextId++,
          task,
          input,
          budgetMs: opts.budgetMs ?? defaultBudget,
          resolve: resolve as (v: unknown) => void,
          reject,
        });
        dispatch();
      }) as Promise<never>;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const q of [queues.request, queues.background]) {
        for (const job of q.splice(0)) job.reject(new OffloadError('closed', 'offload pool is closed'));
      }
      await Promise.all(
        slots.map(async (slot) => {
          const child = slot.child;
          const job = slot.job;
          finish(slot);
          slot.child = null;
          slot.ready = null;
          job?.reject(new OffloadError('closed', 'offload pool is closed'));
          if (!child || child.exitCode !== null || child.signalCode !== null) return;
          const exited = new Promise<void>((r) => child.once('exit', () => r()));
          child.kill('SIGKILL');
          await exited;
        }),
      );
    },
    pids: () => slots.flatMap((s) => (s.child?.pid !== undefined && s.child.exitCode === null && s.child.signalCode === null ? [s.child.pid] : [])),
    stats: () => ({ size, busy: slots.filter((s) => s.job).length, queued: queues.request.length + queues.background.length, started, killed, completed }),
  };
}
