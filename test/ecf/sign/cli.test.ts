import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { securityCode } from '../../../src/ecf/derive/security-code.js';
import { verifyXml } from '../../../src/ecf/sign/verify-xml.js';
import { expiredP12, modernP12, TEST_PASSWORD } from '../helpers/certs.js';
import { compactEcf31, prettySeed } from './fixtures.js';
import { fakeIo } from '../helpers/cli.js';

describe('ecf sign / verify / qr', () => {
  it('sign: e-CF gets FechaHoraFirma, signed XML on stdout without a trailing newline, code on stderr', async () => {
    const f = fakeIo({ 'c.p12': modernP12().p12, 'in.xml': compactEcf31 });
    expect(await runCli(['sign', '--p12', 'c.p12', '--password', TEST_PASSWORD, 'in.xml'], f.io)).toBe(0);
    const signed = f.out();
    expect(signed).toMatch(/<FechaHoraFirma>\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}<\/FechaHoraFirma><Signature /);
    expect(signed.endsWith('</ECF>')).toBe(true);
    expect(verifyXml(signed).valid).toBe(true);
    expect(f.err()).toBe(`CodigoSeguridad: ${securityCode(signed)}\n`);
  });

  it('sign: other roots are signed as they are; the password may come from ECF_P12_PASSWORD', async () => {
    const f = fakeIo({ 'c.p12': modernP12().p12, 'seed.xml': prettySeed }, { ECF_P12_PASSWORD: TEST_PASSWORD });
    expect(await runCli(['sign', '--p12', 'c.p12', 'seed.xml'], f.io)).toBe(0);
    expect(f.out()).not.toContain('FechaHoraFirma');
    expect(verifyXml(f.out()).valid).toBe(true);
  });

  it('sign: wrong password, expired certificate and missing flags fail with a message', async () => {
    const wrong = fakeIo({ 'c.p12': modernP12().p12, 'in.xml': compactEcf31 });
    expect(await runCli(['sign', '--p12', 'c.p12', '--password', 'nope', 'in.xml'], wrong.io)).toBe(1);
    expect(wrong.err()).toMatch(/Wrong password/);
    const expired = fakeIo({ 'c.p12': expiredP12().p12, 'in.xml': compactEcf31 });
    expect(await runCli(['sign', '--p12', 'c.p12', '--password', TEST_PASSWORD, 'in.xml'], expired.io)).toBe(1);
    expect(expired.err()).toMatch(/expired/);
    const usage = fakeIo({});
    expect(await runCli(['sign', 'in.xml'], usage.io)).toBe(2);
    expect(usage.err()).toMatch(/missing --p12/);
  });

  it('verify: exit 0 when valid, 1 with the reason when not', async () => {
    const s = fakeIo({ 'c.p12': modernP12().p12, 'in.xml': compactEcf31 });
    await runCli(['sign', '--p12', 'c.p12', '--password', TEST_PASSWORD, 'in.xml'], s.io);
    const signed = s.out();
    const ok = fakeIo({ 'signed.xml': signed });
    expect(await runCli(['verify', 'signed.xml'], ok.io)).toBe(0);
    expect(ok.out()).toMatch(/^valid \(signed by .*serialNumber=IDCDO-00199999996/);
    const bad = fakeIo({ 'signed.xml': signed.replace('1180.00', '1.00') });
    expect(await runCli(['verify', 'signed.xml'], bad.io)).toBe(1);
    expect(bad.out()).toMatch(/^invalid \(digest_mismatch\): /);
  });

  it('qr: prints the timbre URL (default env ecf, --env to choose)', async () => {
    const s = fakeIo({ 'c.p12': modernP12().p12, 'in.xml': compactEcf31 });
    await runCli(['sign', '--p12', 'c.p12', '--password', TEST_PASSWORD, 'in.xml'], s.io);
    const q = fakeIo({ 'signed.xml': s.out() });
    expect(await runCli(['qr', '--env', 'testecf', 'signed.xml'], q.io)).toBe(0);
    expect(q.out()).toMatch(/^https:\/\/ecf\.dgii\.gov\.do\/testecf\/ConsultaTimbre\?RncEmisor=130000001&RncComprador=131880738&ENCF=E310000000001&.*\n$/);
    const d = fakeIo({ 'signed.xml': s.out() });
    expect(await runCli(['qr', 'signed.xml'], d.io)).toBe(0);
    expect(d.out()).toMatch(/^https:\/\/ecf\.dgii\.gov\.do\/ecf\/ConsultaTimbre\?/);
    const e = fakeIo({ 'signed.xml': s.out() });
    expect(await runCli(['qr', '--env', 'prod', 'signed.xml'], e.io)).toBe(2);
  });
});
