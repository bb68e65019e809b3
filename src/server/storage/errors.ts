/**
 * Classifies failures of the storage engine: "unavailable for now" (the database restarts, the connection
 * dropped, another process holds the SQLite write lock beyond busy_timeout) versus everything else. The HTTP
 * layer answers the former with 503 and Retry-After instead of a generic 500; nothing about the request itself
 * was wrong, and trying again shortly is the right move.
 */

/** PostgreSQL SQLSTATEs of a server that is going away or not accepting connections yet. */
const PG_UNAVAILABLE = new Set([
  '57P01', // admin_shutdown (pg_ctl stop/restart -m fast)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down, recovering)
  '53300', // too_many_connections
]);
/** System error codes of a connection that failed or broke. */
const NET_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
/** node-postgres reports a lost or unusable connection with these messages (no code). */
const PG_MESSAGES = [
  /^Connection terminated/i,
  /not queryable/i,
  /timeout exceeded when trying to connect/i,
  /^Connection ended/i,
];

/** True when `e` (or an error in its cause chain) says the database cannot be reached right now. */
export function isStorageUnavailable(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 5) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (PG_UNAVAILABLE.has(code) || code.startsWith('08')) return true; // class 08: connection exception
    if (NET_UNAVAILABLE.has(code)) return true;
    if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_')) return true;
  }
  const message = (e as { message?: unknown }).message;
  if (typeof message === 'string' && PG_MESSAGES.some((re) => re.test(message))) return true;
  const errors = (e as { errors?: unknown }).errors;
  if (Array.isArray(errors) && errors.some((x) => isStorageUnavailable(x, depth + 1))) return true;
  return isStorageUnavailable((e as { cause?: unknown }).cause, depth + 1);
}
