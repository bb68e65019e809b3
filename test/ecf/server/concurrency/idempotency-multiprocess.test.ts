/**
 * `Idempotency-Key` across processes (issue 16): four child processes, each with its own PostgreSQL pool and
 * app on one schema, wait at a barrier and then send the same keyed requests at once (six each in flight):
 * - one key, one JSON body (24 requests) → every answer 202 with the same document, exactly one of them not a
 *   replay, one e-NCF consumed;
 * - one key, one passthrough XML (24 requests) → the same, never a "ya fue utilizado" refusal;
 * - one key, two different JSON bodies (12 + 12) → the body that won gets its document on every request with
 *   that body, every request with the other body is a 422 (key reused), one e-NCF consumed.
 * What the database must hold: three documents, three keys, the type-31 sequence advanced exactly twice.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEcfXml, formatDateDO, type IssuerProfile } from '../../../../src/ecf/index.js';
import { createPostgresStorage } from '../../../../src/ecf/server/storage/postgres.js';
import { generateToken, hashToken } from '../../../../src/shared/server-kit/tokens.js';
import { baseDoc } from '../../helpers/docs.js';
import { repoRoot, xsdDir } from '../../helpers/env.js';
import { ISSUER_PROFILE } from '../app/harness.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = `ecf_idem_mp_${process.pid}_${Date.now().toString(36)}`;
const PROCESSES = 4;

interface Answer {
  key: string;
  status: number;
  replayed: string | null;
  body: any;
  /** Which of the two bodies of the mixed key this request sent. */
  variant?: string;
}

const dirs: string[] = [];
let answers: Answer[] = [];

async function sql<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  try {
    await c.query(`SET search_path = "${SCHEMA}"`);
    return (await c.query<T>(text)).rows;
  } finally {
    await c.end();
  }
}

interface Child {
  ready: Promise<void>;
  done: Promise<Answer[]>;
  go(): void;
}

function startChild(jobFile: string): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'test/ecf/server/concurrency/fixtures/idempotency-child.ts'), jobFile], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL, SCHEMA, ECF_XSD_DIR: xsdDir() },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((r) => {
    onReady = r;
  });
  child.stderr.on('data', (c) => {
    err += String(c);
  });
  child.stdout.on('data', (c) => {
    out += String(c);
    if (out.startsWith('ready\n')) onReady();
  });
  const done = new Promise<Answer[]>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`child exited ${code}: ${err}`));
      else resolve(JSON.parse(out.slice('ready\n'.length)) as Answer[]);
    });
  });
  // A child that dies before `ready` must fail the test, not hang it.
  void done.catch(() => onReady());
  return { ready, done, go: () => child.stdin.end('go\n') };
}

beforeAll(async () => {
  const storage = createPostgresStorage({ connectionString: DATABASE_URL, schema: SCHEMA, maxConnections: 2 });
  let token: string;
  try {
    await storage.migrate();
    const issuer = await storage.createIssuer({
      rnc: ISSUER_PROFILE.rnc!,
      name: ISSUER_PROFILE.razon_social!,
      profile: ISSUER_PROFILE,
      signingMode: 'provider',
    });
    token = generateToken();
    await storage.addToken(issuer.id, hashToken(token), 'idempotency-multiprocess');
    await storage.addSequence(issuer.id, { tipo: '31', from: 1, to: 1000, expiresOn: '2099-12-31' });
    await storage.addSequence(issuer.id, { tipo: '43', from: 1, to: 1000, expiresOn: '2099-12-31' });
  } finally {
    await storage.close();
  }
  const json = JSON.stringify(baseDoc('31'));
  const xml = buildEcfXml('43', baseDoc('43'), {
    emisor: ISSUER_PROFILE as unknown as IssuerProfile,
    encf: 'E430000000001',
    fecha_emision: formatDateDO(new Date()),
    fecha_vencimiento_secuencia: '31-12-2099',
  });
  const variant = (name: string) => {
    const d = baseDoc('31');
    d.items[0].nombre = `Variante ${name}`;
    return JSON.stringify(d);
  };
  const children = Array.from({ length: PROCESSES }, (_, p) => {
    const dir = mkdtempSync(join(tmpdir(), 'ecf-idem-mp-'));
    dirs.push(dir);
    const requests = [
      ...[0, 1].map(() => ({ tipo: '31', contentType: 'application/json', key: 'mp-json', body: json })),
      ...[0, 1].map(() => ({ tipo: '43', contentType: 'application/xml', key: 'mp-xml', body: xml })),
      // Each process sends one of each variant of the mixed key.
      { tipo: '31', contentType: 'application/json', key: 'mp-mixed', body: variant('A') },
      { tipo: '31', contentType: 'application/json', key: 'mp-mixed', body: variant('B') },
    ];
    // Six requests per process: the listed ones, interleaved differently in each process.
    const ordered = p % 2 ? [...requests].reverse() : requests;
    const file = join(dir, 'jobs.json');
    writeFileSync(file, JSON.stringify({ token, requests: ordered }));
    return { child: startChild(file), ordered };
  });
  await Promise.all(children.map((c) => c.child.ready));
  for (const c of children) c.child.go();
  const results = await Promise.all(children.map((c) => c.child.done));
  answers = results.flatMap((r, p) =>
    r.map((a, i) => {
      const sent = children[p]!.ordered[i]!;
      return a.key === 'mp-mixed' ? { ...a, variant: sent.body.includes('Variante A') ? 'A' : 'B' } : a;
    }),
  );
}, 120_000);

afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`);
  } finally {
    await c.end();
  }
}, 60_000);

describe(`${PROCESSES} processes, each with its own pool, issuing with one Idempotency-Key at once`, () => {
  it('one key, one JSON body: every answer 202 with the same document, one created and the rest replays', () => {
    const mine = answers.filter((a) => a.key === 'mp-json');
    expect(mine).toHaveLength(PROCESSES * 2);
    expect(mine.filter((a) => a.status !== 202).map((a) => [a.status, a.body])).toEqual([]);
    expect(new Set(mine.map((a) => a.body.document.document_id)).size).toBe(1);
    expect(mine.filter((a) => a.replayed !== 'true')).toHaveLength(1);
    expect(mine[0]!.body.document.e_ncf).toMatch(/^E3100000000(01|02)$/);
  });

  it('one key, one passthrough XML: every answer 202 with the same document, never a duplicate refusal', () => {
    const mine = answers.filter((a) => a.key === 'mp-xml');
    expect(mine.filter((a) => a.status !== 202).map((a) => [a.status, a.body])).toEqual([]);
    expect(new Set(mine.map((a) => a.body.document.document_id)).size).toBe(1);
    expect(mine[0]!.body.document.e_ncf).toBe('E430000000001');
    expect(mine.filter((a) => a.replayed !== 'true')).toHaveLength(1);
  });

  it('one key, two bodies: the winning body gets its document everywhere, the other body a 422', () => {
    const mine = answers.filter((a) => a.key === 'mp-mixed');
    const won = mine.find((a) => a.status === 202 && a.replayed === null)!;
    expect(won).toBeDefined();
    for (const a of mine) {
      if (a.variant === won.variant) {
        expect(a.status).toBe(202);
        expect(a.body.document.document_id).toBe(won.body.document.document_id);
      } else {
        expect(a.status).toBe(422);
        expect(a.body.document.detailed_errors['Idempotency-Key'].join(' ')).toMatch(/otra solicitud/);
      }
    }
  });

  it('the database holds three documents, three keys, and the 31 sequence advanced twice', async () => {
    const docs = await sql<{ tipo: string; encf: string; unsigned_xml: string }>('SELECT tipo, encf, unsigned_xml FROM documents ORDER BY tipo, encf');
    expect(docs.map((d) => d.encf)).toEqual(['E310000000001', 'E310000000002', 'E430000000001']);
    const keys = await sql<{ idempotency_key: string; document_id: number }>(
      'SELECT idempotency_key, document_id FROM idempotency_keys ORDER BY idempotency_key',
    );
    expect(keys.map((k) => k.idempotency_key)).toEqual(['mp-json', 'mp-mixed', 'mp-xml']);
    expect(keys.every((k) => k.document_id !== null)).toBe(true);
    const seqs = await sql<{ tipo: string; next_number: number }>('SELECT tipo, next_number FROM sequences ORDER BY tipo');
    expect(seqs.map((s) => [s.tipo, Number(s.next_number)])).toEqual([
      ['31', 3],
      ['43', 1],
    ]);
    // The mixed key's document is the winning variant's body.
    const won = answers.find((a) => a.key === 'mp-mixed' && a.replayed === null && a.status === 202)!;
    const stored = docs.find((d) => d.encf === won.body.document.e_ncf)!;
    expect(stored.unsigned_xml).toContain(`<NombreItem>Variante ${won.variant}</NombreItem>`);
  });
});
