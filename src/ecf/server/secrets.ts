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
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decryptSecret as decryptSealed, KEY_BYTES, parseKey as parseKeyNamed, SecretError, SecretKey } from '../../shared/server-kit/sealing.js';

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

/** File name of the development key inside the data directory. */
export const DEV_KEY_FILE = 'certificate.key';

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
  const { env, dataDir, production } = options;
  const previous = (env.ECF_CERT_KEY_PREVIOUS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s, i) => parseKey(s, `ECF_CERT_KEY_PREVIOUS[${i}]`));
  const configured = env.ECF_CERT_KEY?.trim();
  if (configured) return new SecretKey(parseKey(configured), previous);
  if (production) {
    throw new SecretError(
      'ECF_CERT_KEY is not set. In production the key that encrypts uploaded certificates must come from the ' +
        'environment: generate one with `openssl rand -hex 32`, keep it in your secret store and set ' +
        'ECF_CERT_KEY to it (64 hex characters or base64 of 32 bytes). Losing it makes stored certificates unreadable.',
      { code: 'key_missing' },
    );
  }
  return new SecretKey(devKey(dataDir), previous);
}

function devKey(dataDir: string): Uint8Array {
  const file = join(dataDir, DEV_KEY_FILE);
  const existing = readKeyFile(file);
  if (existing) return existing;
  if (!existsSync(dataDir)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    chmodSync(dataDir, 0o700);
  }
  const key = randomBytes(KEY_BYTES);
  try {
    // `wx`: never overwrite a key another process created meanwhile (it may already protect stored data).
    writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    // The mode given to open() is filtered by the umask; set it explicitly.
    chmodSync(file, 0o600);
    return new Uint8Array(key);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
      const raced = readKeyFile(file);
      if (raced) return raced;
    }
    throw e;
  }
}

function readKeyFile(file: string): Uint8Array | null {
  let text: string;
  try {
    if (!statSync(file).isFile()) throw new SecretError(`${file} is not a file.`, { code: 'invalid_key' });
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  // A concurrent creator may not have written the content yet.
  if (text.trim() === '') return null;
  return parseKey(text, file);
}
