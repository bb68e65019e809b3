/** Opens the configured storage and brings its schema up to date. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createPostgresStorage } from './postgres.js';
import { createSqliteStorage } from './sqlite.js';
import type { Storage } from './types.js';

export interface OpenStorageOptions {
  /** postgres:// URL; when unset, SQLite at `${dataDir}/ecf.sqlite`. */
  databaseUrl?: string;
  dataDir: string;
}

export async function openStorage(options: OpenStorageOptions): Promise<Storage> {
  let storage: Storage;
  if (options.databaseUrl) {
    storage = createPostgresStorage({ connectionString: options.databaseUrl });
  } else {
    mkdirSync(options.dataDir, { recursive: true });
    storage = createSqliteStorage({ file: join(options.dataDir, 'ecf.sqlite') });
  }
  try {
    await storage.migrate();
  } catch (e) {
    await storage.close().catch(() => undefined);
    throw e;
  }
  return storage;
}
