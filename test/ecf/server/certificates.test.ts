import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CertificateUploadError,
  prepareCertificate,
  reencryptCertificates,
  taxIdFromSubjectSerial,
  unsealCertificate,
} from '../../../src/ecf/server/certificates.js';
import { decryptSecret, encryptSecret, envelopeKeyId, keyId, SecretKey } from '../../../src/ecf/server/secrets.js';
import { createSelfSignedIdentity } from '../../../src/shared/xmldsig/self-signed.js';
import { readP12 } from '../../../src/ecf/sign/index.js';
import type { Issuer, Storage } from '../../../src/ecf/server/storage/types.js';
import { modernP12, noKeyP12, TEST_PASSWORD } from '../helpers/certs.js';

const NOW = new Date('2026-04-01T12:00:00Z');
const RNC = '131880738';
const key = new Uint8Array(randomBytes(32));
const issuer = { rnc: RNC };

// Key generation is the slow part: one identity per distinct set of arguments.
const identities = new Map<string, ReturnType<typeof createSelfSignedIdentity>>();
function identityFor(serialNumber: string | undefined, opts: { now?: Date; days?: number } = {}) {
  const args = { commonName: 'EMPRESA DE PRUEBA SRL', serialNumber, now: opts.now ?? new Date('2026-01-01T00:00:00Z'), days: opts.days ?? 365 };
  const k = JSON.stringify(args);
  if (!identities.has(k)) identities.set(k, createSelfSignedIdentity(args));
  return identities.get(k)!;
}

function uploadError(fn: () => unknown): CertificateUploadError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(CertificateUploadError);
    return e as CertificateUploadError;
  }
  throw new Error('expected a CertificateUploadError');
}

describe('taxIdFromSubjectSerial', () => {
  it.each([
    ['IDCDO-00199999996', '00199999996'],
    ['idcdo-131880738', '131880738'],
    ['RNC131880738', '131880738'],
    ['RNC 131880738', '131880738'],
    ['RNC-131880738', '131880738'],
    ['CED-001-9999999-6', '00199999996'],
    ['PASDO-AB1234567', 'AB1234567'],
    ['TINDO-131880738', '131880738'],
    ['131880738', '131880738'],
    [' 001-9999999-6 ', '00199999996'],
  ])('%s → %s', (serial, expected) => {
    expect(taxIdFromSubjectSerial(serial)).toBe(expected);
  });
  it('returns null for an empty id', () => {
    expect(taxIdFromSubjectSerial('IDCDO-')).toBeNull();
    expect(taxIdFromSubjectSerial('  ')).toBeNull();
  });
});

describe('prepareCertificate', () => {
  it('accepts a valid certificate of the issuer, seals p12 and password together, and describes it', () => {
    const id = identityFor(`IDCDO-${RNC}`);
    const { certificate, certificateInfo } = prepareCertificate({ issuer, p12: id.p12, password: id.password, key, now: NOW });

    // Sealed with the key: nothing readable inside, and unsealing gives back the .p12 and its password.
    expect(envelopeKeyId(certificate)).toBe(keyId(key));
    expect(Buffer.from(certificate).includes(Buffer.from(id.password))).toBe(false);
    const sealed = unsealCertificate(certificate, key);
    expect(Buffer.from(sealed.p12).equals(Buffer.from(id.p12))).toBe(true);
    expect(sealed.password).toBe(id.password);
    expect(readP12(sealed.p12, sealed.password).info.serialNumber).toBe(`IDCDO-${RNC}`);

    const info = readP12(id.p12, id.password).info;
    expect(certificateInfo).toEqual({
      subject: info.subject.text,
      issuer: info.issuer.text,
      serial_number: info.certificateSerial,
      tax_id: RNC,
      not_before: info.notBefore.toISOString(),
      not_after: info.notAfter.toISOString(),
      uploaded_at: NOW.toISOString(),
    });
    expect(certificateInfo.subject).toContain('EMPRESA DE PRUEBA SRL');
    // JSON-safe (it is stored as JSON).
    expect(JSON.parse(JSON.stringify(certificateInfo))).toEqual(certificateInfo);
  });

  it('accepts a bare RNC as subject serialNumber', () => {
    const id = identityFor(RNC);
    expect(prepareCertificate({ issuer, p12: id.p12, password: id.password, key, now: NOW }).certificateInfo.tax_id).toBe(RNC);
  });

  it('refuses a file that is not PKCS#12', () => {
    for (const p12 of [new TextEncoder().encode('-----BEGIN CERTIFICATE-----\nMIIB\n'), new Uint8Array(0), new Uint8Array(randomBytes(300))]) {
      const e = uploadError(() => prepareCertificate({ issuer, p12, password: 'x', key, now: NOW }));
      expect(e.code).toBe('invalid_file');
      expect(e.message).toMatch(/PKCS#12/);
    }
  });

  it('refuses a wrong password', () => {
    const id = identityFor(RNC);
    const e = uploadError(() => prepareCertificate({ issuer, p12: id.p12, password: `${id.password}x`, key, now: NOW }));
    expect(e.code).toBe('wrong_password');
    expect(e.message).toMatch(/contraseña/);
  });

  it('refuses a .p12 without private key', () => {
    const e = uploadError(() => prepareCertificate({ issuer, p12: noKeyP12().p12, password: TEST_PASSWORD, key, now: NOW }));
    expect(e.code).toBe('no_private_key');
    expect(e.message).toMatch(/llave privada/);
  });

  it('refuses a certificate of another tax id, naming both', () => {
    const e = uploadError(() => prepareCertificate({ issuer, p12: modernP12().p12, password: TEST_PASSWORD, key, now: NOW }));
    expect(e.code).toBe('tax_id_mismatch');
    expect(e.message).toContain('00199999996');
    expect(e.message).toContain(RNC);
  });

  it('refuses a certificate without subject serialNumber', () => {
    const id = identityFor(undefined);
    expect(uploadError(() => prepareCertificate({ issuer, p12: id.p12, password: id.password, key, now: NOW })).code).toBe('no_tax_id');
  });

  it('refuses an expired and a not yet valid certificate', () => {
    const expired = identityFor(RNC, { now: new Date('2024-01-01T00:00:00Z'), days: 30 });
    const e1 = uploadError(() => prepareCertificate({ issuer, p12: expired.p12, password: expired.password, key, now: NOW }));
    expect(e1.code).toBe('expired');
    expect(e1.message).toMatch(/venció/);
    const future = identityFor(RNC, { now: new Date('2027-01-01T00:00:00Z') });
    expect(uploadError(() => prepareCertificate({ issuer, p12: future.p12, password: future.password, key, now: NOW })).code).toBe('not_yet_valid');
  });
});

describe('unsealCertificate / reencryptCertificates', () => {
  it('refuses a blob that decrypts to something else', () => {
    const blob = encryptSecret(new TextEncoder().encode('{"otra":"cosa"}'), key);
    expect(() => unsealCertificate(blob, key)).toThrow(/not a sealed certificate/);
    expect(decryptSecret(blob, key).length).toBeGreaterThan(0);
  });

  it('re-encrypts certificates sealed with a previous key', async () => {
    const old = new Uint8Array(randomBytes(32));
    const current = new SecretKey(new Uint8Array(randomBytes(32)), [old]);
    const id = identityFor(RNC);
    const sealedOld = prepareCertificate({ issuer, p12: id.p12, password: id.password, key: old, now: NOW }).certificate;
    const sealedNew = prepareCertificate({ issuer, p12: id.p12, password: id.password, key: current, now: NOW }).certificate;
    const issuers: Issuer[] = [
      { id: 1, rnc: RNC, name: 'A', profile: {}, signingMode: 'own', certificate: sealedOld, certificateInfo: null, createdAt: 0 },
      { id: 2, rnc: RNC, name: 'B', profile: {}, signingMode: 'own', certificate: sealedNew, certificateInfo: null, createdAt: 0 },
      { id: 3, rnc: RNC, name: 'C', profile: {}, signingMode: 'provider', certificate: null, certificateInfo: null, createdAt: 0 },
    ];
    const updates: Array<[number, Uint8Array]> = [];
    const storage: Pick<Storage, 'listIssuers' | 'updateIssuer'> = {
      listIssuers: async () => issuers,
      updateIssuer: async (id, patch) => {
        updates.push([id, patch.certificate!]);
        return { ...issuers.find((i) => i.id === id)!, ...patch };
      },
    };
    expect(await reencryptCertificates(storage, current)).toBe(1);
    expect(updates.map(([id]) => id)).toEqual([1]);
    expect(envelopeKeyId(updates[0]![1])).toBe(keyId(current));
    expect(unsealCertificate(updates[0]![1], Uint8Array.from(current)).password).toBe(id.password);
  });
});
