import { sign as rsaSign } from 'node:crypto';
import type { Signer } from '../ports.js';
import type { SigningIdentity } from './p12.js';

export type { Signer } from '../ports.js';

/**
 * The default {@link Signer}: RSASSA-PKCS1-v1_5 / SHA-256 with node:crypto, using a key read by
 * `readP12`. Signing is synchronous (0.2–0.4 ms for RSA-2048 on the workplace machine); keys held in an HSM or a cloud
 * KMS can implement the same `Signer` interface asynchronously instead.
 *
 * @example
 * const signer = p12Signer(readP12(p12Bytes, password));
 * const signed = await signXml(xml, signer);
 */
export function p12Signer(identity: Pick<SigningIdentity, 'privateKey' | 'certificate'>): Signer {
  const { privateKey, certificate } = identity;
  return {
    certificate,
    sign: (data: Uint8Array): Uint8Array => rsaSign('sha256', data, privateKey),
  };
}
