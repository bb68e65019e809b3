/**
 * The key that encrypts secrets at rest (issuers' .p12 certificates and their passwords): loading it from the
 * environment, or a development key file. The sealing itself (AES-256-GCM envelope, key ids, rotation) is
 * `shared/server-kit/sealing.ts`, re-exported here.
 *
 * Key rotation: `ECF_CERT_KEY` is the current key (used to encrypt); `ECF_CERT_KEY_PREVIOUS` lists older keys
 * (comma-separated) still accepted for decryption. The loaded key is a {@link SecretKey}: a 32-byte
 * Uint8Array that also carries the previous keys, so code that only passes "the key" around keeps
 * decrypting old blobs during a rotation.
 */
import { decryptSecret as decryptSealed, parseKey as parseKeyNamed, type SecretKey } from '../../shared/server-kit/sealing.js';
import { DEV_KEY_FILE, loadSealingKey, type SealingKeySettings } from '../../shared/server-kit/sealing-key.js';

export { DEV_KEY_FILE } from '../../shared/server-kit/sealing-key.js';

export {
  SecretError,
  SecretKey,
  keyId,
  envelopeKeyId,
  encryptSecret,
  isCurrentKey,
  type SecretErrorCode,
} from '../../shared/server-kit/sealing.js';

/**
 * Decrypts an envelope made by `encryptSecret` (see `shared/server-kit/sealing.ts`); a blob sealed with
 * another key says to set ECF_CERT_KEY / ECF_CERT_KEY_PREVIOUS.
 *
 * @throws SecretError `invalid_envelope`, `wrong_key` (sealed with another key), `tampered` (altered bytes)
 */
export function decryptSecret(blob: Uint8Array, key: Uint8Array | readonly Uint8Array[]): Uint8Array {
  return decryptSealed(blob, key, { wrongKeyHint: ECF_WRONG_KEY_HINT });
}

/** What a blob sealed with another key tells the operator to do. */
export const ECF_WRONG_KEY_HINT = 'Set ECF_CERT_KEY to the key used when it was stored, or list that key in ECF_CERT_KEY_PREVIOUS while rotating.';

/**
 * Parses a key given as 64 hex characters or as base64 / base64url of 32 bytes; `name` (default
 * `ECF_CERT_KEY`) names it in the error message.
 *
 * @throws SecretError `invalid_key`
 */
export function parseKey(text: string, name = 'ECF_CERT_KEY'): Uint8Array {
  return parseKeyNamed(text, name);
}

/**
 * The key that encrypts issuers' certificates.
 *
 * - `ECF_CERT_KEY` set: that key (64 hex characters or base64 of 32 bytes); `ECF_CERT_KEY_PREVIOUS`
 *   (comma-separated, same formats) adds older keys accepted for decryption.
 * - not set, development: a random key generated once into `${dataDir}/certificate.key` (mode 0600) and
 *   reused afterwards, so uploaded certificates survive restarts.
 * - not set, production: throws, saying how to set one (a key kept next to the data it protects protects
 *   nothing against a copied data directory).
 *
 * @throws SecretError `key_missing` (production), `invalid_key`
 */
export function loadCertificateKey(options: { env: Record<string, string | undefined>; dataDir: string; production: boolean }): SecretKey {
  return loadSealingKey(ECF_KEY_SETTINGS, options);
}

/** How the e-CF server names its sealing key. */
export const ECF_KEY_SETTINGS: SealingKeySettings = { setting: 'ECF_CERT_KEY', devKeyFile: DEV_KEY_FILE, protects: 'uploaded certificates' };
