/**
 * Issue 13, finding 12: seeds are stateless. A seed is issue time, a random nonce and a MAC over them and
 * the scope, under a key derived from the certificate key; requesting one writes nothing. Single use is
 * enforced when a correctly signed seed is presented (its value is recorded until it expires), so several
 * server processes on one PostgreSQL database, sharing ECF_CERT_KEY, accept each other's seeds once.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSemillaXml, parseSemillaXml } from '../../../../src/ecf/index.js';
import { signXml } from '../../../../src/ecf/sign/index.js';
import { createInboundHandler, DEVELOPMENT_TRUST } from '../../../../src/ecf/server/inbound/index.js';
import { createSignerProvider } from '../../../../src/ecf/server/signers.js';
import { createPostgresStorage } from '../../../../src/ecf/server/storage/postgres.js';
import type { Storage } from '../../../../src/ecf/server/storage/types.js';
import { schemaValidator } from '../../helpers/xsd.js';
import { call, createHarness, postXml, providerIdentity, RECEPTOR_A, remoteIdentity, T0, type Harness } from './harness.js';

const SEMILLA = '/fe/autenticacion/api/semilla';
const VALIDAR = '/fe/autenticacion/api/validacioncertificado';
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const seedOf = async (h: Harness, prefix = '') => (await call(h, `${prefix}${SEMILLA}`)).text();
const validate = (h: Harness, signed: string, prefix = '') => postXml(h, `${prefix}${VALIDAR}`, signed, { accept: 'application/json' });
const message = async (res: Response) => ((await res.json()) as { mensaje: string }).mensaje;
/** Rows of seeds and tokens (what pruning at the end of time deletes; it counts them). */
const authRows = (storage: Storage) => storage.pruneInboundAuth(Number.MAX_SAFE_INTEGER);

describe('stateless seeds', () => {
  it('N seed requests write no row; the seed keeps the DGII format', async () => {
    const h = await createHarness({ seedKey: randomBytes(32) });
    try {
      const values = new Set<string>();
      for (let i = 0; i < 50; i++) {
        const xml = await seedOf(h, i % 2 ? `/t/${RECEPTOR_A}` : '');
        const parsed = parseSemillaXml(xml);
        expect(parsed.issues).toEqual([]);
        values.add(parsed.data.valor);
      }
      expect(values.size).toBe(50);
      expect(await authRows(h.storage)).toBe(0);
    } finally {
      await h.close();
    }
  });

  it("a replayed, an expired, a forged-MAC and another scope's seed are refused; only a signature-checked use writes", async () => {
    const h = await createHarness({ seedKey: randomBytes(32) });
    try {
      const signed = await signXml(await seedOf(h), remoteIdentity().signer);
      expect((await validate(h, signed)).status).toBe(200);
      const replay = await validate(h, signed);
      expect(replay.status).toBe(401);
      expect(await message(replay)).toMatch(/ya fue utilizada/);

      const tenant = await signXml(await seedOf(h, `/t/${RECEPTOR_A}`), remoteIdentity().signer);
      expect((await validate(h, tenant)).status).toBe(401); // issued for the tenant prefix, presented at the root

      // The same layout with a MAC made up by the caller.
      const genuine = Buffer.from(parseSemillaXml(await seedOf(h)).data.valor, 'base64');
      genuine.fill(7, genuine.length - 24);
      const forged = buildSemillaXml({ valor: genuine.toString('base64'), fecha: '2026-04-01T15:35:05.0000000-04:00' });
      const refused = await validate(h, await signXml(forged, remoteIdentity().signer));
      expect(refused.status).toBe(401);
      expect(await message(refused)).toMatch(/no fue emitida/);
      // Rows: the one used seed and the one token; refusals wrote nothing.
      expect(await authRows(h.storage)).toBe(2);

      const late = await signXml(await seedOf(h), remoteIdentity().signer);
      h.advance(5 * 60_000 + 1);
      const expired = await validate(h, late);
      expect(expired.status).toBe(401);
      expect(await message(expired)).toMatch(/expirado/);
    } finally {
      await h.close();
    }
  });

  it('a server with another key does not accept the seed', async () => {
    const a = await createHarness({ seedKey: randomBytes(32) });
    const b = await createHarness({ seedKey: randomBytes(32) });
    try {
      const signed = await signXml(await seedOf(a), remoteIdentity().signer);
      expect((await validate(b, signed)).status).toBe(401);
      expect((await validate(a, signed)).status).toBe(200);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('stateless seeds: two server processes on one PostgreSQL', () => {
  const schema = `ecf_seeds_${process.pid}_${Date.now().toString(36)}`;
  afterAll(async () => {
    const c = new pg.Client({ connectionString: DATABASE_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await c.end();
  });

  it("accept each other's seeds, once in all", async () => {
    const key = randomBytes(32); // ECF_CERT_KEY, shared by both processes
    const id = providerIdentity();
    const node = async () => {
      const storage = createPostgresStorage({ connectionString: DATABASE_URL, schema, maxConnections: 2 });
      await storage.migrate();
      const handler = createInboundHandler({
        storage,
        schemas: schemaValidator(),
        clock: () => T0,
        seedKey: key,
        trust: DEVELOPMENT_TRUST,
        signers: createSignerProvider({ key: null, provider: { p12: id.p12, password: id.password } }),
      });
      return { storage, handler } as unknown as Harness;
    };
    const one = await node();
    const two = await node();
    try {
      const fromOne = await signXml(await seedOf(one), remoteIdentity().signer);
      const fromTwo = await signXml(await seedOf(two), remoteIdentity().signer);
      expect(await authRows(one.storage)).toBe(0);
      expect((await validate(two, fromOne)).status).toBe(200);
      expect((await validate(one, fromTwo)).status).toBe(200);
      // Single use holds across the processes.
      expect((await validate(one, fromOne)).status).toBe(401);
      expect((await validate(two, fromTwo)).status).toBe(401);
    } finally {
      await one.storage.close();
      await two.storage.close();
    }
  });
});
