/**
 * The kit's SQLite connection: better-sqlite3 behind Kysely, with the kit's pragmas (busy timeout, WAL,
 * synchronous NORMAL, foreign keys, an optional page limit) and private file modes.
 *
 * better-sqlite3 is synchronous: a connection waiting on another connection's write lock blocks the whole
 * event loop. Two connections to one file in one process could therefore deadlock (the holder cannot
 * finish its transaction while the waiter spins in busy_timeout). So connections opened on the same file in
 * one process share one connection (reference counted) and queue on its mutex; separate processes are
 * serialised by SQLite's file lock, waiting up to busy_timeout.
 *
 * Kernel material (server kit): knows no product's tables.
 */
import { chmodSync, closeSync, openSync, realpathSync } from 'node:fs';
import { dirname, basename, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';

export interface SqliteConnectionOptions {
  /** Database file path, or ':memory:' (private to this connection). */
  file: string;
  /** How long to wait for another process's write lock (ms); default 10,000. */
  busyTimeoutMs?: number;
  /**
   * Largest size of the database in pages (SQLite's `max_page_count`; a page is 4 KB): beyond it every write
   * fails with SQLITE_FULL, exactly as on a full disk. Default: unlimited.
   */
  maxPageCount?: number;
  /**
   * Create the database file with mode 0600 and keep it (and its -wal/-shm files, which SQLite creates with
   * the database file's mode) readable by the owner only. Default false (the process umask applies).
   */
  private?: boolean;
}

/** An open SQLite connection: the Kysely instance and the one way to let go of it. */
export interface SqliteConnection<DB> {
  db: Kysely<DB>;
  /** Releases this holder's reference; the connection closes when the last holder of the file releases it. */
  release(): Promise<void>;
}

interface Shared {
  // biome-ignore lint/suspicious/noExplicitAny: the kernel runs any product's schema; each product types its own tables
  db: Kysely<any>;
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

function open<DB>(file: string, busyTimeoutMs: number, maxPageCount?: number): Kysely<DB> {
  const database = new Database(file, { timeout: busyTimeoutMs });
  database.pragma(`busy_timeout = ${Math.floor(busyTimeoutMs)}`);
  if (maxPageCount !== undefined) database.pragma(`max_page_count = ${Math.max(1, Math.floor(maxPageCount))}`);
  if (file !== ':memory:') database.pragma('journal_mode = WAL');
  // WAL + NORMAL is durable against application crashes; an OS crash may lose the last commits only.
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  return new Kysely<DB>({ dialect: new SqliteDialect({ database }) });
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

/**
 * Opens (or joins, for a file already open in this process) a SQLite connection with the kit's policy.
 * `':memory:'` or `''` gives a fresh private in-memory database.
 */
export function openSqliteConnection<DB>(options: SqliteConnectionOptions): SqliteConnection<DB> {
  const busy = options.busyTimeoutMs ?? 10_000;
  if (options.file === ':memory:' || options.file === '') {
    const db = open<DB>(':memory:', busy, options.maxPageCount);
    return { db, release: () => db.destroy() };
  }
  const key = fileKey(options.file);
  let entry = shared.get(key);
  if (!entry) {
    if (options.private) makePrivate(options.file);
    entry = { db: open<DB>(options.file, busy, options.maxPageCount), refs: 0 };
    shared.set(key, entry);
  }
  entry.refs++;
  const own = entry;
  return {
    db: own.db as Kysely<DB>,
    release: async () => {
      own.refs--;
      if (own.refs === 0) {
        if (shared.get(key) === own) shared.delete(key);
        await own.db.destroy();
      }
    },
  };
}
