/**
 * Three real DIAN server processes (./server-process.ts: `startDianServer` under tsx) on one PostgreSQL schema,
 * sending to one local DIAN in its own process over real HTTP (./simulator-process.ts), take concurrent invoices
 * with overlapping numbers (issue 21: "several server processes on one PostgreSQL issue concurrently without a
 * duplicate number or a lost document"). Three kinds of number:
 * - single: one request to one process;
 * - twin, same body: two processes at once with the same body (one sends; the other gets the 409 or the stored 200);
 * - twin, other body: two processes at once with different bodies (one 200; the other the 422 "ya fue usado").
 * What must hold across the processes: every 200 is stored once under its number with its own body; DIAN
 * (the simulator's counters and its state of accepted numbers) received each number once and accepted it once;
 * no number has a 200 for two bodies; a retry to another process gets the stored answer and sends nothing; no
 * document is left `building` or `sending`.
 * Reduced in `npm test` (60 requests); 600 with `ECF_RELIABILITY=full`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDianPostgresStorage } from '../../../../src/dian/server/index.js';
import { scale } from '../../../ecf/reliability/mode.js';
import { type Child, startChild, stopChild, addExampleCompany, EXAMPLE_CONTEXT, exampleSimulatorSeed } from './children.js';
import { dianXsdDir } from '../../helpers/env.js';
import { EXAMPLE_NIT, example, NOW, newSchema, PG_URL } from '../helpers.js';

const PROCESSES = 3;
/** Numbers of each kind; requests = singles + 2 × (same twins + different twins). */
const SINGLES = scale(20, 200);
const SAME_TWINS = scale(10, 100);
const OTHER_TWINS = scale(10, 100);
const IN_FLIGHT = scale(9, 24);
const NUMBERS = SINGLES + SAME_TWINS + OTHER_TWINS;
const FIRST = 990002000;

const SCHEMA = newSchema();
const CERT_KEY = randomBytes(32).toString('hex');
const RANGE = {
  prefix: 'SETP',
  from: 990000000,
  to: 995000000,
  technicalKey: EXAMPLE_CONTEXT.resolution.technical_key as string,
  resolutionNumber: '18760000001',
  resolutionDate: '2025-01-01',
  validFrom: '2025-01-01',
  validTo: '2026-12-31',
};

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query(`SET search_path TO "${SCHEMA}"`);
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

type Kind = 'single' | 'same' | 'other';
interface Job {
  kind: Kind;
  number: number;
  /** Which body of the number this is (0, or 1 for the second body of an `other` twin). */
  variant: number;
  marker: string;
  body: Record<string, unknown>;
}
interface Outcome {
  job: Job;
  server: number;
  status: number;
  retryAfter: string | null;
  body: any;
}

const dataDirs: string[] = [];
let simulator: Child | null = null;
const servers: Child[] = [];
let token = '';
let storm: { outcomes: Outcome[]; ms: number } | null = null;

function invoice(number: number, variant: number): Job['body'] & { marker: string } {
  const body = example('invoice');
  const marker = `Martillo del número ${number}, cuerpo ${variant}`;
  body.number = number;
  (body.invoice_lines as Record<string, unknown>[])[0]!.description = marker;
  return Object.assign(body, { marker });
}

/** Units fired together: a single request, or a number's two copies sent to two processes at once. */
function units(): Job[][] {
  const list: Job[][] = [];
  let n = FIRST;
  const job = (kind: Kind, number: number, variant: number): Job => {
    const { marker, ...body } = invoice(number, variant);
    return { kind, number, variant, marker, body };
  };
  for (let i = 0; i < SINGLES; i++) list.push([job('single', n++, 0)]);
  for (let i = 0; i < SAME_TWINS; i++, n++) list.push([job('same', n, 0), job('same', n, 0)]);
  for (let i = 0; i < OTHER_TWINS; i++, n++) list.push([job('other', n, 0), job('other', n, 1)]);
  // Interleave the kinds deterministically (a stride through the list), so twins overlap singles.
  const order: Job[][] = [];
  for (let start = 0; start < 7; start++) for (let i = start; i < list.length; i += 7) order.push(list[i]!);
  return order;
}

async function post(server: number, body: unknown): Promise<Omit<Outcome, 'job'>> {
  const r = await fetch(`${servers[server]!.urls[0]}/service/invoice`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { server, status: r.status, retryAfter: r.headers.get('Retry-After'), body: await r.json() };
}

async function simStats(): Promise<{ requests: Record<string, number>; documents: { accepted: number; rejected: number; duplicates: number } }> {
  return (await fetch(`${simulator!.urls[1]}/stats`)).json() as never;
}

async function runStorm() {
  if (!storm) {
    const order = units();
    const outcomes: Outcome[] = [];
    const startMs = performance.now();
    let next = 0;
    const lane = async () => {
      while (next < order.length) {
        const k = next++;
        const unit = order[k]!;
        // The copies of a twin go to two different processes at once.
        const done = await Promise.all(unit.map(async (job, copy) => ({ job, ...(await post((k + copy) % PROCESSES, job.body)) })));
        outcomes.push(...done);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
    const ms = performance.now() - startMs;
    storm = { outcomes, ms };
    const statuses: Record<number, number> = {};
    for (const o of outcomes) statuses[o.status] = (statuses[o.status] ?? 0) + 1;
    console.info(
      `dian multiprocess: ${outcomes.length} requests (${NUMBERS} numbers) over ${PROCESSES} processes in ${(ms / 1000).toFixed(1)} s; statuses ${JSON.stringify(statuses)}`,
    );
  }
  return storm.outcomes;
}

const SUITE_START = performance.now();

beforeAll(async () => {
  const storage = createDianPostgresStorage({ connectionString: PG_URL, schema: SCHEMA, maxConnections: 2 });
  token = await addExampleCompany(storage, CERT_KEY, RANGE);
  // The real DIAN knows the company's software, PIN and ranges from habilitación: seeded at the simulator's start.
  const simDir = mkdtempSync(join(tmpdir(), 'dian-mp-sim-'));
  dataDirs.push(simDir);
  simulator = await startChild('simulator-process.ts', 'simulator', {
    DIAN_XSD_DIR: dianXsdDir(),
    DIAN_SIM_DATA_DIR: simDir,
    DIAN_NOW: NOW.toISOString(),
    DIAN_SIM_SEED: exampleSimulatorSeed(RANGE),
  });
  const started = await Promise.all(
    Array.from({ length: PROCESSES }, () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'dian-mp-'));
      dataDirs.push(dataDir);
      return startChild('server-process.ts', 'listening', {
        DATABASE_URL: PG_URL,
        DIAN_SCHEMA: SCHEMA,
        DIAN_ENDPOINT: simulator!.urls[0]!,
        DIAN_DATA_DIR: dataDir,
        DIAN_CERT_KEY: CERT_KEY,
        DIAN_NOW: NOW.toISOString(),
      });
    }),
  );
  servers.push(...started);
}, 90_000);

afterAll(async () => {
  await Promise.all(servers.map(stopChild));
  if (simulator) await stopChild(simulator);
  for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`);
  } finally {
    await c.end();
  }
  console.info(`dian multiprocess: suite wall time ${((performance.now() - SUITE_START) / 1000).toFixed(1)} s`);
}, 60_000);

describe(`${PROCESSES} DIAN server processes on one PostgreSQL and one local DIAN`, () => {
  it(`${SINGLES + 2 * (SAME_TWINS + OTHER_TWINS)} concurrent invoices: every number answered 200 once per body, each twin as documented`, async () => {
    const outcomes = await runStorm();
    const byNumber = new Map<number, Outcome[]>();
    for (const o of outcomes) byNumber.set(o.job.number, [...(byNumber.get(o.job.number) ?? []), o]);
    expect(byNumber.size).toBe(NUMBERS);
    for (const [number, list] of byNumber) {
      const why = `SETP${number}: ${JSON.stringify(list.map((o) => [o.job.kind, o.status, o.body?.message]))}`;
      const ok = list.filter((o) => o.status === 200);
      expect(ok.length, why).toBeGreaterThanOrEqual(1);
      for (const o of ok) expect(o.body.document.statusCode, why).toBe(6);
      // No number answered 200 for two different bodies.
      expect(new Set(ok.map((o) => o.job.variant)).size, why).toBe(1);
      const kind = list[0]!.job.kind;
      if (kind === 'single')
        expect(
          list.map((o) => o.status),
          why,
        ).toEqual([200]);
      if (kind === 'same') {
        // The copy that did not send: the 409 with Retry-After, or the stored 200 (the same document).
        const others = list.filter((o) => o !== ok[0]);
        for (const o of others) {
          if (o.status === 409) expect(o.retryAfter, why).toBe('5');
          else expect(o.body, why).toEqual(ok[0]!.body);
        }
      }
      if (kind === 'other') {
        expect(list.map((o) => o.status).sort(), why).toEqual([200, 422]);
        expect(JSON.stringify(list.find((o) => o.status === 422)!.body), why).toContain('ya fue usado');
      }
    }
  }, 120_000);

  it('each 200 is stored once under its number with its own body; nothing left building or sending', async () => {
    const outcomes = await runStorm();
    const rows = await sql<{ number: string; state: string; document_key: string; signed_xml: string }>(
      `SELECT number, state, document_key, signed_xml FROM dian_documents`,
    );
    expect(rows).toHaveLength(NUMBERS);
    expect(new Set(rows.map((r) => r.number)).size).toBe(NUMBERS);
    expect(rows.filter((r) => r.state !== 'accepted').map((r) => [r.number, r.state])).toEqual([]);
    const byNumber = new Map(rows.map((r) => [Number(r.number), r]));
    for (const o of outcomes.filter((x) => x.status === 200)) {
      const row = byNumber.get(o.job.number)!;
      expect(row.document_key, `SETP${o.job.number}`).toBe(o.body.document.uuid);
      expect(row.signed_xml.includes(o.job.marker), `SETP${o.job.number}`).toBe(true);
    }
  }, 120_000);

  it('DIAN received each number once and accepted it once: SendBillSync count = numbers, no duplicate', async () => {
    await runStorm();
    const stats = await simStats();
    expect(stats.requests.SendBillSync).toBe(NUMBERS);
    expect(stats.documents).toEqual({ accepted: NUMBERS, rejected: 0, duplicates: 0 });
  }, 120_000);

  it('a retry (every same-body twin, a quarter of the rest) to another process gets the stored answer and sends nothing; the processes stop cleanly', async () => {
    const outcomes = await runStorm();
    const before = (await simStats()).requests.SendBillSync;
    const firsts = new Map<number, Outcome>();
    for (const o of outcomes) if (o.status === 200 && !firsts.has(o.job.number)) firsts.set(o.job.number, o);
    // Every number whose twin got the 409 (the client's retry after Retry-After), and every fourth other number.
    const retries = [...firsts.values()].filter((o, i) => o.job.kind === 'same' || i % 4 === 0);
    const again = await Promise.all(retries.map((o) => post((o.server + 1) % PROCESSES, o.job.body)));
    for (const [i, r] of again.entries()) {
      expect(r.status).toBe(200);
      expect(r.body).toEqual(retries[i]!.body);
    }
    expect((await simStats()).requests.SendBillSync).toBe(before);
    const codes = await Promise.all(servers.map(stopChild));
    expect(codes, servers.map((s) => s.stderr()).join('\n')).toEqual(Array(PROCESSES).fill(0));
    // The simulator's own state: one accepted key per number, the one stored for it.
    expect(await stopChild(simulator!)).toBe(0);
    const state = JSON.parse(readFileSync(join(dataDirs[0]!, 'state.json'), 'utf8')) as { accepted: Record<string, string> };
    const stored = await sql<{ number: string; document_key: string }>(`SELECT number, document_key FROM dian_documents`);
    const accepted = Object.entries(state.accepted).filter(([k]) => k.startsWith(`${EXAMPLE_NIT}|`));
    expect(accepted).toHaveLength(NUMBERS);
    const keyOf = new Map(accepted.map(([k, v]) => [k.slice(EXAMPLE_NIT.length + 1), v]));
    for (const r of stored) expect(keyOf.get(`SETP${r.number}`), `SETP${r.number}`).toBe(r.document_key);
  }, 120_000);
});
