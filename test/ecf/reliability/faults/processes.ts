/**
 * Child processes of the fault suite, each under tsx with its output in a log file: the DGII simulator
 * (test/ecf/integration/simulator-process.ts), the reference server (src/ecf/server/start.ts) and `ecf worker`
 * (the real CLI command through test/ecf/server/worker/fixtures/run-worker.ts). Only processes started here are
 * ever signalled, by their own handle.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, createWriteStream, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../helpers/env.js';
import type { FaultSettings, ScenarioSettings, SimulatorOptions, SimulatorStats } from '../../../../src/ecf/simulator/index.js';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Proc {
  name: string;
  child: ChildProcess;
  logFile: string;
  exited: Promise<Exit>;
  /** True once the process has exited. */
  done(): boolean;
  /** True once its stdout showed `readyWhen` (and it has not exited). */
  ready(): boolean;
  log(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit. */
  stop(graceMs?: number): Promise<Exit>;
}

const running = new Set<ChildProcess>();
const cleanups: (() => void)[] = [];
let hooked = false;

/** Runs `fn` when this process exits or is told to stop (a test runner ending it after a timeout). */
export function onProcessEnd(fn: () => void): void {
  cleanups.push(fn);
  registerExitHook();
}

function registerExitHook(): void {
  if (hooked) return;
  hooked = true;
  const cleanup = () => {
    // Only the children this module started, each by its own handle.
    for (const child of [...running]) child.kill('SIGKILL');
    for (const fn of cleanups.splice(0)) fn();
  };
  process.once('exit', cleanup);
  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    process.once(sig, () => {
      cleanup();
      process.exit(128 + (sig === 'SIGTERM' ? 15 : 2));
    });
  }
}

/** Spawns `node --import tsx script args` with stdout and stderr appended to `logFile`. */
export function spawnTsx(
  name: string,
  script: string,
  args: string[],
  env: Record<string, string | undefined>,
  logFile: string,
  options: { stdin?: 'ignore' | 'pipe'; readyWhen?: string } = {},
): Proc {
  const stdin = options.stdin ?? 'ignore';
  const fd = openSync(logFile, 'a');
  let child: ChildProcess;
  let ready = false;
  try {
    // With `readyWhen`, stdout goes through this process (to spot the line), then on to the log file.
    const out = options.readyWhen ? 'pipe' : fd;
    child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: repoRoot, env: env as NodeJS.ProcessEnv, stdio: [stdin, out, fd] });
  } finally {
    if (!options.readyWhen) closeSync(fd); // the child holds its own copy
  }
  if (options.readyWhen) {
    const marker = options.readyWhen;
    const file = createWriteStream('', { fd, flags: 'a' });
    let head = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      if (!ready) {
        head += chunk.toString('utf8');
        if (head.includes(marker)) {
          ready = true;
          head = '';
        }
      }
    });
    child.stdout!.pipe(file);
  }
  let finished = false;
  running.add(child);
  registerExitHook();
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      finished = true;
      running.delete(child);
      resolve({ code, signal });
    });
  });
  const proc: Proc = {
    name,
    child,
    logFile,
    exited,
    done: () => finished,
    ready: () => ready && !finished,
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
    async stop(graceMs = 20_000) {
      if (finished) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        if (!finished) child.kill('SIGKILL');
      }, graceMs);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    },
  };
  return proc;
}

/** Waits until `pattern` appears in the process log (or the process exits / the deadline passes). */
export async function waitForLog(proc: Proc, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = pattern.exec(proc.log());
    if (m) return m;
    if (proc.done()) throw new Error(`${proc.name} exited before printing ${pattern}:\n${proc.log().slice(-4000)}`);
    if (Date.now() > deadline) throw new Error(`${proc.name} did not print ${pattern} within ${timeoutMs} ms:\n${proc.log().slice(-4000)}`);
    await sleep(50);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The simulator

export interface SimulatorProcess {
  proc: Proc;
  url: string;
  setFaults(f: FaultSettings): Promise<void>;
  setScenarios(s: ScenarioSettings): Promise<void>;
  stats(): Promise<SimulatorStats>;
  /** Closes its stdin (it stops by itself), SIGKILL if it lingers. */
  stop(): Promise<Exit>;
}

export async function startSimulatorProcess(options: SimulatorOptions, logFile: string): Promise<SimulatorProcess> {
  // stdin is a pipe: the simulator stops when it closes (also if this process dies).
  const script = join(repoRoot, 'test/ecf/integration/simulator-process.ts');
  const proc = spawnTsx('simulator', script, [JSON.stringify(options)], { PATH: process.env.PATH, HOME: process.env.HOME }, logFile, { stdin: 'pipe' });
  const m = await waitForLog(proc, /\{"url":"([^"]+)"\}/, 60_000);
  const url = m[1]!;
  const control = async <T>(method: 'GET' | 'PUT', name: string, body?: unknown): Promise<T> => {
    const init = body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
    const res = await fetch(`${url}/_simulator/${name}`, { method, ...init });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`/_simulator/${name}: HTTP ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
  return {
    proc,
    url,
    setFaults: async (f) => void (await control('PUT', 'faults', f)),
    setScenarios: async (s) => void (await control('PUT', 'scenarios', s)),
    stats: () => control<SimulatorStats>('GET', 'stats'),
    async stop() {
      if (proc.done()) return proc.exited;
      proc.child.stdin?.end();
      const timer = setTimeout(() => {
        if (!proc.done()) proc.child.kill('SIGKILL');
      }, 10_000);
      const exit = await proc.exited;
      clearTimeout(timer);
      return exit;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// The reference server and `ecf worker`

/** `src/ecf/server/start.ts`; resolves with its URL once it listens. */
export async function startServerProcess(env: Record<string, string | undefined>, logFile: string): Promise<{ proc: Proc; url: string }> {
  const fullEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...env, PORT: '0', HOST: '127.0.0.1' };
  const proc = spawnTsx('server', join(repoRoot, 'src/ecf/server/start.ts'), [], fullEnv, logFile);
  const m = await waitForLog(proc, /listening on (http:\/\/\S+)/, 90_000);
  return { proc, url: m[1]! };
}

const WORKER_RUNNER = join(repoRoot, 'test/ecf/server/worker/fixtures/run-worker.ts');

/** `ecf worker` with the given flags (configuration from `env`, as the server's). */
export function startWorkerProcess(owner: string, flags: string[], env: Record<string, string | undefined>, logFile: string): Proc {
  return spawnTsx(`worker ${owner}`, WORKER_RUNNER, ['--owner', owner, ...flags], { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, logFile, {
    readyWhen: `ecf worker ${owner} running`,
  });
}
