/**
 * Stateless inbound seeds (issue 13, finding 12). A seed value is 48 bytes in base64 (64 characters, like a
 * random seed of the same size), so requesting one writes nothing:
 *
 *   [0]       version = 1
 *   [1..8]    issue time, epoch ms, big-endian
 *   [9..23]   15 random bytes (the nonce)
 *   [24..47]  HMAC-SHA256 truncated to 24 bytes, over "ecf-kit seed v1", the scope ('' or the tenant RNC)
 *             and bytes 0..23
 *
 * The MAC key is derived (HKDF-SHA256) from the certificate key `ECF_CERT_KEY`, which every server process
 * sharing a database must already share to read the stored certificates; so any of them accepts a seed
 * another one issued. Older keys of a rotation (`ECF_CERT_KEY_PREVIOUS`) still verify. Without a certificate
 * key (an embedding without one), a random key per process is used: seeds are then valid in that process only.
 * Single use is enforced where the seed comes back: see `InboundStorage.useInboundSeed`.
 */
import { EcfError } from '../../index.js';
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

const VERSION = 1;
const HEADER = 1 + 8 + 15;
const MAC_BYTES = 24;
const SIZE = HEADER + MAC_BYTES;
const LABEL = Buffer.from('ecf-kit seed v1\0');
/** A seed dated this far in the future (clock differences between processes) is still accepted. */
const SKEW_MS = 60_000;

/** The seed MAC key derived from a certificate key (32 bytes). */
export function seedKeyFrom(certificateKey: Uint8Array): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', certificateKey, Buffer.alloc(0), 'ecf-kit inbound seed MAC v1', 32));
}

export type SeedCheck = { ok: true; issuedAt: number; expiresAt: number } | { ok: false; reason: 'unknown' | 'expired' };

export interface SeedMac {
  /** A new seed value for `scope`, issued at `now`. */
  issue(scope: string, now: number): string;
  /** Whether `valor` is a seed one of the keys issued for `scope`, and still fresh at `now`. */
  check(valor: string, scope: string, now: number): SeedCheck;
}

/** `keys[0]` signs; every key verifies (rotation). */
export function createSeedMac(keys: readonly Uint8Array[], ttlMs: number): SeedMac {
  if (keys.length === 0) throw new EcfError('createSeedMac needs at least one key', { code: 'invalid_argument' });
  const mac = (key: Uint8Array, scope: string, header: Buffer) =>
    createHmac('sha256', key).update(LABEL).update(scope).update('\0').update(header).digest().subarray(0, MAC_BYTES);
  return {
    issue(scope, now) {
      const header = Buffer.alloc(HEADER);
      header[0] = VERSION;
      header.writeBigUInt64BE(BigInt(Math.max(0, Math.floor(now))), 1);
      randomBytes(15).copy(header, 9);
      return Buffer.concat([header, mac(keys[0]!, scope, header)]).toString('base64');
    },
    check(valor, scope, now) {
      if (!/^[A-Za-z0-9+/]{64}$/.test(valor)) return { ok: false, reason: 'unknown' };
      const bytes = Buffer.from(valor, 'base64');
      if (bytes.length !== SIZE || bytes[0] !== VERSION) return { ok: false, reason: 'unknown' };
      const header = bytes.subarray(0, HEADER);
      const given = bytes.subarray(HEADER);
      if (!keys.some((k) => timingSafeEqual(mac(k, scope, header), given))) return { ok: false, reason: 'unknown' };
      const issuedAt = Number(header.readBigUInt64BE(1));
      if (issuedAt > now + SKEW_MS) return { ok: false, reason: 'unknown' };
      const expiresAt = issuedAt + ttlMs;
      if (now >= expiresAt) return { ok: false, reason: 'expired' };
      return { ok: true, issuedAt, expiresAt };
    },
  };
}
