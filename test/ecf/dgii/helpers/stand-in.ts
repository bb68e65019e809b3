/**
 * DGII-like behaviour on top of the recording server: the seed exchange (checked like DGII would:
 * multipart `xml`, a SemillaModel it issued, signed, verifying, without whitespace between tags) and
 * a test identity.
 */
import { verifyXml } from '../../../../src/ecf/sign/verify-xml.js';
import { p12Signer, readP12 } from '../../../../src/ecf/sign/index.js';
import type { AuthorityIdentity } from '../../../../src/ecf/dgii/types.js';
import { modernP12 } from '../../helpers/certs.js';
import { fixture } from './fixtures.js';
import type { RecordedRequest, RecordingServer } from './recording-server.js';

/** An identity whose seed signatures verify (the test .p12, generated at test time). */
export function testIdentity(rnc = '130000001'): AuthorityIdentity {
  const p12 = modernP12();
  return { rnc, signer: p12Signer(readP12(p12.p12, p12.password)) };
}

export interface AuthStandIn {
  /** Seeds handed out. */
  seeds(): number;
  /** Tokens issued, in order (`tok-1`, `tok-2`…). */
  issued: string[];
  /** Why validations were refused, if any were. */
  refusals: string[];
}

/**
 * Serves `GET {prefix}/autenticacion/api/autenticacion/semilla` (the pretty-printed fixture with a
 * fresh value) and `POST …/validarsemilla` (a token valid `ttlMs` from `clock()`). `paths` can point
 * the two services elsewhere (a receiver's `/fe/autenticacion/api/...`).
 */
export function installAuth(
  server: RecordingServer,
  options: {
    prefix?: string;
    clock?: () => Date;
    ttlMs?: number;
    paths?: { seed: string; validate: string };
  } = {},
): AuthStandIn {
  const prefix = options.prefix ?? '/testecf';
  const clock = options.clock ?? (() => new Date());
  const ttlMs = options.ttlMs ?? 3_600_000;
  const seedPath = options.paths?.seed ?? `${prefix}/autenticacion/api/autenticacion/semilla`;
  const validatePath = options.paths?.validate ?? `${prefix}/autenticacion/api/autenticacion/validarsemilla`;
  const handedOut = new Set<string>();
  const state: AuthStandIn = { seeds: () => handedOut.size, issued: [], refusals: [] };
  const template = fixture('seed.xml');

  server.route('GET', seedPath, () => {
    const valor = `semilla-${handedOut.size + 1}-${'x'.repeat(40)}`;
    handedOut.add(valor);
    return {
      status: 200,
      headers: { 'Content-Type': 'application/xml; charset=utf-8' },
      body: template.replace(/<valor>[^<]*<\/valor>/, `<valor>${valor}</valor>`),
    };
  });

  server.route('POST', validatePath, (req: RecordedRequest) => {
    const refusal = checkSignedSeed(req, handedOut);
    if (refusal) {
      state.refusals.push(refusal);
      return { status: 400, json: { mensaje: refusal } };
    }
    const now = clock();
    const token = `tok-${state.issued.length + 1}`;
    state.issued.push(token);
    return {
      status: 200,
      json: { token, expira: new Date(now.getTime() + ttlMs).toISOString().replace(/\.\d{3}Z$/, 'Z'), expedido: now.toISOString().replace(/\.\d{3}Z$/, 'Z') },
    };
  });
  return state;
}

function checkSignedSeed(req: RecordedRequest, handedOut: Set<string>): string | null {
  if (req.parts.length !== 1 || req.parts[0]!.name !== 'xml') return 'Multipart cannot be empty';
  const xml = req.parts[0]!.text;
  if (/>\s+</.test(xml)) return 'Firma del certificado invalida (espacios entre etiquetas)';
  const valor = /<valor>([^<]*)<\/valor>/.exec(xml)?.[1];
  if (!valor || !handedOut.has(valor)) return 'Semilla no reconocida';
  if (!/^<\?xml[^>]*\?><SemillaModel xmlns:xsi="[^"]+" xmlns:xsd="[^"]+">/.test(xml)) return 'Semilla alterada';
  const verified = verifyXml(xml);
  return verified.valid ? null : `Firma del certificado invalida (${verified.code})`;
}
