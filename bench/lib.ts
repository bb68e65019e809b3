/** Tiny benchmark helpers: time a function on one core, print a table row, collect JSON results. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

export interface Measurement {
  name: string;
  iterations: number;
  ms_per_op: number;
  ops_per_second: number;
  [extra: string]: unknown;
}

/** Runs `fn` for at least `minMs` after a warm-up and returns the mean time per call. */
export function measure(name: string, fn: () => unknown, { minMs = 1500, warmup = 20 } = {}): Measurement {
  for (let i = 0; i < warmup; i++) fn();
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < minMs) {
    fn();
    n++;
    now = performance.now();
  }
  const ms = (now - start) / n;
  return { name, iterations: n, ms_per_op: round(ms, 4), ops_per_second: round(1000 / ms, 1) };
}

export async function measureAsync(name: string, fn: () => Promise<unknown>, { minMs = 1500, warmup = 10 } = {}): Promise<Measurement> {
  for (let i = 0; i < warmup; i++) await fn();
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < minMs) {
    await fn();
    n++;
    now = performance.now();
  }
  const ms = (now - start) / n;
  return { name, iterations: n, ms_per_op: round(ms, 4), ops_per_second: round(1000 / ms, 1) };
}

export function round(x: number, d = 2): number {
  const f = 10 ** d;
  return Math.round(x * f) / f;
}

export function printTable(title: string, rows: Measurement[]): void {
  console.log(`\n${title}`);
  console.log('| benchmark | ms/op | ops/s |');
  console.log('|---|---:|---:|');
  for (const r of rows) console.log(`| ${r.name} | ${r.ms_per_op} | ${r.ops_per_second} |`);
}

export function writeResults(file: string, data: Record<string, unknown>): void {
  const dir = resolve(dirname(fileURLToPath(import.meta.url)), 'results');
  mkdirSync(dir, { recursive: true });
  const payload = {
    ...data,
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, platform: `${os.platform()} ${os.arch()}` },
    date: new Date().toISOString(),
  };
  writeFileSync(resolve(dir, file), `${JSON.stringify(payload, null, 2)}\n`);
}

/** A server started by `startServerProcess`: its own process, so a load generator here does not share its event loop. */
export interface ServerProcess {
  url: string;
  pid: number;
  /** Peak resident set size of the server process so far (VmHWM, Linux), in MB; null elsewhere. */
  peakRssMb(): number | null;
  /** SIGTERM and wait for the exit code (SIGKILL after 15 s). */
  stop(): Promise<number | null>;
}

/**
 * Starts the reference server (`node --import tsx src/server/start.ts`) with `env` added to this
 * process's environment (an undefined value removes the variable); its stdout and stderr (logs included)
 * go to `logFile`. Resolves once it listens.
 */
export async function startServerProcess(env: Record<string, string | undefined>, logFile: string): Promise<ServerProcess> {
  const { spawn } = await import('node:child_process');
  const { openSync, closeSync, readFileSync } = await import('node:fs');
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(root, 'src/server/start.ts')], {
    cwd: root, env: Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined)), stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const deadline = Date.now() + 60_000;
  let url: string | undefined;
  while (!url) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${readFileSync(logFile, 'utf8')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
    url = /listening on (http:\/\/\S+)/.exec(readFileSync(logFile, 'utf8'))?.[1];
  }
  const pid = child.pid!;
  return {
    url,
    pid,
    peakRssMb: () => {
      try {
        const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
        return kb ? round(Number(kb) / 1024, 1) : null;
      } catch {
        return null;
      }
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(force);
      return code;
    },
  };
}

/** One line describing this machine, for tables and docs. */
export function machineLine(): string {
  const cpu = os.cpus();
  return `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${round(os.totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}, ${os.platform()} ${os.arch()}`;
}
