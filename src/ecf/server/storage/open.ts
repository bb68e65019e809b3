/** Opens the configured storage and brings its schema up to date. */
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../../index.js';
import { systemClock } from '../../../shared/server-kit/clock.js';
import { isStorageUnavailable } from '../../../shared/server-kit/storage/errors.js';
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

/**
 * Creates the data directory (and missing parents) with mode 0700 when it does not exist: it holds the
 * database, the development key and the simulator state. An existing directory keeps its mode (the operator's).
 */
export function ensurePrivateDir(dir: string): void {
  if (existsSync(dir)) return;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700); // the mode given to mkdir is filtered by the umask
}

export async function openStorage(options: OpenStorageOptions): Promise<Storage> {
  const clock = options.clock ?? systemClock;
  let storage: Storage;
  if (options.databaseUrl) {
    storage = createPostgresStorage({ connectionString: options.databaseUrl, clock });
  } else {
    ensurePrivateDir(options.dataDir);
    storage = createSqliteStorage({ file: join(options.dataDir, 'ecf.sqlite'), private: true, clock });
  }
  // Elapsed time on the monotonic timer: a wait bound, not a timestamp.
  const deadline = performance.now() + (options.waitMs ?? 10_000);
  for (let attempt = 0; ; attempt++) {
    try {
      // One transaction: a failed attempt leaves nothing behind.
      await storage.migrate();
      return storage;
    } catch (e) {
      if (isStorageUnavailable(e) && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, Math.min(1_000, 100 * 2 ** attempt)));
        continue;
      }
      await storage.close().catch(() => undefined);
      throw e;
    }
  }
}
