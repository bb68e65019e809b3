/**
 * Issue 13, finding 9: a full disk or a read-only database answers 503 with Retry-After (not 500), and the
 * process keeps serving what it can (reads). Real mechanisms, no mocks: SQLite's max_page_count makes the
 * engine itself report SQLITE_FULL exactly as on a full disk, and a PostgreSQL role whose transactions are
 * read-only makes the server report 25006 (what a standby or a disk-full failover answers).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../../src/ecf/server/app/index.js';
import { createSignerProvider } from '../../../../src/ecf/server/signers.js';
import { isStorageUnavailable } from '../../../../src/shared/server-kit/storage/errors.js';
import { createPostgresStorage } from '../../../../src/ecf/server/storage/postgres.js';
import { createSqliteStorage } from '../../../../src/ecf/server/storage/sqlite.js';
import { generateToken, hashToken } from '../../../../src/shared/server-kit/tokens.js';
import { createDgiiClient } from '../../../../src/ecf/dgii/index.js';
import { modernP12 } from '../../helpers/certs.js';
import { baseDoc } from '../../helpers/docs.js';
import { schemaValidator } from '../../helpers/xsd.js';
import { body, createHarness, deadUrl, ISSUER_PROFILE, NOW } from '../app/harness.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('SQLite: a full database answers 503 + Retry-After and the server keeps serving', () => {
  it('fills the database for real (SQLITE_FULL), then a POST is 503 with Retry-After and a GET still answers 200', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ecf-full-'));
    dirs.push(dir);
    // 160 pages of 4 KB: room for the harness's issuers, tokens and sequences, then filled below.
    const h = await createHarness({ storage: () => createSqliteStorage({ file: join(dir, 'ecf.sqlite'), maxPageCount: 160 }) });
    try {
      const issued = await h.post('31', baseDoc('31'));
      expect(issued.status).toBe(202);
      // Fill most of the remaining space with big issuer profiles until SQLite itself refuses one.
      let full: unknown = null;
      for (let n = 0; full === null && n < 1_000; n++) {
        try {
          await h.storage.createIssuer({ rnc: String(200000000 + n), name: 'relleno', profile: { pad: 'x'.repeat(20_000) }, signingMode: 'provider' });
        } catch (e) {
          full = e;
        }
      }
      expect((full as { code?: string }).code).toBe('SQLITE_FULL');
      expect(isStorageUnavailable(full)).toBe(true);
      // Then issue documents until the last pages are gone too: the refusal is a 503 with Retry-After.
      let refused: Response | null = null;
      let accepted = 1;
      for (let n = 0; refused === null && n < 500; n++) {
        const res = await h.post('31', baseDoc('31'));
        if (res.status === 202) accepted++;
        else refused = res;
      }
      expect(refused!.status).toBe(503);
      expect(refused!.headers.get('retry-after')).toBe('2');
      expect((await body(refused!)).message).toMatch(/base de datos/);
      // The process is alive and still answers what needs no write.
      const list = await h.call('/api/v1/documents');
      expect(list.status).toBe(200);
      expect((await body(list)).data.items.length).toBe(Math.min(accepted, 20));
    } finally {
      await h.close();
    }
  });
});

describe('PostgreSQL: a read-only database answers 503 + Retry-After', () => {
  const role = `ecf_ro_${process.pid}_${Date.now().toString(36)}`;
  const schema = `${role}_s`;
  const admin = async <T>(fn: (c: pg.Client) => Promise<T>): Promise<T> => {
    const c = new pg.Client({ connectionString: DATABASE_URL });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  };
  afterAll(() =>
    admin(async (c) => {
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await c.query(`DROP ROLE IF EXISTS "${role}"`);
    }),
  );

  it('the server itself refuses the write (25006) and the API answers 503, reads still 200', async () => {
    // Set up the schema, an issuer and a token with the normal role.
    const setup = createPostgresStorage({ connectionString: DATABASE_URL, schema, maxConnections: 2 });
    await setup.migrate();
    const issuer = await setup.createIssuer({ rnc: ISSUER_PROFILE.rnc!, name: ISSUER_PROFILE.razon_social!, profile: ISSUER_PROFILE, signingMode: 'provider' });
    const token = generateToken();
    await setup.addToken(issuer.id, hashToken(token), 'test');
    await setup.addSequence(issuer.id, { tipo: '31', from: 1, to: 100, expiresOn: '2027-12-31' });
    await setup.close();
    // A role with every privilege on it whose transactions are read-only: PostgreSQL refuses each write.
    await admin(async (c) => {
      await c.query(`CREATE ROLE "${role}" LOGIN`);
      await c.query(`GRANT USAGE ON SCHEMA "${schema}" TO "${role}"`);
      await c.query(`GRANT ALL ON ALL TABLES IN SCHEMA "${schema}" TO "${role}"`);
      await c.query(`GRANT ALL ON ALL SEQUENCES IN SCHEMA "${schema}" TO "${role}"`);
      await c.query(`ALTER ROLE "${role}" SET default_transaction_read_only = on`);
    });
    const url = new URL(DATABASE_URL);
    url.username = role;
    const storage = createPostgresStorage({ connectionString: url.toString(), schema, maxConnections: 2 });
    const transport = createDgiiClient({ environment: 'testecf', baseUrl: await deadUrl(), retries: 0, timeoutMs: 2_000 });
    const cert = modernP12();
    const app = createApp({
      storage,
      transport,
      schemas: schemaValidator(),
      clock: () => NOW,
      environment: 'testecf',
      signers: createSignerProvider({ key: null, provider: { p12: cert.p12, password: cert.password } }),
    });
    try {
      const direct = await storage.addToken(issuer.id, hashToken(generateToken()), 'x').then(
        () => null,
        (e: unknown) => e,
      );
      expect((direct as { code?: string }).code).toBe('25006');

      const res = await app.request('/api/v1/documents/31', {
        method: 'POST',
        body: JSON.stringify(baseDoc('31')),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      const list = await app.request('/api/v1/documents', { headers: { authorization: `Bearer ${token}` } });
      expect(list.status).toBe(200);
    } finally {
      await transport.close();
      await storage.close();
    }
  });

  it('classifies the other disk and I/O SQLSTATEs as unavailable, and not a constraint violation', () => {
    for (const code of ['53100', '53200', '53400', '58030', '25006']) expect(isStorageUnavailable({ code })).toBe(true);
    for (const code of ['SQLITE_FULL', 'SQLITE_READONLY', 'SQLITE_READONLY_DBMOVED', 'SQLITE_IOERR_WRITE', 'SQLITE_CANTOPEN', 'ENOSPC']) {
      expect(isStorageUnavailable({ code })).toBe(true);
    }
    for (const code of ['23505', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CORRUPT', '42P01']) expect(isStorageUnavailable({ code })).toBe(false);
  });
});
