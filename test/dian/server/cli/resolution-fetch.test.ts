/**
 * `ecf dian admin resolution fetch` against local DIANs over real sockets: the embedded one in the data
 * directory (its state seeded with two ranges of the company) and one on its own port (`--dian-url`); ranges
 * stored once (a second fetch adds nothing), OperationCode 301 and an unknown company refused, and the service
 * started on that directory issues an invoice numbered in a fetched range. On PostgreSQL the same operation
 * (`fetchResolutions`) stores, recognises, and reports a range DIAN now describes differently.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dianAdminCommands } from '../../../../src/dian/cli/admin.js';
import { dianResolutionFetchCommand } from '../../../../src/dian/cli/admin-fetch.js';
import { addCompany, companySigners, type DianStorage, fetchResolutions, openDianStorage, startDianServer } from '../../../../src/dian/server/index.js';
import { DIAN_SIM_EXAMPLE_COMPANY, DIAN_SIM_EXAMPLE_RANGE, type DianSimRange, startDianSimulator } from '../../../../src/dian/simulator/index.js';
import { createDianClient } from '../../../../src/dian/transport/index.js';
import { fakeIo } from '../../../ecf/helpers/cli.js';
import { dianXsdDir } from '../../helpers/env.js';
import { dropSchema, EXAMPLE_NIT, example, NOW, newSchema, PG_URL, PROFILE, QUIET } from '../helpers.js';

/** A second range of the examples' company: its own prefix, technical key and resolution. */
const FEAB: DianSimRange = {
  ...DIAN_SIM_EXAMPLE_RANGE,
  prefix: 'FEAB',
  from: '1000',
  to: '2000',
  technicalKey: 'clave-tecnica-feab-de-prueba',
  resolutionNumber: '18764000009',
  resolutionDate: '2025-02-01',
  validFrom: '2025-02-01',
  validTo: '2026-02-01',
};
const THIRD: DianSimRange = { ...FEAB, prefix: 'FEAC', resolutionNumber: '18764000010' };

describe('ecf dian admin resolution fetch (SQLite, the command)', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dian-fetch-'));
    // What DIAN holds: the embedded local DIAN's state in the data directory, seeded with two ranges.
    const seed = await startDianSimulator({
      xsdDir: dianXsdDir(),
      dataDir: join(dataDir, 'dian-simulator'),
      companies: [DIAN_SIM_EXAMPLE_COMPANY],
      ranges: [DIAN_SIM_EXAMPLE_RANGE, FEAB],
    });
    await seed.close();
    for (const nit of [EXAMPLE_NIT, '900373076']) {
      const r = await admin('company add', [
        '--nit',
        nit,
        '--profile',
        'examples/dian/context.json',
        '--software-id',
        DIAN_SIM_EXAMPLE_COMPANY.softwareId,
        '--pin',
        '12345',
      ]);
      expect(r.code, r.err).toBe(0);
    }
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  /** `ecf dian admin <command> …` on the test's data directory. */
  async function admin(name: string, args: string[]) {
    const f = fakeIo({}, {}, { disk: true });
    const code = await dianAdminCommands.find((c) => c.name === `dian admin ${name}`)!.run([...args, '--data-dir', dataDir], f.io);
    return { code, out: f.out(), err: f.err() };
  }
  async function fetchRanges(args: string[]) {
    const f = fakeIo({}, { DIAN_XSD_DIR: dianXsdDir() }, { disk: true });
    const code = await dianResolutionFetchCommand({ clock: () => NOW }).run([...args, '--data-dir', dataDir], f.io);
    return { code, out: f.out(), err: f.err() };
  }
  const keys = (list: { prefix: string; resolution_number: string }[]) => list.map((r) => `${r.prefix}/${r.resolution_number}`).sort();

  it('stores the ranges the embedded local DIAN returns, once', async () => {
    const first = await fetchRanges(['--nit', EXAMPLE_NIT]);
    expect(first.code, first.err).toBe(0);
    const json = JSON.parse(first.out);
    expect(json.operation).toEqual({ code: '100', description: 'Acción completada OK' });
    expect(keys(json.added)).toEqual(['FEAB/18764000009', 'SETP/18760000001']);
    expect(json.added.find((r: { prefix: string }) => r.prefix === 'FEAB')).toMatchObject({
      kind: 'invoice',
      from: 1000,
      to: 2000,
      technical_key: 'clave-tecnica-feab-de-prueba',
      resolution_date: '2025-02-01',
      valid_from: '2025-02-01',
      valid_to: '2026-02-01',
    });
    expect(json.unchanged).toEqual([]);
    expect(first.err).toMatch(/embedded local DIAN/);

    const again = await fetchRanges(['--nit', EXAMPLE_NIT]);
    expect(again.code, again.err).toBe(0);
    expect(JSON.parse(again.out).added).toEqual([]);
    expect(keys(JSON.parse(again.out).unchanged)).toEqual(['FEAB/18764000009', 'SETP/18760000001']);
  });

  it('asks a DIAN at --dian-url; only the range not stored yet is added', async () => {
    const sim = await startDianSimulator({
      xsdDir: dianXsdDir(),
      clock: () => NOW,
      companies: [DIAN_SIM_EXAMPLE_COMPANY],
      ranges: [DIAN_SIM_EXAMPLE_RANGE, FEAB, THIRD],
    });
    try {
      const r = await fetchRanges(['--nit', EXAMPLE_NIT, '--dian-url', sim.url, '--account-code-t', EXAMPLE_NIT]);
      expect(r.code, r.err).toBe(0);
      const json = JSON.parse(r.out);
      expect(keys(json.added)).toEqual(['FEAC/18764000010']);
      expect(keys(json.unchanged)).toEqual(['FEAB/18764000009', 'SETP/18760000001']);
      expect(sim.stats().requests.GetNumberingRange).toBe(1);
    } finally {
      await sim.close();
    }
  });

  it('refuses OperationCode 301 (no ranges) and an unknown company; flags are checked', async () => {
    const none = await fetchRanges(['--nit', '900373076']);
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/DIAN has no numbering range for NIT 900373076.*OperationCode 301/);
    const unknown = await fetchRanges(['--nit', '123456789']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/unknown company/);
    await expect(fetchRanges(['--nit', EXAMPLE_NIT, '--dian-url', 'http://x', '--environment', '2'])).rejects.toThrow(/not both/);
    const kind = await fetchRanges(['--nit', EXAMPLE_NIT, '--kind', 'nope']);
    expect(kind.code).toBe(1);
    const provider = await fetchRanges(['--nit', EXAMPLE_NIT, '--account-code-t', '12']);
    expect(provider.code).toBe(1);
    expect(provider.err).toMatch(/accountCodeT is the provider's NIT/);
  });

  it('the service on that directory issues an invoice numbered in a fetched range', async () => {
    const server = await startDianServer({ dataDir, xsdDir: dianXsdDir(), clock: () => NOW, env: {}, logger: QUIET });
    try {
      const token = JSON.parse((await admin('token add', ['--nit', EXAMPLE_NIT])).out).token as string;
      const r = await fetch(`${server.url}/service/invoice`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...example('invoice'), prefix: 'FEAB', number: 1500, resolution_number: 18764000009 }),
      });
      const json = (await r.json()) as { document: { statusCode: number; number: string } };
      expect(r.status, JSON.stringify(json)).toBe(200);
      expect(json.document).toMatchObject({ statusCode: 6, number: 'FEAB1500' });
    } finally {
      await server.close();
    }
  });
});

describe('fetchResolutions (PostgreSQL)', () => {
  const schema = newSchema();
  let storage: DianStorage;
  let dataDir: string;
  const key = new Uint8Array(randomBytes(32));
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dian-fetch-pg-'));
    storage = await openDianStorage({ dataDir, databaseUrl: PG_URL, schema });
    await addCompany(storage, { nit: EXAMPLE_NIT, profile: PROFILE, softwareId: DIAN_SIM_EXAMPLE_COMPANY.softwareId, softwarePin: '12345' }, key);
  });
  afterAll(async () => {
    await storage?.close();
    await dropSchema(schema);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores, recognises, and reports a range DIAN describes differently without changing it', async () => {
    const sim = await startDianSimulator({
      xsdDir: dianXsdDir(),
      clock: () => NOW,
      companies: [DIAN_SIM_EXAMPLE_COMPANY],
      ranges: [DIAN_SIM_EXAMPLE_RANGE, FEAB],
    });
    const signerFor = companySigners(key);
    const clients: { close(): Promise<void> }[] = [];
    const dian = async (company: Parameters<typeof signerFor>[0]) => {
      const c = createDianClient({ signer: await signerFor(company), endpoint: sim.url, clock: () => NOW, retries: 0 });
      clients.push(c);
      return c;
    };
    try {
      const first = await fetchResolutions(storage, EXAMPLE_NIT, { dian });
      expect(first.added.map((r) => r.prefix).sort()).toEqual(['FEAB', 'SETP']);
      const second = await fetchResolutions(storage, EXAMPLE_NIT, { dian });
      expect(second.added).toEqual([]);
      expect(second.unchanged).toHaveLength(2);
      sim.addRange({ ...FEAB, technicalKey: 'otra-clave' });
      const third = await fetchResolutions(storage, EXAMPLE_NIT, { dian });
      expect(third.added).toEqual([]);
      expect(third.differs).toHaveLength(1);
      expect(third.differs[0]!.stored.technicalKey).toBe('clave-tecnica-feab-de-prueba');
      expect(third.differs[0]!.dian.technicalKey).toBe('otra-clave');
      const company = (await storage.getCompanyByNit(EXAMPLE_NIT))!;
      expect(await storage.listResolutions(company.id, 'invoice')).toHaveLength(2);
      // Stored for another kind, the same ranges are new for it.
      const notes = await fetchResolutions(storage, EXAMPLE_NIT, { dian, kind: 'support-invoice' });
      expect(notes.added).toHaveLength(2);
    } finally {
      for (const c of clients) await c.close();
      await sim.close();
    }
  });
});
