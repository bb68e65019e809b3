/**
 * In-process harness for the HTTP app: real SQLite storage (in memory), the real XSD validator, an issuer
 * with the profile of examples/issuer.json and a token, sequences for the ten types, a provider signer
 * (test certificate) and a fixed clock (01-04-2026 10:00 in Santo Domingo, the base documents' issue date).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createApp, type App, type AppDeps } from '../../../../src/ecf/server/app/index.js';
import { createSignerProvider, type SignerProvider } from '../../../../src/ecf/server/signers.js';
import { createSqliteStorage } from '../../../../src/ecf/server/storage/sqlite.js';
import type { Issuer, SequenceRecord, Storage } from '../../../../src/ecf/server/storage/types.js';
import { generateToken, hashToken } from '../../../../src/shared/server-kit/tokens.js';
import { createDgiiClient, type AuthorityTransport } from '../../../../src/ecf/dgii/index.js';
import { ECF_TYPES, type EcfType } from '../../../../src/ecf/index.js';
import { modernP12 } from '../../helpers/certs.js';
import { repoRoot } from '../../helpers/env.js';
import { schemaValidator } from '../../helpers/xsd.js';

export const ISSUER_PROFILE = JSON.parse(readFileSync(join(repoRoot, 'examples/issuer.json'), 'utf8')) as Record<string, string>;
export const OTHER_RNC = '131880738';
/** 01-04-2026 10:00:00 in Santo Domingo (UTC−4). */
export const NOW = new Date('2026-04-01T14:00:00Z');
/** Types whose XSD has no sequence expiry (TesteCF authorizes them without one). */
export const NO_EXPIRY: readonly EcfType[] = ['32', '34'];

/** A URL where nothing listens (a port that was just free). */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

export interface Harness {
  app: App;
  storage: Storage;
  issuer: Issuer;
  token: string;
  /** A second issuer with its own token and sequences. */
  other: { issuer: Issuer; token: string };
  sequences: Map<EcfType, SequenceRecord>;
  signers: SignerProvider;
  /** The fixed instant the app sees (unless a clock was given). */
  now: { value: Date };
  /** Request with the issuer's token (unless `headers.authorization` is given). */
  call(path: string, init?: RequestInit & { token?: string | null }): Promise<Response>;
  post(tipo: string, body: unknown, init?: { token?: string; contentType?: string }): Promise<Response>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  transport?: AuthorityTransport;
  /** More dependencies of the app (e.g. `offload`, `inbound`). */
  app?: Partial<AppDeps>;
  limits?: AppDeps['limits'];
  /** Sequence size per type (default 1,000). */
  sequenceSize?: number;
  /** Add sequences for every type (default true). */
  sequences?: boolean;
  /** A running clock instead of the fixed `now` (flows with the worker need time to pass). */
  clock?: () => Date;
  /** Opens the storage (not yet migrated); default: the one set by `useStorage`, else in-memory SQLite. */
  storage?: StorageFactory;
  /** The schema validator (default: the shared one of test/ecf/helpers/xsd.ts). */
  schemas?: AppDeps['schemas'];
}

/** Opens a fresh, empty storage for one harness; `createHarness` migrates it and closes it in `close()`. */
export type StorageFactory = () => Storage | Promise<Storage>;
let defaultStorage: StorageFactory = () => createSqliteStorage({ file: ':memory:' });

/**
 * Makes every later `createHarness` of this test file use another adapter: test/ecf/server/postgres-api sets
 * a PostgreSQL factory and then imports these app test files to run them unchanged on PostgreSQL.
 */
export function useStorage(factory: StorageFactory): void {
  defaultStorage = factory;
}

/** A clock that starts at `start` and runs at real speed. */
export function runningClock(start: Date = NOW): () => Date {
  const offset = start.getTime() - Date.now();
  return () => new Date(Date.now() + offset);
}

export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const storage = await (options.storage ?? defaultStorage)();
  await storage.migrate();
  const issuer = await storage.createIssuer({ rnc: ISSUER_PROFILE.rnc!, name: ISSUER_PROFILE.razon_social!, profile: ISSUER_PROFILE, signingMode: 'provider' });
  const token = generateToken();
  await storage.addToken(issuer.id, hashToken(token), 'test');
  const otherIssuer = await storage.createIssuer({
    rnc: OTHER_RNC,
    name: 'Otra Empresa SRL',
    profile: { rnc: OTHER_RNC, razon_social: 'Otra Empresa SRL', direccion: 'Calle 2' },
    signingMode: 'provider',
  });
  const otherToken = generateToken();
  await storage.addToken(otherIssuer.id, hashToken(otherToken), 'other');

  const sequences = new Map<EcfType, SequenceRecord>();
  if (options.sequences !== false) {
    for (const tipo of ECF_TYPES) {
      const expiresOn = NO_EXPIRY.includes(tipo) ? null : '2027-12-31';
      sequences.set(tipo, await storage.addSequence(issuer.id, { tipo, from: 1, to: options.sequenceSize ?? 1000, expiresOn }));
      await storage.addSequence(otherIssuer.id, { tipo, from: 1, to: 1000, expiresOn });
    }
  }

  const cert = modernP12();
  const signers = createSignerProvider({ key: null, provider: { p12: cert.p12, password: cert.password } });
  const transport = options.transport ?? createDgiiClient({ environment: 'testecf', baseUrl: await deadUrl(), retries: 0, timeoutMs: 2_000 });
  const now = { value: NOW };
  const app = createApp({
    storage,
    transport,
    signers,
    schemas: options.schemas ?? schemaValidator(),
    clock: options.clock ?? (() => now.value),
    environment: 'testecf',
    ...(options.limits ? { limits: options.limits } : {}),
    ...options.app,
  });

  const call = (path: string, init: RequestInit & { token?: string | null } = {}) => {
    const { token: t, ...rest } = init;
    const headers = new Headers(rest.headers);
    const use = t === undefined ? token : t;
    if (use !== null && !headers.has('authorization')) headers.set('authorization', `Bearer ${use}`);
    return Promise.resolve(app.request(path, { ...rest, headers }));
  };
  const post = (tipo: string, body: unknown, init: { token?: string; contentType?: string } = {}) =>
    call(`/api/v1/documents/${tipo}`, {
      method: 'POST',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': init.contentType ?? 'application/json' },
      ...(init.token !== undefined ? { token: init.token } : {}),
    });

  return {
    app,
    storage,
    issuer,
    token,
    other: { issuer: otherIssuer, token: otherToken },
    sequences,
    signers,
    now,
    call,
    post,
    close: async () => {
      if (!options.transport) await (transport as { close?: () => Promise<void> }).close?.();
      await storage.close();
    },
  };
}

/** Parsed JSON body (any). */
export async function body(res: Response): Promise<any> {
  return JSON.parse(await res.text());
}
