/**
 * The shared core of the Kysely adapter: the connection and its dialect, the engine's value encodings, the
 * transaction helper, the clock, e-NCF composition and the errors storage throws. Each port's queries
 * (issuers.ts, sequences.ts, documents.ts, voiding.ts, inbound.ts, lifecycle.ts) take a `KyselyContext`.
 *
 * Transactions, unique-violation detection and the conflict / not-found errors are the kit's
 * (src/shared/server-kit/storage/transactions.ts, errors.ts): BEGIN IMMEDIATE on SQLite, one connection per
 * transaction. On PostgreSQL the reservation locks its sequence rows with `SELECT … FOR UPDATE`, which
 * serialises server processes sharing the database.
 *
 * Every query inside a transaction must go through the callback's `q`, never `db`: on SQLite `db` would
 * wait for the mutex the transaction holds.
 */
import type { Kysely } from 'kysely';
import { composeEncf, MAX_CONSECUTIVE, type Clock } from '../../../index.js';
import { StorageConflictError, StorageNotFoundError } from '../../../../shared/server-kit/storage/errors.js';
import type { Dialect } from '../../../../shared/server-kit/storage/migrations.js';
import { isUniqueViolation, runTransaction } from '../../../../shared/server-kit/storage/transactions.js';
import type { Bool, Database } from './schema.js';

export { composeEncf, MAX_CONSECUTIVE, StorageConflictError, StorageNotFoundError, isUniqueViolation };

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
   * database answers again (for up to the kit's COMMIT_CONFIRM_MS), and a commit that did happen returns its result
   * instead of an error, so a caller is never told "failed" about data that was stored.
   */
  tx<T>(fn: (q: Kysely<Database>) => Promise<T>, confirm?: (result: T) => Promise<boolean>): Promise<T>;
}

export function createContext(options: Pick<KyselyStorageOptions, 'db' | 'dialect' | 'clock'>): KyselyContext {
  const { db, dialect, clock } = options;
  const pg = dialect === 'postgres';
  const b = (v: boolean): Bool => (pg ? v : v ? 1 : 0);

  return {
    db,
    dialect,
    pg,
    now: () => clock().getTime(),
    b,
    bOrNull: (v) => (v === null ? null : b(v)),
    blob: (v) => (v === null ? null : Buffer.from(v.buffer, v.byteOffset, v.byteLength)),
    tx: (fn, confirm) => runTransaction(db, dialect, fn, confirm),
  };
}
