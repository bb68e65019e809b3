/**
 * The fault run behind test/reliability/faults-*.test.ts (issue 8, part 3).
 *
 * Processes, all real and on loopback: the DGII simulator (its own process, scenarios rejecting e-NCF that
 * end in 7 and accepting conditionally those that end in 3), the reference server with ECF_WORKER=off
 * (issues through the HTTP API), one or two `ecf worker` processes, all on one storage: SQLite in a temp data
 * dir, or PostgreSQL in a private cluster of this run. The test process posts N documents (types 31, 32 below
 * RD$250,000 that go as RFCE, 32 above it, 41, 43, 44, 46, 47; a marker in the first item's name ties every
 * stored row to the request that created it) and meanwhile:
 *
 * - the simulator injects faults all along: slow responses (jitter), HTTP 500, HTTP 503, connections dropped
 *   before and after processing; in "slow" phases every response takes 1-3 s; in "timeout" windows uploads
 *   are answered only after the worker's transport timeout has passed (the simulator still takes them: the
 *   worker cannot know, and must ask before sending again);
 * - workers are SIGKILLed at random moments and restarted, sometimes two at once share the storage;
 * - PostgreSQL is restarted (`pg_ctl restart`, alternately `-m fast` and `-m immediate`) while POSTs and
 *   workers are active; the server and the workers must reconnect on their own, failed POSTs get a 503 and
 *   are retried by this client.
 *
 * Transport timeout and lease: `ecf worker` builds its DGII client with the default 30 s request timeout
 * (there is no setting for it), and its lease must outlast the longest authority call, or a second worker
 * could take over a document whose upload is still in flight. So timeout windows delay uploads by
 * 30 s + 250 ms, and workers run with `--lease-ms 45000`: a killed worker's documents wait for that lease.
 *
 * The run ends when every 202 has a terminal row (or at the deadline); `runFaultScenario` returns everything
 * the tests assert on, plus the figures printed as one JSON line.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import type { EcfType } from '../../../../src/ecf/index.js';
import { prepareCertificate } from '../../../../src/ecf/server/certificates.js';
import { SecretKey } from '../../../../src/ecf/server/secrets.js';
import { createPostgresStorage } from '../../../../src/ecf/server/storage/postgres.js';
import { createSqliteStorage } from '../../../../src/ecf/server/storage/sqlite.js';
import type { Storage } from '../../../../src/ecf/server/storage/types.js';
import { generateToken, hashToken } from '../../../../src/shared/server-kit/tokens.js';
import { createSelfSignedIdentity } from '../../../../src/shared/xmldsig/self-signed.js';
import type { FaultSettings, SimulatorStats } from '../../../../src/ecf/simulator/index.js';
import { baseDoc, refill } from '../../helpers/docs.js';
import { xsdDir } from '../../helpers/env.js';
import { startPrivateCluster, type PrivateCluster } from './cluster.js';
import { postgresProbe, sqliteProbe, type Probe, type Row } from './probe.js';
import {
  onProcessEnd,
  sleep,
  startServerProcess,
  startSimulatorProcess,
  startWorkerProcess,
  type Exit,
  type Proc,
  type SimulatorProcess,
} from './processes.js';

export const RNC = '101672919';
/** The DGII client's default request timeout, which `ecf worker` uses (src/ecf/dgii/http.ts). */
export const TRANSPORT_TIMEOUT_MS = 30_000;
export const LEASE_MS = 45_000;
export const TYPES: readonly EcfType[] = ['31', '32', '41', '43', '44', '46', '47'];
export const REJECT_SUFFIX = '7';
export const CONDITIONAL_SUFFIX = '3';

const BASE_FAULTS: FaultSettings = { jitterMs: 250, http500Rate: 0.03, http503Rate: 0.03, dropBeforeRate: 0.03, dropAfterRate: 0.03 };
const SLOW_FAULTS: FaultSettings = { ...BASE_FAULTS, latencyMs: 1_000, jitterMs: 2_000 };
const UPLOADS = ['recepcion/api/facturaselectronicas', 'recepcionfc/api/recepcion/ecf'];
const TIMEOUT_FAULTS: FaultSettings = { latencyMs: TRANSPORT_TIMEOUT_MS + 250, paths: UPLOADS, methods: ['POST'] };

export interface ScenarioOptions {
  storage: 'sqlite' | 'postgres';
  docs: number;
  full: boolean;
  seed: number;
}

export type Kind = 'ecf' | 'rfce';

export interface Post {
  index: number;
  tipo: EcfType;
  kind: Kind;
  /** HTTP status of every attempt ('network' when the request failed without an answer). */
  statuses: (number | 'network')[];
  encf: string | null;
  /** Message of a non-202 answer, for failure reports. */
  lastError: string | null;
}

export interface Figures {
  storage: 'sqlite' | 'postgres';
  mode: 'full' | 'reduced';
  seed: number;
  docs: number;
  wall_ms: number;
  posting_ms: number;
  post_attempts: number;
  post_retries: number;
  post_503: number;
  post_other_errors: number;
  worker_kills: number;
  /** Documents under the killed worker's lease when it was killed, and of them those in `sending` (upload begun). */
  docs_held_at_kills: number;
  sending_at_kills: number;
  worker_starts: number;
  max_workers_alive: number;
  pg_restarts: number;
  pg_restart_modes: { fast: number; immediate: number };
  faults: { http500: number; http503: number; drop_before: number; drop_after: number; slow_or_jitter: number; timeouts: number };
  simulator_requests: number;
  ecf_receptions: number;
  rfce_receptions: number;
  adopted_track_ids: number;
  adopted_rfce_verdicts: number;
  resent_after_query: number;
  statuses: Record<string, number>;
  outcomes: { accepted: number; accepted_conditional: number; rejected: number };
  by_kind: { ecf: number; rfce: number };
}

export interface ScenarioResult {
  posts: Post[];
  rows: Row[];
  submissions: { documentId: number; kind: string; trackId: string | null }[];
  stats: SimulatorStats;
  figures: Figures;
  converged: boolean;
  /** Things that must not happen (a worker or the server exiting on its own…); empty when all is well. */
  unexpected: string[];
  /** Exit of every worker stopped with SIGTERM at the end. */
  finalWorkerExits: Exit[];
  serverExit: Exit | null;
  /** Progress at the deadline when the run did not converge. */
  diagnostics: string;
}

/** mulberry32: reproducible chaos decisions from a seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Which document the i-th request is: three in ten 31, three in ten 32 for RFCE, one 32 above the threshold… */
export function planOf(i: number): { tipo: EcfType; kind: Kind; big: boolean } {
  const slot = i % 10;
  const round = Math.floor(i / 10);
  if (slot <= 2) return { tipo: '31', kind: 'ecf', big: false };
  if (slot <= 5) return { tipo: '32', kind: 'rfce', big: false };
  if (slot === 6) return { tipo: '32', kind: 'ecf', big: true };
  if (slot === 7) return { tipo: round % 2 === 0 ? '41' : '43', kind: 'ecf', big: false };
  if (slot === 8) return { tipo: round % 2 === 0 ? '44' : '46', kind: 'ecf', big: false };
  return { tipo: '47', kind: 'ecf', big: false };
}

const MARKER_RE = /<NombreItem>[^<]* R(\d+)<\/NombreItem>/;

/** The request index written into the first item's name. */
export function markerOf(unsignedXml: string): number | null {
  const m = MARKER_RE.exec(unsignedXml);
  return m ? Number(m[1]) : null;
}

function bodyOf(i: number): { tipo: EcfType; kind: Kind; body: string } {
  const { tipo, kind, big } = planOf(i);
  let doc = baseDoc(tipo);
  if (big) {
    // RD$354,000: above the summary threshold, so the buyer must be identified and the e-CF goes whole.
    doc.items[0].precio_unitario = 150_000;
    doc.comprador = { rnc: '131880738', razon_social: 'Cliente SRL' };
    doc = refill(tipo, doc);
  }
  doc.items[0].nombre = `${doc.items[0].nombre} R${i}`;
  return { tipo, kind, body: JSON.stringify(doc) };
}

/** The verdict the simulator's scenarios give an e-NCF. */
export function expectedOutcome(encf: string): 'accepted' | 'accepted_conditional' | 'rejected' {
  if (encf.endsWith(REJECT_SUFFIX)) return 'rejected';
  if (encf.endsWith(CONDITIONAL_SUFFIX)) return 'accepted_conditional';
  return 'accepted';
}

const TERMINAL = new Set(['accepted_authority', 'rejected_authority']);

interface Plan {
  postConcurrency: number;
  /** Pace of the POSTs (null: as fast as the server answers). */
  postPerSecond: number | null;
  /** `ecf worker --concurrency` and `--batch-size`. */
  workerConcurrency: number;
  workerBatch: number;
  killEvery: [number, number];
  maxKills: number;
  /** Chaos (kills, fault phases, restarts) stops after this long, or once this share of documents is terminal. */
  chaosMaxMs: number;
  chaosUntilTerminal: number;
  /** …once at least this many kills and one caught timeout happened, or at this hard limit. */
  minKills: number;
  chaosHardMaxMs: number;
  baseMs: number;
  slowMs: number;
  /** Timeout windows last until this many uploads were caught, or `timeoutWindowMaxMs`. */
  timeoutsPerWindow: number;
  timeoutWindowMaxMs: number;
  /** PostgreSQL restarts when these shares of the documents have been posted… */
  pgRestartAtPosted: number[];
  /** …and then every so often while the chaos lasts (full run). */
  pgRestartEvery: [number, number] | null;
  /** Liveness bound of the whole run (not a performance figure). */
  deadlineMs: number;
}

function planFor(full: boolean, docs: number): Plan {
  return full
    ? {
        postConcurrency: 4,
        postPerSecond: 20,
        workerConcurrency: 24,
        workerBatch: 48,
        killEvery: [6_000, 18_000],
        maxKills: 120,
        chaosMaxMs: 20 * 60_000,
        chaosUntilTerminal: 0.9,
        minKills: 20,
        chaosHardMaxMs: 30 * 60_000,
        baseMs: 15_000,
        slowMs: 6_000,
        timeoutsPerWindow: 6,
        timeoutWindowMaxMs: 6_000,
        pgRestartAtPosted: [0.1, 0.5],
        pgRestartEvery: [45_000, 90_000],
        deadlineMs: 60 * 60_000,
      }
    : {
        postConcurrency: 4,
        postPerSecond: null,
        workerConcurrency: 8,
        workerBatch: 16,
        killEvery: [1_500, 3_500],
        maxKills: 6,
        chaosMaxMs: 16_000,
        chaosUntilTerminal: 0.8,
        minKills: 3,
        chaosHardMaxMs: 50_000,
        baseMs: 2_500,
        slowMs: 2_500,
        timeoutsPerWindow: 2,
        timeoutWindowMaxMs: 3_000,
        pgRestartAtPosted: [0.25, 0.65],
        pgRestartEvery: null,
        deadlineMs: Math.max(150_000, docs * 200),
      };
}

interface Slot {
  name: string;
  gen: number;
  proc: Proc | null;
  restartAt: number | null;
  /** Processes of this slot killed on purpose (their exits are expected). */
  killed: Set<Proc>;
}

export async function runFaultScenario(options: ScenarioOptions): Promise<ScenarioResult> {
  const { docs, full, seed } = options;
  const plan = planFor(full, docs);
  const random = rng(seed);
  const between = ([a, b]: [number, number]) => a + random() * (b - a);
  const dir = mkdtempSync(join(tmpdir(), `ecf-faults-${options.storage}-`));
  // Also when the test runner ends this process early (the children are killed by processes.ts).
  onProcessEnd(() => {
    if (!process.env.ECF_FAULTS_KEEP) rmSync(dir, { recursive: true, force: true });
  });
  const unexpected: string[] = [];

  let cluster: PrivateCluster | null = null;
  let sim: SimulatorProcess | null = null;
  let server: { proc: Proc; url: string } | null = null;
  let probe: Probe | null = null;
  let client: Pool | null = null;
  const slots: Slot[] = [];
  const allWorkers: Proc[] = [];
  let chaosStop = false;
  /** The run failed (deadline, a process died): the client stops retrying. */
  let aborted = false;

  try {
    // ---- storage: issuer with its own certificate (sealed with the key the processes get), token, sequences
    if (options.storage === 'postgres') cluster = await startPrivateCluster();
    const databaseUrl = cluster?.url;
    const dbFile = join(dir, 'ecf.sqlite');
    const key = new SecretKey(new Uint8Array(randomBytes(32)));
    const token = generateToken();
    const setup: Storage = databaseUrl ? createPostgresStorage({ connectionString: databaseUrl, maxConnections: 2 }) : createSqliteStorage({ file: dbFile });
    try {
      await setup.migrate();
      const profile = { razon_social: 'Emisor SRL', direccion: 'Calle 1' };
      let issuer = await setup.createIssuer({ rnc: RNC, name: 'Emisor SRL', profile, signingMode: 'own' });
      const identity = createSelfSignedIdentity({ commonName: 'EMISOR DE PRUEBA SRL', serialNumber: RNC, days: 30 });
      issuer = await setup.updateIssuer(issuer.id, prepareCertificate({ issuer, p12: identity.p12, password: identity.password, key, now: new Date() }));
      await setup.addToken(issuer.id, hashToken(token), 'faults');
      for (const tipo of TYPES) await setup.addSequence(issuer.id, { tipo, from: 1, to: 9_000_000, expiresOn: tipo === '32' ? null : '2099-12-31' });
    } finally {
      await setup.close();
    }

    // ---- processes
    sim = await startSimulatorProcess(
      { xsdDir: xsdDir(), processingDelayMs: 50, seed, scenarios: { rejectEncfSuffixes: [REJECT_SUFFIX], conditionalEncfSuffixes: [CONDITIONAL_SUFFIX] } },
      join(dir, 'simulator.log'),
    );
    const env: Record<string, string | undefined> = {
      ECF_DATA_DIR: dir,
      ECF_XSD_DIR: xsdDir(),
      ECF_AUTHORITY: sim.url,
      ECF_CERT_KEY: Buffer.from(key).toString('hex'),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
    server = await startServerProcess({ ...env, ECF_WORKER: 'off', LOG_LEVEL: 'warn' }, join(dir, 'server.log'));
    probe = databaseUrl ? postgresProbe(databaseUrl) : sqliteProbe(dbFile);

    let workerStarts = 0;
    let kills = 0;
    let docsHeldAtKills = 0;
    let sendingAtKills = 0;
    let maxAlive = 0;
    const startSlot = (slot: Slot) => {
      slot.gen++;
      workerStarts++;
      const owner = `${slot.name}${slot.gen}`;
      const proc = startWorkerProcess(
        owner,
        ['--lease-ms', String(LEASE_MS), '--interval-ms', '100', '--concurrency', String(plan.workerConcurrency), '--batch-size', String(plan.workerBatch)],
        { ...env, LOG_LEVEL: 'info' },
        join(dir, `worker-${slot.name}.log`),
      );
      slot.proc = proc;
      slot.restartAt = null;
      allWorkers.push(proc);
      void proc.exited.then((exit) => {
        if (!slot.killed.has(proc) && !stopping.has(proc)) {
          unexpected.push(`${proc.name} exited on its own (${JSON.stringify(exit)}):\n${proc.log().slice(-3000)}`);
        }
      });
    };
    const stopping = new Set<Proc>();
    for (const name of ['a', 'b']) slots.push({ name, gen: 0, proc: null, restartAt: null, killed: new Set() });
    startSlot(slots[0]!);
    startSlot(slots[1]!);
    const alive = () => slots.filter((s) => s.proc && !s.proc.done());

    // ---- the client: posts every document, retrying failures that say "try again"
    client = new Pool(server.url, { connections: plan.postConcurrency, headersTimeout: 120_000, bodyTimeout: 120_000 });
    const posts: Post[] = [];
    let posted = 0;
    let postsFinished = 0;
    const started = Date.now();
    let postingMs = 0;
    const postOne = async (i: number): Promise<Post> => {
      const { tipo, kind, body } = bodyOf(i);
      const post: Post = { index: i, tipo, kind, statuses: [], encf: null, lastError: null };
      for (let attempt = 1; attempt <= 300 && !aborted; attempt++) {
        let status: number | 'network';
        let text = '';
        try {
          const res = await client!.request({
            path: `/api/v1/documents/${tipo}`,
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body,
          });
          status = res.statusCode;
          text = await res.body.text();
        } catch (e) {
          status = 'network';
          text = String(e);
        }
        post.statuses.push(status);
        if (status === 202) {
          post.encf = (JSON.parse(text) as { document: { e_ncf: string } }).document.e_ncf;
          posted++;
          return post;
        }
        post.lastError = text.slice(0, 500);
        // 503 (storage unavailable) and lost connections are worth retrying; anything else is recorded, and
        // retried too so that the run completes (the tests fail on it).
        await sleep(Math.min(2_000, 100 * attempt));
      }
      return post;
    };
    const posting = (async () => {
      let next = 0;
      await Promise.all(
        Array.from({ length: plan.postConcurrency }, async () => {
          while (next < docs && !aborted) {
            const i = next++;
            // Paced in the full run, so that POSTs go on while the workers and the restarts do.
            const due = started + (plan.postPerSecond ? (i * 1_000) / plan.postPerSecond : 0);
            if (Date.now() < due) await sleep(due - Date.now());
            posts[i] = await postOne(i);
            postsFinished++;
          }
        }),
      );
      postingMs = Date.now() - started;
    })();

    // ---- watching the storage
    let counts: Record<string, number> = {};
    const terminalCount = () =>
      Object.entries(counts)
        .filter(([s]) => TERMINAL.has(s))
        .reduce((a, [, n]) => a + n, 0);
    const totalRows = () => Object.values(counts).reduce((a, n) => a + n, 0);

    // ---- chaos
    const faultStats = { timeouts: 0 };
    let timeoutWindowEndedAt = 0;
    let pgRestarts = 0;
    const pgRestartModes = { fast: 0, immediate: 0 };
    const chaos = (async () => {
      await sim!.setFaults(BASE_FAULTS);
      const t = () => Date.now() - started;
      let nextKill = between(plan.killEvery);
      type Phase = 'base' | 'timeout' | 'base2' | 'slow';
      const phases: Phase[] = ['base', 'timeout', 'base2', 'slow'];
      let phase = 0;
      let phaseEnds = t() + plan.baseMs;
      let timeoutStart: { at: number; latency: number } | null = null;
      const restartAtPosted = [...plan.pgRestartAtPosted];
      let nextPgRestart = plan.pgRestartEvery ? between(plan.pgRestartEvery) : Infinity;
      // Over at the planned time or share of terminal documents, but not before the minimum of kills and a
      // caught timeout (a loaded machine may start workers slowly), within a hard cap.
      let caughtOpen = 0; // uploads caught by the window that is open now
      const enough = () => kills >= plan.minKills && faultStats.timeouts + caughtOpen > 0;
      const over = () =>
        chaosStop ||
        t() > plan.chaosHardMaxMs ||
        (enough() && (t() > plan.chaosMaxMs || (postsFinished >= docs && terminalCount() >= plan.chaosUntilTerminal * docs)));
      while (!over()) {
        maxAlive = Math.max(maxAlive, alive().length);
        // workers: kill one (sometimes both) at a random moment, restart after a while
        if (t() >= nextKill && kills < plan.maxKills) {
          // Only workers that are up and running (a kill during tsx start-up tests nothing).
          const up = slots.filter((s) => s.proc?.ready());
          if (up.length > 0) {
            const victims = up.length === 2 && random() < 0.15 ? up : [up[Math.floor(random() * up.length)]!];
            for (const slot of victims) {
              slot.killed.add(slot.proc!);
              slot.proc!.child.kill('SIGKILL');
              kills++;
              const held = await probe!.heldBy(`${slot.name}${slot.gen}`);
              docsHeldAtKills += held.held;
              sendingAtKills += held.sending;
              // slot b sometimes stays down for a while: one worker alone, then two again
              slot.restartAt = t() + (slot.name === 'b' && random() < 0.35 ? between([3_000, 8_000]) : between([200, 1_500]));
            }
          }
          nextKill = t() + between(plan.killEvery);
        }
        for (const slot of slots) if (slot.restartAt !== null && t() >= slot.restartAt && slot.proc?.done()) startSlot(slot);

        // simulator faults: base → timeout window → base → slow → base …
        const current = phases[phase]!;
        if (current === 'timeout') {
          const s = await sim!.stats();
          const caught = s.faults.latency - timeoutStart!.latency;
          caughtOpen = caught;
          const open = t() - timeoutStart!.at;
          // Long enough to catch uploads; kept open (up to 4×) until at least one was caught.
          if (caught >= plan.timeoutsPerWindow || (open >= plan.timeoutWindowMaxMs && caught > 0) || open >= 4 * plan.timeoutWindowMaxMs) {
            await sim!.setFaults(BASE_FAULTS);
            faultStats.timeouts += (await sim!.stats()).faults.latency - timeoutStart!.latency;
            timeoutWindowEndedAt = Date.now();
            timeoutStart = null;
            caughtOpen = 0;
            phase = (phase + 1) % phases.length;
            phaseEnds = t() + plan.baseMs;
          }
        } else if (t() >= phaseEnds) {
          phase = (phase + 1) % phases.length;
          const nextPhase = phases[phase]!;
          if (nextPhase === 'slow') {
            await sim!.setFaults(SLOW_FAULTS);
            phaseEnds = t() + plan.slowMs;
          } else if (nextPhase === 'timeout') {
            // Only uploads are delayed, and only they: nothing else counts latency during the window.
            const before = (await sim!.stats()).faults.latency;
            await sim!.setFaults(TIMEOUT_FAULTS);
            timeoutStart = { at: t(), latency: before };
          } else {
            await sim!.setFaults(BASE_FAULTS);
            phaseEnds = t() + plan.baseMs;
          }
        }

        // PostgreSQL: restart while POSTs and workers are active
        if (cluster) {
          const share = posted / docs;
          const due = (restartAtPosted.length > 0 && share >= restartAtPosted[0]! && postsFinished < docs) || t() >= nextPgRestart;
          if (due) {
            if (restartAtPosted.length > 0 && share >= restartAtPosted[0]!) restartAtPosted.shift();
            else nextPgRestart = t() + between(plan.pgRestartEvery!);
            // Alternately a fast shutdown (backends terminated) and an immediate one (crash recovery from the WAL).
            const mode = pgRestarts % 2 === 0 ? 'fast' : 'immediate';
            await cluster.restart(mode);
            pgRestarts++;
            pgRestartModes[mode]++;
          }
        }
        await sleep(100);
      }
      // Calm: base faults stay on to the end; every worker slot runs again.
      if (phases[phase] === 'timeout' && timeoutStart) {
        await sim!.setFaults(BASE_FAULTS);
        faultStats.timeouts += (await sim!.stats()).faults.latency - timeoutStart.latency;
        timeoutWindowEndedAt = Date.now();
      } else {
        await sim!.setFaults(BASE_FAULTS);
      }
      for (const slot of slots) if (!slot.proc || slot.proc.done()) startSlot(slot);
    })();

    // ---- until every 202 has a terminal row, or the deadline
    let converged = false;
    const deadline = started + plan.deadlineMs;
    let lastLog = 0;
    while (Date.now() < deadline) {
      try {
        counts = await probe.counts();
      } catch {
        // SQLite busy for a moment: look again
      }
      if (unexpected.length > 0) break;
      if (server.proc.done()) {
        unexpected.push(`the server exited during the run:\n${server.proc.log().slice(-3000)}`);
        break;
      }
      if (postsFinished >= docs && totalRows() >= posted && terminalCount() === totalRows()) {
        converged = true;
        break;
      }
      if (full && Date.now() - lastLog > 30_000) {
        lastLog = Date.now();
        const s = Math.round((Date.now() - started) / 1000);
        console.log(`[faults ${options.storage}] ${s} s: posted ${posted}/${docs}, rows ${JSON.stringify(counts)}, kills ${kills}, pg restarts ${pgRestarts}`);
      }
      await sleep(500);
    }
    chaosStop = true;
    if (!converged) aborted = true;
    await chaos;
    await posting.catch(() => undefined);
    const wallMs = Date.now() - started;
    const diagnostics = converged
      ? ''
      : `not converged after ${wallMs} ms: posted ${posted}/${docs} (${postsFinished} finished), rows ${JSON.stringify(counts)}`;

    // ---- stop the workers (SIGTERM: they finish what they hold), then read what happened
    const finalWorkerExits: Exit[] = [];
    for (const slot of slots) {
      if (slot.proc && !slot.proc.done()) {
        stopping.add(slot.proc);
        finalWorkerExits.push(await slot.proc.stop(converged ? 20_000 : 2_000));
      }
    }
    // An upload delayed by a timeout window may still be pending at the simulator: let it land before counting.
    if (converged && faultStats.timeouts > 0) await sleep(Math.max(0, TRANSPORT_TIMEOUT_MS + 1_000 - (Date.now() - timeoutWindowEndedAt)));
    const stats = await sim.stats();
    const rows = await probe.rows();
    const submissions = await probe.submissions();

    const workerLogs = ['a', 'b']
      .map((n) => {
        try {
          return readFileSync(join(dir, `worker-${n}.log`), 'utf8');
        } catch {
          return '';
        }
      })
      .join('\n');
    const count = (s: string) => workerLogs.split(s).length - 1;

    const statuses: Record<string, number> = {};
    for (const r of rows) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    const attempts = posts.reduce((a, p) => a + (p?.statuses.length ?? 0), 0);
    const figures: Figures = {
      storage: options.storage,
      mode: full ? 'full' : 'reduced',
      seed,
      docs,
      wall_ms: wallMs,
      posting_ms: postingMs,
      post_attempts: attempts,
      post_retries: posts.reduce((a, p) => a + Math.max(0, (p?.statuses.length ?? 0) - 1), 0),
      post_503: posts.reduce((a, p) => a + (p?.statuses.filter((s) => s === 503).length ?? 0), 0),
      post_other_errors: posts.reduce((a, p) => a + (p?.statuses.filter((s) => s !== 202 && s !== 503).length ?? 0), 0),
      worker_kills: kills,
      docs_held_at_kills: docsHeldAtKills,
      sending_at_kills: sendingAtKills,
      worker_starts: workerStarts,
      max_workers_alive: maxAlive,
      pg_restarts: pgRestarts,
      pg_restart_modes: pgRestartModes,
      faults: {
        http500: stats.faults.http500,
        http503: stats.faults.http503,
        drop_before: stats.faults.dropBefore,
        drop_after: stats.faults.dropAfter,
        slow_or_jitter: stats.faults.latency - faultStats.timeouts,
        timeouts: faultStats.timeouts,
      },
      simulator_requests: stats.requests,
      ecf_receptions: Object.values(stats.receptions).reduce((a, n) => a + n, 0),
      rfce_receptions: Object.values(stats.rfce).reduce((a, n) => a + n, 0),
      adopted_track_ids: count('authority already holds the e-CF; adopting its track id'),
      adopted_rfce_verdicts: count('authority already holds the summary; adopting its verdict'),
      resent_after_query: count('authority does not hold the document; sending again'),
      statuses,
      outcomes: {
        accepted: rows.filter((r) => r.status === 'accepted_authority' && r.authorityState === 'Aceptado').length,
        accepted_conditional: rows.filter((r) => r.status === 'accepted_authority' && r.authorityState === 'Aceptado Condicional').length,
        rejected: rows.filter((r) => r.status === 'rejected_authority').length,
      },
      by_kind: { ecf: rows.filter((r) => !r.summary).length, rfce: rows.filter((r) => r.summary).length },
    };

    const serverExit = await server.proc.stop(converged ? 20_000 : 2_000);
    return { posts, rows, submissions, stats, figures, converged, unexpected, finalWorkerExits, serverExit, diagnostics };
  } finally {
    chaosStop = true;
    aborted = true;
    for (const w of allWorkers) if (!w.done()) w.child.kill('SIGKILL');
    if (server && !server.proc.done()) server.proc.child.kill('SIGKILL');
    await client?.close().catch(() => undefined);
    await sim?.stop().catch(() => undefined);
    await probe?.close().catch(() => undefined);
    cluster?.stop();
    if (process.env.ECF_FAULTS_KEEP) console.log(`[faults] logs kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}
