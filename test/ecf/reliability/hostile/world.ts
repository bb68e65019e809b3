/**
 * The world the hostile-input fuzzers attack, in process: the real app (`createApp`, inbound services mounted)
 * on SQLite in a temporary directory, the real DGII simulator over loopback HTTP, the official XSDs, a
 * certificate key (uploads) and a fixed clock (01-04-2026 10:00 in Santo Domingo, the base documents' date).
 *
 * Issuers, each with a token and sequences for the ten types, so that fuzzers that may legitimately change
 * state do not disturb each other's expectations:
 * - `main` (examples/issuer.json): issue (JSON and XML), queries, received documents, commercial approval,
 *   inbound receptor (buyer of the e-CF the remote issuer sends).
 * - `voider`: voided-sequences.  - `holder`: certificate upload.
 *
 * `snapshot()` reads the SQLite file directly (a second, read-only connection; not the Storage port) so that
 * "nothing was stored" is checked against the database itself.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createApp, type App } from '../../../../src/ecf/server/app/index.js';
import { DEVELOPMENT_TRUST } from '../../../../src/ecf/server/inbound/index.js';
import { createSignerProvider, type SignerProvider } from '../../../../src/ecf/server/signers.js';
import { createSqliteStorage } from '../../../../src/ecf/server/storage/sqlite.js';
import type { Issuer, Storage } from '../../../../src/ecf/server/storage/types.js';
import { generateToken, hashToken } from '../../../../src/shared/server-kit/tokens.js';
import { createDgiiClient, createReceptorClient, LOOPBACK_RANGES, type DgiiClient, type ReceptorClient } from '../../../../src/ecf/dgii/index.js';
import { buildAcecfXml, buildEcfXmlFromJson, ECF_TYPES, type EcfType } from '../../../../src/ecf/index.js';
import { createSelfSignedIdentity, signEcf, signXml, type SelfSignedIdentity } from '../../../../src/ecf/sign/index.js';
import { startSimulator, type Simulator } from '../../../../src/ecf/simulator/index.js';
import { baseContext, baseDoc } from '../../helpers/docs.js';
import { xsdDir } from '../../helpers/env.js';
import { schemaValidator } from '../../helpers/xsd.js';

/** 01-04-2026 10:00:00 in Santo Domingo (UTC−4). */
export const NOW = new Date('2026-04-01T14:00:00Z');
export const MAIN_PROFILE = JSON.parse(readFileSync(new URL('../../../../examples/issuer.json', import.meta.url), 'utf8')) as Record<string, string>;
/** The remote issuer that sends e-CF to our issuers and approves theirs (the base documents' emisor). */
export const REMOTE_RNC = '101672919';
/** Buyer of the base documents (`baseDoc('31').comprador.rnc`). */
export const BASE_BUYER = '131880738';
/** Sequences run 1…SEQUENCE_SIZE; passthrough fuzzing uses numbers from XML_FIRST up (JSON issues never get there). */
export const SEQUENCE_SIZE = 1_000_000;
export const XML_FIRST = 500_000;
/** Types whose XSD has no sequence expiry. */
const NO_EXPIRY: readonly EcfType[] = ['32', '34'];

export interface Party {
  issuer: Issuer;
  token: string;
}

/** What the database holds, for "nothing stored / nothing consumed" comparisons. */
export interface Snapshot {
  documents: number;
  submissions: number;
  voidBatches: number;
  voidRanges: number;
  received: number;
  /** Digest of the approval columns of every received document. */
  receivedApprovals: string;
  documentApprovals: number;
  inboundSeeds: number;
  inboundTokens: number;
  /** `issuer:tipo:next_number` of every sequence. */
  pointers: string;
  /** Digest of every issuer's signing mode and certificate. */
  issuers: string;
}

export interface World {
  app: App;
  storage: Storage;
  dir: string;
  dbFile: string;
  sim: Simulator;
  client: DgiiClient;
  receptor: ReceptorClient;
  signers: SignerProvider;
  main: Party;
  voider: Party;
  holder: Party;
  /** The remote issuer's certificate (signs what it sends us, and its seeds). */
  remote: SelfSignedIdentity;
  /** The buyer of `main`'s documents (subject serialNumber BASE_BUYER): signs commercial approvals. */
  buyer: SelfSignedIdentity;
  /** A bearer token of our inbound services obtained with the buyer's certificate (approvals need it since issue 13). */
  buyerToken: string;
  /** A bearer token of our inbound services (obtained with the remote certificate at the server root). */
  inboundToken: string;
  /** An e-CF the remote issuer sent to `main` (received, estado 0). */
  receivedEncf: string;
  /** A type-31 document of `main`, signed and accepted (xml, pdf, authority-status answer 200). */
  acceptedEncf: string;
  /** The signed ACECF the remote buyer would send about `acceptedEncf` (valid). */
  validAcecf: string;
  /** The canary: an HTTP listener that no request should ever reach (XXE, schemaLocation, XInclude…). */
  canary: Canary;
  request(path: string, init?: RequestInit): Promise<Response>;
  snapshot(): Snapshot;
  /** Unsigned XML of a valid `main` document of `tipo` with consecutive `n`. */
  mainXml(tipo: EcfType, n: number): string;
  close(): Promise<void>;
}

export interface Canary {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

export async function startCanary(): Promise<Canary> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('canary');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const digest = (rows: unknown) => createHash('sha256').update(JSON.stringify(rows)).digest('hex').slice(0, 16);

export async function createWorld(): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), 'ecf-hostile-'));
  const dbFile = join(dir, 'ecf.sqlite');
  const clock = () => NOW;
  const canary = await startCanary();
  const sim = await startSimulator({ xsdDir: xsdDir(), processingDelayMs: 5, clock, seed: 11 });
  const client = createDgiiClient({ environment: 'testecf', baseUrl: sim.url, clock, retries: 0, timeoutMs: 5_000 });
  const receptor = createReceptorClient({ clock, retries: 0, timeoutMs: 5_000, receivers: { allowHttp: true, allowAddresses: LOOPBACK_RANGES } });
  const storage = createSqliteStorage({ file: dbFile });
  await storage.migrate();

  const addParty = async (rnc: string, name: string, profile: Record<string, string>): Promise<Party> => {
    const issuer = await storage.createIssuer({ rnc, name, profile, signingMode: 'provider' });
    const token = generateToken();
    await storage.addToken(issuer.id, hashToken(token), 'hostile');
    for (const tipo of ECF_TYPES) {
      await storage.addSequence(issuer.id, { tipo, from: 1, to: SEQUENCE_SIZE, expiresOn: NO_EXPIRY.includes(tipo) ? null : '2027-12-31' });
    }
    return { issuer, token };
  };
  const main = await addParty(MAIN_PROFILE.rnc!, MAIN_PROFILE.razon_social!, MAIN_PROFILE);
  const voider = await addParty('130000003', 'Anuladora SRL', { rnc: '130000003', razon_social: 'Anuladora SRL', direccion: 'Calle 3' });
  const holder = await addParty('130000004', 'Certificadora SRL', { rnc: '130000004', razon_social: 'Certificadora SRL', direccion: 'Calle 4' });

  const certStart = new Date('2026-03-01T00:00:00Z');
  const provider = createSelfSignedIdentity({ commonName: 'ECF KIT PROVEEDOR HOSTIL', serialNumber: MAIN_PROFILE.rnc!, now: certStart, days: 3650 });
  const remote = createSelfSignedIdentity({ commonName: 'EMISOR REMOTO HOSTIL', serialNumber: REMOTE_RNC, now: certStart, days: 3650 });
  const certificateKey = new Uint8Array(randomBytes(32));
  const signers = createSignerProvider({ key: certificateKey, provider: { p12: provider.p12, password: provider.password }, clock });
  const app = createApp({
    storage,
    transport: client,
    signers,
    schemas: schemaValidator(),
    clock,
    environment: 'testecf',
    certificateKey,
    receptor,
    directoryTtlMs: 0,
    inbound: { trust: DEVELOPMENT_TRUST },
  });
  const request = (path: string, init: RequestInit = {}) => Promise.resolve(app.request(path, init));

  // Inbound token: the seed flow with the remote issuer's certificate.
  const seed = await (await request('/fe/autenticacion/api/semilla')).text();
  const seedForm = new FormData();
  seedForm.append('xml', new Blob([await signXml(seed, remote.signer)], { type: 'text/xml' }), 'semilla.xml');
  const login = await request('/fe/autenticacion/api/validacioncertificado', { method: 'POST', body: seedForm, headers: { accept: 'application/json' } });
  if (login.status !== 200) throw new Error(`inbound login failed: ${login.status} ${await login.text()}`);
  const inboundToken = ((await login.json()) as { token: string }).token;
  // The buyer's token: a token acts only for the RNC of the certificate that signed the seed.
  const buyer = createSelfSignedIdentity({ commonName: 'COMPRADOR HOSTIL', serialNumber: BASE_BUYER, now: certStart, days: 3650 });
  const buyerSeed = await (await request('/fe/autenticacion/api/semilla')).text();
  const buyerForm = new FormData();
  buyerForm.append('xml', new Blob([await signXml(buyerSeed, buyer.signer)], { type: 'text/xml' }), 'semilla.xml');
  const buyerLogin = await request('/fe/autenticacion/api/validacioncertificado', { method: 'POST', body: buyerForm, headers: { accept: 'application/json' } });
  if (buyerLogin.status !== 200) throw new Error(`inbound buyer login failed: ${buyerLogin.status} ${await buyerLogin.text()}`);
  const buyerToken = ((await buyerLogin.json()) as { token: string }).token;

  // An e-CF the remote issuer sends to `main`.
  const receivedEncf = 'E310000000077';
  const foreign = baseDoc('31');
  foreign.comprador = { ...foreign.comprador, rnc: main.issuer.rnc };
  const foreignXml = await signEcf(buildEcfXmlFromJson('31', foreign, { ...baseContext('31'), encf: receivedEncf }), remote.signer, clock);
  const ecfForm = new FormData();
  ecfForm.append('xml', new Blob([foreignXml], { type: 'text/xml' }), `${REMOTE_RNC}${receivedEncf}.xml`);
  const delivered = await request('/fe/recepcion/api/ecf', { method: 'POST', body: ecfForm, headers: { authorization: `Bearer ${inboundToken}` } });
  const arecf = await delivered.text();
  if (delivered.status !== 200 || !/<Estado>0<\/Estado>/.test(arecf)) throw new Error(`inbound reception failed: ${delivered.status} ${arecf}`);

  // A document of `main`, signed and accepted (as the worker would leave it): the JSON route, then storage.
  const issued = await request('/api/v1/documents/31', {
    method: 'POST',
    body: JSON.stringify(baseDoc('31')),
    headers: { authorization: `Bearer ${main.token}`, 'content-type': 'application/json' },
  });
  if (issued.status !== 202) throw new Error(`setup issue failed: ${issued.status} ${await issued.text()}`);
  const acceptedEncf = ((await issued.json()) as { document: { e_ncf: string } }).document.e_ncf;
  const record = (await storage.getDocumentByEncf(main.issuer.id, acceptedEncf))!;
  const signed = await signEcf(record.unsignedXml, provider.signer, clock);
  await storage.updateDocument(record.id, { signedXml: signed, status: 'accepted_authority', transmission: 'sent', nextAttemptAt: null });
  const validAcecf = await signXml(
    buildAcecfXml({
      rnc_emisor: main.issuer.rnc,
      encf: acceptedEncf,
      fecha_emision: record.issuedAt,
      monto_total: Number(record.totalAmount),
      rnc_comprador: BASE_BUYER,
      estado: '1',
      fecha_hora_aprobacion_comercial: '01-04-2026 10:00:00',
    }),
    buyer.signer,
  );

  const ro = new Database(dbFile, { readonly: true, fileMustExist: true });
  const count = (table: string) => (ro.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  const snapshot = (): Snapshot => ({
    documents: count('documents'),
    submissions: count('submissions'),
    voidBatches: count('void_batches'),
    voidRanges: count('void_ranges'),
    received: count('received_documents'),
    receivedApprovals: digest(ro.prepare('SELECT * FROM received_documents ORDER BY id').all()),
    documentApprovals: count('document_approvals'),
    inboundSeeds: count('inbound_seeds'),
    inboundTokens: count('inbound_tokens'),
    pointers: (ro.prepare('SELECT issuer_id, tipo, next_number FROM sequences ORDER BY id').all() as { issuer_id: number; tipo: string; next_number: number }[])
      .map((r) => `${r.issuer_id}:${r.tipo}:${r.next_number}`)
      .join(','),
    issuers: digest(ro.prepare('SELECT id, signing_mode, certificate, certificate_info FROM issuers ORDER BY id').all()),
  });

  const mainXml = (tipo: EcfType, n: number) => {
    const ctx = baseContext(tipo);
    return buildEcfXmlFromJson(tipo, baseDoc(tipo), {
      ...ctx,
      emisor: { ...ctx.emisor, ...MAIN_PROFILE } as typeof ctx.emisor,
      encf: `E${tipo}${String(n).padStart(10, '0')}`,
    });
  };

  return {
    app,
    storage,
    dir,
    dbFile,
    sim,
    client,
    receptor,
    signers,
    main,
    voider,
    holder,
    remote,
    buyer,
    buyerToken,
    inboundToken,
    receivedEncf,
    acceptedEncf,
    validAcecf,
    canary,
    request,
    snapshot,
    mainXml,
    close: async () => {
      ro.close();
      await storage.close();
      await receptor.close();
      await client.close();
      await sim.close();
      await canary.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The bytes of every file of the data directory (database, WAL), as latin1 text: to look for leaked content. */
export function dataDirText(dir: string): string {
  return readdirSync(dir)
    .map((f) => {
      try {
        return readFileSync(join(dir, f)).toString('latin1');
      } catch {
        return '';
      }
    })
    .join('\n');
}
