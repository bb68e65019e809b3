/**
 * Conformance suite of issue 16's storage (both adapters, like contract.ts): idempotency keys claimed in the
 * issuing transaction, their expiry and purge, the list filters on RNCComprador / NumeroFacturaInterna, and the
 * backfill of those columns by migration 6 from the stored XML.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEcfXml, type IssuerProfile } from '../../../../src/ecf/index.js';
import { MIGRATIONS } from '../../../../src/ecf/server/storage/migrations.js';
import type { DocumentRecord, IdempotencyClaim, IdempotencyHit, Issuer, Storage } from '../../../../src/ecf/server/storage/types.js';
import { type Dialect, runMigrations } from '../../../../src/shared/server-kit/storage/migrations.js';
import { baseContext, baseDoc } from '../../helpers/docs.js';
import { repoRoot } from '../../helpers/env.js';
import { newDoc, type StorageFixture } from './contract.js';

const TODAY = '2026-04-01';
const HOUR = 60 * 60 * 1000;
/** The instant the storage's clock shows (tests move it). */
const START = Date.UTC(2026, 3, 1, 14);

let at = START;

function claim(key: string, fingerprint = 'f'.repeat(64), notBefore = 0): IdempotencyClaim {
  return { key, fingerprint, at, notBefore };
}

function isHit(v: unknown): v is IdempotencyHit {
  return typeof v === 'object' && v !== null && 'replayOf' in v;
}

/** `make` gets the clock of the suite (`at`, which the tests move), as the storage's clock. */
export function runIdempotencyContract(name: string, make: (clock: () => Date) => Promise<StorageFixture>): void {
  describe(`Storage contract (issue 16): ${name}`, () => {
    let fx: StorageFixture;
    let s: Storage;
    let counter = 0;
    beforeAll(async () => {
      fx = await make(() => new Date(at));
      s = fx.storage;
    });
    afterAll(() => fx.cleanup());

    async function issuer(): Promise<Issuer> {
      counter++;
      const rnc = String(200000000 + counter);
      const i = await s.createIssuer({ rnc, name: `E${counter}`, profile: { rnc }, signingMode: 'provider' });
      await s.addSequence(i.id, { tipo: '31', from: 1, to: 100, expiresOn: null });
      return i;
    }
    const reserve = (i: Issuer, c?: IdempotencyClaim, doc = newDoc()) => s.reserveAndInsert(i.id, '31', TODAY, () => doc, c);
    const next = async (i: Issuer) => (await s.listSequences(i.id))[0]!.next;

    describe('idempotency keys', () => {
      it('the same key returns the first document and consumes no second number; another fingerprint is told apart', async () => {
        const a = await issuer();
        const first = (await reserve(a, claim('k-1', 'a'.repeat(64)))) as DocumentRecord;
        expect(first.encf).toBe('E310000000001');
        const again = await reserve(a, claim('k-1', 'a'.repeat(64)));
        expect(again).toEqual({ replayOf: first, sameRequest: true });
        const other = await reserve(a, claim('k-1', 'b'.repeat(64)));
        expect(other).toEqual({ replayOf: first, sameRequest: false });
        expect(await next(a)).toBe(2);
        expect(await s.listDocuments(a.id, { limit: 10 })).toHaveLength(1);
        expect(await s.findIdempotencyKey(a.id, 'k-1', 0)).toEqual({ fingerprint: 'a'.repeat(64), document: first });
        // Without a key, or with another key, every call is a new document.
        expect(((await reserve(a)) as DocumentRecord).encf).toBe('E310000000002');
        expect(((await reserve(a, claim('k-2'))) as DocumentRecord).encf).toBe('E310000000003');
      });

      it('keys are per issuer', async () => {
        const a = await issuer();
        const b = await issuer();
        const da = (await reserve(a, claim('shared'))) as DocumentRecord;
        const db = (await reserve(b, claim('shared'))) as DocumentRecord;
        expect(db.issuerId).toBe(b.id);
        expect(db.id).not.toBe(da.id);
        expect(await s.findIdempotencyKey(b.id, 'shared', 0)).toMatchObject({ document: { id: db.id } });
      });

      it('passthrough: a repeated key replays the stored document instead of refusing a duplicate e-NCF', async () => {
        const a = await issuer();
        const doc = newDoc({ source: 'xml' });
        const first = (await s.insertWithEncf(a.id, '31', 'E310000000050', TODAY, doc, claim('p-1'))) as DocumentRecord;
        expect(first.encf).toBe('E310000000050');
        expect(await s.insertWithEncf(a.id, '31', 'E310000000050', TODAY, doc, claim('p-1'))).toEqual({ replayOf: first, sameRequest: true });
        // The same e-NCF without the key (or with another) is still a duplicate, and stores no key.
        expect(await s.insertWithEncf(a.id, '31', 'E310000000050', TODAY, doc)).toEqual({ refused: 'duplicate' });
        expect(await s.insertWithEncf(a.id, '31', 'E310000000050', TODAY, doc, claim('p-2'))).toEqual({ refused: 'duplicate' });
        expect(await s.findIdempotencyKey(a.id, 'p-2', 0)).toBeNull();
        expect(await s.insertWithEncf(a.id, '31', 'E310000000500', TODAY, doc, claim('p-3'))).toEqual({ refused: 'outside_sequence' });
        expect(await s.findIdempotencyKey(a.id, 'p-3', 0)).toBeNull();
      });

      it('a failed issue stores no key: make throws, or no number is left', async () => {
        const a = await issuer();
        await expect(
          s.reserveAndInsert(
            a.id,
            '31',
            TODAY,
            () => {
              throw new Error('invalid');
            },
            claim('fails'),
          ),
        ).rejects.toThrow('invalid');
        expect(await s.findIdempotencyKey(a.id, 'fails', 0)).toBeNull();
        expect(await next(a)).toBe(1);
        expect(await s.reserveAndInsert(a.id, '33', TODAY, () => newDoc(), claim('none'))).toBeNull();
        expect(await s.findIdempotencyKey(a.id, 'none', 0)).toBeNull();
        // The key is free for the retry.
        expect(((await reserve(a, claim('fails'))) as DocumentRecord).encf).toBe('E310000000001');
      });

      it('a key older than notBefore is expired: not found, and a new request with it issues a new document', async () => {
        const a = await issuer();
        at = START;
        const first = (await reserve(a, claim('old', 'a'.repeat(64)))) as DocumentRecord;
        at = START + 25 * HOUR;
        const notBefore = at - 24 * HOUR;
        expect(await s.findIdempotencyKey(a.id, 'old', notBefore)).toBeNull();
        expect(await s.findIdempotencyKey(a.id, 'old', 0)).not.toBeNull();
        const second = (await reserve(a, claim('old', 'b'.repeat(64), notBefore))) as DocumentRecord;
        expect(second.id).not.toBe(first.id);
        expect(second.encf).toBe('E310000000002');
        expect(await s.findIdempotencyKey(a.id, 'old', notBefore)).toEqual({ fingerprint: 'b'.repeat(64), document: second });
        at = START;
      });

      it('purge deletes the keys created before the cutoff, and only those', async () => {
        const a = await issuer();
        at = START + 1000 * HOUR;
        await reserve(a, claim('p-old'));
        at += 30 * HOUR;
        await reserve(a, claim('p-new'));
        const purged = await s.purgeIdempotencyKeys(at - 24 * HOUR);
        expect(purged).toBeGreaterThanOrEqual(1);
        expect(await s.findIdempotencyKey(a.id, 'p-old', 0)).toBeNull();
        expect(await s.findIdempotencyKey(a.id, 'p-new', 0)).not.toBeNull();
        // The document stays; only the key went.
        expect(await s.listDocuments(a.id, { limit: 10 })).toHaveLength(2);
        at = START;
      });

      it('concurrent claims of one key: one document, one number, every other call the same document', async () => {
        const a = await issuer();
        const slow = async () => {
          await new Promise((r) => setTimeout(r, 5));
          return newDoc();
        };
        const results = await Promise.all(Array.from({ length: 12 }, () => s.reserveAndInsert(a.id, '31', TODAY, slow, claim('race'))));
        const created = results.filter((r): r is DocumentRecord => r !== null && !isHit(r));
        expect(created).toHaveLength(1);
        for (const r of results.filter(isHit)) expect(r).toEqual({ replayOf: created[0], sameRequest: true });
        expect(await next(a)).toBe(2);
        expect(await s.listDocuments(a.id, { limit: 20 })).toHaveLength(1);
      });
    });

    describe('list filters', () => {
      it('rncComprador and numeroFacturaInterna are stored and filter the list (exactly, per issuer)', async () => {
        const a = await issuer();
        const b = await issuer();
        const d1 = (await reserve(a, undefined, newDoc({ rncComprador: '131880738', numeroFacturaInterna: 'FI-1' }))) as DocumentRecord;
        const d2 = (await reserve(a, undefined, newDoc({ rncComprador: '00112345678', numeroFacturaInterna: 'FI-2' }))) as DocumentRecord;
        const d3 = (await reserve(a, undefined, newDoc())) as DocumentRecord;
        await reserve(b, undefined, newDoc({ rncComprador: '131880738', numeroFacturaInterna: 'FI-1' }));
        expect(d1).toMatchObject({ rncComprador: '131880738', numeroFacturaInterna: 'FI-1' });
        expect(d3).toMatchObject({ rncComprador: null, numeroFacturaInterna: null });
        const ids = async (f: { rncComprador?: string; numeroFacturaInterna?: string }) => (await s.listDocuments(a.id, { ...f, limit: 10 })).map((d) => d.id);
        expect(await ids({ rncComprador: '131880738' })).toEqual([d1.id]);
        expect(await ids({ rncComprador: '00112345678' })).toEqual([d2.id]);
        expect(await ids({ numeroFacturaInterna: 'FI-2' })).toEqual([d2.id]);
        expect(await ids({ numeroFacturaInterna: 'fi-2' })).toEqual([]);
        expect(await ids({ rncComprador: '131880738', numeroFacturaInterna: 'FI-2' })).toEqual([]);
        expect(await ids({})).toEqual([d3.id, d2.id, d1.id]);
      });
    });
  });
}

/**
 * Migration 6's backfill: a database at version 5 holding documents (real e-CF XML, a 31 with a buyer and an
 * internal number, a 32 without either, and an unreadable XML) gets the columns filled when migrated.
 * `db` is a connection to an empty database / schema (`closeDb` releases it); `open` then opens the storage.
 */
export async function checkBackfill(db: Kysely<any>, dialect: Dialect, closeDb: () => Promise<void>, open: () => Promise<Storage>): Promise<void> {
  await db.connection().execute((q) =>
    runMigrations(
      q,
      dialect,
      MIGRATIONS.filter((m) => m.version <= 5),
      { now: () => START },
    ),
  );
  const profile = baseContext('31').emisor as IssuerProfile;
  const issuerId = Number(
    (
      await sql<{
        id: number;
      }>`INSERT INTO issuers (rnc, name, profile, signing_mode, created_at) VALUES (${profile.rnc}, 'X', '{}', 'provider', ${START}) RETURNING id`.execute(db)
    ).rows[0]!.id,
  );
  const d31 = baseDoc('31');
  d31.emisor = { numero_factura_interna: 'FI-2026-0001' };
  const xml31 = buildEcfXml('31', d31, { ...baseContext('31'), encf: 'E310000000001' });
  const xml32 = buildEcfXml('32', baseDoc('32'), { ...baseContext('32'), encf: 'E320000000001' });
  const rows: [string, string, number, string][] = [
    ['31', 'E310000000001', 1, xml31],
    ['32', 'E320000000001', 1, xml32],
    ['31', 'E310000000002', 2, '<ECF><Encabezado>'],
  ];
  for (const [tipo, encf, n, xml] of rows) {
    await sql`INSERT INTO documents (issuer_id, tipo, encf, consecutive, status, source, unsigned_xml, summary, issued_at, issued_on,
        total_amount, total_itbis, transmission, created_at, updated_at)
      VALUES (${issuerId}, ${tipo}, ${encf}, ${n}, 'received', 'json', ${xml}, ${dialect === 'postgres' ? sql`FALSE` : sql`0`}, '01-04-2026', '2026-04-01',
        '1.00', '0.00', 'pending', ${START}, ${START})`.execute(db);
  }
  await closeDb();
  const s = await open();
  try {
    await s.migrate();
    const all = await s.listDocuments(issuerId, { limit: 10 });
    const by = new Map(all.map((d) => [d.encf, d]));
    expect(by.get('E310000000001')).toMatchObject({ rncComprador: '131880738', numeroFacturaInterna: 'FI-2026-0001' });
    expect(by.get('E320000000001')).toMatchObject({ rncComprador: null, numeroFacturaInterna: null });
    expect(by.get('E310000000002')).toMatchObject({ rncComprador: null, numeroFacturaInterna: null });
    expect((await s.listDocuments(issuerId, { rncComprador: '131880738', limit: 10 })).map((d) => d.encf)).toEqual(['E310000000001']);
    expect((await s.listDocuments(issuerId, { numeroFacturaInterna: 'FI-2026-0001', limit: 10 })).map((d) => d.encf)).toEqual(['E310000000001']);
  } finally {
    await s.close();
  }
}

/**
 * A process killed inside a keyed reservation (key claimed, number taken, `make` running) leaves neither the
 * key nor the number: the engine rolls the open transaction back. `s` is a migrated storage on the same
 * database as the child's `args` (see fixtures/claim-crash-child.ts), with an issuer `rnc` and a type-31 sequence.
 */
export async function checkCrashInsideClaim(s: Storage, issuerId: number, args: string[]): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'test/ecf/server/storage/fixtures/claim-crash-child.ts'), ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (c) => {
    err += String(c);
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c) => {
      if (String(c).includes('inside')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`child exited ${code} before the transaction: ${err}`)));
  });
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
  // The engine notices the dead connection (PostgreSQL) or the dead lock holder (SQLite) and rolls back.
  const deadline = Date.now() + 10_000;
  let created: DocumentRecord | IdempotencyHit | null = null;
  while (Date.now() < deadline) {
    try {
      created = await s.reserveAndInsert(issuerId, '31', TODAY, () => newDoc(), { key: 'crash', fingerprint: 'f'.repeat(64), at: START, notBefore: 0 });
      break;
    } catch (e) {
      if (!/lock|busy|timeout/i.test(String(e))) throw e;
    }
  }
  // A fresh claim: no key survived the crash, and the number the dead transaction took is free again.
  expect(isHit(created)).toBe(false);
  expect((created as DocumentRecord).encf).toBe('E310000000001');
  expect((await s.listSequences(issuerId))[0]!.next).toBe(2);
}
