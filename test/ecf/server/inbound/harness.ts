/**
 * The inbound handler in process over real parts: SQLite storage (in memory), the official XSDs, a
 * provider-mode SignerProvider over a self-signed .p12, and a remote issuer with its own self-signed
 * certificate that signs what it sends us. A settable clock drives seed and token expiry.
 */
import type { EcfType } from '../../../../src/ecf/index.js';
import { buildAcecfXml, buildEcfXmlFromJson, type AcecfInput } from '../../../../src/ecf/index.js';
import { createSelfSignedIdentity, signEcf, signXml, type SelfSignedIdentity } from '../../../../src/ecf/sign/index.js';
import { createInboundHandler, DEVELOPMENT_TRUST, type InboundDeps, type InboundHandler } from '../../../../src/ecf/server/inbound/index.js';
import { createSignerProvider } from '../../../../src/ecf/server/signers.js';
import { createSqliteStorage } from '../../../../src/ecf/server/storage/sqlite.js';
import type { DocumentRecord, Issuer, Storage } from '../../../../src/ecf/server/storage/types.js';
import { baseContext, baseDoc } from '../../helpers/docs.js';
import { schemaValidator } from '../../helpers/xsd.js';

type Json = Record<string, any>;

/** Our issuers (tenants) and the remote issuer that sends to them (the base documents' emisor). */
export const RECEPTOR_A = '131880738';
export const RECEPTOR_B = '130000002';
export const REMOTE = '101672919';
/** An afternoon instant: FechaHoraAcuseRecibo must come out on the 24-hour clock, GMT−4 (§3 item 4). */
export const T0 = new Date('2026-04-01T19:30:05Z');
export const T0_DO = '01-04-2026 15:30:05';

const CERT_START = new Date('2026-03-01T00:00:00Z');

let provider: SelfSignedIdentity | null = null;
let remote: SelfSignedIdentity | null = null;
/** The service's provider certificate (signs our ARECFs). */
export function providerIdentity(): SelfSignedIdentity {
  return (provider ??= createSelfSignedIdentity({ commonName: 'ECF KIT PROVEEDOR PRUEBAS', serialNumber: RECEPTOR_A, now: CERT_START, days: 3650 }));
}
/** The remote issuer's certificate. */
export function remoteIdentity(): SelfSignedIdentity {
  return (remote ??= createSelfSignedIdentity({ commonName: 'EMISOR REMOTO PRUEBAS', serialNumber: REMOTE, now: CERT_START, days: 3650 }));
}

export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  obj: Record<string, unknown>;
  msg: string | undefined;
}

export interface Harness {
  storage: Storage;
  handler: InboundHandler;
  a: Issuer;
  b: Issuer;
  logs: LogEntry[];
  now(): Date;
  setNow(d: Date): void;
  advance(ms: number): void;
  close(): Promise<void>;
}

export async function createHarness(options: Partial<InboundDeps> = {}): Promise<Harness> {
  const storage = createSqliteStorage({ file: ':memory:' });
  await storage.migrate();
  const a = await storage.createIssuer({
    rnc: RECEPTOR_A,
    name: 'Receptor A SRL',
    profile: { rnc: RECEPTOR_A, razon_social: 'Receptor A SRL', direccion: 'Calle A' },
    signingMode: 'provider',
  });
  const b = await storage.createIssuer({
    rnc: RECEPTOR_B,
    name: 'Receptor B SRL',
    profile: { rnc: RECEPTOR_B, razon_social: 'Receptor B SRL', direccion: 'Calle B' },
    signingMode: 'provider',
  });
  let now = T0;
  const clock = () => now;
  const id = providerIdentity();
  const signers = createSignerProvider({ key: null, provider: { p12: id.p12, password: id.password }, clock });
  const logs: LogEntry[] = [];
  const log = (level: LogEntry['level']) => (obj: object, msg?: string) => logs.push({ level, obj: obj as Record<string, unknown>, msg });
  const handler = createInboundHandler({
    // Self-signed test certificates: development trust (the RNC binding still applies).
    storage,
    signers,
    schemas: schemaValidator(),
    clock,
    trust: DEVELOPMENT_TRUST,
    logger: { info: log('info'), warn: log('warn'), error: log('error') },
    ...options,
  });
  return {
    storage,
    handler,
    a,
    b,
    logs,
    now: () => now,
    setNow: (d) => {
      now = d;
    },
    advance: (ms) => {
      now = new Date(now.getTime() + ms);
    },
    close: () => storage.close(),
  };
}

export const BASE = 'http://receptor.test';

/** A multipart form with the document in part `xml`. */
export function form(xml: string, fileName = 'documento.xml', field = 'xml'): FormData {
  const f = new FormData();
  f.append(field, new Blob([xml], { type: 'text/xml' }), fileName);
  return f;
}

/** Calls the handler; fails the test when it declines the path. */
export async function call(h: Harness, path: string, init: RequestInit = {}): Promise<Response> {
  const res = await h.handler(new Request(`${BASE}${path}`, init));
  if (!res) throw new Error(`the handler declined ${path}`);
  return res;
}

export async function postXml(
  h: Harness,
  path: string,
  xml: string,
  opts: { token?: string | null; accept?: string; fileName?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.accept) headers.accept = opts.accept;
  return call(h, path, { method: 'POST', body: form(xml, opts.fileName), headers });
}

/** The seed flow; `prefix` is '' or `/t/{rnc}`. Returns the token. */
export async function login(h: Harness, prefix = '', identity: SelfSignedIdentity = remoteIdentity()): Promise<string> {
  const seed = await (await call(h, `${prefix}/fe/autenticacion/api/semilla`)).text();
  const res = await postXml(h, `${prefix}/fe/autenticacion/api/validacioncertificado`, await signXml(seed, identity.signer), { accept: 'application/json' });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** A valid signed e-CF from the remote issuer to `buyer` (sequence n), optionally changed before building / signing. */
export async function remoteEcf(
  tipo: EcfType,
  opts: { buyer?: string; n?: number; change?: (doc: Json) => void; editXml?: (xml: string) => string; signer?: SelfSignedIdentity } = {},
): Promise<string> {
  const doc = baseDoc(tipo);
  if (opts.buyer !== undefined) doc.comprador = { ...(doc.comprador ?? {}), rnc: opts.buyer, razon_social: doc.comprador?.razon_social ?? 'Receptor SRL' };
  opts.change?.(doc);
  const ctx = { ...baseContext(tipo), encf: `E${tipo}${String(opts.n ?? 1).padStart(10, '0')}` };
  const xml = buildEcfXmlFromJson(tipo, doc, ctx);
  return signEcf(opts.editXml ? opts.editXml(xml) : xml, (opts.signer ?? remoteIdentity()).signer, () => T0);
}

/** Text of the first `<name>` element of an XML text. */
export function textOf(xml: string, name: string): string | null {
  return new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1] ?? null;
}

/** Replaces `from` in `text`, failing loudly when it is not there. */
export function replaceOnce(text: string, from: string | RegExp, to: string): string {
  const found = typeof from === 'string' ? text.includes(from) : from.test(text);
  if (!found) throw new Error(`replaceOnce: ${String(from)} not found`);
  return text.replace(from, to);
}

/**
 * A document one of our issuers issued to `buyer` (type 31 unless given), signed with the provider
 * certificate and accepted by the authority, as the app and worker would leave it.
 */
export async function ourDocument(
  h: Harness,
  issuer: Issuer,
  buyer: string,
  tipo: EcfType = '31',
  opts: { storedAmount?: (xmlAmount: string) => string } = {},
): Promise<DocumentRecord> {
  const seqs = await h.storage.listSequences(issuer.id);
  if (!seqs.some((s) => s.tipo === tipo)) await h.storage.addSequence(issuer.id, { tipo, from: 1, to: 1000, expiresOn: null });
  const doc = baseDoc(tipo);
  if (doc.comprador || tipo === '31') doc.comprador = { ...(doc.comprador ?? {}), rnc: buyer, razon_social: 'Comprador Remoto SRL' };
  const profile = { rnc: issuer.rnc, razon_social: issuer.name, direccion: 'Calle 1' };
  const record = await h.storage.reserveAndInsert(issuer.id, tipo, '2026-04-01', (encf) => {
    const ctx = { ...baseContext(tipo), emisor: profile, encf };
    const xml = buildEcfXmlFromJson(tipo, doc, ctx);
    // Amounts as the XML writes them (the match with an ACECF is by value).
    return {
      source: 'json',
      unsignedXml: xml,
      summary: false,
      issuedAt: ctx.fecha_emision,
      totalAmount: (opts.storedAmount ?? ((a: string) => a))(textOf(xml, 'MontoTotal') ?? '0.00'),
      totalItbis: textOf(xml, 'TotalITBIS') ?? '0.00',
    };
  });
  const signed = await signEcf(record!.unsignedXml, providerIdentity().signer, () => T0);
  return (await h.storage.updateDocument(record!.id, { signedXml: signed, status: 'accepted_authority', transmission: 'sent', nextAttemptAt: null }))!;
}

/** A signed ACECF from the remote buyer about `doc` (fields from the document unless overridden). */
export async function acecfFor(
  doc: DocumentRecord,
  issuerRnc: string,
  overrides: Partial<AcecfInput> = {},
  opts: { signer?: SelfSignedIdentity; editXml?: (xml: string) => string } = {},
): Promise<string> {
  const input: AcecfInput = {
    rnc_emisor: issuerRnc,
    encf: doc.encf,
    fecha_emision: doc.issuedAt,
    monto_total: Number(doc.totalAmount),
    rnc_comprador: REMOTE,
    estado: '1',
    fecha_hora_aprobacion_comercial: T0_DO,
    ...overrides,
  };
  const xml = buildAcecfXml(input);
  return signXml(opts.editXml ? opts.editXml(xml) : xml, (opts.signer ?? remoteIdentity()).signer);
}
