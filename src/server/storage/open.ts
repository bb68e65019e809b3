/** Opens the configured storage and brings its schema up to date. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isStorageUnavailable } from './errors.js';
import { createPostgresStorage } from './postgres.js';
import { createSqliteStorage } from './sqlite.js';
import type { Storage } from './types.js';

export interface OpenStorageOptions {
  /** postgres:// URL; when unset, SQLite at `${dataDir}/ecf.sqlite`. */
  databaseUrl?: string;
  dataDir: string;
  /**
   * How long to keep trying while the database cannot be reached (it is restarting, or not accepting
   * connections yet), in ms; default 10,000. A process started during a database restart then waits for it
   * instead of exiting. Any other failure is thrown at once.
   */
  waitMs?: number;
}

export async function openStorage(options: OpenStorageOptions): Promise<Storage> {
  let storage: Storage;
  if (options.databaseUrl) {
    storage = createPostgresStorage({ connectionString: options.databaseUrl });
  } else {
    mkdirSync(options.dataDir, { recursive: true });
    storage = createSqliteStorage({ file: join(options.dataDir, 'ecf.sqlite') });
  }
  const deadline = Date.now() + (options.waitMs ?? 10_000);
  for (let attempt = 0; ; attempt++) {
    try {
      // One transaction: a failed attempt leaves nothing behind.
      await storage.migrate();
      return storage;
    } catch (e) {
      if (isStorageUnavailable(e) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, Math.min(1_000, 100 * 2 ** attempt)));
        continue;
      }
      await storage.close().catch(() => undefined);
      throw e;
    }
  }
}
