/**
 * PostgreSQL storages for the app tests: every harness gets its own fresh schema in the test database
 * (trust auth on this machine; override with DATABASE_URL), dropped when the file ends.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStorage } from '../../../../src/ecf/server/storage/postgres.js';
import { baseDoc } from '../../helpers/docs.js';
import { body, createHarness, useStorage } from '../app/harness.js';

export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function withClient<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * Makes every harness of the calling test file open a storage on a new PostgreSQL schema, drops those
 * schemas when the file ends, and adds a test proving the harness really writes to PostgreSQL.
 * Call it before importing the app test file.
 */
export function runOnPostgres(label: string): void {
  const run = `ecf_api_${label}_${process.pid}_${Date.now().toString(36)}`;
  const schemas: string[] = [];
  useStorage(() => {
    const schema = `${run}_${schemas.length + 1}`;
    schemas.push(schema);
    // A small pool: several harnesses of one file are open at once, and other test files share the server.
    return createPostgresStorage({ connectionString: DATABASE_URL, schema, maxConnections: 4 });
  });
  // Registered before the imported file's hooks, so it runs after them (after-hooks run in reverse order).
  afterAll(() =>
    withClient(async (c) => {
      for (const s of schemas) await c.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
    }),
  );

  describe('adapter', () => {
    it('the harness of this file stores in a fresh PostgreSQL schema', async () => {
      const h = await createHarness();
      try {
        const schema = schemas[schemas.length - 1]!;
        const encf = (await body(await h.post('31', baseDoc('31')))).document.e_ncf;
        const rows = await withClient((c) => c.query(`SELECT encf, status FROM "${schema}".documents`));
        expect(rows.rows).toEqual([{ encf, status: 'received' }]);
      } finally {
        await h.close();
      }
    });
  });
}
