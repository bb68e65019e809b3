import { sign as rsaSign, X509Certificate } from 'node:crypto';
import type { Signer } from '../ports.js';
import type { SigningIdentity } from './p12.js';

export type { Signer } from '../ports.js';

/**
 * The default {@link Signer}: RSASSA-PKCS1-v1_5 / SHA-256 with node:crypto, using a key read by
 * `readP12`. Signing is synchronous (0.2–0.4 ms for RSA-2048 on the workplace machine); keys held in an HSM or a cloud
 * KMS can implement the same `Signer` interface asynchronously instead. When the identity carries the other
 * certificates of its .p12, the signer's `chain` is the leaf's issuers among them, in chain order.
 *
 * @example
 * const signer = p12Signer(readP12(p12Bytes, password));
 * const signed = await signXml(xml, signer);
 */
export function p12Signer(identity: Pick<SigningIdentity, 'privateKey' | 'certificate'> & Partial<Pick<SigningIdentity, 'chain'>>): Signer {
  const { privateKey, certificate } = identity;
  const chain = issuerChain(certificate, identity.chain ?? []);
  return {
    certificate,
    ...(chain.length > 0 ? { chain } : {}),
    sign: (data: Uint8Array): Uint8Array => rsaSign('sha256', data, privateKey),
  };
}

/**
 * The issuers of `leaf` found in `others` (base64 DER, any order), nearest first: the certificate that issued the
 * leaf, then its issuer, up to a self-signed root or the first missing link. Certificates off the path are left out.
 *
 * @example
 * issuerChain(leaf, [root, intermediate, unrelated]) //=> [intermediate, root]
 */
export function issuerChain(leaf: string, others: readonly string[]): string[] {
  const parsed = others.map((der) => ({ der, cert: readCertificate(der) }));
  const out: string[] = [];
  let current = readCertificate(leaf);
  while (current && !selfIssued(current)) {
    const issuer = parsed.find((p) => p.cert !== null && !out.includes(p.der) && p.der !== leaf && issuedBy(current!, p.cert));
    if (!issuer) break;
    out.push(issuer.der);
    current = issuer.cert;
  }
  return out;
}

function readCertificate(der: string): X509Certificate | null {
  try {
    return new X509Certificate(Buffer.from(der, 'base64'));
  } catch {
    return null;
  }
}

function issuedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
}

function selfIssued(cert: X509Certificate): boolean {
  return cert.checkIssued(cert);
}
