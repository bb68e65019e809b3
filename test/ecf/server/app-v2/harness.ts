/**
 * In-process harness for the voiding, certificate, directory and received-document routes: real SQLite
 * storage (in memory), the real XSD validator, the real simulator over loopback HTTP and the real DGII
 * client, two issuers with tokens and sequences, a certificate key (uploads), a provider certificate and a
 * settable clock (01-04-2026 10:00 in Santo Domingo by default).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createApp, type App } from '../../../../src/ecf/server/app/index.js';
import { createSignerProvider, type SignerProvider } from '../../../../src/ecf/server/signers.js';
import { createSqliteStorage } from '../../../../src/ecf/server/storage/sqlite.js';
import type { Issuer, Storage } from '../../../../src/ecf/server/storage/types.js';
import { generateToken, hashToken } from '../../../../src/shared/server-kit/tokens.js';
import { createDgiiClient, createReceptorClient, LOOPBACK_RANGES, type DgiiClient, type ReceptorClient } from '../../../../src/ecf/dgii/index.js';
import { buildEcfXmlFromJson, ECF_TYPES, fileNameFor, type BuildContext, type EcfType, type IssuerProfile } from '../../../../src/ecf/index.js';
import { signEcf, type Signer } from '../../../../src/ecf/sign/index.js';
import { startSimulator, type Simulator } from '../../../../src/ecf/simulator/index.js';
import { modernP12 } from '../../helpers/certs.js';
import { baseDoc } from '../../helpers/docs.js';
import { xsdDir } from '../../helpers/env.js';
import { schemaValidator } from '../../helpers/xsd.js';
import { ISSUER_PROFILE, NO_EXPIRY, NOW, OTHER_RNC } from '../app/harness.js';

export { ISSUER_PROFILE, NOW, OTHER_RNC };

export interface V2Harness {
  app: App;
  storage: Storage;
  sim: Simulator;
  /** DGII client of the app (talks to the simulator). */
  client: DgiiClient;
  receptor: ReceptorClient;
  issuer: Issuer;
  token: string;
  other: { issuer: Issuer; token: string };
  signers: SignerProvider;
  /** The provider certificate's signer (what issuers in provider mode sign with). */
  providerSigner: Signer;
  certificateKey: Uint8Array;
  /** The instant the app and the simulator see. */
  now: { value: Date };
  clock: () => Date;
  /** Request with the issuer's token (unless `token` is given; null sends none). */
  call(path: string, init?: RequestInit & { token?: string | null }): Promise<Response>;
  /** JSON POST. */
  postJson(path: string, body: unknown, token?: string): Promise<Response>;
  /** Issues a base document of the type (JSON) and returns the answer. */
  issue(tipo: EcfType, token?: string): Promise<Response>;
  /** A new issuer with a token and one sequence per given type (1…size). */
  addIssuer(rnc: string, sequences: { tipo: EcfType; size: number }[]): Promise<{ issuer: Issuer; token: string }>;
  close(): Promise<void>;
}

export interface V2Options {
  /** Size of every sequence of the main issuer (default 1,000). */
  sequenceSize?: number;
  directoryTtlMs?: number;
}

export async function createV2Harness(options: V2Options = {}): Promise<V2Harness> {
  const now = { value: NOW };
  const clock = () => now.value;
  const sim = await startSimulator({ xsdDir: xsdDir(), processingDelayMs: 5, clock, seed: 7 });
  const client = createDgiiClient({ environment: 'testecf', baseUrl: sim.url, clock, retries: 1, backoffMs: 5, timeoutMs: 5_000 });
  const receptor = createReceptorClient({ clock, retries: 0, timeoutMs: 5_000, receivers: { allowHttp: true, allowAddresses: LOOPBACK_RANGES } });
  const storage = createSqliteStorage({ file: ':memory:' });
  await storage.migrate();

  const addIssuer = async (rnc: string, name: string, sequences: { tipo: EcfType; size: number }[]) => {
    const profile = rnc === ISSUER_PROFILE.rnc ? ISSUER_PROFILE : { rnc, razon_social: name, direccion: 'Calle 2, Santo Domingo' };
    const issuer = await storage.createIssuer({ rnc, name, profile, signingMode: 'provider' });
    const token = generateToken();
    await storage.addToken(issuer.id, hashToken(token), 'test');
    for (const s of sequences) {
      await storage.addSequence(issuer.id, { tipo: s.tipo, from: 1, to: s.size, expiresOn: NO_EXPIRY.includes(s.tipo) ? null : '2027-12-31' });
    }
    return { issuer, token };
  };
  const size = options.sequenceSize ?? 1000;
  const main = await addIssuer(
    ISSUER_PROFILE.rnc!,
    ISSUER_PROFILE.razon_social!,
    ECF_TYPES.map((tipo) => ({ tipo, size })),
  );
  const other = await addIssuer(
    OTHER_RNC,
    'Otra Empresa SRL',
    ECF_TYPES.map((tipo) => ({ tipo, size: 1000 })),
  );

  const cert = modernP12();
  const certificateKey = new Uint8Array(randomBytes(32));
  const signers = createSignerProvider({ key: certificateKey, provider: { p12: cert.p12, password: cert.password }, clock });
  const providerSigner = await signers.signerFor(main.issuer);
  const app = createApp({
    storage,
    transport: client,
    signers,
    schemas: schemaValidator(),
    clock,
    environment: 'testecf',
    certificateKey,
    receptor,
    ...(options.directoryTtlMs !== undefined ? { directoryTtlMs: options.directoryTtlMs } : {}),
  });

  const call = (path: string, init: RequestInit & { token?: string | null } = {}) => {
    const { token: t, ...rest } = init;
    const headers = new Headers(rest.headers);
    const use = t === undefined ? main.token : t;
    if (use !== null && !headers.has('authorization')) headers.set('authorization', `Bearer ${use}`);
    return Promise.resolve(app.request(path, { ...rest, headers }));
  };
  const postJson = (path: string, body: unknown, token?: string) =>
    call(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, ...(token !== undefined ? { token } : {}) });

  return {
    app,
    storage,
    sim,
    client,
    receptor,
    issuer: main.issuer,
    token: main.token,
    other,
    signers,
    providerSigner,
    certificateKey,
    now,
    clock,
    call,
    postJson,
    issue: (tipo, token) => postJson(`/api/v1/documents/${tipo}`, baseDoc(tipo), token),
    addIssuer: (rnc, sequences) => addIssuer(rnc, `Empresa ${rnc} SRL`, sequences),
    close: async () => {
      await storage.close();
      await receptor.close();
      await client.close();
      await sim.close();
    },
  };
}

/** Parsed JSON body (any). */
export async function body(res: Response): Promise<any> {
  return JSON.parse(await res.text());
}

/** POSTs `{rangos}` to the voiding route. */
export function voidRanges(h: V2Harness, rangos: unknown, token?: string): Promise<Response> {
  return h.postJson('/api/v1/voided-sequences', { rangos }, token);
}

/**
 * A signed type-31 e-CF of another issuer (`rnc`) addressed to `buyerRnc`, with the given e-NCF; signed
 * with `signer` (any certificate: the simulator checks the signature, not the signer's identity).
 */
export async function foreignEcf(args: { rnc: string; buyerRnc: string; encf: string; signer: Signer; clock: () => Date; tipo?: EcfType }): Promise<string> {
  const tipo = args.tipo ?? '31';
  const doc = baseDoc(tipo);
  if (doc.comprador) doc.comprador.rnc = args.buyerRnc;
  const emisor = { rnc: args.rnc, razon_social: `Proveedor ${args.rnc} SRL`, direccion: 'Av. Ejemplo 1, Santiago' } as unknown as IssuerProfile;
  const ctx: BuildContext = {
    emisor,
    encf: args.encf,
    fecha_emision: '01-04-2026',
    ...(NO_EXPIRY.includes(tipo) ? {} : { fecha_vencimiento_secuencia: '31-12-2027' }),
  };
  return signEcf(buildEcfXmlFromJson(tipo, doc, ctx), args.signer, args.clock);
}

/** Sends a signed e-CF to the simulator as its issuer and waits until the authority decides; returns the verdict code. */
export async function sendToAuthority(h: V2Harness, rnc: string, signedXml: string, signer: Signer): Promise<number> {
  const who = { rnc, signer };
  const { trackId } = await h.client.sendEcf(who, { fileName: fileNameFor(signedXml), xml: signedXml });
  for (let i = 0; i < 200; i++) {
    const r = await h.client.result(who, trackId);
    if (r.codigo !== 3) return r.codigo;
    await new Promise((res) => setTimeout(res, 10));
  }
  throw new Error(`track id ${trackId} did not settle`);
}

/** A loopback receiver: records every request and answers with `status` (settable). */
export interface LoopbackReceiver {
  url: string;
  status: { value: number };
  requests: { method: string; url: string; contentType: string; body: string }[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<LoopbackReceiver> {
  const requests: LoopbackReceiver['requests'] = [];
  const status = { value: 200 };
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        contentType: req.headers['content-type'] ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(status.value, { 'content-type': 'text/plain' });
      res.end(status.value < 300 ? 'OK' : 'Error');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    status,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
