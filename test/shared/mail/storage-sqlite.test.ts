/** The mail outbox on SQLite through the conformance suite. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteMailStorage } from '../../../src/shared/mail/storage/kysely.js';
import { runMailStorageContract } from './storage-contract.js';

runMailStorageContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mail-store-'));
  const storage = createSqliteMailStorage({ file: join(dir, 'mail.sqlite') });
  await storage.migrate();
  await storage.migrate(); // idempotent
  return {
    storage,
    cleanup: async () => {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
