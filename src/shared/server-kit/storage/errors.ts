/**
 * Classifies failures of the storage engine: "unavailable for now" (the database restarts, the connection
 * dropped, another process holds the SQLite write lock beyond busy_timeout, the disk is full, the database
 * is read-only or its file cannot be read or written) versus everything else. The HTTP
 * layer answers the former with 503 and Retry-After instead of a generic 500; nothing about the request itself
 * was wrong, and trying again shortly is the right move. Also the errors storage adapters throw for a
 * conflict and a missing record.
 */
import { EcfError } from '../../errors/ecf-error.js';

/** Thrown on a uniqueness conflict the caller can explain (e.g. a record with that key exists). */
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

/** PostgreSQL SQLSTATEs of a server that is going away or not accepting connections yet. */
const PG_UNAVAILABLE = new Set([
  '57P01', // admin_shutdown (pg_ctl stop/restart -m fast)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down, recovering)
  '53300', // too_many_connections
  '58030', // io_error (the server cannot read or write its files)
  '25006', // read_only_sql_transaction (a standby, or default_transaction_read_only, e.g. after a disk-full failover)
]);
/**
 * SQLite primary result codes (better-sqlite3 reports the extended code, e.g. SQLITE_IOERR_WRITE, whose prefix
 * is the primary code) that say the database cannot be written now, not that the request was wrong:
 * SQLITE_FULL (disk or max_page_count full), SQLITE_READONLY (read-only file, directory or mount),
 * SQLITE_IOERR (the OS failed a read, write or fsync: ENOSPC, EIO, EDQUOT), SQLITE_CANTOPEN (the file or its
 * journal cannot be opened, e.g. no descriptors left), and SQLITE_BUSY (another process holds the write lock
 * beyond busy_timeout). SQLITE_CORRUPT and SQLITE_NOTADB are left out: retrying cannot help.
 */
const SQLITE_UNAVAILABLE = ['SQLITE_BUSY', 'SQLITE_FULL', 'SQLITE_READONLY', 'SQLITE_IOERR', 'SQLITE_CANTOPEN'];
/** Operating system codes of a full or read-only file system (files the server writes beside the database). */
const FS_UNAVAILABLE = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'EMFILE', 'ENFILE']);
/** System error codes of a connection that failed or broke. */
const NET_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
/** node-postgres reports a lost or unusable connection with these messages (no code). */
const PG_MESSAGES = [/^Connection terminated/i, /not queryable/i, /timeout exceeded when trying to connect/i, /^Connection ended/i];

/** True when `e` (or an error in its cause chain) says the database cannot be reached right now. */
export function isStorageUnavailable(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 5) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (PG_UNAVAILABLE.has(code) || code.startsWith('08')) return true; // class 08: connection exception
    // Class 53, insufficient resources: 53100 disk_full, 53200 out_of_memory, 53300, 53400 configuration_limit_exceeded.
    if (/^53[0-9A-Z]{3}$/.test(code)) return true;
    if (NET_UNAVAILABLE.has(code) || FS_UNAVAILABLE.has(code)) return true;
    if (SQLITE_UNAVAILABLE.some((c) => code === c || code.startsWith(`${c}_`))) return true;
  }
  const message = (e as { message?: unknown }).message;
  if (typeof message === 'string' && PG_MESSAGES.some((re) => re.test(message))) return true;
  const errors = (e as { errors?: unknown }).errors;
  if (Array.isArray(errors) && errors.some((x) => isStorageUnavailable(x, depth + 1))) return true;
  return isStorageUnavailable((e as { cause?: unknown }).cause, depth + 1);
}
