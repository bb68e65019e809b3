/** xmlsec1 as a second verifier for DIAN signatures (SignedProperties/@Id declared as an ID attribute). */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireTool, withTempDir } from '../../ecf/helpers/certs.js';

const XADES_NS = 'http://uri.etsi.org/01903/v1.3.2#';

/**
 * `xmlsec1 --verify --trusted-pem cert.pem --id-attr:Id SignedProperties`, or `--insecure` without a certificate;
 * `untrustedPems` are intermediate certificates xmlsec1 may use to build the chain to the trusted one.
 */
export function xmlsec1Verify(signed: string, trustedPem?: string, untrustedPems: readonly string[] = []): { ok: boolean; output: string } {
  requireTool('xmlsec1');
  return withTempDir((dir) => {
    const file = join(dir, 'signed.xml');
    writeFileSync(file, signed);
    const trust = ['--insecure'];
    if (trustedPem) {
      writeFileSync(join(dir, 'cert.pem'), trustedPem);
      trust.splice(0, 1, '--trusted-pem', join(dir, 'cert.pem'));
    }
    untrustedPems.forEach((pem, i) => {
      writeFileSync(join(dir, `untrusted-${i}.pem`), pem);
      trust.push('--untrusted-pem', join(dir, `untrusted-${i}.pem`));
    });
    const r = spawnSync('xmlsec1', ['--verify', ...trust, '--id-attr:Id', `${XADES_NS}:SignedProperties`, file], { encoding: 'utf8' });
    return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
  });
}
