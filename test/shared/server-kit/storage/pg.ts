/**
 * The local PostgreSQL for the kit's storage tests (trust auth on this machine; override with DATABASE_URL):
 * every caller gets a fresh schema name, dropped when the file ends. The same pattern as
 * test/ecf/server/storage/postgres.test.ts.
 */
import pg from 'pg';
import { afterAll } from 'vitest';

export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Returns a function handing out fresh schema names for this file; they are dropped after its tests. */
export function schemaNames(label: string): () => string {
  const run = `kit_${label}_${process.pid}_${Date.now().toString(36)}`;
  const schemas: string[] = [];
  afterAll(() =>
    admin(async (c) => {
      for (const s of schemas) await c.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
    }),
  );
  return () => {
    const name = `${run}_${schemas.length + 1}`;
    schemas.push(name);
    return name;
  };
}
