/**
 * The DIAN service under load: `POST /service/invoice` of the 10-line example invoice (examples/dian/invoice.min.json,
 * renumbered per request) to `startDianServer` in its own process (test/dian/server/concurrency/server-process.ts,
 * run with --expose-gc), which answers 200 only once DIAN accepted (SendBillSync is synchronous), DIAN being the local
 * simulator in another process (test/dian/server/concurrency/simulator-process.ts, over real HTTP, seeded with the
 * company's software and range as habilitación would, its state in memory). The company is set up once with the admin functions. This
 * process is the load generator. On a 2-core machine the three processes share the CPU.
 *
 * Closed loop (default, `npm run bench -- dian-server`), on SQLite and then PostgreSQL (DATABASE_URL as the tests get
 * it, a fresh schema; skipped when unreachable):
 * (a) BENCH_DIAN_SERVER_DOCS invoices (default 2,000; 200 with BENCH_QUICK=1) by autocannon with 16 connections, after
 *     a warm-up: documents per second to accepted, POST p50/p99/max; every answer must be a 200 and the simulator must
 *     have counted one SendBillSync and one acceptance per request;
 * (b) CPU per accepted document of the server process and of the simulator apart (each child's process.cpuUsage
 *     before and after, over IPC), and of this process (the load generator);
 * (c) the SDK's own cost of the same work in this process, as CPU time per document: buildDianXml (rules off, as the
 *     service builds) + signDianXml + dianDocumentZip with node:zlib's deflateRawSync, then apart what the service
 *     also does per accepted invoice: the AttachedDocument (buildAttachedDocument + signDianXml, with the simulator's
 *     ApplicationResponse) and the PDF (dianPdf, A4). The ratios server CPU / SDK pipeline CPU (target ≤ 3×) and
 *     server CPU / (pipeline + AttachedDocument + PDF).
 * `--cpu-prof DIR`: the server runs with --cpu-prof (profile written to DIR when it stops) and its self time is
 * summarised by area (PDF, signing, build, storage, HTTP, …); `--shares FILE.cpuprofile` prints that summary of a profile.
 *
 * Open loop (`--open-loop [--rate R] [--minutes M] [--engine sqlite|postgres]`): one engine (default SQLite), a fixed
 * arrival rate (without --rate: half the closed-loop maximum measured first on the same rig) for M minutes (default
 * 10; 1 with BENCH_QUICK=1) with bench/load.ts's open-loop generator (latency from each request's scheduled time, no
 * coordinated omission). Per 10-second window: answers/s, p50, p99, max, non-200, server RSS, load average; the
 * server's V8 heap after a forced full GC at the start and at the end. Passes when every answer is a 200, p99 < 100 ms
 * in every window, and the heap after GC grew by less than 5 MB and 10 %. Results in bench/results/dian-server.json
 * and dian-server-open-loop.json. Figures and how to read them: docs/dian/performance.md, "Service".
 */
import { randomBytes, sign as rsaSign } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { buildAttachedDocument, buildDianXml, dianDocumentZip } from '../src/dian/index.js';
import { dianPdf } from '../src/dian/pdf/index.js';
import { createDianPostgresStorage, createDianSqliteStorage, type DianStorage } from '../src/dian/server/index.js';
import { createSelfSignedIdentity, readP12, signDianXml } from '../src/dian/sign/index.js';
import { dianXsdDir } from '../test/dian/helpers/env.js';
import {
  type Child,
  type ChildUsage,
  childUsage,
  startChild,
  stopChild,
  addExampleCompany,
  EXAMPLE_CONTEXT,
  exampleSimulatorSeed,
} from '../test/dian/server/concurrency/children.js';
import { dropSchema, EXAMPLE_NIT, example, NOW, newSchema, PG_URL } from '../test/dian/server/helpers.js';
import { machineLine, quick, QUICK, round, writeResults } from './lib.js';
import { openLoop, percentile, rssMb, slope } from './load.js';
import { loadAverage, postgresReachable } from './server.js';

const P99_TARGET_MS = 100;
const WINDOW_S = 10;
const CONNECTIONS = 16;
const DOCS = Number(process.env.BENCH_DIAN_SERVER_DOCS ?? quick(2000, 200));
const WARMUP_DOCS = quick(100, 30);
const SDK_ROUNDS = quick(300, 60);
/** Heap growth after forced GC (end − start) allowed by the open-loop verdict: under both. */
const HEAP_GROWTH_LIMIT_MB = 5;
const HEAP_GROWTH_LIMIT_RATIO = 0.1;

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
type Engine = 'sqlite' | 'postgres';

// ---------------------------------------------------------------------------------------------
// Arguments

const args = process.argv.slice(2);
const argValue = (name: string): string | null => {
  const i = args.indexOf(name);
  if (i < 0) return null;
  const v = args[i + 1];
  if (v === undefined || v.startsWith('--')) throw new Error(`${name} needs a value`);
  return v;
};
const argNumber = (name: string): number | null => {
  const v = argValue(name);
  if (v === null) return null;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number (got "${v}")`);
  return n;
};
const OPEN_LOOP = args.includes('--open-loop');
const CPU_PROF_DIR = argValue('--cpu-prof') ? resolve(argValue('--cpu-prof')!) : null;

// ---------------------------------------------------------------------------------------------
// The invoice

const TEMPLATE = example('invoice');
/** The example invoice numbered `n` (each request its own number in the range). */
const invoiceBody = (n: number): string => JSON.stringify({ ...TEMPLATE, number: n });
let nextNumber = RANGE.from + 1000;
/** Takes `count` fresh numbers; returns the first. */
const takeNumbers = (count: number): number => {
  const first = nextNumber;
  nextNumber += count;
  return first;
};

// ---------------------------------------------------------------------------------------------
// The rig: simulator process, server process, the company

interface Rig {
  engine: Engine;
  url: string;
  token: string;
  server: Child;
  simulator: Child;
  close(): Promise<{ serverExit: number | null; simulatorExit: number | null }>;
}

async function startRig(engine: Engine, nodeArgs: string[] = []): Promise<Rig> {
  const dataDir = mkdtempSync(join(tmpdir(), `dian-bench-${engine}-`));
  const schema = engine === 'postgres' ? newSchema() : null;
  const certKey = randomBytes(32).toString('hex');
  const storage: DianStorage =
    engine === 'sqlite'
      ? createDianSqliteStorage({ file: join(dataDir, 'dian.sqlite'), private: true })
      : createDianPostgresStorage({ connectionString: PG_URL, schema: schema!, maxConnections: 2 });
  const token = await addExampleCompany(storage, certKey, RANGE);
  let simulator: Child | null = null;
  let server: Child | null = null;
  const cleanup = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (schema) await dropSchema(schema);
  };
  try {
    simulator = await startChild(
      'simulator-process.ts',
      'simulator',
      {
        DIAN_XSD_DIR: dianXsdDir(),
        // In memory: with a data directory the local DIAN rewrites its whole state (every signed document) 50 ms
        // after each change, a cost that grows with the run and is no part of the service's.
        DIAN_SIM_DATA_DIR: undefined,
        DIAN_NOW: NOW.toISOString(),
        DIAN_SIM_SEED: exampleSimulatorSeed(RANGE),
      },
      { ipc: true },
    );
    server = await startChild(
      'server-process.ts',
      'listening',
      {
        DATABASE_URL: engine === 'postgres' ? PG_URL : undefined,
        DIAN_SCHEMA: schema ?? undefined,
        DIAN_ENDPOINT: simulator.urls[0]!,
        DIAN_DATA_DIR: dataDir,
        DIAN_CERT_KEY: certKey,
        DIAN_NOW: NOW.toISOString(),
      },
      { ipc: true, nodeArgs: ['--expose-gc', ...nodeArgs] },
    );
  } catch (e) {
    if (server) await stopChild(server);
    if (simulator) await stopChild(simulator);
    await cleanup();
    throw e;
  }
  const srv = server;
  const sim = simulator;
  return {
    engine,
    url: server.urls[0]!,
    token,
    server,
    simulator,
    close: async () => {
      const serverExit = await stopChild(srv);
      const simulatorExit = await stopChild(sim);
      await cleanup();
      if (serverExit !== 0) console.error(`server (${engine}) exited with ${serverExit}:\n${srv.stderr().slice(-2000)}`);
      return { serverExit, simulatorExit };
    },
  };
}

const headersOf = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' });

async function simulatorStats(rig: Rig): Promise<{ requests: Record<string, number>; documents: { accepted: number; rejected: number; duplicates: number } }> {
  return (await fetch(`${rig.simulator.urls[1]}/stats`)).json() as never;
}

/** One invoice by fetch: must be a 200 with DIAN's statusCode 6; returns its body (the probe of the run). */
async function probe(rig: Rig, number: number): Promise<{ document: Record<string, string | number> }> {
  const r = await fetch(`${rig.url}/service/invoice`, { method: 'POST', headers: headersOf(rig.token), body: invoiceBody(number) });
  const body = (await r.json()) as { document: Record<string, string | number> };
  if (r.status !== 200 || body.document?.statusCode !== 6)
    throw new Error(`probe invoice ${number}: HTTP ${r.status} ${JSON.stringify(body).slice(0, 800)}\n${rig.server.stderr().slice(-2000)}`);
  return body;
}

// ---------------------------------------------------------------------------------------------
// Closed loop (autocannon)

interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
  latency: { p50: number; p90: number; p99: number; average: number; max: number };
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  amount: number;
  method: string;
  headers: Record<string, string>;
  requests: { setupRequest: (req: Record<string, unknown>) => Record<string, unknown> }[];
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** `count` invoices over `connections` connections, each with its own number; throws unless every answer is a 200. */
async function closedLoop(rig: Rig, count: number, connections = CONNECTIONS): Promise<AutocannonResult & { wallMs: number }> {
  let n = takeNumbers(count);
  const start = performance.now();
  const r = await autocannon({
    url: `${rig.url}/service/invoice`,
    method: 'POST',
    connections,
    amount: count,
    headers: headersOf(rig.token),
    requests: [{ setupRequest: (req) => ({ ...req, body: invoiceBody(n++) }) }],
  });
  const wallMs = performance.now() - start;
  if (r['2xx'] !== count || r.errors || r.timeouts)
    throw new Error(`${rig.engine}: ${r['2xx']} of ${count} answered 2xx (${JSON.stringify(r.statusCodeStats)}, ${r.errors} errors, ${r.timeouts} timeouts)`);
  return { ...r, wallMs };
}

const cpuMs = (u: ChildUsage['cpu']) => (u.user + u.system) / 1000;
/** Event-loop utilization of a child between two usage reports. */
const utilization = (a: ChildUsage, b: ChildUsage): number => {
  const active = b.eventLoop.active - a.eventLoop.active;
  const total = active + b.eventLoop.idle - a.eventLoop.idle;
  return total > 0 ? round(active / total, 2) : 0;
};

interface ClosedFigures {
  engine: Engine;
  documents: number;
  connections: number;
  seconds: number;
  docs_per_second: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  mean_ms: number;
  max_ms: number;
  cpu_ms_per_doc: { server: number; simulator: number; load_generator: number };
  /** CPU of the three processes per second of the run, in cores (2 on this machine is the whole box). */
  cores_busy: number;
  /** Share of the run the main thread (event loop) of each child was busy: near 1, that process bounds the rate. */
  event_loop_utilization: { server: number; simulator: number };
  simulator_send_bill_sync: number;
  simulator_accepted: number;
  server_rss_end_mb: number | null;
  load_average_1m: { start: number; end: number };
}

async function benchClosed(rig: Rig): Promise<{ figures: ClosedFigures; probe: { document: Record<string, string | number> }; probeNumber: number }> {
  const probeNumber = takeNumbers(1);
  const first = await probe(rig, probeNumber);
  await closedLoop(rig, WARMUP_DOCS);
  const statsBefore = await simulatorStats(rig);
  const [s0, m0] = await Promise.all([childUsage(rig.server), childUsage(rig.simulator)]);
  const g0 = process.cpuUsage();
  const load0 = loadAverage();
  const r = await closedLoop(rig, DOCS);
  const g1 = process.cpuUsage(g0);
  const [s1, m1] = await Promise.all([childUsage(rig.server), childUsage(rig.simulator)]);
  const statsAfter = await simulatorStats(rig);
  const sent = (statsAfter.requests.SendBillSync ?? 0) - (statsBefore.requests.SendBillSync ?? 0);
  const accepted = statsAfter.documents.accepted - statsBefore.documents.accepted;
  if (sent !== DOCS || accepted !== DOCS || statsAfter.documents.rejected !== 0 || statsAfter.documents.duplicates !== 0)
    throw new Error(
      `${rig.engine}: the simulator counted ${sent} SendBillSync, ${accepted} accepted for ${DOCS} 200s (${JSON.stringify(statsAfter.documents)})`,
    );
  const serverCpu = cpuMs(s1.cpu) - cpuMs(s0.cpu);
  const simCpu = cpuMs(m1.cpu) - cpuMs(m0.cpu);
  const genCpu = (g1.user + g1.system) / 1000;
  return {
    probe: first,
    probeNumber,
    figures: {
      engine: rig.engine,
      documents: DOCS,
      connections: CONNECTIONS,
      seconds: round(r.wallMs / 1000, 2),
      docs_per_second: round(DOCS / (r.wallMs / 1000), 1),
      p50_ms: r.latency.p50,
      p90_ms: r.latency.p90,
      p99_ms: r.latency.p99,
      mean_ms: round(r.latency.average, 1),
      max_ms: r.latency.max,
      cpu_ms_per_doc: { server: round(serverCpu / DOCS, 2), simulator: round(simCpu / DOCS, 2), load_generator: round(genCpu / DOCS, 2) },
      cores_busy: round((serverCpu + simCpu + genCpu) / r.wallMs, 2),
      event_loop_utilization: { server: utilization(s0, s1), simulator: utilization(m0, m1) },
      simulator_send_bill_sync: sent,
      simulator_accepted: accepted,
      server_rss_end_mb: s1.rssMb,
      load_average_1m: { start: load0, end: loadAverage() },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The SDK's own cost of the same work, CPU time in this process

interface SdkFigures {
  rounds: number;
  /** CPU ms per document (process.cpuUsage over the rounds), and wall ms for reference. */
  pipeline_cpu_ms: number;
  pipeline_wall_ms: number;
  attached_document_cpu_ms: number;
  pdf_cpu_ms: number;
  rsa_floor_cpu_ms: number;
  /** The SDK's CUFE of the probe invoice equals the service's: the same document was timed. */
  same_cufe_as_service: boolean;
}

async function cpuPerCall(rounds: number, fn: () => Promise<unknown> | unknown): Promise<{ cpu: number; wall: number }> {
  for (let i = 0; i < Math.min(20, rounds); i++) await fn();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) await fn();
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / 1000 / rounds, wall: (performance.now() - t0) / rounds };
}

async function sdkCost(probeNumber: number, serviceCufe: string, appResponseBase64: string): Promise<SdkFigures> {
  const identity = createSelfSignedIdentity({ commonName: 'Bench DIAN service' });
  const { privateKey } = readP12(identity.p12, identity.password);
  const context = {
    company: { ...EXAMPLE_CONTEXT.company, nit: EXAMPLE_NIT },
    software: EXAMPLE_CONTEXT.software,
    resolution: {
      prefix: RANGE.prefix,
      from: String(RANGE.from),
      to: String(RANGE.to),
      start_date: RANGE.validFrom,
      end_date: RANGE.validTo,
      technical_key: RANGE.technicalKey,
    },
    environment: '2' as const,
    now: () => NOW,
  };
  const today = '2025-03-14';
  const request = JSON.parse(invoiceBody(probeNumber)) as Record<string, unknown>;
  const deflate = (data: Uint8Array) => deflateRawSync(data);
  const sign = async (xml: string) => {
    const s = await signDianXml(xml, identity.signer, { clock: () => NOW });
    if (!s.ok) throw new Error(`SDK signing failed: ${s.message}`);
    return s.xml;
  };
  const pipeline = async () => {
    const built = buildDianXml('invoice', request, context, { today, rules: false });
    if (!built.ok) throw new Error(`SDK build failed: ${JSON.stringify(built.issues.slice(0, 3))}`);
    const signed = await sign(built.xml);
    const z = dianDocumentZip({ kind: 'invoice', nit: EXAMPLE_NIT, provider: '000', year: 2025, counter: 1, xml: signed, date: today, deflate });
    if (!z.ok) throw new Error(`SDK zip failed: ${z.message}`);
    return { cufe: built.codes.hash, signed };
  };
  const { cufe, signed } = await pipeline();
  const appResponse = Buffer.from(appResponseBase64, 'base64').toString('utf8');
  const attached = async () => {
    const a = buildAttachedDocument({
      signedXml: signed,
      applicationResponseXml: appResponse,
      environment: '2',
      id: `SETP${probeNumber}`,
      issueDate: today,
      issueTime: '10:00:00-05:00',
    });
    if (!a.ok) throw new Error(`SDK AttachedDocument failed: ${a.message}`);
    return sign(a.xml);
  };
  const pdf = async () => {
    const p = await dianPdf(signed, { format: 'a4' });
    if (!p.ok) throw new Error('SDK PDF failed');
    return p.pdf;
  };
  const digest = Buffer.alloc(32, 7);
  const p = await cpuPerCall(SDK_ROUNDS, pipeline);
  const a = await cpuPerCall(SDK_ROUNDS, attached);
  const d = await cpuPerCall(SDK_ROUNDS, pdf);
  const f = await cpuPerCall(SDK_ROUNDS * 4, () => rsaSign('sha256', digest, privateKey));
  return {
    rounds: SDK_ROUNDS,
    pipeline_cpu_ms: round(p.cpu, 3),
    pipeline_wall_ms: round(p.wall, 3),
    attached_document_cpu_ms: round(a.cpu, 3),
    pdf_cpu_ms: round(d.cpu, 3),
    rsa_floor_cpu_ms: round(f.cpu, 3),
    same_cufe_as_service: cufe === serviceCufe,
  };
}

// ---------------------------------------------------------------------------------------------
// CPU profile of the server, by area

const AREAS: [string, RegExp][] = [
  ['PDF (src/dian/pdf, pdf-lib, fonts)', /src\/dian\/pdf|src\/shared\/pdf|pdf-lib|pdfkit|fontkit|@pdf-lib/],
  ['AttachedDocument build', /src\/dian\/attached/],
  ['signing (xmldsig, C14N, RSA)', /src\/dian\/sign|src\/shared\/xmldsig/],
  ['build, validation, codes (src/dian/build|validate|codes|ubl|rules)', /src\/dian\/(build|validate|codes|ubl|rules|spec)/],
  ['DIAN transport (SOAP, WS-Security)', /src\/dian\/transport|src\/shared\/soap/],
  ['zip', /src\/dian\/zip|fflate/],
  ['storage (SQLite, PostgreSQL, kysely)', /better-sqlite3|kysely|node_modules\/pg|server\/storage|server-kit\/storage/],
  ['HTTP (hono, node:http, undici)', /hono|node:_http|node:http|undici|node:net|node:internal\/(http|stream|net)/],
  ['service use cases and app', /src\/dian\/server|src\/shared\/server-kit/],
];

const SPECIAL_FRAMES = new Map([
  ['(garbage collector)', 'garbage collector'],
  ['(idle)', 'idle'],
  ['(program)', 'program (native, JIT)'],
]);

/**
 * Self time of a .cpuprofile by area, shares of the busy time: each sample goes to the area of its innermost frame
 * (or nearest caller) in a file of a known area, so that native work (RSA, regular expressions, JSON, zlib) counts
 * for the code that called it; GC and samples with no known caller are counted apart.
 */
function profileShares(file: string): Record<string, number> {
  const prof = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const area = new Map<number, string>();
  const areaOf = (id: number): string => {
    const hit = area.get(id);
    if (hit) return hit;
    const n = byId.get(id)!;
    const { url, functionName } = n.callFrame;
    const p = parent.get(id);
    const a = AREAS.find(([, re]) => re.test(url))?.[0] ?? SPECIAL_FRAMES.get(functionName) ?? (p === undefined ? 'other' : areaOf(p));
    area.set(id, a);
    return a;
  };
  const totals = new Map<string, number>();
  prof.samples.forEach((id, i) => {
    const a = areaOf(id);
    totals.set(a, (totals.get(a) ?? 0) + (prof.timeDeltas[i] ?? 0));
  });
  const busy = [...totals.entries()].filter(([a]) => a !== 'idle').reduce((sum, [, t]) => sum + t, 0);
  return Object.fromEntries(
    [...totals.entries()]
      .filter(([a]) => a !== 'idle')
      .sort((x, y) => y[1] - x[1])
      .map(([a, t]) => [a, round((100 * t) / busy, 1)]),
  );
}

// ---------------------------------------------------------------------------------------------
// Open loop

interface OpenWindow {
  t_s: number;
  answers_per_s: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  non_200: number;
  server_rss_mb: number | null;
  load_average_1m: number;
}

async function benchOpen(rig: Rig, rate: number, durationS: number) {
  const heapStart = await childUsage(rig.server, true);
  const first = takeNumbers(Math.ceil(rate * durationS) + 10);
  const loop = openLoop({
    url: rig.url,
    token: rig.token,
    rate,
    durationS,
    path: '/service/invoice',
    body: (i) => invoiceBody(first + i),
    okStatus: 200,
    idOf: (text) => String((JSON.parse(text) as { document?: { number?: string } }).document?.number ?? ''),
  });
  const windows: OpenWindow[] = [];
  const rssPoints: { x: number; y: number }[] = [];
  console.log('| t s | answers/s | p50 ms | p99 ms | max ms | non-200 | server RSS MB | load avg |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
  let aborted = false;
  void loop.done.then((s) => {
    aborted = s.aborted !== null;
  });
  for (let t = 1; t <= durationS && !aborted; t++) {
    await new Promise((r) => setTimeout(r, Math.max(0, t * 1000 - loop.elapsedMs())));
    const rss = rssMb(rig.server.child.pid!);
    if (rss !== null) rssPoints.push({ x: t, y: rss });
    if (t % WINDOW_S !== 0) continue;
    const cs = loop.takeCompletions();
    const sorted = Float64Array.from(cs.map((c) => c.latencyMs)).sort();
    const w: OpenWindow = {
      t_s: t,
      answers_per_s: round(cs.length / WINDOW_S, 1),
      p50_ms: round(percentile(sorted, 0.5), 1),
      p99_ms: round(percentile(sorted, 0.99), 1),
      max_ms: round(sorted.at(-1) ?? 0, 1),
      non_200: cs.filter((c) => c.status !== 200).length,
      server_rss_mb: rss,
      load_average_1m: loadAverage(),
    };
    windows.push(w);
    console.log(
      `| ${w.t_s} | ${w.answers_per_s} | ${w.p50_ms} | ${w.p99_ms} | ${w.max_ms} | ${w.non_200} | ${w.server_rss_mb ?? 'n/a'} | ${w.load_average_1m} |`,
    );
  }
  const s = await loop.done;
  const heapEnd = await childUsage(rig.server, true);
  const sorted = Float64Array.from(s.latencies).sort();
  const ok = s.statuses['200'] ?? 0;
  const growth = round(heapEnd.heapUsedMb - heapStart.heapUsedMb, 1);
  const heapFlat = growth < HEAP_GROWTH_LIMIT_MB && growth < heapStart.heapUsedMb * HEAP_GROWTH_LIMIT_RATIO;
  const windowsOver = windows.filter((w) => w.p99_ms >= P99_TARGET_MS).length;
  return {
    engine: rig.engine,
    rate,
    duration_s: durationS,
    scheduled: s.scheduled,
    answers: s.completed,
    statuses: s.statuses,
    transport_errors: s.errors,
    aborted: s.aborted,
    distinct_numbers: new Set(s.encfs).size,
    max_send_lag_ms: round(s.maxSendLagMs, 1),
    p50_ms: round(percentile(sorted, 0.5), 1),
    p99_ms: round(percentile(sorted, 0.99), 1),
    max_ms: round(sorted.at(-1) ?? 0, 1),
    windows_over_p99_target: windowsOver,
    worst_window_p99_ms: Math.max(0, ...windows.map((w) => w.p99_ms)),
    heap_after_gc_mb: { start: heapStart.heapUsedMb, end: heapEnd.heapUsedMb, growth_mb: growth, gc_forced: heapStart.gcForced && heapEnd.gcForced },
    rss_mb: { start: rssPoints[0]?.y ?? null, end: rssPoints.at(-1)?.y ?? null, slope_mb_per_min: round(slope(rssPoints) * 60, 2) },
    verdict: {
      all_200: ok === s.scheduled && s.completed === s.scheduled && !s.aborted && new Set(s.encfs).size === ok,
      p99_under_target_every_window: windows.length > 0 && windowsOver === 0,
      heap_flat: heapFlat,
    },
    windows,
  };
}

// ---------------------------------------------------------------------------------------------
// Script

async function engines(): Promise<Engine[]> {
  const only = argValue('--engine');
  if (only !== null && only !== 'sqlite' && only !== 'postgres') throw new Error(`--engine must be sqlite or postgres (got "${only}")`);
  const list: Engine[] = only ? [only] : OPEN_LOOP ? ['sqlite'] : ['sqlite', 'postgres'];
  if (list.includes('postgres') && !(await postgresReachable(PG_URL))) {
    console.log(`PostgreSQL not reachable at ${PG_URL}: skipped`);
    return list.filter((e) => e !== 'postgres');
  }
  return list;
}

async function mainClosed(): Promise<void> {
  console.log(
    `DIAN service, closed loop: ${DOCS} invoices (10 lines), ${CONNECTIONS} connections, server and local DIAN in their own processes (${machineLine()}); load average ${loadAverage()}`,
  );
  const results: Record<string, ClosedFigures & { sdk: SdkFigures; ratios: Record<string, number>; profile_shares?: Record<string, number> }> = {};
  for (const engine of await engines()) {
    const profDir = CPU_PROF_DIR ? join(CPU_PROF_DIR, engine) : null;
    if (profDir) mkdirSync(profDir, { recursive: true });
    const rig = await startRig(engine, profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []);
    let closed: Awaited<ReturnType<typeof benchClosed>>;
    try {
      closed = await benchClosed(rig);
    } finally {
      await rig.close();
    }
    const f = closed.figures;
    const sdk = await sdkCost(closed.probeNumber, String(closed.probe.document.uuid), String(closed.probe.document.appResponseBase64Bytes));
    const ratios = {
      server_over_sdk_pipeline: round(f.cpu_ms_per_doc.server / sdk.pipeline_cpu_ms, 2),
      server_over_sdk_pipeline_attached_pdf: round(f.cpu_ms_per_doc.server / (sdk.pipeline_cpu_ms + sdk.attached_document_cpu_ms + sdk.pdf_cpu_ms), 2),
    };
    let shares: Record<string, number> | undefined;
    if (profDir) {
      // The main thread's profile is the largest (tsx's loader thread writes one too).
      const files = readdirSync(profDir)
        .filter((n) => n.endsWith('.cpuprofile'))
        .map((n) => join(profDir, n))
        .sort((x, y) => statSync(y).size - statSync(x).size);
      if (files[0]) shares = profileShares(files[0]);
    }
    results[engine] = { ...f, sdk, ratios, ...(shares ? { profile_shares: shares } : {}) };
    console.log(`\n${engine}: ${f.docs_per_second} docs/s to accepted, p50 ${f.p50_ms} ms, p99 ${f.p99_ms} ms, max ${f.max_ms} ms (${f.seconds} s)`);
    console.log(
      `  CPU per accepted document: server ${f.cpu_ms_per_doc.server} ms, local DIAN ${f.cpu_ms_per_doc.simulator} ms, load generator ${f.cpu_ms_per_doc.load_generator} ms; ${f.cores_busy} cores busy; event loop busy: server ${f.event_loop_utilization.server}, local DIAN ${f.event_loop_utilization.simulator}`,
    );
    console.log(
      `  SDK, same invoice, CPU: build + sign + zip ${sdk.pipeline_cpu_ms} ms, AttachedDocument (build + sign) ${sdk.attached_document_cpu_ms} ms, PDF ${sdk.pdf_cpu_ms} ms, RSA floor ${sdk.rsa_floor_cpu_ms} ms; same CUFE as the service: ${sdk.same_cufe_as_service}`,
    );
    console.log(
      `  server / SDK pipeline: ${ratios.server_over_sdk_pipeline}× (target ≤ 3×); server / (pipeline + AttachedDocument + PDF): ${ratios.server_over_sdk_pipeline_attached_pdf}×`,
    );
    if (shares) console.log(`  server CPU profile, self time by area (%): ${JSON.stringify(shares)}`);
  }
  console.log(
    '\n| engine | docs/s to accepted | POST p50 ms | p99 ms | max ms | server CPU ms/doc | local DIAN CPU ms/doc | SDK pipeline CPU ms | server / SDK | load avg start–end |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of Object.values(results))
    console.log(
      `| ${r.engine} | ${r.docs_per_second} | ${r.p50_ms} | ${r.p99_ms} | ${r.max_ms} | ${r.cpu_ms_per_doc.server} | ${r.cpu_ms_per_doc.simulator} | ${r.sdk.pipeline_cpu_ms} | ${r.ratios.server_over_sdk_pipeline}× | ${r.load_average_1m.start}–${r.load_average_1m.end} |`,
    );
  writeResults('dian-server.json', { documents: DOCS, connections: CONNECTIONS, ratio_target: 3, by_engine: results });
  const bad = Object.values(results).filter((r) => !r.sdk.same_cufe_as_service);
  if (bad.length) {
    console.error(`the SDK's CUFE differs from the service's on ${bad.map((r) => r.engine).join(', ')}: not the same document`);
    process.exitCode = 1;
  }
}

async function mainOpen(): Promise<void> {
  const minutes = argNumber('--minutes') ?? quick(10, 1);
  const fixedRate = argNumber('--rate');
  const [engine] = await engines();
  if (!engine) throw new Error('no engine to run');
  console.log(`DIAN service, open loop, ${engine}, ${minutes} min (${machineLine()}); load average ${loadAverage()}`);
  const rig = await startRig(engine);
  let result: Awaited<ReturnType<typeof benchOpen>> & { max_rate_measured: number | null };
  try {
    await closedLoop(rig, WARMUP_DOCS);
    let max: number | null = null;
    if (fixedRate === null) {
      const n = quick(600, 150);
      const r = await closedLoop(rig, n);
      max = round(n / (r.wallMs / 1000), 1);
      console.log(`closed-loop maximum: ${max} docs/s (${n} invoices, ${CONNECTIONS} connections); open loop at half`);
    }
    const rate = fixedRate ?? Math.max(1, Math.floor(max! / 2));
    console.log(`open loop: ${rate}/s for ${minutes * 60} s, windows of ${WINDOW_S} s`);
    result = { ...(await benchOpen(rig, rate, minutes * 60)), max_rate_measured: max };
  } finally {
    await rig.close();
  }
  const v = result.verdict;
  console.log(
    `\n${result.answers} answers at ${result.rate}/s: p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms, max ${result.max_ms} ms; worst window p99 ${result.worst_window_p99_ms} ms (${result.windows_over_p99_target} windows ≥ ${P99_TARGET_MS} ms); heap after GC ${result.heap_after_gc_mb.start} → ${result.heap_after_gc_mb.end} MB; RSS ${result.rss_mb.start} → ${result.rss_mb.end} MB`,
  );
  console.log(`verdict: ${JSON.stringify(v)}`);
  writeResults('dian-server-open-loop.json', { p99_target_ms: P99_TARGET_MS, window_s: WINDOW_S, ...result });
  if (!v.all_200 || !v.p99_under_target_every_window || !v.heap_flat) process.exitCode = 1;
}

if (QUICK) console.log('BENCH_QUICK=1: smoke test, figures not comparable');
const SHARES_OF = argValue('--shares');
if (SHARES_OF) console.log(profileShares(resolve(SHARES_OF)));
else if (OPEN_LOOP) await mainOpen();
else await mainClosed();
