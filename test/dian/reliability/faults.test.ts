/**
 * Faults (issue 23): invoices and their 034 events through two DIAN server processes on a private PostgreSQL
 * cluster, sending to the local DIAN in its own process, while:
 * - the simulator injects faults on SendBillSync, SendEventUpdateStatus and GetStatus (500 SOAP fault, 503 page,
 *   connection dropped before processing, answer dropped after processing, slow answers) and opens outage windows
 *   (`PUT /control/outage {mode: "503", forMs}`);
 * - a server process is SIGKILLed at random and a new one started in its place;
 * - the PostgreSQL cluster is restarted (`pg_ctl restart`, fast and immediate in turn).
 * The client retries as a real client would: the same body, after a 409, 502, 503 or a connection error (waiting
 * less than Retry-After: the processes' clock runs at DIAN_CLOCK_RATE so that the 2-minute reservation lease of
 * a killed process expires in seconds). After the faults stop, a final pass retries every unsettled request.
 * What must hold:
 * - every 200 is stored once, accepted, under its key, and DIAN holds that key as accepted;
 * - DIAN received every key at most once (`GET /control/received` ≤ 1) and saw no duplicate: every lost answer was
 *   settled by GetStatus, never by a second send;
 * - no 200 for a document DIAN never accepted; nothing left `building` or `sending`.
 * Reduced in `npm test` (30 invoices + their events); 2,500 + 2,500 with `ECF_RELIABILITY=full`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDianPostgresStorage } from '../../../src/dian/server/index.js';
import { type PrivateCluster, startPrivateCluster } from '../../ecf/reliability/faults/cluster.js';
import { scale } from '../../ecf/reliability/mode.js';
import { dianXsdDir, repoRoot } from '../helpers/env.js';
import { type Child, killChild, startChild, stopChild, addExampleCompany, EXAMPLE_CONTEXT, exampleSimulatorSeed } from '../server/concurrency/children.js';
import { example, NOW } from '../server/helpers.js';

const INVOICES = scale(30, 2_500);
const IN_FLIGHT = scale(6, 12);
const PROCESSES = 2;
const FIRST = 990_300_000;
const CLOCK_RATE = 20;
const SCHEMA = 'dian_faults';
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
const FAULTS = {
  http500Rate: 0.05,
  http503Rate: 0.05,
  dropBeforeRate: 0.05,
  dropAfterRate: 0.1,
  jitterMs: 300,
  operations: ['SendBillSync', 'SendEventUpdateStatus', 'GetStatus'],
};

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const dataDirs: string[] = [];
let cluster: PrivateCluster;
let simulator: Child;
const servers: (Child | null)[] = [];
let token = '';
const epoch = Date.now();
const figures = { kills: 0, pgRestarts: 0, outages: 0, attempts: 0, retried: {} as Record<string, number>, ms: 0 };

async function sql<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: cluster.url });
  await c.connect();
  try {
    await c.query(`SET search_path TO "${SCHEMA}"`);
    return (await c.query<T>(text)).rows;
  } finally {
    await c.end();
  }
}

const clockEnv = () => ({ DIAN_NOW: NOW.toISOString(), DIAN_CLOCK_RATE: String(CLOCK_RATE), DIAN_CLOCK_EPOCH_MS: String(epoch) });

function startServer(): Promise<Child> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dian-faults-'));
  dataDirs.push(dataDir);
  return startChild('server-process.ts', 'listening', {
    DATABASE_URL: cluster.url,
    DIAN_SCHEMA: SCHEMA,
    DIAN_ENDPOINT: simulator.urls[0]!,
    DIAN_DATA_DIR: dataDir,
    DIAN_CERT_KEY: CERT_KEY,
    // Answers slower than this are lost answers (a hung DIAN): 2 s.
    DIAN_TIMEOUT_MS: '2000',
    ...clockEnv(),
  });
}

const control = async (path: string, method = 'GET', body?: unknown) =>
  (await fetch(`${simulator.urls[1]}/${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })).json() as Promise<any>;

interface Result {
  status: number;
  body: any;
  attempts: number;
}

/** POSTs the same body until a final answer (200 or 422), retrying after 409, 502, 503 and connection errors. */
async function request(path: string, body: unknown, final: boolean): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    figures.attempts++;
    const live = servers.filter((s): s is Child => s !== null);
    const server = live[Math.floor(Math.random() * live.length)];
    let why: string;
    if (server) {
      try {
        const r = await fetch(`${server.urls[0]}${path}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
        const json = await r.json();
        if (r.status !== 409 && r.status !== 502 && r.status !== 503) return { status: r.status, body: json, attempts: attempt };
        why = String(r.status);
      } catch {
        why = 'connection';
      }
    } else why = 'no server';
    figures.retried[why] = (figures.retried[why] ?? 0) + 1;
    if (final && attempt > 40) return { status: 0, body: why, attempts: attempt };
    await sleep(200 + Math.random() * 400);
  }
}

function invoice(number: number) {
  const body = example('invoice');
  body.number = number;
  (body.invoice_lines as Record<string, unknown>[])[0]!.description = `Artículo de la factura ${number}`;
  return body;
}

function tacit(number: number, cufe: string) {
  const body = JSON.parse(readFileSync(join(repoRoot, 'examples/dian/event-034.json'), 'utf8'));
  delete body.event_code;
  body.number = number - FIRST + 1;
  body.document_reference = { number: `SETP${number}`, uuid: cufe };
  return body;
}

interface Outcome {
  number: number;
  invoice: Result;
  event: Result | null;
}
let run: { outcomes: Outcome[]; final: Outcome[] } | null = null;

/** Each fault in turn until `stop.done`, and at least one round of the three (a fast run meets every kind). */
async function chaos(stop: { done: boolean }) {
  let round = 0;
  while (!stop.done || round < 3) {
    await sleep(scale(2_500, 6_000) + Math.random() * 2_000);
    if (stop.done && round >= 3) break;
    round++;
    const which = round % 3;
    if (which === 1) {
      const i = Math.floor(Math.random() * PROCESSES);
      const victim = servers[i];
      if (!victim) continue;
      servers[i] = null;
      await killChild(victim);
      figures.kills++;
      servers[i] = await startServer();
    } else if (which === 2) {
      await cluster.restart(figures.pgRestarts % 2 === 0 ? 'fast' : 'immediate');
      figures.pgRestarts++;
    } else {
      // The first window hangs (answers never come: the servers time out after sending), the next ones answer 503.
      await control('outage', 'PUT', { mode: figures.outages === 0 ? 'hang' : '503', forMs: figures.outages === 0 ? 3_000 : 1_500 });
      figures.outages++;
    }
  }
}

async function runFaults() {
  if (run) return run;
  const start = performance.now();
  await control('faults', 'PUT', FAULTS);
  const stop = { done: false };
  const chaotic = chaos(stop);
  const outcomes: Outcome[] = [];
  let next = 0;
  const lane = async () => {
    while (next < INVOICES) {
      const number = FIRST + next++;
      const inv = await request('/service/invoice', invoice(number), false);
      const outcome: Outcome = { number, invoice: inv, event: null };
      if (inv.status === 200) outcome.event = await request('/v1/034', tacit(number, inv.body.document.uuid), false);
      outcomes.push(outcome);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  stop.done = true;
  await chaotic;
  // The final pass, faults off: every request again (a settled one gets its stored answer and sends nothing).
  await control('faults', 'PUT', {});
  await control('outage', 'PUT', { mode: 'off' });
  const final: Outcome[] = [];
  for (const o of outcomes) {
    const inv = await request('/service/invoice', invoice(o.number), true);
    const ev = inv.status === 200 ? await request('/v1/034', tacit(o.number, inv.body.document.uuid), true) : null;
    final.push({ number: o.number, invoice: inv, event: ev });
  }
  figures.ms = performance.now() - start;
  const stats = await control('stats');
  console.info(
    `dian faults: ${INVOICES} invoices + events, ${figures.attempts} attempts in ${(figures.ms / 1000).toFixed(1)} s; retried ${JSON.stringify(figures.retried)}; ` +
      `${figures.kills} SIGKILLs, ${figures.pgRestarts} PostgreSQL restarts, ${figures.outages} outage windows; simulator faults ${JSON.stringify(stats.faults)}, outage answers ${stats.outage}`,
  );
  run = { outcomes, final };
  return run;
}

beforeAll(async () => {
  cluster = await startPrivateCluster();
  const storage = createDianPostgresStorage({ connectionString: cluster.url, schema: SCHEMA, maxConnections: 2 });
  token = await addExampleCompany(storage, CERT_KEY, RANGE);
  const simDir = mkdtempSync(join(tmpdir(), 'dian-faults-sim-'));
  dataDirs.push(simDir);
  simulator = await startChild('simulator-process.ts', 'simulator', {
    DIAN_XSD_DIR: dianXsdDir(),
    DIAN_SIM_DATA_DIR: simDir,
    ...clockEnv(),
    DIAN_SIM_SEED: exampleSimulatorSeed(RANGE),
  });
  servers.push(...(await Promise.all(Array.from({ length: PROCESSES }, startServer))));
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.filter((s): s is Child => s !== null).map(stopChild));
  if (simulator) await stopChild(simulator);
  for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
  cluster?.stop();
}, 60_000);

describe('DIAN documents and events under faults: simulator faults, SIGKILLed servers, PostgreSQL restarts', () => {
  it(
    `${INVOICES} invoices and their 034 events: every request settles; the final pass answers 200 for each`,
    async () => {
      const { outcomes, final } = await runFaults();
      expect(outcomes).toHaveLength(INVOICES);
      // Faults were injected of each kind the run is about.
      expect(figures.kills).toBeGreaterThan(0);
      expect(figures.pgRestarts).toBeGreaterThan(0);
      expect(figures.outages).toBeGreaterThan(0);
      const stats = await control('stats');
      expect(stats.faults.dropAfter).toBeGreaterThan(0);
      // Nothing the client sent was invalid: after the faults, every invoice and event has its 200.
      const notOk = final.filter((o) => o.invoice.status !== 200 || o.event?.status !== 200);
      expect(notOk.map((o) => [o.number, o.invoice.status, o.invoice.body?.message, o.event?.status, o.event?.body?.message])).toEqual([]);
      // A 200 during the faults is the same answer after them.
      for (const [i, o] of outcomes.entries()) {
        if (o.invoice.status === 200) expect(final[i]!.invoice.body.document.uuid).toBe(o.invoice.body.document.uuid);
        if (o.event?.status === 200) expect(final[i]!.event!.body.event.uuid).toBe(o.event.body.event.uuid);
      }
    },
    scale(240_000, 4 * 3_600_000),
  );

  it('stored once, accepted, nothing left building or sending; DIAN accepted each and received each key at most once', async () => {
    const { final } = await runFaults();
    const docs = await sql<{ number: string; state: string; document_key: string }>('SELECT number, state, document_key FROM dian_documents');
    const events = await sql<{ number: string; state: string; document_key: string }>('SELECT number, state, cude AS document_key FROM dian_events');
    expect(docs).toHaveLength(INVOICES);
    expect(new Set(docs.map((d) => d.number)).size).toBe(INVOICES);
    expect(events).toHaveLength(INVOICES);
    expect([...docs, ...events].filter((r) => r.state !== 'accepted').map((r) => [r.number, r.state])).toEqual([]);
    const received = (await control('received')) as Record<string, number>;
    const twice = Object.entries(received).filter(([, n]) => n > 1);
    expect(twice).toEqual([]);
    const stats = await control('stats');
    expect(stats.documents).toEqual({ accepted: INVOICES, rejected: 0, duplicates: 0 });
    expect(stats.events).toEqual({ accepted: INVOICES, rejected: 0 });
    // Every key answered 200 is one DIAN received and holds accepted.
    const byNumber = new Map(docs.map((d) => [Number(d.number), d.document_key]));
    for (const o of final) {
      expect(byNumber.get(o.number)).toBe(o.invoice.body.document.uuid);
      expect(received[o.invoice.body.document.uuid]).toBe(1);
      expect(received[o.event!.body.event.uuid]).toBe(1);
    }
  }, 120_000);
});
