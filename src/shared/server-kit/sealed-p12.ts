/**
 * A signing identity at rest: a .p12 and its password sealed together in one envelope of ./sealing.ts, so
 * signing later needs only the server's key. Every product's server stores its tenants' certificates so, through
 * its own thin wrapper that names its key setting: one payload format, written here.
 *
 * Payload (JSON, then sealed): `{"v":1,"p12":"<base64>","password":"…"}`.
 */
import { EcfError } from '../errors/ecf-error.js';
import { decryptSecret, encryptSecret } from './sealing.js';

/** What a sealed identity holds. */
export interface SealedP12 {
  p12: Uint8Array;
  password: string;
}

/** Seals a .p12 together with its password under `key` (the current key of a `SecretKey`). */
export function sealP12(identity: SealedP12, key: Uint8Array): Uint8Array {
  const payload = JSON.stringify({ v: 1, p12: Buffer.from(identity.p12).toString('base64'), password: identity.password });
  return encryptSecret(new TextEncoder().encode(payload), key);
}

/**
 * Opens what {@link sealP12} sealed. `wrongKeyHint` ends the message of a blob sealed with another key (which
 * setting holds the key).
 *
 * @throws SecretError when the key is wrong or the blob was altered; EcfError `invalid_certificate_payload`
 *   when the decrypted content is not a sealed .p12
 */
export function unsealP12(blob: Uint8Array, key: Uint8Array | readonly Uint8Array[], options: { wrongKeyHint?: string } = {}): SealedP12 {
  const text = new TextDecoder().decode(decryptSecret(blob, key, options));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  const p = parsed as { v?: unknown; p12?: unknown; password?: unknown } | null;
  if (p?.v !== 1 || typeof p.p12 !== 'string' || typeof p.password !== 'string') {
    throw new EcfError('The decrypted secret is not a sealed certificate (.p12 and password).', { code: 'invalid_certificate_payload' });
  }
  return { p12: new Uint8Array(Buffer.from(p.p12, 'base64')), password: p.password };
}
