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
