/** Opens the configured storage and brings its schema up to date. */
import { join } from 'node:path';
import type { Clock } from '../../index.js';
import { systemClock } from '../../../shared/server-kit/clock.js';
import { ensurePrivateDir, waitForStorage } from '../../../shared/server-kit/storage/open.js';
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
  /** Source of every timestamp the storage writes; default the system clock. */
  clock?: Clock;
}

/** The kit's (src/shared/server-kit/storage/open.ts); the data directory also holds the development key and the simulator state. */
export { ensurePrivateDir };

export async function openStorage(options: OpenStorageOptions): Promise<Storage> {
  const clock = options.clock ?? systemClock;
  let storage: Storage;
  if (options.databaseUrl) {
    storage = createPostgresStorage({ connectionString: options.databaseUrl, clock });
  } else {
    ensurePrivateDir(options.dataDir);
    storage = createSqliteStorage({ file: join(options.dataDir, 'ecf.sqlite'), private: true, clock });
  }
  try {
    // One transaction: a failed attempt leaves nothing behind.
    await waitForStorage(() => storage.migrate(), options.waitMs ?? 10_000);
    return storage;
  } catch (e) {
    await storage.close().catch(() => undefined);
    throw e;
  }
}
