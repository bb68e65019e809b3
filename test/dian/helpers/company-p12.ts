/**
 * A company's .p12 made at test time with node-forge (never committed): an RSA-2048 key from node:crypto, a
 * self-signed certificate whose subject carries the given serialNumber (where Colombian CAs put the holder's
 * NIT) and validity, packaged under a password; or a .p12 holding the certificate only (no private key).
 */
import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';

export const COMPANY_P12_PASSWORD = 'clave-de-prueba 2025';

export interface CompanyP12 {
  p12: Uint8Array;
  password: string;
  /** The certificate, base64 DER (what ds:X509Certificate and wsse:BinarySecurityToken carry). */
  certificate: string;
}

let serial = 0x5000;

export function companyP12(options: { serialNumber?: string; notBefore: Date; notAfter: Date; withKey?: boolean; commonName?: string }): CompanyP12 {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = (0x40000000 + serial++).toString(16);
  cert.validity.notBefore = options.notBefore;
  cert.validity.notAfter = options.notAfter;
  const subject: forge.pki.CertificateField[] = [
    { shortName: 'C', value: 'CO' },
    { shortName: 'O', value: 'ECF KIT PRUEBAS' },
    { name: 'commonName', value: options.commonName ?? 'FERRETERIA EJEMPLO ANDINA SAS' },
    ...(options.serialNumber ? [{ name: 'serialNumber', value: options.serialNumber }] : []),
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
  ]);
  cert.sign(key, forge.md.sha256.create());
  const asn1 = forge.pkcs12.toPkcs12Asn1(options.withKey === false ? null : key, [cert], COMPANY_P12_PASSWORD, { algorithm: '3des' });
  return {
    p12: new Uint8Array(Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary')),
    password: COMPANY_P12_PASSWORD,
    certificate: Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary').toString('base64'),
  };
}

/**
 * A .p12 holding two private keys, each with its certificate: the safe contents of two files in one (forge writes
 * one key per file; this one carries no MAC, which readers accept).
 */
export function twoKeyP12(options: { serialNumber: string; notBefore: Date; notAfter: Date }): CompanyP12 {
  const parts = [0, 1].map(() => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()) as forge.pki.rsa.PrivateKey;
    const cert = forge.pki.createCertificate();
    cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
    cert.serialNumber = (0x40000000 + serial++).toString(16);
    cert.validity.notBefore = options.notBefore;
    cert.validity.notAfter = options.notAfter;
    const subject = [
      { name: 'commonName', value: 'FERRETERIA EJEMPLO ANDINA SAS' },
      { name: 'serialNumber', value: options.serialNumber },
    ];
    cert.setSubject(subject);
    cert.setIssuer(subject);
    cert.sign(key, forge.md.sha256.create());
    return { cert, asn1: forge.pkcs12.toPkcs12Asn1(key, [cert], COMPANY_P12_PASSWORD, { algorithm: '3des', useMac: false }) };
  });
  // PFX ::= SEQUENCE { version, authSafe ContentInfo { contentType, [0] { OCTET STRING (DER of SEQUENCE OF ContentInfo) } } }
  const safes = parts.map((p) => {
    const authSafe = (p.asn1.value as forge.asn1.Asn1[])[1]!;
    const octets = ((authSafe.value as forge.asn1.Asn1[])[1]!.value as forge.asn1.Asn1[])[0]!;
    return { octets, list: forge.asn1.fromDer(octets.value as string) };
  });
  const merged = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SEQUENCE, true, [
    ...(safes[0]!.list.value as forge.asn1.Asn1[]),
    ...(safes[1]!.list.value as forge.asn1.Asn1[]),
  ]);
  safes[0]!.octets.value = forge.asn1.toDer(merged).getBytes();
  return {
    p12: new Uint8Array(Buffer.from(forge.asn1.toDer(parts[0]!.asn1).getBytes(), 'binary')),
    password: COMPANY_P12_PASSWORD,
    certificate: Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(parts[0]!.cert)).getBytes(), 'binary').toString('base64'),
  };
}
