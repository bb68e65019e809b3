/**
 * SQLite adapter (embedded default): better-sqlite3 behind Kysely.
 *
 * better-sqlite3 is synchronous: a connection waiting on another connection's write lock blocks the whole
 * event loop. Two connections to one file in one process could therefore deadlock (the holder cannot
 * finish its transaction while the waiter spins in busy_timeout). So instances opened on the same file in
 * one process share one connection (reference counted) and queue on its mutex; separate processes are
 * serialised by SQLite's file lock, waiting up to busy_timeout.
 */
import { chmodSync, closeSync, openSync, realpathSync } from 'node:fs';
import { dirname, basename, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { createKyselyStorage, type Database as Schema } from './kysely.js';
import type { Clock } from '../../index.js';
import { systemClock } from '../../../shared/server-kit/clock.js';
import type { Storage } from './types.js';

export interface SqliteStorageOptions {
  /** Source of every timestamp written (created_at, updated_at, …); default the system clock. */
  clock?: Clock;
  /** Database file path, or ':memory:' (private to this instance). */
  file: string;
  /** How long to wait for another process's write lock (ms); default 10,000. */
  busyTimeoutMs?: number;
  /**
   * Largest size of the database in pages (SQLite's `max_page_count`; a page is 4 KB): beyond it every write
   * fails with SQLITE_FULL, exactly as on a full disk, and the server answers 503. Default: unlimited.
   */
  maxPageCount?: number;
  /**
   * Create the database file with mode 0600 and keep it (and its -wal/-shm files, which SQLite creates with
   * the database file's mode) readable by the owner only. Default false (the process umask applies).
   */
  private?: boolean;
}

interface Shared {
  db: Kysely<Schema>;
  refs: number;
}

const shared = new Map<string, Shared>();

/** A stable key for a file that may not exist yet: the real path of its directory plus its name. */
function fileKey(file: string): string {
  const abs = resolve(file);
  try {
    return join(realpathSync(dirname(abs)), basename(abs));
  } catch {
    return abs;
  }
}

function open(file: string, busyTimeoutMs: number, maxPageCount?: number): Kysely<Schema> {
  const database = new Database(file, { timeout: busyTimeoutMs });
  database.pragma(`busy_timeout = ${Math.floor(busyTimeoutMs)}`);
  if (maxPageCount !== undefined) database.pragma(`max_page_count = ${Math.max(1, Math.floor(maxPageCount))}`);
  if (file !== ':memory:') database.pragma('journal_mode = WAL');
  // WAL + NORMAL is durable against application crashes; an OS crash may lose the last commits only.
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  return new Kysely<Schema>({ dialect: new SqliteDialect({ database }) });
}

/** Creates `file` 0600 if missing and sets 0600 on it and on existing -wal / -shm files. */
function makePrivate(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      chmodSync(f, 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
}

export function createSqliteStorage(options: SqliteStorageOptions): Storage {
  const busy = options.busyTimeoutMs ?? 10_000;
  if (options.file === ':memory:' || options.file === '') {
    const db = open(':memory:', busy, options.maxPageCount);
    return createKyselyStorage({ db, dialect: 'sqlite', clock: options.clock ?? systemClock, destroy: () => db.destroy() });
  }
  const key = fileKey(options.file);
  let entry = shared.get(key);
  if (!entry) {
    if (options.private) makePrivate(options.file);
    entry = { db: open(options.file, busy, options.maxPageCount), refs: 0 };
    shared.set(key, entry);
  }
  entry.refs++;
  const own = entry;
  return createKyselyStorage({
    db: own.db,
    dialect: 'sqlite',
    clock: options.clock ?? systemClock,
    destroy: async () => {
      own.refs--;
      if (own.refs === 0) {
        if (shared.get(key) === own) shared.delete(key);
        await own.db.destroy();
      }
    },
  });
}
