/** Shared pieces of the use-case tests: an issuer, a real signer (provider certificate), the real XSD validator, a silent logger. */
import { randomBytes } from 'node:crypto';
import type { AuthorityIdentity } from '../../../../src/ecf/dgii/index.js';
import { createSignerProvider } from '../../../../src/ecf/server/signers.js';
import type { Issuer } from '../../../../src/ecf/server/storage/types.js';
import { modernP12 } from '../../helpers/certs.js';
import { schemaValidator } from '../../helpers/xsd.js';

export const RNC = '131880738';
// 01-04-2026 10:00 in Santo Domingo (UTC−4).
export const NOW = new Date('2026-04-01T14:00:00Z');
export const clock = () => NOW;

export const issuer: Issuer = {
  id: 1,
  rnc: RNC,
  name: 'Empresa de Prueba SRL',
  profile: {},
  signingMode: 'provider',
  certificate: null,
  certificateInfo: null,
  createdAt: 0,
};

export async function identityOf(): Promise<(i: Issuer) => Promise<AuthorityIdentity>> {
  const cert = modernP12();
  const signers = createSignerProvider({ key: new Uint8Array(randomBytes(32)), provider: { p12: cert.p12, password: cert.password }, clock });
  const signer = await signers.signerFor(issuer);
  return async (i) => ({ rnc: i.rnc, signer });
}

export const schemas = schemaValidator();

/** A logger that records what was logged (messages only). */
export function memoryLogger() {
  const lines: string[] = [];
  const log = (_o: unknown, msg?: string) => void lines.push(msg ?? '');
  return { lines, logger: { info: log, warn: log, error: log } as never };
}
