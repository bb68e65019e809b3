/**
 * A worker test bench: a real SQLite storage in a temp dir, the real DGII simulator on loopback HTTP, the real
 * DGII client talking to it, the official XSDs and an issuer whose own certificate is stored encrypted.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildEcfXmlFromJson, formatDateDO, isBelowSummaryThreshold, type EcfType } from '../../../../src/ecf/index.js';
import { createDgiiClient, type DgiiClient } from '../../../../src/ecf/dgii/index.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../../../src/ecf/simulator/index.js';
import { createSchemaValidator } from '../../../../src/ecf/xsd/index.js';
import { createSelfSignedIdentity } from '../../../../src/shared/xmldsig/self-signed.js';
import { prepareCertificate } from '../../../../src/ecf/server/certificates.js';
import { SecretKey } from '../../../../src/ecf/server/secrets.js';
import { createSignerProvider, type SignerProvider } from '../../../../src/ecf/server/signers.js';
import { createSqliteStorage } from '../../../../src/ecf/server/storage/sqlite.js';
import type { DocumentRecord, Issuer, Storage } from '../../../../src/ecf/server/storage/types.js';
import { createWorker, type Worker, type WorkerDeps } from '../../../../src/ecf/server/worker/index.js';
import { baseContext, baseDoc } from '../../helpers/docs.js';
import { xsdDir } from '../../helpers/env.js';

export const RNC = '101672919';

type Json = Record<string, any>;

let identity: ReturnType<typeof createSelfSignedIdentity> | null = null;
/** The issuer's certificate (subject serialNumber = its RNC), created once per test file. */
export function issuerIdentity() {
  return (identity ??= createSelfSignedIdentity({ commonName: 'EMISOR DE PRUEBA SRL', serialNumber: RNC, days: 30 }));
}

export const schemas = createSchemaValidator(xsdDir());

export interface Bench {
  dir: string;
  dbFile: string;
  key: SecretKey;
  storage: Storage;
  sim: Simulator;
  transport: DgiiClient;
  signers: SignerProvider;
  issuer: Issuer;
  /** Inserts a `received` document of the type (the base document of test/ecf/helpers/docs.ts). */
  insert(tipo: EcfType, mutate?: (doc: Json) => void): Promise<DocumentRecord>;
  worker(extra?: Partial<WorkerDeps>): Worker;
  get(id: number): Promise<DocumentRecord>;
  close(): Promise<void>;
}

export interface BenchOptions {
  sim?: Partial<SimulatorOptions>;
  /** DGII client retries (default 0: the worker's own retries are under test). */
  clientRetries?: number;
  /** No certificate uploaded. */
  withoutCertificate?: boolean;
  /** A migrated storage to use instead of a fresh SQLite file (closed by `close()`). */
  storage?: Storage;
}

const TODAY = () => new Date().toISOString().slice(0, 10);

export async function createBench(options: BenchOptions = {}): Promise<Bench> {
  const dir = mkdtempSync(join(tmpdir(), 'ecf-worker-'));
  const dbFile = join(dir, 'ecf.sqlite');
  const key = new SecretKey(new Uint8Array(randomBytes(32)));
  const storage = options.storage ?? createSqliteStorage({ file: dbFile });
  if (!options.storage) await storage.migrate();
  const sim = await startSimulator({ xsdDir: xsdDir(), processingDelayMs: 30, seed: 7, ...options.sim });
  const transport = createDgiiClient({ environment: 'testecf', baseUrl: sim.url, retries: options.clientRetries ?? 0, backoffMs: 5, timeoutMs: 10_000 });
  const id = issuerIdentity();
  let issuer = await storage.createIssuer({ rnc: RNC, name: 'Emisor SRL', profile: { razon_social: 'Emisor SRL', direccion: 'Calle 1' }, signingMode: 'own' });
  if (!options.withoutCertificate) {
    const prepared = prepareCertificate({ issuer, p12: id.p12, password: id.password, key, now: new Date() });
    issuer = await storage.updateIssuer(issuer.id, prepared);
  }
  for (const tipo of ['31', '32', '33', '34'] as EcfType[]) {
    await storage.addSequence(issuer.id, { tipo, from: 1, to: 1_000_000, expiresOn: tipo === '32' || tipo === '34' ? null : '2027-12-31' });
  }
  const signers = createSignerProvider({ key });

  const insert = async (tipo: EcfType, mutate?: (doc: Json) => void): Promise<DocumentRecord> => {
    const doc = baseDoc(tipo);
    mutate?.(doc);
    const today = new Date();
    const fecha = formatDateDO(today);
    const record = await storage.reserveAndInsert(issuer.id, tipo, TODAY(), (encf) => {
      const ctx = { ...baseContext(tipo), encf, fecha_emision: fecha };
      return {
        source: 'json',
        unsignedXml: buildEcfXmlFromJson(tipo, doc, ctx),
        summary: tipo === '32' && isBelowSummaryThreshold(doc.totales.monto_total),
        issuedAt: fecha,
        totalAmount: Number(doc.totales.monto_total).toFixed(2),
        totalItbis: Number(doc.totales.total_itbis ?? 0).toFixed(2),
      };
    });
    if (!record) throw new Error(`no sequence for ${tipo}`);
    return record;
  };

  const workers: Worker[] = [];
  return {
    dir,
    dbFile,
    key,
    storage,
    sim,
    transport,
    signers,
    issuer,
    insert,
    worker(extra = {}) {
      const w = createWorker({
        storage,
        transport,
        signers,
        schemas,
        pollSchedule: { initialMs: 20, maxMs: 200 },
        retry: { baseMs: 10, capMs: 100 },
        pollIntervalMs: 10,
        ...extra,
      });
      workers.push(w);
      return w;
    },
    async get(id) {
      const d = await storage.getDocument(id);
      if (!d) throw new Error(`document ${id} not found`);
      return d;
    },
    async close() {
      await Promise.all(workers.map((w) => w.stop()));
      await transport.close();
      await sim.close();
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const TERMINAL = new Set(['accepted_authority', 'rejected_authority']);

/** Polls storage until every document is terminal (or the deadline passes: then returns what it has). */
export async function waitTerminal(storage: Storage, ids: number[], timeoutMs = 20_000): Promise<DocumentRecord[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const docs = await Promise.all(ids.map(async (id) => (await storage.getDocument(id))!));
    if (docs.every((d) => TERMINAL.has(d.status)) || Date.now() > deadline) return docs;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Runs passes until every document is terminal or `maxPasses` is reached. */
export async function runUntilTerminal(worker: Worker, storage: Storage, ids: number[], timeoutMs = 20_000): Promise<DocumentRecord[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await worker.runOnce();
    const docs = await Promise.all(ids.map(async (id) => (await storage.getDocument(id))!));
    if (docs.every((d) => TERMINAL.has(d.status)) || Date.now() > deadline) return docs;
    await new Promise((r) => setTimeout(r, 10));
  }
}
