/**
 * A throw-away certification authority for the inbound trust tests: a CA certificate (the trust anchor an
 * operator would put in ECF_INBOUND_TRUST_CA) and leaf identities it issues, with the subject serialNumber
 * given (an RNC, `IDCDO-…`, …). Generated in memory at test time; nothing is written to disk.
 */
import { createPrivateKey, generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { p12Signer } from '../../../../src/shared/xmldsig/signer.js';
import type { SelfSignedIdentity } from '../../../../src/ecf/sign/index.js';

const START = new Date('2026-03-01T00:00:00Z');
const END = new Date('2036-03-01T00:00:00Z');

function keyPair() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const forgeKey = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()) as forge.pki.rsa.PrivateKey;
  return { privateKey, forgeKey, forgePublic: forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e) };
}

export interface TestCa {
  /** The CA certificate, as a trust anchor. */
  anchor: X509Certificate;
  pem: string;
  /** A leaf identity issued by this CA (same shape as createSelfSignedIdentity's, without a .p12). */
  issue(options: { commonName: string; serialNumber?: string; organizationIdentifier?: string }): Pick<SelfSignedIdentity, 'signer' | 'certificatePem'>;
}

export function createTestCa(name = 'ECF KIT TEST ACCREDITED CA'): TestCa {
  const ca = keyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = ca.forgePublic;
  cert.serialNumber = `4${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = START;
  cert.validity.notAfter = END;
  const subject = [
    { shortName: 'C', value: 'DO' },
    { name: 'commonName', value: name },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true },
  ]);
  cert.sign(ca.forgeKey, forge.md.sha256.create());
  const pem = forge.pki.certificateToPem(cert);
  return {
    anchor: new X509Certificate(pem),
    pem,
    issue(options) {
      const leaf = keyPair();
      const c = forge.pki.createCertificate();
      c.publicKey = leaf.forgePublic;
      c.serialNumber = `4${randomBytes(15).toString('hex')}`;
      c.validity.notBefore = START;
      c.validity.notAfter = END;
      const fields: forge.pki.CertificateField[] = [
        { shortName: 'C', value: 'DO' },
        { name: 'commonName', value: options.commonName },
      ];
      if (options.serialNumber) fields.push({ name: 'serialNumber', value: options.serialNumber });
      if (options.organizationIdentifier) fields.push({ type: '2.5.4.97', value: options.organizationIdentifier } as forge.pki.CertificateField);
      c.setSubject(fields);
      c.setIssuer(subject);
      c.setExtensions([
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
      ]);
      c.sign(ca.forgeKey, forge.md.sha256.create());
      const leafPem = forge.pki.certificateToPem(c);
      const der = new X509Certificate(leafPem).raw.toString('base64');
      return {
        certificatePem: leafPem,
        signer: p12Signer({ privateKey: createPrivateKey(leaf.privateKey.export({ type: 'pkcs8', format: 'pem' })), certificate: der }),
      };
    },
  };
}
