/**
 * HTTP issue throughput of the reference server: POST /api/v1/documents/31 with a 10-line type 31 (JSON),
 * 16 connections for 10 s (after a 2 s warm-up), once on SQLite and once on PostgreSQL. The server runs in
 * its own process (`src/ecf/server/start.ts`, worker off, logs at info to a file) so the load generator
 * (autocannon, in this process) does not share its event loop; on a 2-core machine they still share the CPU.
 * Every response must be a 202: each one is a validated, built, XSD-checked document with its e-NCF taken
 * from the sequence in a storage transaction.
 * `npx tsx bench/server.ts` (BENCH_QUICK=1: 3 s after a 1 s warm-up; PostgreSQL from BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test;
 * skipped when unreachable)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os, { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openStorage } from '../src/ecf/server/storage/open.js';
import { createPostgresStorage } from '../src/ecf/server/storage/postgres.js';
import type { Storage } from '../src/ecf/server/storage/types.js';
import { generateToken, hashToken } from '../src/shared/server-kit/tokens.js';
import { doc31 } from './docs.js';
import { machineLine, quick, round, startServerProcess, writeResults, type ServerProcess } from './lib.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const XSD_DIR = process.env.ECF_XSD_DIR ?? resolve(root, '../shared/dgii-xsd');
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CONNECTIONS = 16;
const DURATION_S = quick(10, 3);
const WARMUP_S = quick(2, 1);

/** The part of autocannon's programmatic API used here (the package ships no types). */
interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
  latency: { p50: number; p99: number; average: number; max: number };
  requests: { average: number; total: number };
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  method: string;
  headers: Record<string, string>;
  body: string;
}) => Promise<AutocannonResult>;
export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export const ISSUER_PROFILE = JSON.parse(readFileSync(join(root, 'examples/issuer.json'), 'utf8')) as Record<string, string>;

/** Adds the issuer (provider signing), a token and a type 31 sequence large enough for any run. */
export async function provision(storage: Storage): Promise<string> {
  const issuer = await storage.createIssuer({ rnc: ISSUER_PROFILE.rnc!, name: ISSUER_PROFILE.razon_social!, profile: ISSUER_PROFILE, signingMode: 'provider' });
  const token = generateToken();
  await storage.addToken(issuer.id, hashToken(token), 'bench');
  await storage.addSequence(issuer.id, { tipo: '31', from: 1, to: 9_999_999_999, expiresOn: '2099-12-31' });
  return token;
}

/** A port that was free a moment ago: the authority URL of a server whose worker is off (never called). */
async function deadUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

export async function postgresReachable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

export async function withPg<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** DATABASE_URL whose connections use `schema` alone as search_path (pg sends `options` at connect). */
export function urlWithSchema(url: string, schema: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

/**
 * A data directory and, for PostgreSQL, a fresh schema, provisioned; returns the server environment for it,
 * the token and a cleanup.
 */
export async function prepare(
  adapter: 'sqlite' | 'postgres',
  label: string,
): Promise<{ env: Record<string, string | undefined>; token: string; dataDir: string; databaseUrl: string | null; cleanup(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), `ecf-bench-${label}-`));
  const base = {
    PORT: '0',
    HOST: '127.0.0.1',
    ECF_DATA_DIR: dataDir,
    ECF_XSD_DIR: XSD_DIR,
    ECF_CERT_KEY: randomBytes(32).toString('hex'),
    NODE_ENV: undefined,
    ECF_PROVIDER_P12: undefined,
    ECF_PROVIDER_P12_PASSWORD: undefined,
    LOG_LEVEL: 'info',
  };
  if (adapter === 'sqlite') {
    const storage = await openStorage({ dataDir });
    const token = await provision(storage).finally(() => storage.close());
    return {
      env: { ...base, DATABASE_URL: undefined },
      token,
      dataDir,
      databaseUrl: null,
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const schema = `ecf_bench_${label}_${process.pid}_${Date.now().toString(36)}`;
  const storage = createPostgresStorage({ connectionString: PG_URL, schema, maxConnections: 2 });
  await storage.migrate();
  const token = await provision(storage).finally(() => storage.close());
  const databaseUrl = urlWithSchema(PG_URL, schema);
  return {
    env: { ...base, DATABASE_URL: databaseUrl },
    token,
    dataDir,
    databaseUrl,
    cleanup: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      await withPg(PG_URL, (c) => c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    },
  };
}

export interface ServerFigures {
  adapter: string;
  connections: number;
  duration_s: number;
  requests: number;
  requests_per_second: number;
  p50_ms: number;
  p99_ms: number;
  mean_ms: number;
  max_ms: number;
  non_202: number;
  peak_rss_mb: number | null;
  /** 1-minute load average when the run started: other work on the machine skews the figures. */
  load_average_1m: number;
}

/** 1-minute load average, rounded (0 where the platform has none). */
export function loadAverage(): number {
  return round(os.loadavg()[0] ?? 0, 2);
}

async function benchAdapter(adapter: 'sqlite' | 'postgres'): Promise<ServerFigures> {
  const prep = await prepare(adapter, 'post');
  let server: ServerProcess | null = null;
  try {
    server = await startServerProcess({ ...prep.env, ECF_WORKER: 'off', ECF_AUTHORITY: await deadUrl() }, join(prep.dataDir, 'server.log'));
    const request = {
      url: `${server.url}/api/v1/documents/31`,
      method: 'POST',
      body: JSON.stringify(doc31(10)),
      headers: { authorization: `Bearer ${prep.token}`, 'content-type': 'application/json', accept: 'application/json' },
    };
    const warm = await autocannon({ ...request, connections: CONNECTIONS, duration: WARMUP_S });
    if (warm['2xx'] === 0)
      throw new Error(`warm-up got no 2xx: ${JSON.stringify(warm.statusCodeStats)}\n${readFileSync(join(prep.dataDir, 'server.log'), 'utf8').slice(-2000)}`);
    const load = loadAverage();
    const r = await autocannon({ ...request, connections: CONNECTIONS, duration: DURATION_S });
    const non202 =
      Object.entries(r.statusCodeStats)
        .filter(([code]) => code !== '202')
        .reduce((n, [, s]) => n + s.count, 0) +
      r.errors +
      r.timeouts;
    return {
      adapter,
      connections: CONNECTIONS,
      duration_s: r.duration,
      requests: r['2xx'],
      requests_per_second: round(r['2xx'] / r.duration, 1),
      p50_ms: r.latency.p50,
      p99_ms: r.latency.p99,
      mean_ms: round(r.latency.average, 2),
      max_ms: r.latency.max,
      non_202: non202,
      peak_rss_mb: server.peakRssMb(),
      load_average_1m: load,
    };
  } finally {
    const code = await server?.stop();
    if (code !== undefined && code !== 0) console.error(`server (${adapter}) exited with ${code}`);
    await prep.cleanup();
  }
}

export function printServerTable(title: string, rows: { adapter: string; cells: (string | number | null)[] }[], headers: string[]): void {
  console.log(`\n${title}`);
  console.log(`| adapter | ${headers.join(' | ')} |`);
  console.log(`|---|${headers.map(() => '---:').join('|')}|`);
  for (const r of rows) console.log(`| ${r.adapter} | ${r.cells.map((c) => c ?? 'n/a').join(' | ')} |`);
}

// Run only as a script (bench/e2e.ts imports the helpers above).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const results: ServerFigures[] = [];
  results.push(await benchAdapter('sqlite'));
  if (await postgresReachable(PG_URL)) results.push(await benchAdapter('postgres'));
  else console.log(`PostgreSQL not reachable at ${PG_URL}: skipped`);
  printServerTable(
    `POST /api/v1/documents/31, 10-line JSON, ${CONNECTIONS} connections, ${DURATION_S} s (server in its own process; ${machineLine()})`,
    results.map((r) => ({
      adapter: r.adapter,
      cells: [r.requests_per_second, r.p50_ms, r.p99_ms, r.mean_ms, r.max_ms, r.requests, r.non_202, r.peak_rss_mb, r.load_average_1m],
    })),
    ['requests/s', 'p50 ms', 'p99 ms', 'mean ms', 'max ms', '202s', 'non-202', 'peak RSS MB', 'load avg'],
  );
  const failed = results.filter((r) => r.non_202 > 0);
  if (failed.length) console.error(`non-202 answers: ${failed.map((r) => `${r.adapter} ${r.non_202}`).join(', ')}`);
  writeResults('server.json', { post_31_10_lines: Object.fromEntries(results.map((r) => [r.adapter, r])) });
  if (failed.length) process.exitCode = 1;
}
