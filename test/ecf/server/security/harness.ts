/**
 * Security test harness: the whole HTTP app (API + inbound `/fe` services) in process over a real storage
 * (SQLite file or a fresh PostgreSQL schema in the shared cluster), the real simulator over loopback HTTP,
 * the real DGII and receiver clients, the real worker, a certificate key and a provider certificate, and
 * two tenants A and B. `raw` reads the database directly (a second connection), so tests can assert on
 * what is really stored.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createApp, type App } from '../../../../src/ecf/server/app/index.js';
import { DEVELOPMENT_TRUST } from '../../../../src/ecf/server/inbound/index.js';
import { SecretKey } from '../../../../src/ecf/server/secrets.js';
import { createSignerProvider, type SignerProvider } from '../../../../src/ecf/server/signers.js';
import { createPostgresStorage } from '../../../../src/ecf/server/storage/postgres.js';
import { createSqliteStorage } from '../../../../src/ecf/server/storage/sqlite.js';
import type { Issuer, Storage } from '../../../../src/ecf/server/storage/types.js';
import { generateToken, hashToken } from '../../../../src/shared/server-kit/tokens.js';
import { createWorker, type Worker } from '../../../../src/ecf/server/worker/index.js';
import { createDgiiClient, createReceptorClient, LOOPBACK_RANGES, type DgiiClient, type ReceptorClient } from '../../../../src/ecf/dgii/index.js';
import { buildAcecfXml, buildEcfXmlFromJson, ECF_TYPES, formatDateTimeDO, type EcfType } from '../../../../src/ecf/index.js';
import { createSelfSignedIdentity, signEcf, signXml, type SelfSignedIdentity } from '../../../../src/ecf/sign/index.js';
import { startSimulator, type Simulator } from '../../../../src/ecf/simulator/index.js';
import { baseContext, baseDoc } from '../../helpers/docs.js';
import { xsdDir } from '../../helpers/env.js';
import { schemaValidator } from '../../helpers/xsd.js';

export type Backend = 'sqlite' | 'postgres';
export const BACKENDS: readonly Backend[] = ['sqlite', 'postgres'];
export const PG_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The tenants. Identical shapes, different values, so a leak of A's data into B's answers is visible. */
export const A = { rnc: '130182452', razon_social: 'Emisora A SRL', direccion: 'Calle A 1' };
export const B = { rnc: '101543213', razon_social: 'Emisora B SRL', direccion: 'Calle B 2' };
/** A foreign issuer that delivers e-CF to our tenants (the base documents' emisor). */
export const FOREIGN = '101672919';
/** The buyer of the base documents (sends commercial approvals of what our tenants issue). */
export const BUYER = '131880738';

/** Direct reads of the database behind the storage (a second connection). */
export interface RawDb {
  all(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export interface OpenedBackend {
  storage: Storage;
  raw: RawDb;
  /** Closes the raw connection and removes the data (temp dir / schema). Call after the storage is closed. */
  cleanup(): Promise<void>;
}

/** A fresh, migrated storage on `backend`, and a raw connection to the same data. */
export async function openBackend(backend: Backend, label: string): Promise<OpenedBackend> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `ecf-sec-${label}-`));
    const file = join(dir, 'ecf.sqlite');
    const storage = createSqliteStorage({ file });
    await storage.migrate();
    const db = new Database(file, { readonly: true });
    return {
      storage,
      raw: { all: async (sql) => db.prepare(sql).all() as Record<string, unknown>[], close: async () => void db.close() },
      cleanup: async () => {
        db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `ecf_sec_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const storage = createPostgresStorage({ connectionString: PG_URL, schema, maxConnections: 4 });
  await storage.migrate();
  const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
  await client.connect();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await client.end();
  };
  return {
    storage,
    raw: { all: async (sql) => (await client.query(sql)).rows as Record<string, unknown>[], close },
    cleanup: async () => {
      await close();
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      try {
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await admin.end();
      }
    },
  };
}

export interface Tenant {
  profile: typeof A;
  issuer: Issuer;
  token: string;
  /** The tenant's own certificate (subject serialNumber = its RNC). */
  identity: SelfSignedIdentity;
}

export interface TenantHarness {
  backend: Backend;
  app: App;
  storage: Storage;
  raw: RawDb;
  sim: Simulator;
  client: DgiiClient;
  receptor: ReceptorClient;
  signers: SignerProvider;
  key: SecretKey;
  a: Tenant;
  b: Tenant;
  /** The foreign issuer's certificate (signs what it delivers and its seeds). */
  foreign: SelfSignedIdentity;
  /** The buyer's certificate (signs its commercial approvals). */
  buyer: SelfSignedIdentity;
  /** API request with a bearer token (null: none). */
  api(token: string | null, path: string, init?: RequestInit): Promise<Response>;
  /** Any request to the app (inbound services included). */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** Runs worker passes until every document is terminal. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

const identities = new Map<string, SelfSignedIdentity>();
/** A self-signed certificate per RNC, cached per test process. */
export function identityOf(rnc: string, name = `TITULAR ${rnc}`): SelfSignedIdentity {
  let id = identities.get(rnc);
  if (!id) {
    id = createSelfSignedIdentity({ commonName: name, serialNumber: rnc, days: 60 });
    identities.set(rnc, id);
  }
  return id;
}

export async function createTenantHarness(backend: Backend, label: string): Promise<TenantHarness> {
  const opened = await openBackend(backend, label);
  const { storage, raw } = opened;
  const sim = await startSimulator({ xsdDir: xsdDir(), processingDelayMs: 5, seed: 11 });
  const client = createDgiiClient({ environment: 'testecf', baseUrl: sim.url, retries: 1, backoffMs: 5, timeoutMs: 10_000 });
  const receptor = createReceptorClient({ retries: 0, timeoutMs: 5_000, receivers: { allowHttp: true, allowAddresses: LOOPBACK_RANGES } });
  const key = new SecretKey(new Uint8Array(randomBytes(32)));
  const provider = identityOf('000000000', 'PROVEEDOR DE PRUEBAS');
  const signers = createSignerProvider({ key, provider: { p12: provider.p12, password: provider.password } });
  const schemas = schemaValidator();
  // Self-signed test certificates: development trust (the RNC binding still applies).
  const app = createApp({
    storage,
    transport: client,
    signers,
    schemas,
    environment: 'testecf',
    certificateKey: key,
    receptor,
    inbound: { trust: DEVELOPMENT_TRUST },
  });
  const worker: Worker = createWorker({
    storage,
    transport: client,
    signers,
    schemas,
    pollSchedule: { initialMs: 10, maxMs: 50 },
    retry: { baseMs: 10, capMs: 50 },
    pollIntervalMs: 10,
  });

  const tenant = async (profile: typeof A): Promise<Tenant> => {
    const issuer = await storage.createIssuer({ rnc: profile.rnc, name: profile.razon_social, profile, signingMode: 'provider' });
    const token = generateToken();
    await storage.addToken(issuer.id, hashToken(token), 'security');
    for (const tipo of ECF_TYPES) {
      await storage.addSequence(issuer.id, { tipo, from: 1, to: 1000, expiresOn: tipo === '32' || tipo === '34' ? null : '2099-12-31' });
    }
    return { profile, issuer, token, identity: identityOf(profile.rnc, profile.razon_social.toUpperCase()) };
  };
  const a = await tenant(A);
  const b = await tenant(B);

  const request = async (path: string, init: RequestInit = {}) => app.request(path, init);
  const api = (token: string | null, path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (token !== null) headers.set('authorization', `Bearer ${token}`);
    return request(path, { ...init, headers });
  };

  return {
    backend,
    app,
    storage,
    raw,
    sim,
    client,
    receptor,
    signers,
    key,
    a,
    b,
    foreign: identityOf(FOREIGN, 'EMISOR EXTRANJERO SRL'),
    buyer: identityOf(BUYER, 'COMPRADOR SRL'),
    api,
    request,
    async settle() {
      const deadline = Date.now() + 45_000;
      for (;;) {
        await worker.runOnce();
        const open = (await raw.all(`SELECT id FROM documents WHERE status NOT IN ('accepted_authority', 'rejected_authority')`)).length;
        if (open === 0) return;
        if (Date.now() > deadline) throw new Error(`${open} document(s) did not reach a verdict`);
        await new Promise((r) => setTimeout(r, 15));
      }
    },
    async close() {
      await worker.stop();
      await receptor.close();
      await client.close();
      await sim.close();
      await storage.close();
      await opened.cleanup();
    },
  };
}

// ------------------------------------------------------------------------------------------------ requests

/** Parsed JSON body. */
export async function json(res: Response): Promise<any> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`not JSON (HTTP ${res.status}): ${text.slice(0, 300)}`);
  }
}

export function issueJson(h: TenantHarness, t: Tenant, tipo: EcfType, doc: unknown = baseDoc(tipo)): Promise<Response> {
  return h.api(t.token, `/api/v1/documents/${tipo}`, { method: 'POST', body: JSON.stringify(doc), headers: { 'content-type': 'application/json' } });
}

/** Multipart upload of a .p12 and its password. */
export function uploadCertificate(h: TenantHarness, token: string, p12: Uint8Array, password: string): Promise<Response> {
  const form = new FormData();
  form.append('certificate', new Blob([p12 as Uint8Array<ArrayBuffer>], { type: 'application/x-pkcs12' }), 'certificado.p12');
  form.append('password', password);
  return h.api(token, '/api/v1/certificate', { method: 'POST', body: form });
}

/** A multipart form with the document in part `xml`. */
export function xmlForm(xml: string): FormData {
  const f = new FormData();
  f.append('xml', new Blob([xml], { type: 'text/xml' }), 'documento.xml');
  return f;
}

/** The inbound seed flow under `prefix` ('' or `/t/{rnc}`) signed by `identity`; returns the bearer token. */
export async function inboundLogin(h: TenantHarness, prefix: string, identity: SelfSignedIdentity): Promise<string> {
  const seed = await (await h.request(`${prefix}/fe/autenticacion/api/semilla`)).text();
  const res = await h.request(`${prefix}/fe/autenticacion/api/validacioncertificado`, {
    method: 'POST',
    body: xmlForm(await signXml(seed, identity.signer)),
    headers: { accept: 'application/json' },
  });
  if (res.status !== 200) throw new Error(`inbound login failed: ${res.status} ${await res.text()}`);
  return (await json(res)).token as string;
}

/** A signed type-31 e-CF of the foreign issuer to `buyerRnc`, consecutive `n`. */
export async function foreignEcf(h: TenantHarness, buyerRnc: string, n: number): Promise<string> {
  const doc = baseDoc('31');
  doc.comprador = { ...doc.comprador, rnc: buyerRnc };
  const ctx = { ...baseContext('31'), encf: `E31${String(n).padStart(10, '0')}` };
  return signEcf(buildEcfXmlFromJson('31', doc, ctx), h.foreign.signer, () => new Date());
}

/** Delivers an e-CF to `/t/{rnc}/fe/recepcion/api/ecf` with an inbound token. */
export function deliver(h: TenantHarness, rnc: string, token: string, xml: string): Promise<Response> {
  return h.request(`/t/${rnc}/fe/recepcion/api/ecf`, { method: 'POST', body: xmlForm(xml), headers: { authorization: `Bearer ${token}` } });
}

/** A signed ACECF from the buyer about one of our documents. */
export async function buyerApproval(
  h: TenantHarness,
  args: { issuerRnc: string; encf: string; fecha: string; monto: number; estado: '1' | '2'; motivo?: string },
): Promise<string> {
  const xml = buildAcecfXml({
    rnc_emisor: args.issuerRnc,
    encf: args.encf,
    fecha_emision: args.fecha,
    monto_total: args.monto,
    rnc_comprador: BUYER,
    estado: args.estado,
    ...(args.motivo ? { detalle_motivo_rechazo: args.motivo } : {}),
    fecha_hora_aprobacion_comercial: formatDateTimeDO(new Date()),
  });
  return signXml(xml, h.buyer.signer);
}

/** Sends a commercial approval to `/t/{rnc}/fe/aprobacioncomercial/api/ecf`. */
export function sendApproval(h: TenantHarness, rnc: string, token: string, xml: string): Promise<Response> {
  return h.request(`/t/${rnc}/fe/aprobacioncomercial/api/ecf`, { method: 'POST', body: xmlForm(xml), headers: { authorization: `Bearer ${token}` } });
}
