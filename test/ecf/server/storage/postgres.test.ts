import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../src/ecf/server/storage/migrations.js';
import { openStorage } from '../../../../src/ecf/server/storage/open.js';
import { createPostgresStorage } from '../../../../src/ecf/server/storage/postgres.js';
import { openPostgresConnection } from '../../../../src/shared/server-kit/storage/postgres.js';
import { expectClockStamps, newDoc, runStorageContract } from './contract.js';
import { checkBackfill, checkCrashInsideClaim, runIdempotencyContract } from './idempotency-contract.js';

/** The test database (trust auth on this machine); override with DATABASE_URL. */
const URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const RUN = `ecf_test_${process.pid}_${Date.now().toString(36)}`;
let counter = 0;
const schemas: string[] = [];

function newSchema(): string {
  const name = `${RUN}_${++counter}`;
  schemas.push(name);
  return name;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function dropSchema(name: string): Promise<void> {
  await admin((c) => c.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`));
}

afterAll(async () => {
  // Safety net for schemas a failed test left behind.
  await admin(async (c) => {
    for (const s of schemas) await c.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  });
});

runStorageContract('postgres', async () => {
  const schema = newSchema();
  const storage = createPostgresStorage({ connectionString: URL, schema });
  await storage.migrate();
  return {
    storage,
    cleanup: async () => {
      await storage.close();
      await dropSchema(schema);
    },
  };
});

runIdempotencyContract('postgres', async (clock) => {
  const schema = newSchema();
  const storage = createPostgresStorage({ connectionString: URL, schema, clock });
  await storage.migrate();
  return {
    storage,
    cleanup: async () => {
      await storage.close();
      await dropSchema(schema);
    },
  };
});

describe('postgres adapter specifics', () => {
  it('stamps every write with the injected clock', async () => {
    const at = Date.UTC(2031, 0, 2, 3, 4, 5);
    const schema = newSchema();
    const s = createPostgresStorage({ connectionString: URL, schema, clock: () => new Date(at) });
    await s.migrate();
    try {
      await expectClockStamps(s, at);
    } finally {
      await s.close();
      await dropSchema(schema);
    }
  });

  it('two pools (as two server processes) migrate and reserve concurrently without duplicates', async () => {
    const schema = newSchema();
    const s1 = createPostgresStorage({ connectionString: URL, schema, maxConnections: 5 });
    const s2 = createPostgresStorage({ connectionString: URL, schema, maxConnections: 5 });
    try {
      await Promise.all([s1.migrate(), s2.migrate(), s1.migrate()]);
      const issuer = await s1.createIssuer({ rnc: '131880738', name: 'X', profile: {}, signingMode: 'provider' });
      await s2.addSequence(issuer.id, { tipo: '31', from: 1, to: 150, expiresOn: null });
      await s1.addSequence(issuer.id, { tipo: '31', from: 1001, to: 2000, expiresOn: null });
      const make = async () => {
        await new Promise((r) => setTimeout(r, 1));
        return newDoc();
      };
      const docs = await Promise.all(Array.from({ length: 200 }, (_, k) => (k % 2 ? s1 : s2).reserveAndInsert(issuer.id, '31', '2026-04-01', make)));
      const numbers = docs.map((d) => Number(d!.encf.slice(3))).sort((x, y) => x - y);
      const expected = [...Array.from({ length: 150 }, (_, k) => k + 1), ...Array.from({ length: 50 }, (_, k) => k + 1001)];
      expect(numbers).toEqual(expected);
      // Passthrough on one pool racing reservations on the other over the same numbers: a number is
      // used once; a passthrough that lost the race is refused as a duplicate.
      const wanted = Array.from({ length: 20 }, (_, k) => `E31${String(1051 + k).padStart(10, '0')}`);
      const [explicit, reserved] = await Promise.all([
        Promise.all(wanted.map((e) => s1.insertWithEncf(issuer.id, '31', e, '2026-04-01', newDoc({ source: 'xml' })))),
        Promise.all(Array.from({ length: 20 }, () => s2.reserveAndInsert(issuer.id, '31', '2026-04-01', make))),
      ]);
      const reservedEncfs = reserved.map((d) => d!.encf);
      const explicitOk = explicit.flatMap((r) => ('encf' in r ? [r.encf] : []));
      expect(new Set([...reservedEncfs, ...explicitOk]).size).toBe(40 - explicit.filter((r) => 'refused' in r).length);
      explicit.forEach((r, k) => {
        if ('refused' in r) {
          expect(r.refused).toBe('duplicate');
          expect(reservedEncfs).toContain(wanted[k]);
        }
      });
      const all = await s1.listDocuments(issuer.id, { limit: 1000 });
      expect(new Set(all.map((d) => d.encf)).size).toBe(all.length);
    } finally {
      await s1.close();
      await s2.close();
      await dropSchema(schema);
    }
  });

  it('two pools claiming concurrently never share a document', async () => {
    const schema = newSchema();
    const s1 = createPostgresStorage({ connectionString: URL, schema });
    const s2 = createPostgresStorage({ connectionString: URL, schema });
    try {
      await s1.migrate();
      const issuer = await s1.createIssuer({ rnc: '101672919', name: 'X', profile: {}, signingMode: 'provider' });
      await s1.addSequence(issuer.id, { tipo: '32', from: 1, to: 1000, expiresOn: null });
      for (let k = 0; k < 80; k++) await s1.reserveAndInsert(issuer.id, '32', '2026-04-01', () => newDoc({ nextAttemptAt: 1 }));
      const claims = await Promise.all(Array.from({ length: 16 }, (_, k) => (k % 2 ? s1 : s2).claimDue(100, `w${k}`, 60_000, 6)));
      const ids = claims.flat().map((d) => d.id);
      expect(ids.length).toBe(80);
      expect(new Set(ids).size).toBe(80);
    } finally {
      await s1.close();
      await s2.close();
      await dropSchema(schema);
    }
  });

  it('migration 6 fills rnc_comprador and numero_factura_interna of existing documents from their XML', async () => {
    const schema = newSchema();
    await admin((c) => c.query(`CREATE SCHEMA "${schema}"`));
    const db = openPostgresConnection({ connectionString: URL, schema, maxConnections: 1 });
    try {
      await checkBackfill(
        db,
        'postgres',
        () => db.destroy(),
        async () => createPostgresStorage({ connectionString: URL, schema }),
      );
    } finally {
      await dropSchema(schema);
    }
  });

  it('a process killed inside a keyed reservation leaves neither the key nor the number', async () => {
    const schema = newSchema();
    const s = createPostgresStorage({ connectionString: URL, schema });
    await s.migrate();
    try {
      const issuer = await s.createIssuer({ rnc: '131880738', name: 'X', profile: {}, signingMode: 'provider' });
      await s.addSequence(issuer.id, { tipo: '31', from: 1, to: 100, expiresOn: null });
      await checkCrashInsideClaim(s, issuer.id, ['postgres', URL, schema, '131880738']);
    } finally {
      await s.close();
      await dropSchema(schema);
    }
  });

  it('openStorage uses DATABASE_URL when given (search_path from the URL)', async () => {
    const schema = newSchema();
    await admin((c) => c.query(`CREATE SCHEMA "${schema}"`));
    const url = `${URL}${URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const s = await openStorage({ databaseUrl: url, dataDir: '/nonexistent/never-created' });
    try {
      await s.createIssuer({ rnc: '101672919', name: 'X', profile: {}, signingMode: 'provider' });
      const tables = await admin((c) =>
        c.query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name', [schema]),
      );
      expect(tables.rows.map((r) => r.table_name)).toEqual([
        'document_approvals',
        'documents',
        'idempotency_keys',
        'inbound_seeds',
        'inbound_tokens',
        'issuers',
        'received_documents',
        'schema_migrations',
        'sequences',
        'submissions',
        'tokens',
        'void_batches',
        'void_ranges',
      ]);
      const versions = await admin((c) => c.query(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`));
      expect(versions.rows).toEqual([...MIGRATIONS].sort((a, b) => a.version - b.version).map((m) => ({ version: m.version })));
    } finally {
      await s.close();
      await dropSchema(schema);
    }
  });
});
