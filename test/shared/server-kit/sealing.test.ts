import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  decryptSecret,
  encryptSecret,
  envelopeKeyId,
  isCurrentKey,
  KEY_BYTES,
  keyId,
  parseKey,
  SecretError,
  SecretKey,
} from '../../../src/shared/server-kit/sealing.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const bytes = (s: string) => new TextEncoder().encode(s);
const key = () => new Uint8Array(randomBytes(KEY_BYTES));

function failure(fn: () => unknown): SecretError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SecretError);
    return e as SecretError;
  }
  throw new Error('expected a SecretError');
}

describe('server-kit sealing', () => {
  it('round-trips, with a fresh IV each time and the key id in clear in the header', () => {
    const k = key();
    const a = encryptSecret(bytes('s3cret ñ'), k);
    const b = encryptSecret(bytes('s3cret ñ'), k);
    expect(text(decryptSecret(a, k))).toBe('s3cret ñ');
    expect(text(decryptSecret(b, k))).toBe('s3cret ñ');
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    // version 1, 8-byte key id, 12-byte IV, 16-byte tag, then the ciphertext (same length as the plaintext under GCM)
    expect(a[0]).toBe(1);
    expect(a.length).toBe(37 + bytes('s3cret ñ').length);
    const id = createHash('sha256').update(k).digest().subarray(0, 8).toString('hex');
    expect(keyId(k)).toBe(id);
    expect(envelopeKeyId(a)).toBe(id);
    expect(text(decryptSecret(encryptSecret(new Uint8Array(0), k), k))).toBe('');
  });

  it("refuses another key as wrong_key, naming both key ids, with a neutral hint or the caller's", () => {
    const k = key();
    const other = key();
    const blob = encryptSecret(bytes('x'), k);
    const e = failure(() => decryptSecret(blob, other));
    expect(e.code).toBe('wrong_key');
    expect(e.message).toContain(keyId(k));
    expect(e.message).toContain(keyId(other));
    expect(e.message).toMatch(/\)\. Decrypt with the key used when it was stored/);
    const hinted = failure(() => decryptSecret(blob, other, { wrongKeyHint: 'Set MY_KEY to it.' }));
    expect(hinted.message).toMatch(/\)\. Set MY_KEY to it\.$/);
  });

  it('refuses altered bytes: tampered for IV, tag or ciphertext, wrong_key for the key id, invalid_envelope for the version', () => {
    const k = key();
    const blob = encryptSecret(bytes('the password'), k);
    const flip = (i: number) => {
      const copy = new Uint8Array(blob);
      copy[i]! ^= 0x01;
      return copy;
    };
    for (const i of [9, 20, 21, 36, 37, blob.length - 1]) {
      expect(failure(() => decryptSecret(flip(i), k)).code).toBe('tampered');
    }
    expect(failure(() => decryptSecret(flip(1), k)).code).toBe('wrong_key');
    const version = failure(() => decryptSecret(flip(0), k));
    expect(version.code).toBe('invalid_envelope');
    expect(version.message).toMatch(/Unknown secret envelope version 0/);
    expect(failure(() => decryptSecret(blob.subarray(0, 36), k)).code).toBe('invalid_envelope');
    expect(failure(() => decryptSecret(bytes('not sealed at all, just text of some length'), k)).code).toBe('invalid_envelope');
  });

  it('rotates: a SecretKey decrypts blobs of its previous keys and says which blobs to re-encrypt', () => {
    const old = key();
    const current = key();
    const oldBlob = encryptSecret(bytes('old'), old);
    const ring = new SecretKey(current, [old]);
    const newBlob = encryptSecret(bytes('new'), ring);
    expect(envelopeKeyId(newBlob)).toBe(keyId(current));
    expect(text(decryptSecret(oldBlob, ring))).toBe('old');
    expect(text(decryptSecret(newBlob, ring))).toBe('new');
    expect(isCurrentKey(oldBlob, ring)).toBe(false);
    expect(isCurrentKey(newBlob, ring)).toBe(true);
    // Without the previous key the old blob is refused; a plain list of keys works too.
    expect(failure(() => decryptSecret(oldBlob, new SecretKey(current))).code).toBe('wrong_key');
    expect(text(decryptSecret(oldBlob, [current, old]))).toBe('old');
    // Slices of a key ring are plain bytes.
    expect(ring.subarray(0, 4)).not.toBeInstanceOf(SecretKey);
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(failure(() => encryptSecret(bytes('x'), new Uint8Array(16))).code).toBe('invalid_key');
    expect(failure(() => new SecretKey(key(), [new Uint8Array(31)])).code).toBe('invalid_key');
  });

  it('parses hex, base64 and base64url keys, and names the source given in its refusal', () => {
    const k = randomBytes(32);
    expect(Buffer.from(parseKey(k.toString('hex'), 'K')).equals(k)).toBe(true);
    expect(Buffer.from(parseKey(` ${k.toString('base64')}\n`, 'K')).equals(k)).toBe(true);
    expect(Buffer.from(parseKey(k.toString('base64url'), 'K')).equals(k)).toBe(true);
    const e = failure(() => parseKey('too short', 'SEALING_KEY'));
    expect(e.code).toBe('invalid_key');
    expect(e.message).toMatch(/^SEALING_KEY must be 32 random bytes .* got 9 characters\.$/);
  });
});
