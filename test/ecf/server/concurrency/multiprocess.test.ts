/**
 * Four real server processes (src/ecf/server/start.ts under tsx) share one PostgreSQL schema and take a storm of
 * concurrent POSTs: 2,000 valid JSON type 31 documents, ~500 invalid bodies (validation failures, malformed
 * JSON, wrong JSON types, an invalid {tipo}, refused passthrough XML) and 100 valid passthrough type 43 XMLs
 * each sent twice to two different processes at once. What must hold across processes:
 * - the 2,000 valid documents get 2,000 distinct e-NCF forming exactly E310000000001…E310000002000
 *   (no gaps: failures never consume a number, no duplicates: the reservation is atomic across pools);
 * - every invalid request is a 422 rejected_validation and stores nothing;
 * - each passthrough e-NCF is accepted once; its concurrent twin is refused as already used.
 * The worker is off (ECF_WORKER=off): only issuing is under test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEcfXmlFromJson, formatDateDO, type IssuerProfile } from '../../../../src/ecf/index.js';
import { createPostgresStorage } from '../../../../src/ecf/server/storage/postgres.js';
import { generateToken, hashToken } from '../../../../src/shared/server-kit/tokens.js';
import { baseDoc } from '../../helpers/docs.js';
import { repoRoot, xsdDir } from '../../helpers/env.js';
import { deadUrl, ISSUER_PROFILE } from '../app/harness.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = `ecf_mp_${process.pid}_${Date.now().toString(36)}`;
const PROCESSES = 4;
const VALID = 2000;
const PASSTHROUGH = 100;
const IN_FLIGHT = 64;

const seq = (tipo: string, n: number) => `E${tipo}${String(n).padStart(10, '0')}`;

/** DATABASE_URL with the test schema as search_path: pg passes `options` to the server at connect. */
function urlWithSchema(url: string, schema: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

interface ServerProcess {
  child: ChildProcess;
  url: string;
  pool: Pool;
  stderr: () => string;
}

/** Starts `tsx src/ecf/server/start.ts` and resolves with its URL once it prints the listening line. */
function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'src/ecf/server/start.ts')], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c) => {
    err += String(c);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in 45 s:\n${out}\n${err}`));
    }, 45_000);
    child.stdout!.on('data', (c) => {
      out += String(c);
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, pool: new Pool(m[1]!, { connections: 16 }), stderr: () => err });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${out}\n${err}`));
    });
  });
}

function stopServerProcess(p: ServerProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null) return resolve(p.child.exitCode);
    const force = setTimeout(() => p.child.kill('SIGKILL'), 15_000);
    p.child.once('exit', (code) => {
      clearTimeout(force);
      resolve(code);
    });
    p.child.kill('SIGTERM');
  });
}

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: urlWithSchema(DATABASE_URL, SCHEMA) });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

/** Deterministic shuffle (mulberry32), so a failing order can be replayed. */
function shuffle<T>(items: T[], seed: number): T[] {
  let a = seed >>> 0;
  const rnd = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

type Kind = 'valid' | 'invalid' | 'passthrough';
interface Job {
  kind: Kind;
  /** For valid documents: the marker written into the first item's name. */
  marker?: string;
  /** For passthrough: the e-NCF it carries, and which of its two copies this is. */
  encf?: string;
  copy?: number;
  what: string;
  tipo: string;
  contentType: string;
  body: string;
}
interface Outcome {
  job: Job;
  status: number;
  body: any;
}

const servers: ServerProcess[] = [];
const dataDirs: string[] = [];
let token = '';
let storm: { outcomes: Outcome[]; ms: number } | null = null;

beforeAll(async () => {
  const storage = createPostgresStorage({ connectionString: DATABASE_URL, schema: SCHEMA, maxConnections: 2 });
  try {
    await storage.migrate(); // creates the schema; the servers' own migrate() then finds it current
    const issuer = await storage.createIssuer({
      rnc: ISSUER_PROFILE.rnc!,
      name: ISSUER_PROFILE.razon_social!,
      profile: ISSUER_PROFILE,
      signingMode: 'provider',
    });
    token = generateToken();
    await storage.addToken(issuer.id, hashToken(token), 'multiprocess');
    // Room beyond 2,000, so "exactly 1…2000" means no number was skipped, not that the range ran out.
    await storage.addSequence(issuer.id, { tipo: '31', from: 1, to: 5000, expiresOn: '2099-12-31' });
    await storage.addSequence(issuer.id, { tipo: '43', from: 1, to: 1000, expiresOn: '2099-12-31' });
  } finally {
    await storage.close();
  }
  // The worker is off, so the authority is never called; a dead URL keeps the processes light.
  const authority = await deadUrl();
  const started = await Promise.all(
    Array.from({ length: PROCESSES }, () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'ecf-mp-'));
      dataDirs.push(dataDir);
      return startServerProcess({
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: urlWithSchema(DATABASE_URL, SCHEMA),
        ECF_WORKER: 'off',
        ECF_AUTHORITY: authority,
        ECF_XSD_DIR: xsdDir(),
        ECF_DATA_DIR: dataDir,
        ECF_CERT_KEY: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'silent',
      });
    }),
  );
  servers.push(...started);
}, 90_000);

afterAll(async () => {
  await Promise.all(
    servers.map(async (s) => {
      await s.pool.close().catch(() => undefined);
      await stopServerProcess(s);
    }),
  );
  for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`);
  } finally {
    await c.end();
  }
}, 60_000);

function jobs(): Job[] {
  const json = (what: string, body: string, kind: Kind = 'invalid', tipo = '31'): Job => ({ kind, what, tipo, contentType: 'application/json', body });
  const list: Job[] = [];
  for (let i = 0; i < VALID; i++) {
    const d = baseDoc('31');
    const marker = `Artículo de la carga ${i}`;
    d.items[0].nombre = marker;
    list.push({ ...json('valid', JSON.stringify(d), 'valid'), marker });
  }
  // Invalid: 500 in all, in the families the contract names.
  for (let i = 0; i < 120; i++) {
    const d = baseDoc('31');
    if (i % 2) delete d.comprador.rnc;
    else d.totales.monto_total += 10;
    list.push(json('validation failure', JSON.stringify(d)));
  }
  for (let i = 0; i < 100; i++) list.push(json('malformed JSON', JSON.stringify(baseDoc('31')).slice(0, 40 + i)));
  const wrongTypes: ((d: any) => unknown)[] = [
    (d) => {
      d.items[0].cantidad = 'dos';
      return d;
    },
    (d) => {
      d.items = { nombre: 'no es una lista' };
      return d;
    },
    (d) => {
      d.comprador = 'Cliente SRL';
      return d;
    },
    () => [],
    () => 'hola',
  ];
  for (let i = 0; i < 100; i++) list.push(json('wrong JSON type', JSON.stringify(wrongTypes[i % wrongTypes.length]!(baseDoc('31')))));
  for (let i = 0; i < 60; i++) list.push(json('invalid {tipo}', JSON.stringify(baseDoc('31')), 'invalid', i % 2 ? '30' : '99'));
  // Passthrough XML refused by a check: an e-NCF outside the authorized sequence, or a 43 sent to the 31 route.
  const today = formatDateDO(new Date());
  const xml = (tipo: '31' | '43', n: number) =>
    buildEcfXmlFromJson(tipo, baseDoc(tipo), {
      emisor: ISSUER_PROFILE as unknown as IssuerProfile,
      encf: seq(tipo, n),
      fecha_emision: today,
      fecha_vencimiento_secuencia: '31-12-2099',
    });
  for (let i = 0; i < 60; i++)
    list.push({ kind: 'invalid', what: 'passthrough outside the sequence', tipo: '31', contentType: 'application/xml', body: xml('31', 9000 + i) });
  for (let i = 0; i < 60; i++)
    list.push({ kind: 'invalid', what: 'passthrough TipoeCF ≠ route', tipo: '31', contentType: 'application/xml', body: xml('43', 500 + i) });
  for (let n = 1; n <= PASSTHROUGH; n++) {
    const body = xml('43', n);
    for (const copy of [0, 1])
      list.push({ kind: 'passthrough', what: 'passthrough 43', encf: seq('43', n), copy, tipo: '43', contentType: 'application/xml', body });
  }
  return list;
}

/** Sends every job with IN_FLIGHT requests outstanding; the two copies of a passthrough go to different processes. */
async function fire(list: Job[]): Promise<Outcome[]> {
  const order = shuffle(list, 20260401);
  const outcomes: Outcome[] = new Array(order.length);
  let next = 0;
  const lane = async () => {
    while (next < order.length) {
      const k = next++;
      const job = order[k]!;
      const server = servers[(job.kind === 'passthrough' ? Number(job.encf!.slice(3)) + job.copy! : k) % servers.length]!;
      const res = await server.pool.request({
        method: 'POST',
        path: `/api/v1/documents/${job.tipo}`,
        body: job.body,
        headers: { authorization: `Bearer ${token}`, 'content-type': job.contentType, accept: 'application/json' },
      });
      outcomes[k] = { job, status: res.statusCode, body: await res.body.json() };
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return outcomes;
}

async function runStorm(): Promise<Outcome[]> {
  if (!storm) {
    const list = jobs();
    const start = performance.now();
    const outcomes = await fire(list);
    storm = { outcomes, ms: performance.now() - start };
    console.info(`multiprocess: ${list.length} requests over ${PROCESSES} processes in ${(storm.ms / 1000).toFixed(1)} s`);
  }
  return storm.outcomes;
}

describe(`${PROCESSES} server processes on one PostgreSQL`, () => {
  it('2,000 concurrent valid issues → 202 with exactly E310000000001…E310000002000', async () => {
    const outcomes = (await runStorm()).filter((o) => o.job.kind === 'valid');
    expect(outcomes).toHaveLength(VALID);
    const unexpected = outcomes.filter((o) => o.status !== 202);
    expect(unexpected.slice(0, 3).map((o) => [o.status, o.body])).toEqual([]);
    for (const o of outcomes) expect(o.body.document).toMatchObject({ ecf_type_code: '31', status: 'received', status_code: 1, track_id: null });
    const numbers = outcomes.map((o) => o.body.document.e_ncf as string);
    expect(new Set(numbers).size).toBe(VALID);
    expect([...numbers].sort()).toEqual(Array.from({ length: VALID }, (_, i) => seq('31', i + 1)));
  }, 120_000);

  it('every invalid request → 422 rejected_validation', async () => {
    const outcomes = (await runStorm()).filter((o) => o.job.kind === 'invalid');
    expect(outcomes.length).toBe(500);
    const wrong = outcomes.filter((o) => o.status !== 422 || o.body.document?.status !== 'rejected_validation' || o.body.document?.status_code !== 2);
    expect(wrong.slice(0, 3).map((o) => [o.job.what, o.status, o.body])).toEqual([]);
    const reasons = (what: string) =>
      outcomes
        .filter((o) => o.job.what === what)
        .flatMap((o) => o.body.document.errors as string[])
        .join('\n');
    expect(reasons('malformed JSON')).toMatch(/JSON mal formado/);
    expect(reasons('passthrough outside the sequence')).toMatch(/no está dentro de ninguna secuencia autorizada/);
    expect(reasons('passthrough TipoeCF ≠ route')).toMatch(/TipoeCF del XML \(43\) no coincide/);
  }, 120_000);

  it('each passthrough e-NCF sent to two processes at once is accepted exactly once', async () => {
    const outcomes = (await runStorm()).filter((o) => o.job.kind === 'passthrough');
    const byEncf = new Map<string, Outcome[]>();
    for (const o of outcomes) byEncf.set(o.job.encf!, [...(byEncf.get(o.job.encf!) ?? []), o]);
    expect(byEncf.size).toBe(PASSTHROUGH);
    for (const [encf, pair] of byEncf) {
      const statuses = pair.map((o) => o.status).sort();
      expect(statuses, encf).toEqual([202, 422]);
      expect(pair.find((o) => o.status === 202)!.body.document.e_ncf).toBe(encf);
      expect(pair.find((o) => o.status === 422)!.body.document.errors.join(' ')).toMatch(new RegExp(`${encf} ya fue utilizado`));
    }
  }, 120_000);

  it('the database holds exactly the accepted documents: no duplicates, nothing for the invalid ones, each body under its own number', async () => {
    const outcomes = await runStorm();
    const counts = await sql<{ tipo: string; n: number; distinct_encf: number; lo: number; hi: number; received: number }>(
      `SELECT tipo, count(*)::int AS n, count(DISTINCT encf)::int AS distinct_encf, min(consecutive)::int AS lo, max(consecutive)::int AS hi,
              count(*) FILTER (WHERE status = 'received')::int AS received
         FROM documents GROUP BY tipo ORDER BY tipo`,
    );
    expect(counts).toEqual([
      { tipo: '31', n: VALID, distinct_encf: VALID, lo: 1, hi: VALID, received: VALID },
      { tipo: '43', n: PASSTHROUGH, distinct_encf: PASSTHROUGH, lo: 1, hi: PASSTHROUGH, received: PASSTHROUGH },
    ]);
    expect(await sql('SELECT issuer_id, encf FROM documents GROUP BY issuer_id, encf HAVING count(*) > 1')).toEqual([]);
    expect(await sql('SELECT tipo, consecutive FROM documents GROUP BY tipo, consecutive HAVING count(*) > 1')).toEqual([]);

    // Each 202 points at the document that request sent (its marker is in that XML), across processes.
    const rows = await sql<{ encf: string; unsigned_xml: string }>(`SELECT encf, unsigned_xml FROM documents WHERE tipo = '31'`);
    const xmlByEncf = new Map(rows.map((r) => [r.encf, r.unsigned_xml]));
    for (const o of outcomes.filter((x) => x.job.kind === 'valid')) {
      const stored = xmlByEncf.get(o.body.document.e_ncf);
      expect(stored?.includes(`<NombreItem>${o.job.marker}</NombreItem>`), o.body.document.e_ncf).toBe(true);
    }
  }, 120_000);

  it('after the storm the next valid issue on any process continues at E310000002001, and the processes stop cleanly', async () => {
    await runStorm();
    const res = await servers[3]!.pool.request({
      method: 'POST',
      path: '/api/v1/documents/31',
      body: JSON.stringify(baseDoc('31')),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(202);
    expect(((await res.body.json()) as any).document.e_ncf).toBe(seq('31', VALID + 1));
    for (const s of servers) await s.pool.close();
    const codes = await Promise.all(servers.map(stopServerProcess));
    expect(codes, servers.map((s) => s.stderr()).join('\n')).toEqual(Array(PROCESSES).fill(0));
  }, 120_000);
});
