/**
 * SQLite adapter (embedded default): the e-CF storage over the kit's SQLite connection
 * (src/shared/server-kit/storage/sqlite.ts: better-sqlite3 behind Kysely, pragmas, busy timeout, one shared
 * connection per file in a process, private file modes).
 */
import { createKyselyStorage, type Database as Schema } from './kysely.js';
import type { Clock } from '../../index.js';
import { systemClock } from '../../../shared/server-kit/clock.js';
import { openSqliteConnection } from '../../../shared/server-kit/storage/sqlite.js';
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

export function createSqliteStorage(options: SqliteStorageOptions): Storage {
  const connection = openSqliteConnection<Schema>({
    file: options.file,
    busyTimeoutMs: options.busyTimeoutMs,
    maxPageCount: options.maxPageCount,
    private: options.private,
  });
  return createKyselyStorage({ db: connection.db, dialect: 'sqlite', clock: options.clock ?? systemClock, destroy: connection.release });
}
