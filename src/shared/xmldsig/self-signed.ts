/**
 * Throw-away signing identities made in memory: an RSA-2048 key from node:crypto, a self-signed X.509
 * certificate and a PKCS#12 container built with node-forge. For local authority simulators (which sign
 * their acknowledgments and test documents) and for development setups without a real certificate. Nothing is
 * written to disk; no tax authority would trust such a certificate.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';
import type { Signer } from '../ports.js';
import { readP12 } from './p12.js';
import { p12Signer } from './signer.js';

export interface SelfSignedOptions {
  /** Subject common name, e.g. `SIMULADOR`. */
  commonName: string;
  /**
   * Subject `serialNumber` attribute (OID 2.5.4.5): the holder's tax or identity number,
   * e.g. `131880738` or `IDCDO-00199999996`. Omitted when not given.
   */
  serialNumber?: string;
  /** Validity in days from `now` (default 365). */
  days?: number;
  /** Start of validity (default: the current time). The certificate is valid from one hour before it. */
  now?: Date;
}

export interface SelfSignedIdentity {
  /** PKCS#12 (.p12) bytes, key and certificate encrypted with 3DES under `password`. */
  p12: Uint8Array;
  /** Random password of the .p12. */
  password: string;
  /** The certificate, PEM. */
  certificatePem: string;
  /** A `p12Signer` over the new key and certificate. */
  signer: Signer;
}

const MS_PER_DAY = 86_400_000;
// Clock skew between the machine that creates the identity and the one that checks it.
const BACKDATE_MS = 3_600_000;

/**
 * Creates an RSA-2048 key and a self-signed certificate for it, packaged as a .p12 in memory.
 *
 * @throws RangeError when `days` is not a positive number or `now` is an invalid date
 * @example
 * const id = createSelfSignedIdentity({ commonName: 'SIMULADOR', serialNumber: '132000001' });
 * readP12(id.p12, id.password).info.serialNumber //=> '132000001'
 * await signXml(xml, id.signer) //=> '…<Signature xmlns="http://www.w3.org/2000/09/xmldsig#">…</Signature>…'
 */
export function createSelfSignedIdentity(options: SelfSignedOptions): SelfSignedIdentity {
  const days = options.days ?? 365;
  if (!(typeof days === 'number' && Number.isFinite(days) && days > 0)) {
    throw new RangeError(`createSelfSignedIdentity: days must be a positive number, got ${String(days)}.`);
  }
  const now = options.now ?? new Date();
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    throw new RangeError(`createSelfSignedIdentity: now must be a valid Date, got ${String(now)}.`);
  }

  // node:crypto generates the key (fast, native); forge only builds the certificate and the container.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const forgeKey = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()) as forge.pki.rsa.PrivateKey;

  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e);
  // A positive serial (leading nibble below 8) so DER needs no padding byte.
  cert.serialNumber = `4${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = new Date(now.getTime() - BACKDATE_MS);
  cert.validity.notAfter = new Date(now.getTime() + days * MS_PER_DAY);
  const subject: forge.pki.CertificateField[] = [
    { shortName: 'C', value: 'DO' },
    // UTF8String so that accented names survive.
    { name: 'commonName', value: options.commonName, valueTagClass: forge.asn1.Type.UTF8 as unknown as forge.asn1.Class },
  ];
  if (options.serialNumber !== undefined) subject.push({ name: 'serialNumber', value: options.serialNumber });
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
  ]);
  cert.sign(forgeKey, forge.md.sha256.create());

  const password = randomBytes(18).toString('base64url');
  const asn1 = forge.pkcs12.toPkcs12Asn1(forgeKey, [cert], password, { algorithm: '3des', friendlyName: options.commonName });
  const p12 = new Uint8Array(Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary'));

  // Reading the container back gives the same KeyObject/base64 certificate pair every other signer uses.
  const signer = p12Signer(readP12(p12, password));
  return { p12, password, certificatePem: forge.pki.certificateToPem(cert), signer };
}
