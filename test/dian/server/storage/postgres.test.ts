import { createDianPostgresStorage } from '../../../../src/dian/server/index.js';
import { dropSchema, newSchema, PG_URL } from '../helpers.js';
import { runDianStorageContract } from './contract.js';

runDianStorageContract('postgres', async () => {
  const schema = newSchema();
  const storage = createDianPostgresStorage({ connectionString: PG_URL, schema });
  await storage.migrate();
  return {
    storage,
    cleanup: async () => {
      await storage.close();
      await dropSchema(schema);
    },
  };
});
