/**
 * PostgreSQL adapter: a pg Pool behind Kysely, for several server processes sharing one database.
 * With `schema`, every connection uses it alone as search_path and migrate() creates it if missing
 * (tests isolate themselves this way).
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { createKyselyStorage, type Database as Schema } from './kysely.js';
import { quoteIdent } from './migrations.js';
import type { Clock } from '../../index.js';
import { systemClock } from '../../../shared/server-kit/clock.js';
import type { Storage } from './types.js';

export interface PostgresStorageOptions {
  /** Source of every timestamp written (created_at, updated_at, …); default the system clock. */
  clock?: Clock;
  connectionString: string;
  schema?: string;
  /** Pool size; default 10. */
  maxConnections?: number;
}

const INT8_OID = 20;

/**
 * BIGINT columns (ids, consecutives up to 9,999,999,999, epoch ms) come back as numbers: every value we
 * store is far below 2^53. Scoped to this pool, not pg's global parser table.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return (v: string) => Number(v);
    return (pg.types.getTypeParser as (o: number, f?: 'text' | 'binary') => (v: string) => unknown)(oid, format);
  },
};

export function createPostgresStorage(options: PostgresStorageOptions): Storage {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    types: types as unknown as pg.CustomTypesConfig,
    ...(options.schema ? { options: `-c search_path=${quoteIdent(options.schema)}` } : {}),
  });
  // An idle client losing its server (restart, network) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // Nor may a checked-out client between two queries (inside a transaction, while the XML is built): pg emits
  // the server's FATAL (57P01 on `pg_ctl restart`) as an 'error' event, fatal without a listener. The next
  // query on that client then fails normally and the pool discards it on release.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  return createKyselyStorage({ db, dialect: 'postgres', clock: options.clock ?? systemClock, schema: options.schema, destroy: () => db.destroy() });
}
