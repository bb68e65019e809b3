import { createPublicKey, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CertificateError } from '../../../src/shared/errors/index.js';
import { checkValidity, daysToExpiry, readP12 } from '../../../src/shared/xmldsig/p12.js';
import {
  aesP12,
  ecP12,
  expiredP12,
  mismatchedP12,
  legacyP12,
  modernP12,
  multiCertP12,
  noKeyP12,
  notYetValidP12,
  opensslDefaultP12,
  opensslRead,
  rncP12,
  TEST_CEDULA_SERIAL,
  TEST_PASSWORD,
  TEST_RNC_SERIAL,
  VALID_FROM,
  VALID_TO,
} from '../helpers/certs.js';

const at = (iso: string) => () => new Date(iso);

function certificateError(fn: () => unknown): CertificateError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(CertificateError);
    return e as CertificateError;
  }
  throw new Error('expected a CertificateError');
}

describe('readP12', () => {
  it('opens a 3DES .p12 and reports the subject, the SN serial, the issuer and the validity', () => {
    const t = modernP12();
    const id = readP12(t.p12, TEST_PASSWORD);
    expect(id.certificate).toBe(t.certificate);
    expect(id.chain).toEqual([]);
    expect(id.info.serialNumber).toBe(TEST_CEDULA_SERIAL);
    expect(id.info.subject.attributes).toEqual({ C: 'DO', O: 'ECF KIT PRUEBAS', CN: 'JOSÉ PEÑA PRUEBA', serialNumber: TEST_CEDULA_SERIAL });
    expect(id.info.subject.text).toBe(`C=DO, O=ECF KIT PRUEBAS, CN=JOSÉ PEÑA PRUEBA, serialNumber=${TEST_CEDULA_SERIAL}`);
    expect(id.info.issuer.text).toBe(id.info.subject.text);
    expect(id.info.certificateSerial).toBe(new X509Certificate(t.certificateDer).serialNumber.toLowerCase());
    expect(id.info.notBefore).toEqual(VALID_FROM);
    expect(id.info.notAfter).toEqual(VALID_TO);
  });

  it('returns a node:crypto KeyObject that matches the certificate', () => {
    const t = modernP12();
    const id = readP12(t.p12, TEST_PASSWORD);
    expect(id.privateKey.type).toBe('private');
    expect(id.privateKey.asymmetricKeyType).toBe('rsa');
    expect(new X509Certificate(t.certificateDer).checkPrivateKey(id.privateKey)).toBe(true);
    expect(createPublicKey(id.privateKey).export({ type: 'spki', format: 'der' })).toEqual(
      new X509Certificate(t.certificateDer).publicKey.export({ type: 'spki', format: 'der' }),
    );
  });

  it('opens an AES-256 (PBES2) .p12', () => {
    expect(readP12(aesP12().p12, TEST_PASSWORD).info.serialNumber).toBe(TEST_CEDULA_SERIAL);
  });

  it('reads an RNC in the subject serialNumber', () => {
    expect(readP12(rncP12().p12, TEST_PASSWORD).info.serialNumber).toBe(TEST_RNC_SERIAL);
  });

  it('picks the certificate matching the key in a multi-certificate file (CA listed first)', () => {
    const t = multiCertP12();
    const id = readP12(t.p12, TEST_PASSWORD);
    expect(id.certificate).toBe(t.certificate);
    expect(id.chain).toEqual([t.caCertificate]);
    expect(id.info.issuer.attributes.CN).toBe('ECF KIT TEST ROOT CA');
    // The DER handed out is the original certificate: it still verifies under the CA key.
    expect(new X509Certificate(Buffer.from(id.certificate, 'base64')).verify(new X509Certificate(Buffer.from(t.caCertificate, 'base64')).publicKey)).toBe(true);
  });

  it('opens a legacy RC2-40 .p12 that OpenSSL 3 refuses without -legacy', () => {
    const t = legacyP12();
    const refused = opensslRead(t.p12);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/RC2-40-CBC|unsupported/i);
    const id = readP12(t.p12, TEST_PASSWORD);
    expect(id.certificate).toBe(t.certificate);
    expect(id.info.serialNumber).toBe(TEST_CEDULA_SERIAL);
  });

  it("opens OpenSSL 3's default .p12 (PBES2 AES-256, SHA-256 MAC)", () => {
    const t = opensslDefaultP12();
    expect(readP12(t.p12, TEST_PASSWORD).certificate).toBe(t.certificate);
  });

  it('wrong password → wrong_password, with a hint', () => {
    const e = certificateError(() => readP12(modernP12().p12, 'not the password'));
    expect(e.code).toBe('wrong_password');
    expect(e.name).toBe('CertificateError');
    expect(e.message).toMatch(/password/i);
  });

  it('no private key → no_private_key', () => {
    const e = certificateError(() => readP12(noKeyP12().p12, TEST_PASSWORD));
    expect(e.code).toBe('no_private_key');
    expect(e.message).toMatch(/private key/);
  });

  it('a key without its certificate → no_certificate', () => {
    expect(certificateError(() => readP12(mismatchedP12().p12, TEST_PASSWORD)).code).toBe('no_certificate');
  });

  it('a non-RSA key → unsupported_key', () => {
    const p12 = ecP12(); // made by the openssl command line
    const e = certificateError(() => readP12(p12, TEST_PASSWORD));
    expect(e.code).toBe('unsupported_key');
    expect(e.message).toMatch(/RSA/);
  });

  it('bytes that are not a PKCS#12 → invalid_file', () => {
    expect(certificateError(() => readP12(new TextEncoder().encode('-----BEGIN CERTIFICATE-----\nMIIB\n'), 'x')).code).toBe('invalid_file');
    expect(certificateError(() => readP12(new Uint8Array(0), 'x')).code).toBe('invalid_file');
    expect(certificateError(() => readP12(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x03]), 'x')).code).toBe('invalid_file');
  });
});

describe('checkValidity / daysToExpiry', () => {
  it('accepts a certificate inside its validity period', () => {
    const id = readP12(modernP12().p12, TEST_PASSWORD);
    expect(() => checkValidity(id, at('2026-06-01T00:00:00Z'))).not.toThrow();
  });

  it('expired → expired', () => {
    const id = readP12(expiredP12().p12, TEST_PASSWORD);
    const e = certificateError(() => checkValidity(id, at('2026-06-01T00:00:00Z')));
    expect(e.code).toBe('expired');
    expect(e.message).toMatch(/expired on 2021-01-01.*Renew/);
  });

  it('not yet valid → not_yet_valid', () => {
    const id = readP12(notYetValidP12().p12, TEST_PASSWORD);
    expect(certificateError(() => checkValidity(id, at('2026-06-01T00:00:00Z'))).code).toBe('not_yet_valid');
  });

  it('counts whole days to expiry from the clock, negative once expired', () => {
    const id = readP12(modernP12().p12, TEST_PASSWORD);
    expect(daysToExpiry(id, at('2034-12-31T00:00:00Z'))).toBe(1);
    expect(daysToExpiry(id, at('2034-12-31T00:00:01Z'))).toBe(0);
    expect(daysToExpiry(id, at('2035-01-02T00:00:00Z'))).toBe(-1);
  });
});
