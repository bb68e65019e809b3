/** Test-only helpers: xml-crypto 6 as the reference signer, xmlsec1 as an independent verifier. */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignedXml } from 'xml-crypto';
import { withTempDir } from '../helpers/certs.js';

/**
 * Drops whitespace-only text between tags (DGII's preserveWhitespace = false) by splitting on
 * markup (tags, comments, CDATA), an implementation independent of the one under test. Valid for
 * the test documents (no raw `>` inside attribute values).
 */
export function dropWhitespaceByRegex(xml: string): string {
  return xml
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|<[^>]*>)/)
    .filter((part, i) => i % 2 === 1 || !/^[ \t\r\n]+$/.test(part))
    .join('');
}

/** Signs with xml-crypto 6 exactly as DGII's profile says. */
export function signWithXmlCrypto(xml: string, keyPem: string, certificatePem: string): string {
  const sig = new SignedXml({
    privateKey: keyPem,
    publicCert: certificatePem,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
  });
  sig.addReference({
    xpath: '/*',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    isEmptyUri: true,
  });
  sig.computeSignature(xml, { location: { reference: '/*', action: 'append' } });
  return sig.getSignedXml();
}

/** Runs `xmlsec1 --verify` on a signed document; `trustedPem` switches from --insecure to a trusted certificate. */
export function xmlsecVerify(signedXml: string, trustedPem?: string): { ok: boolean; output: string } {
  return withTempDir((dir) => {
    const file = join(dir, 'signed.xml');
    writeFileSync(file, signedXml);
    const args = ['--verify'];
    if (trustedPem) {
      writeFileSync(join(dir, 'trusted.pem'), trustedPem);
      args.push('--trusted-pem', join(dir, 'trusted.pem'));
    } else {
      args.push('--insecure');
    }
    const r = spawnSync('xmlsec1', [...args, file], { encoding: 'utf8' });
    return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
  });
}
