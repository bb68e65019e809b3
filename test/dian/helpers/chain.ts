/**
 * A certificate chain made in memory (never committed): a root CA, an intermediate CA it issued and a signer's
 * leaf the intermediate issued, as DIAN's certification authorities hand them out, packaged in a .p12 whose
 * certificates are listed out of chain order (root, unrelated CA, leaf, intermediate).
 */
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import forge from 'node-forge';

export interface TestChain {
  p12: Uint8Array;
  password: string;
  /** base64 DER of each certificate. */
  leaf: string;
  intermediate: string;
  root: string;
  unrelated: string;
  /** PEM of the root and the intermediate (trust anchor and untrusted link for xmlsec1). */
  rootPem: string;
  intermediatePem: string;
}

const PASSWORD = 'cadena-de-prueba';
const NOT_BEFORE = new Date('2024-01-01T00:00:00Z');
const NOT_AFTER = new Date('2034-01-01T00:00:00Z');

function keyPair(): forge.pki.rsa.PrivateKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()) as forge.pki.rsa.PrivateKey;
}

function name(cn: string, o: string, email?: string): forge.pki.CertificateField[] {
  return [
    { shortName: 'C', value: 'CO' },
    { shortName: 'O', value: o },
    { name: 'commonName', value: cn, valueTagClass: forge.asn1.Type.UTF8 as unknown as forge.asn1.Class },
    ...(email === undefined ? [] : [{ name: 'emailAddress', value: email }]),
  ];
}

function certificate(
  serial: string,
  subject: forge.pki.CertificateField[],
  key: forge.pki.rsa.PrivateKey,
  issuer: forge.pki.CertificateField[],
  issuerKey: forge.pki.rsa.PrivateKey,
  ca: boolean,
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = serial;
  cert.validity.notBefore = NOT_BEFORE;
  cert.validity.notAfter = NOT_AFTER;
  cert.setSubject(subject);
  cert.setIssuer(issuer);
  cert.setExtensions(
    ca
      ? [
          { name: 'basicConstraints', cA: true },
          { name: 'keyUsage', keyCertSign: true, cRLSign: true },
        ]
      : [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
        ],
  );
  cert.sign(issuerKey, forge.md.sha256.create());
  return cert;
}

const der = (cert: forge.pki.Certificate) => new X509Certificate(forge.pki.certificateToPem(cert)).raw.toString('base64');

/** A root → intermediate → leaf chain and its .p12 (certificates out of order, plus an unrelated CA). */
export function createTestChain(): TestChain {
  const rootKey = keyPair();
  const intermediateKey = keyPair();
  const leafKey = keyPair();
  const otherKey = keyPair();
  const rootName = name('ROOT CA PRUEBAS', 'Autoridad de Prueba');
  // The intermediate carries an e-mail attribute, as the Colombian CAs' names do (Andes SCD's info@ address).
  const intermediateName = name('CA PRUEBAS Clase II', 'Autoridad de Prueba', 'info@andesscd.com.co');
  const otherName = name('OTRA CA', 'Otra Autoridad');
  const root = certificate('01', rootName, rootKey, rootName, rootKey, true);
  const intermediate = certificate('02', intermediateName, intermediateKey, rootName, rootKey, true);
  const leaf = certificate('3f0a', name('Proveedor con cadena', 'Ferretería El Tornillo S.A.S.'), leafKey, intermediateName, intermediateKey, false);
  const unrelated = certificate('04', otherName, otherKey, otherName, otherKey, true);
  const asn1 = forge.pkcs12.toPkcs12Asn1(leafKey, [root, unrelated, leaf, intermediate], PASSWORD, { algorithm: '3des', friendlyName: 'cadena' });
  return {
    p12: new Uint8Array(Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary')),
    password: PASSWORD,
    leaf: der(leaf),
    intermediate: der(intermediate),
    root: der(root),
    unrelated: der(unrelated),
    rootPem: forge.pki.certificateToPem(root),
    intermediatePem: forge.pki.certificateToPem(intermediate),
  };
}
