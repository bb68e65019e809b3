/**
 * Soak: 5,000 documents (type 31 through Recepción, type 32 below RD$250,000 as RFCE, a few scenario
 * rejections and conditional acceptances) through the DGII simulator with every fault switched on:
 * latency jitter, HTTP 500, HTTP 503, connections dropped before and after processing. The sender
 * below follows the crash-safe protocol:
 *
 *   1. mark the document "sending" before each upload;
 *   2. on a TransportError with `outcomeUnknown`, ask the authority (trackIds for an e-CF, rfceStatus
 *      for an RFCE) BEFORE any resend, and adopt the submission it already has;
 *   3. resend only when the authority does not know the document (or the upload certainly never
 *      left: a TransportError without `outcomeUnknown`);
 *   4. poll results until a terminal state.
 *
 * Some documents also "crash" the sender right after a successful upload (the answer is lost, the mark
 * stays "sending"); a restarted sender (a new client) recovers them with the same query-first rule.
 *
 * The simulator runs in its own process (test/ecf/integration/simulator-process.ts) with a fixed fault
 * seed: the sequence of fault decisions is reproducible; which request meets which fault still depends
 * on the arrival order of concurrent requests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDgiiClient, TransportError, type AuthorityState, type DgiiClient, type TrackResult } from '../../../src/ecf/dgii/index.js';
import type { FaultSettings, ScenarioSettings, SimulatorOptions, SimulatorStats } from '../../../src/ecf/simulator/index.js';
import { repoRoot, xsdDir } from '../helpers/env.js';
import { EMISOR, encfOf, fileOf, issuer, signedEcf, signedRfce, sleep } from './support.js';

const DOCUMENTS = 5_000;
const CONCURRENCY = 48;
const FAULT_SEED = 20_260_401;
const FAULTS: FaultSettings = { jitterMs: 8, http500Rate: 0.015, http503Rate: 0.02, dropBeforeRate: 0.015, dropAfterRate: 0.015 };
/** e-NCF ending in 37 are rejected, in 58 accepted conditionally (e-CF and RFCE alike). */
const SCENARIOS: ScenarioSettings = { rejectEncfSuffixes: ['37'], conditionalEncfSuffixes: ['58'] };
/** Every CRASH_EVERY-th document loses the answer to its successful upload. */
const CRASH_EVERY = 101;

// ---------------------------------------------------------------------------------------------
// The simulator in its own process

let child: ChildProcess | null = null;
let simUrl = '';

async function startSimulatorProcess(options: SimulatorOptions): Promise<string> {
  const proc = spawn(process.execPath, ['--import', 'tsx', resolve(repoRoot, 'test/ecf/integration/simulator-process.ts'), JSON.stringify(options)], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child = proc;
  const lines = createInterface({ input: proc.stdout! });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => String(line)),
    once(proc, 'exit').then(([code]) => {
      throw new Error(`the simulator process exited with code ${String(code)} before listening`);
    }),
    sleep(30_000).then(() => {
      throw new Error('the simulator process did not start within 30 s');
    }),
  ]);
  return (JSON.parse(first) as { url: string }).url;
}

async function control<T>(method: 'GET' | 'PUT', name: string, body?: unknown): Promise<T> {
  const res = await fetch(`${simUrl}/_simulator/${name}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  if (res.status !== 200) throw new Error(`/_simulator/${name}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  simUrl = await startSimulatorProcess({ xsdDir: xsdDir(), processingDelayMs: 10, seed: FAULT_SEED, scenarios: SCENARIOS });
});

afterAll(async () => {
  const proc = child;
  if (!proc || proc.exitCode !== null) return;
  const exited = once(proc, 'exit');
  proc.stdin!.end();
  const stopped = await Promise.race([exited.then(() => true), sleep(5_000).then(() => false)]);
  if (!stopped) proc.kill('SIGKILL');
});

// ---------------------------------------------------------------------------------------------
// The sender

type Kind = 'ecf' | 'rfce';
type Mark = 'pending' | 'sending' | 'sent' | 'done';

interface Doc {
  kind: Kind;
  n: number;
  encf: string;
  expected: AuthorityState;
  crash: boolean;
  mark: Mark;
  xml?: string;
  codigoSeguridad?: string;
  trackId?: string;
  final?: TrackResult;
  /** What the sender did, in order: the evidence that every resend followed a query. */
  log: ('upload' | 'unknown' | 'not-sent' | 'query:found' | 'query:unknown' | 'crash')[];
}

interface Counters {
  uploads: number;
  unknownOutcomes: number;
  adopted: number;
  resentAfterNotFound: number;
  resentNotSent: number;
  queryRetries: number;
  crashes: number;
  recovered: number;
}

function expectedState(n: number): AuthorityState {
  if (n % 100 === 37) return 'Rechazado';
  if (n % 100 === 58) return 'Aceptado Condicional';
  return 'Aceptado';
}

function makeDocs(): Doc[] {
  return Array.from({ length: DOCUMENTS }, (_, i) => {
    const kind: Kind = i % 2 === 0 ? 'ecf' : 'rfce';
    const n = Math.floor(i / 2) + 1;
    return {
      kind,
      n,
      encf: encfOf(kind === 'ecf' ? '31' : '32', n),
      expected: expectedState(n),
      crash: i % CRASH_EVERY === CRASH_EVERY - 1,
      mark: 'pending',
      log: [],
    };
  });
}

const TERMINAL = new Set<AuthorityState>(['Aceptado', 'Rechazado', 'Aceptado Condicional']);

function createSender(dgii: DgiiClient, counters: Counters) {
  const who = issuer();

  /** A query, repeated until it answers: its retries inside the client may all meet faults. */
  async function ask<T>(query: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await query();
      } catch (e) {
        if (!(e instanceof TransportError) || attempt >= 50) throw e;
        counters.queryRetries++;
        await sleep(10);
      }
    }
  }

  /** After an unknown outcome: does the authority have the document? If so, adopt what it has. */
  async function findAtAuthority(doc: Doc): Promise<boolean> {
    if (doc.kind === 'ecf') {
      const ids = await ask(() => dgii.trackIds(who, { rncEmisor: EMISOR, encf: doc.encf }));
      if (ids.length === 0) {
        doc.log.push('query:unknown');
        return false;
      }
      const chosen =
        ids.find((e) => e.estado === 'Aceptado' || e.estado === 'Aceptado Condicional') ?? ids.find((e) => e.estado === 'En Proceso') ?? ids[ids.length - 1]!;
      doc.trackId = chosen.trackId;
      doc.mark = 'sent';
    } else {
      const verdict = await ask(() => dgii.rfceStatus(who, { rncEmisor: EMISOR, encf: doc.encf, codigoSeguridad: doc.codigoSeguridad! }));
      if (verdict.codigo === 0) {
        doc.log.push('query:unknown');
        return false;
      }
      doc.final = verdict;
      doc.mark = 'done';
    }
    doc.log.push('query:found');
    counters.adopted++;
    return true;
  }

  async function prepare(doc: Doc): Promise<void> {
    if (doc.xml) return;
    if (doc.kind === 'ecf') {
      doc.xml = await signedEcf('31', doc.n);
    } else {
      const summary = await signedRfce(doc.n);
      doc.xml = summary.rfce;
      doc.codigoSeguridad = summary.codigoSeguridad;
    }
  }

  async function upload(doc: Doc): Promise<void> {
    await prepare(doc);
    const file = { fileName: fileOf(doc.encf), xml: doc.xml! };
    for (;;) {
      doc.mark = 'sending';
      doc.log.push('upload');
      counters.uploads++;
      try {
        if (doc.kind === 'ecf') {
          const receipt = await dgii.sendEcf(who, file);
          if (doc.crash) return crash(doc);
          doc.trackId = receipt.trackId;
          doc.mark = 'sent';
        } else {
          const verdict = await dgii.sendRfce(who, file);
          if (doc.crash) return crash(doc);
          doc.final = verdict;
          doc.mark = 'done';
        }
        return;
      } catch (e) {
        if (!(e instanceof TransportError)) throw e;
        if (e.outcomeUnknown) {
          counters.unknownOutcomes++;
          doc.log.push('unknown');
          if (await findAtAuthority(doc)) return;
          counters.resentAfterNotFound++;
        } else {
          // Retries used up on failures that certainly happened before processing (503, no connection).
          counters.resentNotSent++;
          doc.log.push('not-sent');
          await sleep(20);
        }
      }
    }
  }

  function crash(doc: Doc): void {
    // The process "dies" between the answer and recording it: the mark stays "sending".
    doc.crash = false;
    doc.log.push('crash');
    counters.crashes++;
  }

  async function settle(doc: Doc): Promise<void> {
    if (doc.mark !== 'sent') return;
    for (;;) {
      const r = await ask(() => dgii.result(who, doc.trackId!));
      if (r.estado === 'No encontrado') throw new Error(`${doc.encf}: track id ${doc.trackId} unknown to the authority`);
      if (r.estado !== 'En Proceso') {
        doc.final = r;
        doc.mark = 'done';
        return;
      }
      await sleep(15);
    }
  }

  /** Startup recovery: a document left "sending" is asked about before anything is sent again. */
  async function recover(doc: Doc): Promise<void> {
    if (doc.mark !== 'sending') return;
    await prepare(doc);
    if (await findAtAuthority(doc)) counters.recovered++;
    else await upload(doc);
    await settle(doc);
  }

  return {
    async process(doc: Doc) {
      await upload(doc);
      await settle(doc);
    },
    recover,
  };
}

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

function newClient(): DgiiClient {
  // Generous timeout: a client timeout while the authority still works on an upload is a different
  // hazard (see transport-simulator.test.ts); this soak is about faults the authority reports or causes.
  return createDgiiClient({ environment: 'testecf', baseUrl: simUrl, retries: 4, backoffMs: 5, maxBackoffMs: 100, maxRetryAfterMs: 20, timeoutMs: 30_000 });
}

// ---------------------------------------------------------------------------------------------

describe('soak: 5,000 documents through a faulty authority', () => {
  it('every document ends in a definite state, each received exactly once, with every kind of fault injected', async () => {
    const started = performance.now();
    await control('PUT', 'faults', FAULTS);
    const docs = makeDocs();
    const counters: Counters = {
      uploads: 0,
      unknownOutcomes: 0,
      adopted: 0,
      resentAfterNotFound: 0,
      resentNotSent: 0,
      queryRetries: 0,
      crashes: 0,
      recovered: 0,
    };

    const first = newClient();
    try {
      const sender = createSender(first, counters);
      await pool(docs, CONCURRENCY, (doc) => sender.process(doc));
    } finally {
      await first.close();
    }
    // The "restarted" sender: a new client (new token cache) resolves what was left "sending".
    const left = docs.filter((d) => d.mark === 'sending');
    expect(left.length).toBe(counters.crashes);
    const second = newClient();
    try {
      const sender = createSender(second, counters);
      await pool(left, CONCURRENCY, (doc) => sender.recover(doc));
    } finally {
      await second.close();
    }
    const stats = await control<SimulatorStats>('GET', 'stats');
    await control('PUT', 'faults', {});
    const seconds = (performance.now() - started) / 1000;

    // 1. Every document is in a definite state, the one its e-NCF calls for.
    const unfinished = docs.filter((d) => d.mark !== 'done' || !d.final || !TERMINAL.has(d.final.estado));
    expect(unfinished.map((d) => `${d.encf}: ${d.mark} ${d.final?.estado ?? ''}`)).toEqual([]);
    const wrong = docs.filter((d) => d.final!.estado !== d.expected || d.final!.encf !== d.encf);
    expect(wrong.map((d) => `${d.encf}: ${d.final!.estado} (expected ${d.expected}) ${JSON.stringify(d.final!.mensajes)}`)).toEqual([]);
    const byState = (s: AuthorityState) => docs.filter((d) => d.final!.estado === s).length;
    // Sequences 1…2,500 per type: 25 end in 37 and 25 in 58, for each of the two types.
    expect(byState('Rechazado')).toBe(50);
    expect(byState('Aceptado Condicional')).toBe(50);
    expect(byState('Aceptado')).toBe(DOCUMENTS - 100);

    // 2. The authority received each document exactly once: every resend happened only after a
    //    query showed it did not have the document (so "at most once unless asked in between" holds).
    const ecfKeys = docs.filter((d) => d.kind === 'ecf').map((d) => `${EMISOR}${d.encf}`);
    const rfceKeys = docs.filter((d) => d.kind === 'rfce').map((d) => `${EMISOR}${d.encf}`);
    expect(Object.keys(stats.receptions).sort()).toEqual([...ecfKeys].sort());
    expect(Object.keys(stats.rfce).sort()).toEqual([...rfceKeys].sort());
    const twice = [...ecfKeys.filter((k) => stats.receptions[k] !== 1), ...rfceKeys.filter((k) => stats.rfce[k] !== 1)];
    expect(twice).toEqual([]);
    // The sender's own log: no upload follows an unknown outcome without a query in between.
    const blind = docs.filter((d) => d.log.some((e, i) => e === 'upload' && (d.log[i - 1] === 'unknown' || d.log[i - 1] === 'crash')));
    expect(blind.map((d) => `${d.encf}: ${d.log.join(' → ')}`)).toEqual([]);

    // 3. Faults of every kind really happened, and the unknown-outcome paths were exercised.
    expect(stats.faults.latency).toBeGreaterThan(DOCUMENTS);
    expect(stats.faults.http500).toBeGreaterThan(0);
    expect(stats.faults.http503).toBeGreaterThan(0);
    expect(stats.faults.dropBefore).toBeGreaterThan(0);
    expect(stats.faults.dropAfter).toBeGreaterThan(0);
    expect(counters.unknownOutcomes).toBeGreaterThan(0);
    expect(counters.resentAfterNotFound).toBeGreaterThan(0);
    expect(counters.adopted).toBeGreaterThan(counters.crashes);
    // A flagged document whose upload met an unknown outcome was adopted before it could "crash".
    expect(counters.crashes).toBeGreaterThan(0);
    expect(counters.crashes).toBeLessThanOrEqual(Math.floor(DOCUMENTS / CRASH_EVERY));
    expect(counters.recovered).toBe(counters.crashes);

    console.info(
      `soak: ${DOCUMENTS} documents in ${seconds.toFixed(1)} s; ${stats.requests} requests; faults ${JSON.stringify(stats.faults)}; sender ${JSON.stringify(counters)}; tokens ${stats.tokens}`,
    );
  }, 240_000);
});
