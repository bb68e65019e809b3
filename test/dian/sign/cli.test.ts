/**
 * `ecf dian sign` and `ecf dian verify`, in process through the dispatcher, with a .p12 made in memory (never
 * committed): a round trip sign → verify, the options, a tampered file refused, and the usage exits.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { buildDianXml } from '../../../src/dian/index.js';
import { createSelfSignedIdentity, verifyDianXml } from '../../../src/dian/sign/index.js';
import { fakeIo } from '../../ecf/helpers/cli.js';
import { CONTEXT } from '../helpers/build-fixtures.js';
import { minimalDianRequest } from '../helpers/requests.js';

const built = buildDianXml('invoice', minimalDianRequest('invoice'), CONTEXT);
if (!built.ok) throw new Error(JSON.stringify(built.issues));
const unsigned = built.xml;
const identity = createSelfSignedIdentity({ commonName: 'Proveedor de prueba', serialNumber: '900000001' });
const expired = createSelfSignedIdentity({ commonName: 'Vencido', days: 1, now: new Date('2020-01-01T00:00:00Z') });
const ENV = { DIAN_P12_PW: identity.password, EXPIRED_PW: expired.password };
const FILES = {
  'cert.p12': identity.p12,
  'expired.p12': expired.p12,
  'pw.txt': `${identity.password}\n`,
  'in.xml': unsigned,
};
const SIGN = ['dian', 'sign', '--p12', 'cert.p12', '--password-env', 'DIAN_P12_PW'];

const work = mkdtempSync(join(tmpdir(), 'ecf-dian-sign-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs the CLI over the in-memory files (plus `extra`). */
async function cli(argv: string[], extra: Record<string, string | Uint8Array> = {}) {
  const f = fakeIo({ ...FILES, ...extra }, ENV, { disk: true });
  const code = await runCli(argv, f.io);
  return { code, out: f.out(), err: f.err() };
}

function cut(signed: string): string {
  const start = signed.indexOf('<ds:Signature ');
  const end = signed.indexOf('</ds:Signature>') + '</ds:Signature>'.length;
  return signed.slice(0, start) + signed.slice(end);
}

describe('ecf dian sign → ecf dian verify', () => {
  it('signs to stdout (only the signature added) and the signed file verifies', async () => {
    const s = await cli([...SIGN, 'in.xml']);
    expect(s.code, s.err).toBe(0);
    expect(s.err).toBe('');
    expect(s.out).toContain('<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#" Id="xmldsig-');
    expect(s.out).toContain('<xades:ClaimedRole>supplier</xades:ClaimedRole>');
    expect(s.out).toContain('<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/>');
    expect(cut(s.out)).toBe(unsigned);
    expect(verifyDianXml(s.out).valid).toBe(true);

    const v = await cli(['dian', 'verify', 'signed.xml'], { 'signed.xml': s.out });
    expect(v.code, v.err).toBe(0);
    expect(v.out).toMatch(/^signed\.xml: ok \(signed by .*CN=Proveedor de prueba.*\)\n$/);
  });

  it('takes the role, the digest and a password file, and writes --out', async () => {
    const out = join(work, 'signed-384.xml');
    const s = await cli([
      'dian',
      'sign',
      '--p12',
      'cert.p12',
      '--password-file',
      'pw.txt',
      '--role',
      'third-party',
      '--digest',
      'sha384',
      '--out',
      out,
      'in.xml',
    ]);
    expect(s.code, s.err).toBe(0);
    expect(s.out).toMatch(new RegExp(`^signed: in\\.xml → ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(xmldsig-[^)]+\\)\\n$`));
    const signed = readFileSync(out, 'utf8');
    expect(signed).toContain('<xades:ClaimedRole>third party</xades:ClaimedRole>');
    expect(signed).toContain('<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#sha384"/>');
    expect(signed).not.toContain('xmlenc#sha256');
    const v = await cli(['dian', 'verify', out]);
    expect(v.code, v.err).toBe(0);
    expect(v.out).toMatch(/: ok \(signed by /);
  });

  it('refuses a tampered file (exit 1) and reports every file, the good one included', async () => {
    const signed = (await cli([...SIGN, 'in.xml'])).out;
    const amount = signed.match(/<cbc:PayableAmount currencyID="COP">([^<]+)</)![1]!;
    const tampered = signed.replace(`<cbc:PayableAmount currencyID="COP">${amount}<`, `<cbc:PayableAmount currencyID="COP">${amount}1<`);
    expect(tampered).not.toBe(signed);
    const v = await cli(['dian', 'verify', 'good.xml', 'bad.xml'], { 'good.xml': signed, 'bad.xml': tampered });
    expect(v.code).toBe(1);
    const lines = v.out.split('\n');
    expect(lines[0]).toMatch(/^good\.xml: ok /);
    expect(lines[1]).toMatch(/^bad\.xml: invalid \(digest_mismatch\): .+/);
    expect(lines).toHaveLength(3);
  });

  it('refuses an unsigned file and a second signature (exit 1, with the code)', async () => {
    const v = await cli(['dian', 'verify', 'in.xml']);
    expect(v.code).toBe(1);
    expect(v.out).toMatch(/^in\.xml: invalid \(no_signature\): /);
    const signed = (await cli([...SIGN, 'in.xml'])).out;
    const again = await cli([...SIGN, 'signed.xml'], { 'signed.xml': signed });
    expect(again.code).toBe(1);
    expect(again.out).toBe('');
    expect(again.err).toMatch(/^ecf dian sign: signed\.xml: already_signed: /);
  });

  it('exits 2 on usage problems, unreadable files, a wrong password and an expired certificate', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['dian', 'sign', '--p12', 'cert.p12', '--password-env', 'DIAN_P12_PW'], /missing the XML file to sign/],
      [['dian', 'sign', '--password-env', 'DIAN_P12_PW', 'in.xml'], /missing --p12/],
      [['dian', 'sign', '--p12', 'cert.p12', 'in.xml'], /missing the \.p12 password/],
      [['dian', 'sign', '--p12', 'cert.p12', '--password', identity.password, 'in.xml'], /--password is not accepted/],
      [['dian', 'sign', '--p12', 'cert.p12', '--password-env', 'NOPE', 'in.xml'], /NOPE \(--password-env\) is not set/],
      [[...SIGN, '--password-file', 'pw.txt', 'in.xml'], /not both/],
      [[...SIGN, '--role', 'buyer', 'in.xml'], /--role must be supplier or third-party/],
      [[...SIGN, '--digest', 'sha1', 'in.xml'], /--digest must be sha256 or sha384/],
      [[...SIGN, '--bogus', 'x', 'in.xml'], /unknown option\(s\): --bogus/],
      [[...SIGN, 'a.xml', 'b.xml'], /one XML file at a time/],
      [[...SIGN, join(work, 'missing.xml')], /cannot read .*missing\.xml/],
      [[...SIGN, 'latin1.xml'], /latin1\.xml: not valid UTF-8/],
      [['dian', 'sign', '--p12', join(work, 'missing.p12'), '--password-env', 'DIAN_P12_PW', 'in.xml'], /cannot read .*missing\.p12/],
      [['dian', 'sign', '--p12', 'cert.p12', '--password-env', 'EXPIRED_PW', 'in.xml'], /Wrong password/],
      [['dian', 'sign', '--p12', 'expired.p12', '--password-env', 'EXPIRED_PW', 'in.xml'], /CN=Vencido" is valid from .* not now/],
      [['dian', 'verify'], /missing the signed XML file/],
      [['dian', 'verify', '--out', 'x', 'in.xml'], /unknown option\(s\): --out/],
    ];
    for (const [argv, re] of cases) {
      const r = await cli(argv, { 'latin1.xml': new Uint8Array([0x3c, 0x61, 0xe9, 0x3e]) });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toMatch(re);
      expect(r.out, argv.join(' ')).toBe('');
    }
  });

  it('verify exits 2 when a file cannot be read, still reporting the others', async () => {
    const signed = (await cli([...SIGN, 'in.xml'])).out;
    const v = await cli(['dian', 'verify', 'good.xml', join(work, 'missing.xml'), 'in.xml'], { 'good.xml': signed });
    expect(v.code).toBe(2);
    expect(v.err).toMatch(/^ecf dian verify: cannot read .*missing\.xml/);
    expect(v.out).toMatch(/^good\.xml: ok .*\nin\.xml: invalid \(no_signature\): .*\n$/);
  });
});
