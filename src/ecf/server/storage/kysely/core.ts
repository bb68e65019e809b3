/**
 * The shared core of the Kysely adapter: the connection and its dialect, the engine's value encodings, the
 * transaction helper, the clock, e-NCF composition and the errors storage throws. Each port's queries
 * (issuers.ts, sequences.ts, documents.ts, voiding.ts, inbound.ts, lifecycle.ts) take a `KyselyContext`.
 *
 * Transactions are driven by hand on one connection (`db.connection()`): SQLite needs `BEGIN IMMEDIATE`
 * (take the write lock up front, so two processes queue on busy_timeout instead of failing when a read
 * transaction tries to upgrade), which Kysely's own transaction API does not issue. On SQLite the single
 * connection is guarded by Kysely's mutex for the whole callback, so concurrent async callers in one
 * process never interleave inside a transaction. On PostgreSQL the reservation locks its sequence rows
 * with `SELECT … FOR UPDATE`, which serialises server processes sharing the database.
 *
 * Every query inside a transaction must go through the callback's `q`, never `db`: on SQLite `db` would
 * wait for the mutex the transaction holds.
 */
import { sql, type Kysely } from 'kysely';
import { composeEncf, EcfError, MAX_CONSECUTIVE, type Clock } from '../../../index.js';
import { isStorageUnavailable } from '../../../../shared/server-kit/storage/errors.js';
import type { Dialect } from '../migrations.js';
import type { Bool, Database } from './schema.js';

export { composeEncf, MAX_CONSECUTIVE };

/** Thrown on a uniqueness conflict the caller can explain (e.g. an issuer with that RNC exists). */
export class StorageConflictError extends EcfError {
  declare readonly code: 'conflict';
  constructor(message: string) {
    super(message, { code: 'conflict' });
    this.name = 'StorageConflictError';
  }
}

/** Thrown when a record addressed by id does not exist. */
export class StorageNotFoundError extends EcfError {
  declare readonly code: 'not_found';
  constructor(message: string) {
    super(message, { code: 'not_found' });
    this.name = 'StorageNotFoundError';
  }
}

/** True for a unique-constraint violation on either engine. */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string } | null;
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || err?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export interface KyselyStorageOptions {
  db: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL schema to create during migrate(). */
  schema?: string;
  /** Releases the underlying connection(s). */
  destroy: () => Promise<void>;
  /** Source of every timestamp the adapter writes (created_at, updated_at, revoked_at, …). */
  clock: Clock;
}

/** What every port's queries share. */
export interface KyselyContext {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  readonly pg: boolean;
  /** Now, in epoch ms, from the injected clock. */
  now(): number;
  /** Booleans as the engine stores them. */
  b(v: boolean): Bool;
  bOrNull(v: boolean | null): Bool | null;
  /** Bytes as the driver binds them. */
  blob(v: Uint8Array | null): Uint8Array | null;
  /**
   * Runs `fn` in one transaction. When the connection is lost during COMMIT (the database restarts or
   * crashes), the commit may or may not have happened; with `confirm`, the outcome is then looked up once the
   * database answers again (for up to COMMIT_CONFIRM_MS), and a commit that did happen returns its result
   * instead of an error, so a caller is never told "failed" about data that was stored.
   */
  tx<T>(fn: (q: Kysely<Database>) => Promise<T>, confirm?: (result: T) => Promise<boolean>): Promise<T>;
}

/** How long a COMMIT whose connection was lost waits for the database to tell whether it happened. */
const COMMIT_CONFIRM_MS = 15_000;

export function createContext(options: Pick<KyselyStorageOptions, 'db' | 'dialect' | 'clock'>): KyselyContext {
  const { db, dialect, clock } = options;
  const pg = dialect === 'postgres';
  const b = (v: boolean): Bool => (pg ? v : v ? 1 : 0);

  async function tx<T>(fn: (q: Kysely<Database>) => Promise<T>, confirm?: (result: T) => Promise<boolean>): Promise<T> {
    let committing: { result: T } | null = null;
    try {
      return await db.connection().execute(async (q) => {
        await sql.raw(pg ? 'BEGIN' : 'BEGIN IMMEDIATE').execute(q);
        let result: T;
        try {
          result = await fn(q);
        } catch (e) {
          await sql.raw('ROLLBACK').execute(q).catch(() => undefined);
          throw e;
        }
        try {
          committing = { result };
          await sql.raw('COMMIT').execute(q);
        } catch (e) {
          await sql.raw('ROLLBACK').execute(q).catch(() => undefined);
          throw e;
        }
        return result;
      });
    } catch (e) {
      const pending = committing as { result: T } | null;
      if (!pending || !confirm || !isStorageUnavailable(e)) throw e;
      // Elapsed time on the monotonic timer: this bounds a wait, it is no timestamp (and a test's fixed
      // clock must not make it endless).
      const deadline = performance.now() + COMMIT_CONFIRM_MS;
      for (let attempt = 0; performance.now() < deadline; attempt++) {
        try {
          if (await confirm(pending.result)) return pending.result;
          throw e; // the database answers and the data is not there: the commit did not happen
        } catch (inner) {
          if (inner === e || !isStorageUnavailable(inner)) throw e;
          await new Promise((r) => setTimeout(r, Math.min(1_000, 100 * 2 ** attempt)));
        }
      }
      throw e;
    }
  }

  return {
    db,
    dialect,
    pg,
    now: () => clock().getTime(),
    b,
    bOrNull: (v) => (v === null ? null : b(v)),
    blob: (v) => (v === null ? null : Buffer.from(v.buffer, v.byteOffset, v.byteLength)),
    tx,
  };
}
