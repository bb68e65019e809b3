/**
 * What opening a storage needs besides the connection: a private data directory, and waiting for a database
 * that cannot be reached yet. Kernel material (server kit).
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { isStorageUnavailable } from './errors.js';

/**
 * Creates the data directory (and missing parents) with mode 0700 when it does not exist: it holds the
 * database and whatever else the server keeps beside it (keys, state files). An existing directory keeps its
 * mode (the operator's).
 */
export function ensurePrivateDir(dir: string): void {
  if (existsSync(dir)) return;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700); // the mode given to mkdir is filtered by the umask
}

/**
 * Runs `attempt` until it succeeds, trying again (100 ms doubling to 1 s) while it fails because the database
 * cannot be reached ({@link isStorageUnavailable}: restarting, not accepting connections yet) and less than
 * `waitMs` have passed since the call. Any other failure, or one after the deadline, is thrown at once.
 * `attempt` should leave nothing behind when it fails (one transaction).
 */
export async function waitForStorage<T>(attempt: () => Promise<T>, waitMs: number): Promise<T> {
  // Elapsed time on the monotonic timer: a wait bound, not a timestamp.
  const deadline = performance.now() + waitMs;
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (e) {
      if (isStorageUnavailable(e) && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, Math.min(1_000, 100 * 2 ** n)));
        continue;
      }
      throw e;
    }
  }
}
