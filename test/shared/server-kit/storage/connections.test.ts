/**
 * The kit's storage plumbing on real databases: the SQLite connection policy (pragmas, one shared connection
 * per file, private modes), the PostgreSQL pool (schema as search_path, BIGINT as number), transactions,
 * unique-violation detection, waiting for an unreachable database and the private data directory.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { EcfError } from '../../../../src/shared/errors/ecf-error.js';
import { StorageConflictError, StorageNotFoundError } from '../../../../src/shared/server-kit/storage/errors.js';
import type { Dialect } from '../../../../src/shared/server-kit/storage/migrations.js';
import { ensurePrivateDir, waitForStorage } from '../../../../src/shared/server-kit/storage/open.js';
import { openPostgresConnection } from '../../../../src/shared/server-kit/storage/postgres.js';
import { openSqliteConnection } from '../../../../src/shared/server-kit/storage/sqlite.js';
import { isUniqueViolation, runTransaction } from '../../../../src/shared/server-kit/storage/transactions.js';
import { admin, DATABASE_URL, schemaNames } from './pg.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'kit-store-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const newSchema = schemaNames('conn');

const mode = (path: string) => statSync(path).mode & 0o777;

describe('openSqliteConnection', () => {
  it('applies the kit pragmas: WAL, busy timeout, foreign keys, page limit', async () => {
    const c = openSqliteConnection<any>({ file: join(tempDir(), 'a.sqlite'), busyTimeoutMs: 1234, maxPageCount: 50 });
    try {
      const one = async (pragma: string) => Object.values((await sql.raw(`PRAGMA ${pragma}`).execute(c.db)).rows[0] as object)[0];
      expect(await one('journal_mode')).toBe('wal');
      expect(await one('busy_timeout')).toBe(1234);
      expect(await one('foreign_keys')).toBe(1);
      expect(await one('max_page_count')).toBe(50);
    } finally {
      await c.release();
    }
  });

  it('shares one connection per file in a process until the last holder releases it; :memory: is private', async () => {
    const dir = tempDir();
    const a = openSqliteConnection<any>({ file: join(dir, 'b.sqlite') });
    const b = openSqliteConnection<any>({ file: join(dir, '.', 'b.sqlite') });
    expect(b.db).toBe(a.db);
    await sql`CREATE TABLE t (x INTEGER)`.execute(a.db);
    await a.release();
    await sql`INSERT INTO t VALUES (1)`.execute(b.db); // still open for the other holder
    await b.release();
    const c = openSqliteConnection<any>({ file: join(dir, 'b.sqlite') });
    expect(c.db).not.toBe(a.db); // a new connection, the data is on disk
    expect((await sql`SELECT x FROM t`.execute(c.db)).rows).toEqual([{ x: 1 }]);
    await c.release();

    const m1 = openSqliteConnection<any>({ file: ':memory:' });
    const m2 = openSqliteConnection<any>({ file: '' });
    expect(m2.db).not.toBe(m1.db);
    await Promise.all([m1.release(), m2.release()]);
  });

  it('with private, creates the file 0600 and keeps its WAL files 0600', async () => {
    const file = join(tempDir(), 'p.sqlite');
    const old = process.umask(0o022);
    try {
      const c = openSqliteConnection<any>({ file, private: true });
      await sql`CREATE TABLE t (x INTEGER)`.execute(c.db);
      expect(mode(file)).toBe(0o600);
      expect(mode(`${file}-wal`)).toBe(0o600);
      await c.release();
    } finally {
      process.umask(old);
    }
  });
});

describe('openPostgresConnection', () => {
  it('uses the schema alone as search_path and returns BIGINT as a number', async () => {
    const schema = newSchema();
    await admin((c) => c.query(`CREATE SCHEMA "${schema}"`));
    const db = openPostgresConnection<any>({ connectionString: DATABASE_URL, schema, maxConnections: 1 });
    try {
      await sql`CREATE TABLE t (n BIGINT)`.execute(db);
      await sql`INSERT INTO t VALUES (9007199254740991)`.execute(db);
      expect((await sql`SELECT n FROM t`.execute(db)).rows).toEqual([{ n: 9007199254740991 }]);
      const where = await admin((c) => c.query(`SELECT table_schema FROM information_schema.tables WHERE table_name = 't' AND table_schema = $1`, [schema]));
      expect(where.rows).toEqual([{ table_schema: schema }]);
    } finally {
      await db.destroy();
    }
  });

  it('refuses a schema name that is not a plain identifier before connecting', () => {
    expect(() => openPostgresConnection({ connectionString: DATABASE_URL, schema: 'x; DROP TABLE y' })).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
  });
});

async function sqliteDb(): Promise<{ dialect: Dialect; db: Kysely<any>; close(): Promise<void> }> {
  const c = openSqliteConnection<any>({ file: join(tempDir(), 'tx.sqlite') });
  return { dialect: 'sqlite', db: c.db, close: () => c.release() };
}
async function postgresDb(): Promise<{ dialect: Dialect; db: Kysely<any>; close(): Promise<void> }> {
  const schema = newSchema();
  await admin((c) => c.query(`CREATE SCHEMA "${schema}"`));
  const db = openPostgresConnection<any>({ connectionString: DATABASE_URL, schema, maxConnections: 2 });
  return { dialect: 'postgres', db, close: () => db.destroy() };
}

for (const [label, open] of [
  ['SQLite', sqliteDb],
  ['PostgreSQL', postgresDb],
] as const) {
  describe(`runTransaction and isUniqueViolation on ${label}`, () => {
    it('commits what the callback wrote and returns its result; a throw rolls everything back', async () => {
      const { dialect, db, close } = await open();
      try {
        await sql`CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT UNIQUE)`.execute(db);
        const r = await runTransaction(db, dialect, async (q) => {
          await sql`INSERT INTO t VALUES ('a', '1')`.execute(q);
          return 'done';
        });
        expect(r).toBe('done');
        const boom = new Error('boom');
        await expect(
          runTransaction(db, dialect, async (q) => {
            await sql`INSERT INTO t VALUES ('b', '2')`.execute(q);
            throw boom;
          }),
        ).rejects.toBe(boom);
        expect((await sql`SELECT k FROM t ORDER BY k`.execute(db)).rows).toEqual([{ k: 'a' }]);

        const dup = await runTransaction(db, dialect, (q) => sql`INSERT INTO t VALUES ('c', '1')`.execute(q)).catch((e: unknown) => e);
        expect(isUniqueViolation(dup)).toBe(true);
        const pk = await runTransaction(db, dialect, (q) => sql`INSERT INTO t VALUES ('a', '9')`.execute(q)).catch((e: unknown) => e);
        expect(isUniqueViolation(pk)).toBe(true);
        const other = await runTransaction(db, dialect, (q) => sql`INSERT INTO missing VALUES (1)`.execute(q)).catch((e: unknown) => e);
        expect(other).toBeInstanceOf(Error);
        expect(isUniqueViolation(other)).toBe(false);
      } finally {
        await close();
      }
    });
  });
}

describe('storage errors', () => {
  it('conflict and not-found are kit errors with stable codes', () => {
    const c = new StorageConflictError('exists');
    const n = new StorageNotFoundError('gone');
    expect(c).toBeInstanceOf(EcfError);
    expect([c.name, c.code, c.message]).toEqual(['StorageConflictError', 'conflict', 'exists']);
    expect([n.name, n.code]).toEqual(['StorageNotFoundError', 'not_found']);
  });
});

describe('waitForStorage', () => {
  it('tries again while the database is unreachable, then returns the result', async () => {
    let calls = 0;
    const r = await waitForStorage(async () => {
      if (++calls < 3) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      return 'open';
    }, 10_000);
    expect([r, calls]).toEqual(['open', 3]);
  });

  it('throws any other failure at once, and an unreachable database once the wait is over', async () => {
    let calls = 0;
    const bad = new Error('syntax error');
    await expect(
      waitForStorage(async () => {
        calls++;
        throw bad;
      }, 10_000),
    ).rejects.toBe(bad);
    expect(calls).toBe(1);

    calls = 0;
    const down = Object.assign(new Error('down'), { code: '57P03' });
    await expect(
      waitForStorage(async () => {
        calls++;
        throw down;
      }, 0),
    ).rejects.toBe(down);
    expect(calls).toBe(1);
  });
});

describe('ensurePrivateDir', () => {
  it('creates a missing directory and its parents 0700, and leaves an existing one as it is', () => {
    const base = tempDir();
    const dir = join(base, 'x', 'data');
    const old = process.umask(0o022);
    try {
      ensurePrivateDir(dir);
      expect(existsSync(dir)).toBe(true);
      expect(mode(dir)).toBe(0o700);
      const mine = join(base, 'mine');
      mkdirSync(mine);
      chmodSync(mine, 0o750);
      ensurePrivateDir(mine);
      expect(mode(mine)).toBe(0o750);
    } finally {
      process.umask(old);
    }
  });
});
