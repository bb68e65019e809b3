/**
 * PostgreSQL adapter: the e-CF storage over the kit's PostgreSQL connection
 * (src/shared/server-kit/storage/postgres.ts: a pg Pool behind Kysely), for several server processes sharing
 * one database. With `schema`, every connection uses it alone as search_path and migrate() creates it if
 * missing (tests isolate themselves this way).
 */
import { createKyselyStorage, type Database as Schema } from './kysely.js';
import type { Clock } from '../../index.js';
import { systemClock } from '../../../shared/server-kit/clock.js';
import { openPostgresConnection } from '../../../shared/server-kit/storage/postgres.js';
import type { Storage } from './types.js';

export interface PostgresStorageOptions {
  /** Source of every timestamp written (created_at, updated_at, …); default the system clock. */
  clock?: Clock;
  connectionString: string;
  schema?: string;
  /** Pool size; default 10. */
  maxConnections?: number;
}

export function createPostgresStorage(options: PostgresStorageOptions): Storage {
  const db = openPostgresConnection<Schema>({ connectionString: options.connectionString, schema: options.schema, maxConnections: options.maxConnections });
  return createKyselyStorage({ db, dialect: 'postgres', clock: options.clock ?? systemClock, schema: options.schema, destroy: () => db.destroy() });
}
