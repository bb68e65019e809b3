/**
 * Transactions of the kit's storage, driven by hand on one connection (`db.connection()`): SQLite needs
 * `BEGIN IMMEDIATE` (take the write lock up front, so two processes queue on busy_timeout instead of failing
 * when a read transaction tries to upgrade), which Kysely's own transaction API does not issue. On SQLite the
 * single connection is guarded by Kysely's mutex for the whole callback, so concurrent async callers in one
 * process never interleave inside a transaction.
 *
 * Every query inside a transaction must go through the callback's `q`, never `db`: on SQLite `db` would
 * wait for the mutex the transaction holds.
 *
 * Kernel material (server kit).
 */
import { sql, type Kysely } from 'kysely';
import { isStorageUnavailable } from './errors.js';
import type { Dialect } from './migrations.js';

/** True for a unique-constraint violation on either engine. */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string } | null;
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || err?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** How long a COMMIT whose connection was lost waits for the database to tell whether it happened. */
const COMMIT_CONFIRM_MS = 15_000;

/**
 * Runs `fn` in one transaction on one connection of `db`. When the connection is lost during COMMIT (the
 * database restarts or crashes), the commit may or may not have happened; with `confirm`, the outcome is then
 * looked up once the database answers again (for up to COMMIT_CONFIRM_MS), and a commit that did happen
 * returns its result instead of an error, so a caller is never told "failed" about data that was stored.
 */
export async function runTransaction<DB, T>(
  db: Kysely<DB>,
  dialect: Dialect,
  fn: (q: Kysely<DB>) => Promise<T>,
  confirm?: (result: T) => Promise<boolean>,
): Promise<T> {
  let committing: { result: T } | null = null;
  try {
    return await db.connection().execute(async (q) => {
      await sql.raw(dialect === 'postgres' ? 'BEGIN' : 'BEGIN IMMEDIATE').execute(q);
      let result: T;
      try {
        result = await fn(q);
      } catch (e) {
        await sql
          .raw('ROLLBACK')
          .execute(q)
          .catch(() => undefined);
        throw e;
      }
      try {
        committing = { result };
        await sql.raw('COMMIT').execute(q);
      } catch (e) {
        await sql
          .raw('ROLLBACK')
          .execute(q)
          .catch(() => undefined);
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
