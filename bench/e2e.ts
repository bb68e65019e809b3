/**
 * End to end: documents per second from the first POST until every document is `accepted_authority`.
 * One server process (`src/ecf/server/start.ts`) with its in-process worker and in-process simulator (TesteCF
 * played locally, default processing delay 200 ms, default worker settings: batches of 32, 8 at once,
 * first result poll after 0.5 s). N 10-line type 31 documents are posted by autocannon (16 connections);
 * this process then watches the database until all are accepted. Once on SQLite, once on PostgreSQL, with
 * the peak RSS of the server process (which holds the simulator too).
 * `npx tsx bench/e2e.ts` (N from BENCH_E2E_DOCS, default 1000, 100 under BENCH_QUICK=1)
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { doc31 } from './docs.js';
import { machineLine, quick, round, startServerProcess, writeResults, type ServerProcess } from './lib.js';
import { autocannon, loadAverage, postgresReachable, prepare, printServerTable } from './server.js';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DOCS = Number(process.env.BENCH_E2E_DOCS ?? quick(1000, 100));
const CONNECTIONS = 16;
const TIMEOUT_MS = 300_000;

interface E2eFigures {
  adapter: string;
  documents: number;
  docs_per_second: number;
  seconds_to_all_accepted: number;
  post_seconds: number;
  post_requests_per_second: number;
  other_statuses: Record<string, number>;
  peak_rss_mb: number | null;
  load_average_1m: number;
}

/** Counts documents by status, straight from the server's database (no load on the server's HTTP side). */
function statusCounter(
  adapter: 'sqlite' | 'postgres',
  dataDir: string,
  databaseUrl: string | null,
): { counts(): Promise<Record<string, number>>; close(): Promise<void> } {
  if (adapter === 'sqlite') {
    const db = new Database(join(dataDir, 'ecf.sqlite'), { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    const stmt = db.prepare('SELECT status, count(*) AS n FROM documents GROUP BY status');
    return {
      counts: async () => Object.fromEntries((stmt.all() as { status: string; n: number }[]).map((r) => [r.status, r.n])),
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({ connectionString: databaseUrl! });
  const connected = client.connect();
  return {
    counts: async () => {
      await connected;
      const r = await client.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM documents GROUP BY status');
      return Object.fromEntries(r.rows.map((x) => [x.status, x.n]));
    },
    close: async () => {
      await connected;
      await client.end();
    },
  };
}

async function e2e(adapter: 'sqlite' | 'postgres'): Promise<E2eFigures> {
  const prep = await prepare(adapter, 'e2e');
  let server: ServerProcess | null = null;
  let counter: ReturnType<typeof statusCounter> | null = null;
  try {
    // ECF_AUTHORITY unset: the in-process simulator; the worker runs in the server process.
    server = await startServerProcess({ ...prep.env, ECF_WORKER: 'on', ECF_AUTHORITY: undefined }, join(prep.dataDir, 'server.log'));
    counter = statusCounter(adapter, prep.dataDir, prep.databaseUrl);
    const load = loadAverage();
    const start = performance.now();
    const posted = await autocannon({
      url: `${server.url}/api/v1/documents/31`,
      method: 'POST',
      body: JSON.stringify(doc31(10)),
      connections: CONNECTIONS,
      amount: DOCS,
      headers: { authorization: `Bearer ${prep.token}`, 'content-type': 'application/json', accept: 'application/json' },
    });
    const postMs = performance.now() - start;
    if (posted['2xx'] !== DOCS) throw new Error(`${adapter}: ${posted['2xx']} of ${DOCS} POSTs answered 202 (${JSON.stringify(posted.statusCodeStats)})`);
    let counts: Record<string, number> = {};
    while ((counts.accepted_authority ?? 0) < DOCS) {
      if (performance.now() - start > TIMEOUT_MS) throw new Error(`${adapter}: not all accepted after ${TIMEOUT_MS / 1000} s: ${JSON.stringify(counts)}`);
      if ((counts.rejected_authority ?? 0) > 0) throw new Error(`${adapter}: documents rejected by the simulator: ${JSON.stringify(counts)}`);
      await new Promise((r) => setTimeout(r, 100));
      counts = await counter.counts();
    }
    const totalMs = performance.now() - start;
    const { accepted_authority: _accepted, ...others } = counts;
    return {
      adapter,
      documents: DOCS,
      docs_per_second: round(DOCS / (totalMs / 1000), 1),
      seconds_to_all_accepted: round(totalMs / 1000, 2),
      post_seconds: round(postMs / 1000, 2),
      post_requests_per_second: round(DOCS / (postMs / 1000), 1),
      other_statuses: others,
      peak_rss_mb: server.peakRssMb(),
      load_average_1m: load,
    };
  } finally {
    await counter?.close();
    const code = await server?.stop();
    if (code !== undefined && code !== 0) console.error(`server (${adapter}) exited with ${code}`);
    await prep.cleanup();
  }
}

const results: E2eFigures[] = [];
results.push(await e2e('sqlite'));
if (await postgresReachable(PG_URL)) results.push(await e2e('postgres'));
else console.log(`PostgreSQL not reachable at ${PG_URL}: skipped`);
printServerTable(
  `End to end: ${DOCS} 10-line type 31 posted (${CONNECTIONS} connections) → accepted_authority, server + worker + simulator in one process (${machineLine()})`,
  results.map((r) => ({
    adapter: r.adapter,
    cells: [r.docs_per_second, r.seconds_to_all_accepted, r.post_seconds, r.post_requests_per_second, r.peak_rss_mb, r.load_average_1m],
  })),
  ['docs/s to accepted', 's to all accepted', 's posting', 'POST req/s', 'peak RSS MB', 'load avg'],
);
writeResults('e2e.json', { e2e_31_10_lines: Object.fromEntries(results.map((r) => [r.adapter, r])) });
