/**
 * Shared by the simulator tests: a minimal DGII client over real loopback HTTP (global fetch), signed
 * test documents (test certificate, base documents), and polling for a verdict.
 */
import { afterAll } from 'vitest';
import { buildAnecfXml } from '../../../src/ecf/documents/anecf.js';
import { readP12 } from '../../../src/shared/xmldsig/p12.js';
import { signEcf, signXml } from '../../../src/ecf/sign/sign-xml.js';
import { p12Signer } from '../../../src/shared/xmldsig/signer.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../../src/ecf/simulator/index.js';
import type { EcfType } from '../../../src/ecf/spec/model.js';
import { buildEcfXmlFromJson, type BuildContext } from '../../../src/ecf/xml/ecf.js';
import type { Signer } from '../../../src/shared/ports.js';
import { modernP12, TEST_PASSWORD } from '../helpers/certs.js';
import { baseContext, baseDoc } from '../helpers/docs.js';
import { xsdDir } from '../helpers/env.js';

type Json = Record<string, any>;

export const EMISOR = '101672919';
/** The fixed signing instant of the test documents. */
export const SIGNING_CLOCK = () => new Date('2026-04-01T14:00:00Z');

let signer: Signer | null = null;
export function testSigner(): Signer {
  return (signer ??= p12Signer(readP12(modernP12().p12, TEST_PASSWORD)));
}

const started: Simulator[] = [];
/** Starts a simulator (closed after the file's tests) with a short processing delay. */
export async function startTestSimulator(options: Partial<SimulatorOptions> = {}): Promise<Simulator> {
  const sim = await startSimulator({ xsdDir: xsdDir(), processingDelayMs: 20, seed: 7, ...options });
  started.push(sim);
  return sim;
}
afterAll(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

/** Sequence n of type `tipo`: `E310000000007`. */
export function encfOf(tipo: EcfType, n: number): string {
  return `E${tipo}${String(n).padStart(10, '0')}`;
}

/** A signed e-CF of the base document of `tipo`, sequence `n`, optionally changed first. */
export async function signedEcf(tipo: EcfType, n = 1, change?: (doc: Json, ctx: BuildContext) => void, editXml?: (xml: string) => string): Promise<string> {
  const doc = baseDoc(tipo);
  const ctx = { ...baseContext(tipo), encf: encfOf(tipo, n) };
  change?.(doc, ctx);
  const xml = buildEcfXmlFromJson(tipo, doc, ctx);
  return signEcf(editXml ? editXml(xml) : xml, testSigner(), SIGNING_CLOCK);
}

/** Replaces `from` in `xml`, failing loudly when it is not there (so a test cannot silently test nothing). */
export function replaceOnce(xml: string, from: string, to: string): string {
  if (!xml.includes(from)) throw new Error(`replaceOnce: ${from} not found`);
  return xml.replace(from, to);
}

/** The e-NCF of a document. */
export function encfIn(xml: string): string {
  return /<eNCF>([^<]+)<\/eNCF>/.exec(xml)![1]!;
}

export function form(xml: string, fileName: string, field = 'xml'): FormData {
  const f = new FormData();
  f.append(field, new Blob([xml], { type: 'text/xml' }), fileName);
  return f;
}

/** The seed flow over HTTP; returns the token. */
export async function login(base: string, env = 'testecf', path = 'autenticacion/api/autenticacion', validar = 'validarsemilla'): Promise<string> {
  const seed = await (await fetch(`${base}/${env}/${path}/semilla`)).text();
  const res = await fetch(`${base}/${env}/${path}/${validar}`, {
    method: 'POST',
    body: form(await signXml(seed, testSigner()), 'semilla.xml'),
    headers: { accept: 'application/json' },
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** A small client bound to a simulator, environment and token. */
export function client(sim: Simulator, token: string, env = 'testecf') {
  const base = `${sim.url}/${env}`;
  const headers = (json: boolean) => ({ authorization: `Bearer ${token}`, ...(json ? { accept: 'application/json' } : {}) });
  return {
    base,
    async post(path: string, xml: string, fileName: string, json = true): Promise<Response> {
      return fetch(`${base}/${path}`, { method: 'POST', body: form(xml, fileName), headers: headers(json) });
    },
    async get(path: string, json = true): Promise<Response> {
      return fetch(`${base}/${path}`, { headers: headers(json) });
    },
    async getJson(path: string): Promise<Json> {
      const r = await fetch(`${base}/${path}`, { headers: headers(true) });
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${await r.text()}`);
      return (await r.json()) as Json;
    },
    /** Sends an e-CF; returns its track id. */
    async sendEcf(xml: string, rnc = EMISOR): Promise<string> {
      const encf = /<eNCF>([^<]+)<\/eNCF>/.exec(xml)![1]!;
      const r = await this.post('recepcion/api/facturaselectronicas', xml, `${rnc}${encf}.xml`);
      if (r.status !== 200) throw new Error(`reception: ${r.status} ${await r.text()}`);
      return ((await r.json()) as { trackId: string }).trackId;
    },
    async result(trackId: string): Promise<Json> {
      return this.getJson(`consultaresultado/api/consultas/estado?trackid=${trackId}`);
    },
    /** Polls the result until it leaves "En Proceso". */
    async verdict(trackId: string): Promise<Json> {
      for (let i = 0; i < 200; i++) {
        const r = await this.result(trackId);
        if (r.estado !== 'En Proceso') return r;
        await new Promise((ok) => setTimeout(ok, 10));
      }
      throw new Error(`track ${trackId} still in process`);
    },
    async sendAndWait(xml: string, rnc = EMISOR): Promise<Json> {
      return this.verdict(await this.sendEcf(xml, rnc));
    },
  };
}

export type TestClient = ReturnType<typeof client>;

/** A signed ANECF voiding one range of one type. */
export async function anecfSigned(rnc: string, tipo: string, desde: number, hasta: number): Promise<string> {
  return signXml(
    buildAnecfXml({ rnc_emisor: rnc, fecha_hora_anulacion_encf: '02-04-2026 09:00:00', anulaciones: [{ tipo_ecf: tipo, rangos: [{ desde, hasta }] }] }),
    testSigner(),
  );
}
