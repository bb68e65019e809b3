import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  decryptSecret,
  DEV_KEY_FILE,
  encryptSecret,
  envelopeKeyId,
  isCurrentKey,
  keyId,
  loadCertificateKey,
  parseKey,
  SecretError,
  SecretKey,
} from '../../../src/ecf/server/secrets.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const bytes = (s: string) => new TextEncoder().encode(s);

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ecf-secrets-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return (e as SecretError).code;
  }
  return undefined;
}

describe('encryptSecret / decryptSecret', () => {
  const key = new Uint8Array(randomBytes(32));

  it('round-trips, with a fresh IV each time', () => {
    const plain = bytes('contraseña del .p12 ñ');
    const a = encryptSecret(plain, key);
    const b = encryptSecret(plain, key);
    expect(text(decryptSecret(a, key))).toBe('contraseña del .p12 ñ');
    expect(text(decryptSecret(b, key))).toBe('contraseña del .p12 ñ');
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    // Version byte and key id head the envelope; the plaintext does not appear in it.
    expect(a[0]).toBe(1);
    expect(envelopeKeyId(a)).toBe(keyId(key));
    expect(Buffer.from(a).includes(Buffer.from(plain))).toBe(false);
  });

  it('round-trips an empty secret and a large one', () => {
    expect(decryptSecret(encryptSecret(new Uint8Array(0), key), key).length).toBe(0);
    const big = new Uint8Array(randomBytes(100_000));
    expect(Buffer.from(decryptSecret(encryptSecret(big, key), key)).equals(Buffer.from(big))).toBe(true);
  });

  it('refuses a wrong key, naming both key ids', () => {
    const blob = encryptSecret(bytes('x'), key);
    const other = new Uint8Array(randomBytes(32));
    expect(() => decryptSecret(blob, other)).toThrow(SecretError);
    expect(codeOf(() => decryptSecret(blob, other))).toBe('wrong_key');
    expect(() => decryptSecret(blob, other)).toThrow(keyId(key));
  });

  it('detects tampering in any part of the envelope', () => {
    const blob = encryptSecret(bytes('secreto importante'), key);
    // Flip one bit in the IV, the tag and the ciphertext in turn.
    for (const i of [10, 25, blob.length - 1]) {
      const bad = new Uint8Array(blob);
      bad[i]! ^= 0x01;
      expect(codeOf(() => decryptSecret(bad, key))).toBe('tampered');
    }
    // Changing the key id makes it look sealed by another key; changing the version is an unknown envelope.
    const wrongId = new Uint8Array(blob);
    wrongId[3]! ^= 0x01;
    expect(codeOf(() => decryptSecret(wrongId, key))).toBe('wrong_key');
    const wrongVersion = new Uint8Array(blob);
    wrongVersion[0] = 2;
    expect(codeOf(() => decryptSecret(wrongVersion, key))).toBe('invalid_envelope');
    // Truncated and plain data.
    expect(codeOf(() => decryptSecret(blob.subarray(0, 20), key))).toBe('invalid_envelope');
    expect(codeOf(() => decryptSecret(blob.subarray(0, blob.length - 1), key))).toBe('tampered');
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(codeOf(() => encryptSecret(bytes('x'), new Uint8Array(16)))).toBe('invalid_key');
  });

  it('decrypts with a previous key of a key ring and knows which blobs need re-encryption', () => {
    const old = new Uint8Array(randomBytes(32));
    const current = new Uint8Array(randomBytes(32));
    const oldBlob = encryptSecret(bytes('viejo'), old);
    const ring = new SecretKey(current, [old]);
    expect(text(decryptSecret(oldBlob, ring))).toBe('viejo');
    expect(text(decryptSecret(oldBlob, [current, old]))).toBe('viejo');
    expect(codeOf(() => decryptSecret(oldBlob, current))).toBe('wrong_key');
    // New blobs use the current key.
    const fresh = encryptSecret(bytes('nuevo'), ring);
    expect(envelopeKeyId(fresh)).toBe(keyId(current));
    expect(isCurrentKey(fresh, ring)).toBe(true);
    expect(isCurrentKey(oldBlob, ring)).toBe(false);
    // A ring is still a plain 32-byte key for everything else.
    expect(ring.length).toBe(32);
    expect(ring.slice(0, 4)).not.toBeInstanceOf(SecretKey);
  });
});

describe('parseKey', () => {
  const raw = randomBytes(32);
  it('accepts 64 hex characters, base64 and base64url', () => {
    expect(Buffer.from(parseKey(raw.toString('hex'))).equals(raw)).toBe(true);
    expect(Buffer.from(parseKey(raw.toString('hex').toUpperCase())).equals(raw)).toBe(true);
    expect(Buffer.from(parseKey(raw.toString('base64'))).equals(raw)).toBe(true);
    expect(Buffer.from(parseKey(` ${raw.toString('base64url')}\n`)).equals(raw)).toBe(true);
  });
  it('refuses other lengths with a clear message', () => {
    expect(codeOf(() => parseKey('abcd'))).toBe('invalid_key');
    expect(codeOf(() => parseKey(randomBytes(16).toString('base64')))).toBe('invalid_key');
    expect(() => parseKey(randomBytes(31).toString('hex'))).toThrow(/openssl rand -hex 32/);
  });
});

describe('loadCertificateKey', () => {
  it('uses ECF_CERT_KEY when set (hex or base64) and ECF_CERT_KEY_PREVIOUS for decryption', () => {
    const current = randomBytes(32);
    const p1 = randomBytes(32);
    const p2 = randomBytes(32);
    const dir = tempDir();
    const key = loadCertificateKey({
      env: { ECF_CERT_KEY: current.toString('base64'), ECF_CERT_KEY_PREVIOUS: `${p1.toString('hex')}, ${p2.toString('base64')}` },
      dataDir: dir,
      production: true,
    });
    expect(Buffer.from(key).equals(current)).toBe(true);
    expect(key.previous.map((k) => Buffer.from(k).toString('hex'))).toEqual([p1.toString('hex'), p2.toString('hex')]);
    expect(text(decryptSecret(encryptSecret(bytes('rotado'), p2), key))).toBe('rotado');
    // No key file is written when the key comes from the environment.
    expect(() => statSync(join(dir, DEV_KEY_FILE))).toThrow();
  });

  it('refuses a malformed ECF_CERT_KEY or previous key', () => {
    expect(codeOf(() => loadCertificateKey({ env: { ECF_CERT_KEY: 'corta' }, dataDir: tempDir(), production: false }))).toBe('invalid_key');
    expect(() =>
      loadCertificateKey({ env: { ECF_CERT_KEY: randomBytes(32).toString('hex'), ECF_CERT_KEY_PREVIOUS: 'x' }, dataDir: tempDir(), production: false }),
    ).toThrow(/ECF_CERT_KEY_PREVIOUS\[0\]/);
  });

  it('in development generates the key file once with mode 0600 and reuses it', () => {
    const dir = join(tempDir(), 'nested', 'data');
    const first = loadCertificateKey({ env: {}, dataDir: dir, production: false });
    const file = join(dir, DEV_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = loadCertificateKey({ env: {}, dataDir: dir, production: false });
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    expect(readFileSync(file, 'utf8').trim()).toBe(Buffer.from(first).toString('hex'));
    // A blob sealed before a restart opens after it.
    const blob = encryptSecret(bytes('persistente'), first);
    expect(text(decryptSecret(blob, loadCertificateKey({ env: {}, dataDir: dir, production: false })))).toBe('persistente');
  });

  it('in development refuses a corrupted key file instead of replacing it', () => {
    const dir = tempDir();
    writeFileSync(join(dir, DEV_KEY_FILE), 'no es una llave\n');
    expect(codeOf(() => loadCertificateKey({ env: {}, dataDir: dir, production: false }))).toBe('invalid_key');
    expect(readFileSync(join(dir, DEV_KEY_FILE), 'utf8')).toBe('no es una llave\n');
  });

  it('in production refuses to run without ECF_CERT_KEY, saying how to set it, and never uses a key file', () => {
    const dir = tempDir();
    loadCertificateKey({ env: {}, dataDir: dir, production: false });
    expect(codeOf(() => loadCertificateKey({ env: {}, dataDir: dir, production: true }))).toBe('key_missing');
    expect(() => loadCertificateKey({ env: { ECF_CERT_KEY: '  ' }, dataDir: dir, production: true })).toThrow(/ECF_CERT_KEY.*openssl rand -hex 32/s);
  });
});
