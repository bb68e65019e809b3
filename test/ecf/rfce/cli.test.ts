import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { securityCode } from '../../../src/ecf/derive/security-code.js';
import { deriveRfceXml } from '../../../src/ecf/rfce/derive.js';
import { signEcf } from '../../../src/ecf/sign/sign-xml.js';
import { verifyXml } from '../../../src/ecf/sign/verify-xml.js';
import { buildEcfXmlFromJson } from '../../../src/ecf/xml/ecf.js';
import { expiredP12, modernP12, TEST_PASSWORD } from '../helpers/certs.js';
import { baseContext, baseDoc } from '../helpers/docs.js';
import { expectSignedAndValid, SIGNING_CLOCK, testSigner } from '../documents/support.js';
import { splitSigned } from '../sign/reference.js';
import { fakeIo } from '../helpers/cli.js';

const signed = (tipo: '31' | '32') => signEcf(buildEcfXmlFromJson(tipo, baseDoc(tipo), baseContext(tipo)), testSigner(), SIGNING_CLOCK);

describe('ecf rfce', () => {
  it('prints the signed RFCE (no trailing newline) and its CodigoSeguridadeCF on stderr', async () => {
    const full = await signed('32');
    const f = fakeIo({ 'c.p12': modernP12().p12, 'e32.xml': full });
    expect(await runCli(['rfce', '--p12', 'c.p12', '--password', TEST_PASSWORD, 'e32.xml'], f.io)).toBe(0);
    const rfce = f.out();
    expect(rfce.endsWith('</RFCE>')).toBe(true);
    expect(splitSigned(rfce).rest).toBe(deriveRfceXml(full));
    expectSignedAndValid(rfce, 'RFCE');
    expect(f.err()).toBe(`CodigoSeguridadeCF: ${securityCode(full)}\n`);
  });

  it('takes the password from ECF_P12_PASSWORD', async () => {
    const f = fakeIo({ 'c.p12': modernP12().p12, 'e32.xml': await signed('32') }, { ECF_P12_PASSWORD: TEST_PASSWORD });
    expect(await runCli(['rfce', '--p12', 'c.p12', 'e32.xml'], f.io)).toBe(0);
    expect(verifyXml(f.out()).valid).toBe(true);
  });

  it('a document that cannot be summarised: exit 1 with the Spanish reasons, nothing on stdout', async () => {
    const f = fakeIo({ 'c.p12': modernP12().p12, 'e31.xml': await signed('31') });
    expect(await runCli(['rfce', '--p12', 'c.p12', '--password', TEST_PASSWORD, 'e31.xml'], f.io)).toBe(1);
    expect(f.out()).toBe('');
    expect(f.err()).toBe('ecf rfce: e31.xml cannot be summarised:\n  Solo una factura de consumo (tipo 32) se resume como RFCE; el documento es tipo 31.\n');
    const unsigned = fakeIo({ 'c.p12': modernP12().p12, 'u.xml': buildEcfXmlFromJson('32', baseDoc('32'), baseContext('32')) });
    expect(await runCli(['rfce', '--p12', 'c.p12', '--password', TEST_PASSWORD, 'u.xml'], unsigned.io)).toBe(1);
    expect(unsigned.err()).toMatch(/no tiene firma/);
  });

  it('usage errors exit 2; a wrong password or an expired certificate exit 1', async () => {
    const usage = fakeIo({});
    expect(await runCli(['rfce', 'e32.xml'], usage.io)).toBe(2);
    expect(usage.err()).toMatch(/missing --p12/);
    const two = fakeIo({});
    expect(await runCli(['rfce', '--p12', 'c.p12', '--password', 'x', 'a.xml', 'b.xml'], two.io)).toBe(2);
    const unknown = fakeIo({});
    expect(await runCli(['rfce', '--p12', 'c.p12', '--env', 'ecf', 'a.xml'], unknown.io)).toBe(2);
    const full = await signed('32');
    const wrong = fakeIo({ 'c.p12': modernP12().p12, 'e32.xml': full });
    expect(await runCli(['rfce', '--p12', 'c.p12', '--password', 'nope', 'e32.xml'], wrong.io)).toBe(1);
    expect(wrong.err()).toMatch(/Wrong password/);
    const expired = fakeIo({ 'c.p12': expiredP12().p12, 'e32.xml': full });
    expect(await runCli(['rfce', '--p12', 'c.p12', '--password', TEST_PASSWORD, 'e32.xml'], expired.io)).toBe(1);
    expect(expired.err()).toMatch(/expired/);
  });

  it('is listed in the help', async () => {
    const f = fakeIo({});
    expect(await runCli(['--help'], f.io)).toBe(0);
    expect(f.err()).toContain('ecf rfce --p12 FILE');
  });
});
