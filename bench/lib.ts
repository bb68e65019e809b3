/** Tiny benchmark helpers: time a function on one core, print a table row, collect JSON results. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

/** `BENCH_QUICK=1`: short measurement windows and small N, to smoke-test the harness (figures are not comparable). */
export const QUICK = process.env.BENCH_QUICK === '1';

/** `full` normally, `quick` under BENCH_QUICK=1. */
export function quick<T>(full: T, quickValue: T): T {
  return QUICK ? quickValue : full;
}

/** Where results go: BENCH_RESULTS_DIR, else bench/results/. */
export function resultsDir(): string {
  return process.env.BENCH_RESULTS_DIR ? resolve(process.env.BENCH_RESULTS_DIR) : resolve(dirname(fileURLToPath(import.meta.url)), 'results');
}

/**
 * Memory figures attached to a result. `memory_scope` says whose peak it is: `own process` (the case ran
 * alone in a child process; `peak_rss_mb` is the kernel's peak RSS of that process, Node, tsx and the loaded
 * modules included, and `rss_before_mb` its RSS just before the timed case) or `sampled` (the case ran in a
 * process shared with other cases; `peak_rss_mb` is the highest RSS sampled every few ms between iterations
 * and `rss_before_mb` the RSS when the case started, so the growth is the case's own).
 */
export interface MemoryFigures {
  peak_rss_mb: number;
  rss_before_mb: number;
  memory_scope: 'own process' | 'sampled';
}

export interface Measurement extends Partial<MemoryFigures> {
  name: string;
  iterations: number;
  ms_per_op: number;
  ops_per_second: number;
  [extra: string]: unknown;
}

const MB = 2 ** 20;
/** Current resident set size in MB. */
export function rssMb(): number {
  return round(process.memoryUsage.rss() / MB, 1);
}

/** Peak resident set size of this process so far (kernel maxRSS), in MB. */
export function peakRssMb(): number {
  return round((process.resourceUsage().maxRSS * 1024) / MB, 1);
}

const SAMPLE_EVERY_MS = 5;

/** Samples the RSS between iterations (at most every 5 ms, a few microseconds each). */
function memorySampler(): { sample(now: number): void; figures(): MemoryFigures } {
  const before = process.memoryUsage.rss();
  let peak = before;
  let next = 0;
  return {
    sample(now) {
      if (now < next) return;
      next = now + SAMPLE_EVERY_MS;
      const r = process.memoryUsage.rss();
      if (r > peak) peak = r;
    },
    figures: () => ({ peak_rss_mb: round(Math.max(peak, process.memoryUsage.rss()) / MB, 1), rss_before_mb: round(before / MB, 1), memory_scope: 'sampled' }),
  };
}

/** Runs `fn` for at least `minMs` after a warm-up and returns the mean time per call (and sampled memory). */
export function measure(name: string, fn: () => unknown, { minMs = 1500, warmup = 20, warmupMs = 0 } = {}): Measurement {
  if (QUICK) minMs = Math.min(minMs, 150);
  const mem = memorySampler();
  // At least `warmup` calls, and calls for at least `warmupMs` (so the JIT has settled before timing).
  const warmStart = performance.now();
  for (let i = 0; i < warmup || performance.now() - warmStart < warmupMs; i++) {
    fn();
    mem.sample(performance.now());
  }
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < minMs) {
    fn();
    n++;
    now = performance.now();
    mem.sample(now);
  }
  const ms = (now - start) / n;
  return { name, iterations: n, ms_per_op: round(ms, 4), ops_per_second: round(1000 / ms, 1), ...mem.figures() };
}

export async function measureAsync(name: string, fn: () => Promise<unknown>, { minMs = 1500, warmup = 10 } = {}): Promise<Measurement> {
  if (QUICK) minMs = Math.min(minMs, 150);
  const mem = memorySampler();
  for (let i = 0; i < warmup; i++) {
    await fn();
    mem.sample(performance.now());
  }
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < minMs) {
    await fn();
    n++;
    now = performance.now();
    mem.sample(now);
  }
  const ms = (now - start) / n;
  return { name, iterations: n, ms_per_op: round(ms, 4), ops_per_second: round(1000 / ms, 1), ...mem.figures() };
}

/** Median of a non-empty list. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

// ---- One case per child process (so each case's peak RSS is its own) ----

const CASE_ENV = 'BENCH_CHILD_CASE';
const CASE_MARK = '@@bench-case ';

/** The case this process was started to run (by `runInChild`), or undefined in the parent. */
export const CHILD_CASE: string | undefined = process.env[CASE_ENV];

/**
 * Runs the bench script `scriptUrl` (pass `import.meta.url`) in a fresh process (`node --import tsx`) with
 * BENCH_CHILD_CASE=`name`; returns what that process passed to `reportCase`, with its memory figures.
 * The child's other output is passed through; a failing child throws.
 */
export function runInChild<T extends object>(scriptUrl: string, name: string): T & MemoryFigures {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(scriptUrl)], {
    cwd: root,
    env: { ...process.env, [CASE_ENV]: name },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 64 * MB,
  });
  const lines = (r.stdout ?? '').split('\n');
  const mark = lines.find((l) => l.startsWith(CASE_MARK));
  const rest = lines
    .filter((l) => !l.startsWith(CASE_MARK))
    .join('\n')
    .trim();
  if (rest) console.log(rest);
  if (r.status !== 0 || !mark) throw new Error(`bench case ${name} failed (exit ${r.status ?? r.signal})`);
  return JSON.parse(mark.slice(CASE_MARK.length)) as T & MemoryFigures;
}

/** In a child started by `runInChild`: hands `result` to the parent, with this process's peak RSS. */
export function reportCase(result: object, rssBeforeMb: number): void {
  const memory: MemoryFigures = { peak_rss_mb: peakRssMb(), rss_before_mb: rssBeforeMb, memory_scope: 'own process' };
  process.stdout.write(`${CASE_MARK}${JSON.stringify({ ...result, ...memory })}\n`);
}

export function round(x: number, d = 2): number {
  const f = 10 ** d;
  return Math.round(x * f) / f;
}

export function printTable(title: string, rows: Measurement[]): void {
  console.log(`\n${title}`);
  console.log('| benchmark | ms/op | ops/s | peak RSS MB | RSS before MB | memory |');
  console.log('|---|---:|---:|---:|---:|---|');
  for (const r of rows)
    console.log(`| ${r.name} | ${r.ms_per_op} | ${r.ops_per_second} | ${r.peak_rss_mb ?? 'n/a'} | ${r.rss_before_mb ?? 'n/a'} | ${r.memory_scope ?? ''} |`);
}

/**
 * Writes `data` as JSON to `file` in `resultsDir()`, with the machine, the 1-minute load average, the quick
 * flag and `process_peak_rss_mb` (peak RSS of the process that wrote the file, i.e. of the whole script).
 */
export function writeResults(file: string, data: Record<string, unknown>): void {
  const dir = resultsDir();
  mkdirSync(dir, { recursive: true });
  const payload = {
    ...data,
    quick: QUICK,
    process_peak_rss_mb: peakRssMb(),
    load_average_1m: round(os.loadavg()[0] ?? 0, 2),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, platform: `${os.platform()} ${os.arch()}`, line: machineLine() },
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
  /** SIGTERM and wait for the exit code (SIGKILL after `stopTimeoutMs`, default 15 s). */
  stop(): Promise<number | null>;
}

/**
 * Starts the reference server (`node --import tsx src/ecf/server/start.ts`) with `env` added to this
 * process's environment (an undefined value removes the variable); its stdout and stderr (logs included)
 * go to `logFile`. Resolves once it listens. `nodeArgs` go before the script (flags such as `--cpu-prof`, which
 * NODE_OPTIONS does not allow).
 */
export async function startServerProcess(
  env: Record<string, string | undefined>,
  logFile: string,
  { nodeArgs = [], stopTimeoutMs = 15_000 }: { nodeArgs?: string[]; stopTimeoutMs?: number } = {},
): Promise<ServerProcess> {
  const { spawn } = await import('node:child_process');
  const { openSync, closeSync, readFileSync } = await import('node:fs');
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', resolve(root, 'src/ecf/server/start.ts')], {
    cwd: root,
    env: Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined)),
    stdio: ['ignore', fd, fd],
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
      const force = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
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

/** One side of an interleaved comparison: `perRound` calls of `fn` per round. */
export interface Side {
  name: string;
  perRound: number;
  fn: () => unknown;
}

/**
 * Times every side `perRound` calls per round, for `rounds` rounds, rotating which side goes first; returns
 * the per-round mean ms per call of each side.
 */
export async function interleave(sides: Side[], rounds: number, warmup: number): Promise<Record<string, number[]>> {
  for (const s of sides) for (let i = 0; i < warmup; i++) await s.fn();
  const out: Record<string, number[]> = Object.fromEntries(sides.map((s) => [s.name, []]));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < sides.length; k++) {
      const s = sides[(r + k) % sides.length]!;
      const t = performance.now();
      for (let i = 0; i < s.perRound; i++) await s.fn();
      out[s.name]!.push((performance.now() - t) / s.perRound);
    }
  }
  return out;
}

/** Median ms per call of `side` and its ratio to the floor (quotient of the medians), plus per-round ratios. */
export function againstFloor(times: Record<string, number[]>, side: string) {
  const ms = round(median(times[side]!), 4);
  const floorMs = round(median(times.floor!), 4);
  const ratios = times[side]!.map((x, i) => x / times.floor![i]!).sort((a, b) => a - b);
  return {
    docs_per_second: round(1000 / ms, 1),
    ms_per_doc: ms,
    floor_docs_per_second: round(1000 / floorMs, 1),
    floor_ms: floorMs,
    ratio_to_floor: round(ms / floorMs, 2),
    round_ratio: { median: round(median(ratios), 2), min: round(ratios[0]!, 2), max: round(ratios[ratios.length - 1]!, 2) },
  };
}
