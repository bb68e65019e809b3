/**
 * Sealing of secrets at rest: AES-256-GCM in a small versioned envelope, with key ids and key rotation.
 *
 * Envelope layout (all binary):
 *
 *   [0]       version = 1
 *   [1..8]    key id: first 8 bytes of SHA-256(key), so a blob says which key sealed it
 *   [9..20]   IV: 12 random bytes (a fresh one per encryption; GCM must never reuse an IV under one key)
 *   [21..36]  GCM authentication tag (16 bytes)
 *   [37..]    ciphertext
 *
 * The version byte and key id are authenticated as additional data, so changing any byte of the blob makes
 * decryption fail instead of yielding different plaintext.
 *
 * Key rotation: a {@link SecretKey} is a 32-byte Uint8Array that also carries older keys still accepted for
 * decryption, so code that only passes "the key" around keeps decrypting old blobs during a rotation.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { EcfError } from '../errors/ecf-error.js';

const VERSION = 1;
/** Length of a key in bytes (AES-256). */
export const KEY_BYTES = 32;
const KEY_ID_BYTES = 8;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + KEY_ID_BYTES + IV_BYTES + TAG_BYTES;

/** Stable codes of {@link SecretError}. */
export type SecretErrorCode =
  | 'invalid_key' // a key that is not 32 bytes, or a configured key / key file that cannot be read as one
  | 'key_missing' // no key configured where one is required (production)
  | 'invalid_envelope' // not an envelope of a known version (truncated, or not encrypted at all)
  | 'wrong_key' // sealed with a key that is not among the keys given
  | 'tampered'; // the key id matches but authentication failed: the blob was altered

/** A secret cannot be encrypted or decrypted, or a key cannot be read or loaded. Messages are English (operators). */
export class SecretError extends EcfError {
  declare readonly code: SecretErrorCode;
  constructor(message: string, options: { code: SecretErrorCode; cause?: unknown }) {
    super(message, { code: options.code, cause: options.cause });
    this.name = 'SecretError';
  }
}

/**
 * A 32-byte AES key that also carries older keys accepted for decryption (key rotation). It is a plain
 * Uint8Array for every other purpose.
 */
export class SecretKey extends Uint8Array {
  /** Older keys, tried by {@link decryptSecret} when a blob was sealed with one of them. */
  readonly previous: readonly Uint8Array[];
  constructor(key: Uint8Array, previous: readonly Uint8Array[] = []) {
    super(checkKey(key));
    this.previous = previous.map((k) => new Uint8Array(checkKey(k)));
  }
  // Slices and maps of a key are plain bytes, not key rings.
  static get [Symbol.species](): Uint8ArrayConstructor {
    return Uint8Array;
  }
}

/** The 8-byte id of a key (first 8 bytes of its SHA-256), lower-case hex. */
export function keyId(key: Uint8Array): string {
  return keyIdBytes(checkKey(key)).toString('hex');
}

/** The key id (hex) recorded in an envelope, or null when `blob` is not an envelope. */
export function envelopeKeyId(blob: Uint8Array): string | null {
  if (blob.length < HEADER_BYTES || blob[0] !== VERSION) return null;
  return Buffer.from(blob.subarray(1, 1 + KEY_ID_BYTES)).toString('hex');
}

/**
 * Encrypts `plain` with AES-256-GCM under `key` (the current key of a {@link SecretKey}).
 *
 * @example
 * const blob = encryptSecret(new TextEncoder().encode('s3cret'), key);
 * new TextDecoder().decode(decryptSecret(blob, key)) //=> 's3cret'
 */
export function encryptSecret(plain: Uint8Array, key: Uint8Array): Uint8Array {
  const k = checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const header = Buffer.concat([Buffer.from([VERSION]), keyIdBytes(k)]);
  const cipher = createCipheriv('aes-256-gcm', k, iv);
  cipher.setAAD(header);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return new Uint8Array(Buffer.concat([header, iv, cipher.getAuthTag(), body]));
}

/** What a `wrong_key` message tells the operator to do, unless the caller says it in its own terms. */
const WRONG_KEY_HINT = 'Decrypt with the key used when it was stored, or pass that key among the previous keys while rotating.';

/**
 * Decrypts an envelope made by {@link encryptSecret}. `key` may be a {@link SecretKey} (its previous keys
 * are tried too) or a list of keys; the envelope's key id picks the right one. `wrongKeyHint` ends the
 * `wrong_key` message (e.g. which setting holds the key).
 *
 * @throws SecretError `invalid_envelope`, `wrong_key` (sealed with another key), `tampered` (altered bytes)
 */
export function decryptSecret(blob: Uint8Array, key: Uint8Array | readonly Uint8Array[], options: { wrongKeyHint?: string } = {}): Uint8Array {
  const id = envelopeKeyId(blob);
  if (id === null) {
    throw new SecretError(
      blob.length > 0 && blob[0] !== VERSION
        ? `Unknown secret envelope version ${blob[0]} (this build reads version ${VERSION}).`
        : `Not an encrypted secret: ${blob.length} bytes, an envelope has at least ${HEADER_BYTES}.`,
      { code: 'invalid_envelope' },
    );
  }
  const keys = keyRing(key);
  const k = keys.find((candidate) => keyIdBytes(candidate).toString('hex') === id);
  if (!k) {
    throw new SecretError(
      `The secret was encrypted with another key (key id ${id}; available: ${keys.map((c) => keyIdBytes(c).toString('hex')).join(', ')}). ` +
        (options.wrongKeyHint ?? WRONG_KEY_HINT),
      { code: 'wrong_key' },
    );
  }
  const header = blob.subarray(0, 1 + KEY_ID_BYTES);
  const iv = blob.subarray(1 + KEY_ID_BYTES, 1 + KEY_ID_BYTES + IV_BYTES);
  const tag = blob.subarray(1 + KEY_ID_BYTES + IV_BYTES, HEADER_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', k, iv);
    decipher.setAAD(header);
    decipher.setAuthTag(tag);
    return new Uint8Array(Buffer.concat([decipher.update(blob.subarray(HEADER_BYTES)), decipher.final()]));
  } catch (cause) {
    throw new SecretError('The encrypted secret failed authentication: it was altered or corrupted after encryption.', {
      code: 'tampered',
      cause,
    });
  }
}

/** True when `blob` was sealed with the current key of `key` (false: re-encrypt it on the next write). */
export function isCurrentKey(blob: Uint8Array, key: Uint8Array): boolean {
  return envelopeKeyId(blob) === keyId(key);
}

/**
 * Parses a key given as 64 hex characters or as base64 / base64url of 32 bytes. `name` says where it came
 * from (a setting, a file) in the error message.
 *
 * @throws SecretError `invalid_key`
 */
export function parseKey(text: string, name: string): Uint8Array {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return new Uint8Array(Buffer.from(t, 'hex'));
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(t)) {
    const bytes = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === KEY_BYTES) return new Uint8Array(bytes);
  }
  throw new SecretError(
    `${name} must be 32 random bytes written as 64 hex characters (e.g. \`openssl rand -hex 32\`) or as base64 ` +
      `(e.g. \`openssl rand -base64 32\`); got ${t.length} characters.`,
    { code: 'invalid_key' },
  );
}

function checkKey(key: Uint8Array): Buffer {
  if (!(key instanceof Uint8Array) || key.length !== KEY_BYTES) {
    throw new SecretError(`An AES-256 key is ${KEY_BYTES} bytes; got ${key instanceof Uint8Array ? key.length : typeof key}.`, {
      code: 'invalid_key',
    });
  }
  return Buffer.from(key.buffer, key.byteOffset, key.byteLength);
}

function keyIdBytes(key: Buffer): Buffer {
  return createHash('sha256').update(key).digest().subarray(0, KEY_ID_BYTES);
}

function keyRing(key: Uint8Array | readonly Uint8Array[]): Buffer[] {
  const list: readonly Uint8Array[] = key instanceof Uint8Array ? [key, ...(key instanceof SecretKey ? key.previous : [])] : key;
  return list.map((k) => checkKey(k));
}
