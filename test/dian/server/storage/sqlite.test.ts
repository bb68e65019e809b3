import { createDianSqliteStorage } from '../../../../src/dian/server/index.js';
import { runDianStorageContract } from './contract.js';

runDianStorageContract('sqlite', async () => {
  const storage = createDianSqliteStorage({ file: ':memory:' });
  await storage.migrate();
  return { storage, cleanup: () => storage.close() };
});
