import { createDianPostgresStorage } from '../../../../src/dian/server/index.js';
import { describe, expect, it } from 'vitest';
import { dropSchema, newSchema, PG_URL, PROFILE } from '../helpers.js';
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

describe('postgres: two pools on one schema (as two server processes)', () => {
  it('migrate together and reserve each number once', async () => {
    const schema = newSchema();
    const a = createDianPostgresStorage({ connectionString: PG_URL, schema, maxConnections: 4 });
    const b = createDianPostgresStorage({ connectionString: PG_URL, schema, maxConnections: 4 });
    try {
      await Promise.all([a.migrate(), b.migrate()]);
      const c = await a.createCompany({
        nit: '900111222',
        profile: PROFILE,
        softwareId: 's',
        softwarePin: '1',
        providerNit: '900111222',
        providerDv: '1',
        environment: '2',
      });
      const tries = Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).reserveDocument({ companyId: c.id, kind: 'invoice', prefix: 'SETP', number: 1 + (i % 10), requestHash: 'h' }),
      );
      const results = await Promise.all(tries);
      expect(
        results
          .filter((r) => r.outcome === 'reserved')
          .map((r) => r.document.number)
          .sort((x, y) => x - y),
      ).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(results.filter((r) => r.outcome === 'same')).toHaveLength(30);
    } finally {
      await a.close();
      await b.close();
      await dropSchema(schema);
    }
  });
});
