/**
 * The one payload both servers seal a .p12 and its password in: what one seals the other opens, a blob sealed
 * with another key names the product's setting, and a sealed secret that is not a .p12 payload is refused.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sealP12, unsealP12 } from '../../../src/shared/server-kit/sealed-p12.js';
import { encryptSecret, KEY_BYTES } from '../../../src/shared/server-kit/sealing.js';
import { sealCertificate, unsealCertificate } from '../../../src/ecf/server/certificates.js';
import { sealIdentity, unsealIdentity } from '../../../src/dian/server/certificates.js';

const key = () => new Uint8Array(randomBytes(KEY_BYTES));
const identity = { p12: new Uint8Array([0x30, 0x82, 1, 2, 3, 255]), password: 'clave con espacio ' };

describe('sealP12 / unsealP12', () => {
  it('round-trips, and the e-CF and DIAN servers read each other’s blobs (one format)', () => {
    const k = key();
    expect(unsealP12(sealP12(identity, k), k)).toEqual(identity);
    expect(unsealCertificate(sealIdentity(identity, k), k)).toEqual(identity);
    expect(unsealIdentity(sealCertificate(identity, k), k)).toEqual(identity);
  });

  it('a blob sealed with another key names each product’s setting', () => {
    const blob = sealP12(identity, key());
    expect(() => unsealIdentity(blob, key())).toThrow(/DIAN_CERT_KEY/);
    expect(() => unsealCertificate(blob, key())).toThrow(/ECF_CERT_KEY/);
  });

  it('refuses a sealed secret that is not a .p12 payload', () => {
    const k = key();
    const blob = encryptSecret(new TextEncoder().encode('{"v":2}'), k);
    expect(() => unsealP12(blob, k)).toThrow(expect.objectContaining({ code: 'invalid_certificate_payload' }));
  });
});
