/**
 * Opens the DIAN server's storage: SQLite at `${dataDir}/dian.sqlite` (embedded default) or PostgreSQL
 * (`databaseUrl`, schema `dian` unless given), and brings the schema up to date. The kit's connections
 * (src/shared/server-kit/storage): one shared SQLite connection per file in a process, a pg Pool.
 */
import { join } from 'node:path';
import type { Clock } from '../../../shared/ports.js';
import { systemClock } from '../../../shared/server-kit/clock.js';
import { ensurePrivateDir, waitForStorage } from '../../../shared/server-kit/storage/open.js';
import { openPostgresConnection } from '../../../shared/server-kit/storage/postgres.js';
import { openSqliteConnection } from '../../../shared/server-kit/storage/sqlite.js';
import { createDianKyselyStorage, type DianDatabase } from './kysely.js';
import type { DianStorage } from './types.js';

/** The PostgreSQL schema of the DIAN tables when none is given. */
export const DIAN_PG_SCHEMA = 'dian';

/** SQLite storage on `file` (':memory:' for a private one), not migrated. */
export function createDianSqliteStorage(options: { file: string; clock?: Clock; private?: boolean }): DianStorage {
  const c = openSqliteConnection<DianDatabase>({ file: options.file, private: options.private });
  return createDianKyselyStorage({ db: c.db, dialect: 'sqlite', clock: options.clock ?? systemClock, destroy: c.release });
}

/** PostgreSQL storage (its own schema, default `dian`), not migrated. */
export function createDianPostgresStorage(options: { connectionString: string; schema?: string; clock?: Clock; maxConnections?: number }): DianStorage {
  const schema = options.schema ?? DIAN_PG_SCHEMA;
  const db = openPostgresConnection<DianDatabase>({ connectionString: options.connectionString, schema, maxConnections: options.maxConnections });
  return createDianKyselyStorage({ db, dialect: 'postgres', schema, clock: options.clock ?? systemClock, destroy: () => db.destroy() });
}

export interface OpenDianStorageOptions {
  dataDir: string;
  /** postgres:// URL; when unset, SQLite in `dataDir`. */
  databaseUrl?: string;
  /** PostgreSQL schema (default `dian`). */
  schema?: string;
  clock?: Clock;
  /** How long to wait for a database that cannot be reached yet (ms); default 10,000. */
  waitMs?: number;
}

/** Opens and migrates the configured storage. */
export async function openDianStorage(options: OpenDianStorageOptions): Promise<DianStorage> {
  let storage: DianStorage;
  if (options.databaseUrl) {
    storage = createDianPostgresStorage({ connectionString: options.databaseUrl, schema: options.schema, clock: options.clock });
  } else {
    ensurePrivateDir(options.dataDir);
    storage = createDianSqliteStorage({ file: join(options.dataDir, 'dian.sqlite'), private: true, clock: options.clock });
  }
  try {
    await waitForStorage(() => storage.migrate(), options.waitMs ?? 10_000);
    return storage;
  } catch (e) {
    await storage.close().catch(() => undefined);
    throw e;
  }
}
