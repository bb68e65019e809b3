/** The mail outbox on PostgreSQL (DATABASE_URL, default the local test server), each case in its own schema. */
import { createPostgresMailStorage } from '../../../src/shared/mail/storage/kysely.js';
import { admin, DATABASE_URL, schemaNames } from '../server-kit/storage/pg.js';
import { runMailStorageContract } from './storage-contract.js';

const newSchema = schemaNames('mail');

runMailStorageContract('postgres', async () => {
  const schema = newSchema();
  const storage = createPostgresMailStorage({ connectionString: DATABASE_URL, schema });
  await storage.migrate();
  await storage.migrate();
  return {
    storage,
    cleanup: async () => {
      await storage.close();
      await admin((c) => c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    },
  };
});
