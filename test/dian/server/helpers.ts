/**
 * What the DIAN server's tests share: the PostgreSQL test database (a private schema per storage, dropped
 * afterwards) and a company profile.
 */
import pg from 'pg';
import type { DianCompany } from '../../../src/dian/index.js';

/** The test database (trust auth on this machine); override with DATABASE_URL. */
export const PG_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const RUN = `dian_test_${process.pid}_${Date.now().toString(36)}`;
let counter = 0;

/** Each storage engine, opened fresh and migrated (PostgreSQL in its own schema, dropped by `cleanup`). */
export const STORAGE_ENGINES: [string, () => Promise<{ storage: DianStorage; cleanup: () => Promise<void> }>][] = [
  [
    'sqlite',
    async () => {
      const storage = createDianSqliteStorage({ file: ':memory:' });
      await storage.migrate();
      return { storage, cleanup: () => storage.close() };
    },
  ],
  [
    'postgres',
    async () => {
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
    },
  ],
];

/** A fresh schema name for this run. */
export function newSchema(): string {
  return `${RUN}_${++counter}`;
}

export async function dropSchema(name: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  } finally {
    await c.end();
  }
}

export const PROFILE: DianCompany = {
  dv: '8',
  name: 'Ferretería Ejemplo Andina S.A.S.',
  organization_type_code: '1',
  identification_type_code: '31',
  regime_type_code: '48',
  liability_type_code: 'O-13',
  tax_code: '01',
  municipality_code: '11001',
  address: 'Carrera 13 # 45-20',
  country_code: 'CO',
  phone: '6015550142',
  email: 'facturacion@ejemplo.example',
};

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  addCompany,
  addContingencyWindow,
  addResolution,
  createDianPostgresStorage,
  createDianSqliteStorage,
  type DianServer,
  type DianServerOptions,
  type DianStorage,
  startDianServer,
} from '../../../src/dian/server/index.js';
import { DIAN_KINDS, type DianKindId } from '../../../src/dian/index.js';
import { dianXsdDir, repoRoot } from '../helpers/env.js';

/** A logger that drops everything (the tests assert answers, not log lines). */
export const QUIET = { debug() {}, info() {}, warn() {}, error() {} };

/** 2025-03-14 10:00 in Bogotá: the examples' issue date; the service's, its signatures' and the local DIAN's clock. */
export const NOW = new Date('2025-03-14T15:00:00Z');

/** The contingency window every harness declares for the examples' company: the examples' issue day in Bogotá. */
export const CONTINGENCY_WINDOW = { from: '2025-03-14T00:00:00-05:00', to: '2025-03-14T23:59:59-05:00' };

const CONTEXT = JSON.parse(readFileSync(join(repoRoot, 'examples/dian/context.json'), 'utf8'));
export const EXAMPLE_NIT = '901458732';

/** examples/dian/<kind>.min.json (a fresh object); the contingency example is sent (`send_dian: true`). */
export function example(kind: DianKindId): Record<string, unknown> {
  const body = JSON.parse(readFileSync(join(repoRoot, `examples/dian/${kind}.min.json`), 'utf8'));
  if (body.send_dian === false) body.send_dian = true;
  return body;
}

export interface Harness {
  server: DianServer;
  token: string;
  /** A second company's token (NIT 900373076, no resolutions). */
  otherToken: string;
  /** The data directory and the sealing key of the companies' identities (for `ecf dian admin` on the same service). */
  dataDir: string;
  /** The PostgreSQL schema (PostgreSQL only). */
  schema?: string;
  certificateKey: Uint8Array;
  cleanup(): Promise<void>;
}

/** A server on a fresh data directory (SQLite, or PostgreSQL in a private schema) with the examples' company. */
export async function startHarness(engine: 'sqlite' | 'postgres', extra: Partial<DianServerOptions> = {}): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dian-server-'));
  const schema = engine === 'postgres' ? newSchema() : undefined;
  const certificateKey = new Uint8Array(randomBytes(32));
  const server = await startDianServer({
    dataDir,
    databaseUrl: engine === 'postgres' ? PG_URL : undefined,
    schema,
    xsdDir: dianXsdDir(),
    clock: () => NOW,
    certificateKey,
    dianRetries: 0,
    logger: QUIET,
    ...extra,
  });
  const company = {
    profile: CONTEXT.company,
    softwareId: CONTEXT.software.id,
    softwarePin: CONTEXT.software.pin,
    providerNit: CONTEXT.software.provider_nit,
    providerDv: CONTEXT.software.provider_dv,
  };
  const a = await addCompany(server.storage, { nit: EXAMPLE_NIT, ...company }, certificateKey);
  const b = await addCompany(
    server.storage,
    { nit: '900373076', ...company, profile: { ...CONTEXT.company, name: 'Otra Empresa S.A.S.', dv: '0' } },
    certificateKey,
  );
  for (const kind of Object.values(DIAN_KINDS).filter((k) => k.invoiceControl)) {
    await addResolution(server.storage, EXAMPLE_NIT, {
      kind: kind.id,
      prefix: 'SETP',
      from: 990000000,
      to: 995000000,
      technicalKey: CONTEXT.resolution.technical_key,
      resolutionNumber: '18760000001',
      resolutionDate: '2025-01-01',
      validFrom: '2025-01-01',
      validTo: '2026-12-31',
    });
  }
  // The examples' issue day (Bogotá) is a declared contingency window, so the contingency example can be issued.
  await addContingencyWindow(server.storage, EXAMPLE_NIT, { from: CONTINGENCY_WINDOW.from, to: CONTINGENCY_WINDOW.to });
  return {
    server,
    token: a.token,
    otherToken: b.token,
    dataDir,
    ...(schema ? { schema } : {}),
    certificateKey,
    async cleanup() {
      await server.close();
      if (schema) await dropSchema(schema);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
