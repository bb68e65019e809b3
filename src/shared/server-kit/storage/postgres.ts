/**
 * The kit's PostgreSQL connection: a pg Pool behind Kysely, for several server processes sharing one
 * database. With `schema`, every connection uses it alone as search_path (the migration runner creates it
 * if missing; tests isolate themselves this way).
 *
 * Kernel material (server kit): knows no product's tables.
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { quoteIdent } from './migrations.js';

export interface PostgresConnectionOptions {
  connectionString: string;
  schema?: string;
  /** Pool size; default 10. */
  maxConnections?: number;
}

const INT8_OID = 20;

/**
 * BIGINT columns (ids, counters, epoch ms) come back as numbers: the kit stores no value anywhere near 2^53.
 * Scoped to this pool, not pg's global parser table.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return (v: string) => Number(v);
    return (pg.types.getTypeParser as (o: number, f?: 'text' | 'binary') => (v: string) => unknown)(oid, format);
  },
};

/** Opens a pool with the kit's policy; `db.destroy()` ends it. */
export function openPostgresConnection<DB>(options: PostgresConnectionOptions): Kysely<DB> {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    types: types as unknown as pg.CustomTypesConfig,
    ...(options.schema ? { options: `-c search_path=${quoteIdent(options.schema)}` } : {}),
  });
  // An idle client losing its server (restart, network) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // Nor may a checked-out client between two queries (inside a transaction, while the caller computes): pg
  // emits the server's FATAL (57P01 on `pg_ctl restart`) as an 'error' event, fatal without a listener. The next
  // query on that client then fails normally and the pool discards it on release.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}
