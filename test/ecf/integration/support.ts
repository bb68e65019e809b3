/**
 * Shared by the integration tests: an issuer identity made at test time, signed documents built from
 * the base documents (e-CF, RFCE, ACECF, ANECF), and small waiting helpers. Everything goes through
 * the public entry files, as an application would.
 */
import { buildAcecfXml, buildAnecfXml, buildEcfXmlFromJson, deriveRfceXml, securityCode, type EcfType } from '../../../src/ecf/index.js';
import { createSelfSignedIdentity, signEcf, signXml, type Signer } from '../../../src/ecf/sign/index.js';
import type { AuthorityIdentity, AuthorityTransport, TrackResult } from '../../../src/ecf/dgii/index.js';
import { baseContext, baseDoc } from '../helpers/docs.js';

type Json = Record<string, any>;

/** RNC of the issuer in the base documents (baseContext). */
export const EMISOR = '101672919';
/** RNC of the buyer of the base 31. */
export const COMPRADOR = '131880738';
/** Signing instant of the test documents: the base documents' issue date (01-04-2026). */
export const SIGNING_CLOCK = () => new Date('2026-04-01T14:00:00Z');

let signer: Signer | null = null;
/** The issuer's signer: a self-signed RSA-2048 identity created once per test file, in memory. */
export function issuerSigner(): Signer {
  return (signer ??= createSelfSignedIdentity({ commonName: 'EMISOR SRL', serialNumber: EMISOR, days: 30 }).signer);
}

export function issuer(rnc = EMISOR): AuthorityIdentity {
  return { rnc, signer: issuerSigner() };
}

/** `E310000000007` for type 31, sequence 7. */
export function encfOf(tipo: EcfType, n: number): string {
  return `E${tipo}${String(n).padStart(10, '0')}`;
}

/** DGII file name `RNC + e-NCF + .xml`. */
export function fileOf(encf: string, rnc = EMISOR): string {
  return `${rnc}${encf}.xml`;
}

/** A signed e-CF: the base document of `tipo` with sequence `n`, optionally changed before building. */
export async function signedEcf(tipo: EcfType, n: number, change?: (doc: Json) => void): Promise<string> {
  const doc = baseDoc(tipo);
  change?.(doc);
  const xml = buildEcfXmlFromJson(tipo, doc, { ...baseContext(tipo), encf: encfOf(tipo, n) });
  return signEcf(xml, issuerSigner(), SIGNING_CLOCK);
}

/** A consumer invoice (32, RD$236.00) signed whole, and the signed RFCE summarising it. */
export async function signedRfce(n: number): Promise<{ ecf: string; rfce: string; encf: string; codigoSeguridad: string }> {
  const ecf = await signedEcf('32', n);
  const rfce = await signXml(deriveRfceXml(ecf), issuerSigner());
  return { ecf, rfce, encf: encfOf('32', n), codigoSeguridad: securityCode(ecf) };
}

/** A signed ACECF (commercial approval) by the buyer of the base 31 about e-NCF `encf`. */
export async function signedAcecf(encf: string, montoTotal = 236, estado: '1' | '2' = '1'): Promise<string> {
  const xml = buildAcecfXml({
    rnc_emisor: EMISOR,
    encf,
    fecha_emision: '01-04-2026',
    monto_total: montoTotal,
    rnc_comprador: COMPRADOR,
    estado,
    ...(estado === '2' ? { detalle_motivo_rechazo: 'Mercancía no recibida' } : {}),
    fecha_hora_aprobacion_comercial: '02-04-2026 09:00:00',
  });
  return signXml(xml, issuerSigner());
}

/** A signed ANECF voiding one range of one type of the issuer. */
export async function signedAnecf(tipo: string, desde: number, hasta: number): Promise<string> {
  const xml = buildAnecfXml({
    rnc_emisor: EMISOR,
    fecha_hora_anulacion_encf: '02-04-2026 09:00:00',
    anulaciones: [{ tipo_ecf: tipo, rangos: [{ desde, hasta }] }],
  });
  return signXml(xml, issuerSigner());
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `result` until the e-CF leaves "En Proceso" (fails after `maxMs`). */
export async function waitVerdict(client: AuthorityTransport, who: AuthorityIdentity, trackId: string, maxMs = 10_000): Promise<TrackResult> {
  const until = Date.now() + maxMs;
  for (;;) {
    const r = await client.result(who, trackId);
    if (r.estado !== 'En Proceso') return r;
    if (Date.now() > until) throw new Error(`track id ${trackId} still in process after ${maxMs} ms`);
    await sleep(10);
  }
}

/** Waits until `probe` returns a truthy value (fails after `maxMs`). */
export async function eventually<T>(probe: () => Promise<T>, maxMs = 5_000): Promise<NonNullable<T>> {
  const until = Date.now() + maxMs;
  for (;;) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    if (Date.now() > until) throw new Error(`condition not met within ${maxMs} ms`);
    await sleep(20);
  }
}

/** The rejection of a promise (fails when it resolves), for asserting on error fields. */
export async function failureOf(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to fail, but it succeeded');
}
