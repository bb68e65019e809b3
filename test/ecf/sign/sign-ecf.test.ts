import { describe, expect, it } from 'vitest';
import { SigningError } from '../../../src/shared/errors/index.js';
import { readP12 } from '../../../src/shared/xmldsig/p12.js';
import { p12Signer } from '../../../src/shared/xmldsig/signer.js';
import { signEcf, signXml } from '../../../src/ecf/sign/sign-xml.js';
import * as signEntry from '../../../src/ecf/sign/index.js';
import { formatDateTimeDO } from '../../../src/ecf/time.js';
import { verifyXml } from '../../../src/ecf/sign/verify-xml.js';
import { modernP12, TEST_PASSWORD } from '../helpers/certs.js';
import { compactEcf31, namespacedEcf, prettyEcf, prettySeed } from './fixtures.js';
import { signWithXmlCrypto, splitSigned, withSigningTime, xmlsecVerify } from './reference.js';

const signer = () => p12Signer(readP12(modernP12().p12, TEST_PASSWORD));
const at = (iso: string) => () => new Date(iso);
const stamp = (xml: string) => /<FechaHoraFirma>([^<]*)<\/FechaHoraFirma>/.exec(xml)?.[1];

describe('FechaHoraFirma (formatDateTimeDO, src/ecf/time.ts)', () => {
  it('is written in GMT-4 whatever the host time zone, crossing midnight and the year', async () => {
    for (const [iso, expected] of [
      ['2026-01-01T03:30:00Z', '31-12-2025 23:30:00'],
      ['2026-07-15T16:05:09Z', '15-07-2026 12:05:09'],
      ['2026-03-01T04:00:00Z', '01-03-2026 00:00:00'],
      ['2024-03-01T03:59:59.999Z', '29-02-2024 23:59:59'],
    ] as const) {
      expect(formatDateTimeDO(new Date(iso))).toBe(expected);
      expect(stamp(await signEcf(compactEcf31, signer(), at(iso)))).toBe(expected);
    }
  });

  it('the sign entry re-exports the core formatter (one implementation)', () => {
    expect(signEntry.formatDateTimeDO).toBe(formatDateTimeDO);
    expect('formatDgiiDateTime' in signEntry).toBe(false);
  });

  it('a clock that returns an invalid date is refused', async () => {
    await expect(signEcf(compactEcf31, signer(), () => new Date('nope'))).rejects.toThrow(RangeError);
  });
});

describe('signEcf', () => {
  it('stamps FechaHoraFirma from the clock as the last child of ECF, before the Signature', async () => {
    const signed = await signEcf(compactEcf31, signer(), at('2026-01-01T03:30:00Z'));
    expect(signed).toContain('</DetallesItems><FechaHoraFirma>31-12-2025 23:30:00</FechaHoraFirma><Signature xmlns=');
    expect(verifyXml(signed).valid).toBe(true);
  });

  it("changes nothing else: the output is the input plus FechaHoraFirma plus the Signature (xml-crypto's, byte for byte)", async () => {
    const signed = await signEcf(compactEcf31, signer(), at('2026-01-01T03:30:00Z'));
    const stamped = withSigningTime(compactEcf31, '31-12-2025 23:30:00');
    expect(splitSigned(signed).rest).toBe(stamped);
    expect(signed).toContain('Comercial &quot;El Cañón&quot; &apos;SRL&apos;');
    expect(signed).toContain('Pan de agua &lt;grande&gt; 100% harina');
    const t = modernP12();
    expect(splitSigned(signed).signature).toBe(splitSigned(signWithXmlCrypto(stamped, t.keyPem, t.certificatePem)).signature);
    expect(xmlsecVerify(signed).ok).toBe(true);
  });

  it('keeps an existing FechaHoraFirma (passthrough XML) and does not read the clock', async () => {
    const withStamp = compactEcf31.replace('</ECF>', '<FechaHoraFirma>09-01-2026 08:00:00</FechaHoraFirma></ECF>');
    const clock = () => {
      throw new Error('clock must not be read');
    };
    const signed = await signEcf(withStamp, signer(), clock);
    expect(signed.match(/<FechaHoraFirma>/g)).toHaveLength(1);
    expect(stamp(signed)).toBe('09-01-2026 08:00:00');
    expect(signed).toBe(await signXml(withStamp, signer()));
  });

  it('same input and clock give the same bytes', async () => {
    const clock = at('2026-02-03T14:00:00Z');
    expect(await signEcf(compactEcf31, signer(), clock)).toBe(await signEcf(compactEcf31, signer(), clock));
  });

  it('stamps pretty-printed and namespaced e-CF too (general path)', async () => {
    const pretty = await signEcf(prettyEcf, signer(), at('2026-01-10T12:00:00Z'));
    expect(pretty).toBe(await signEcf(compactEcf31, signer(), at('2026-01-10T12:00:00Z')));
    const withAttr = await signEcf(namespacedEcf.replace('<Encabezado>', '<Encabezado a="1">'), signer(), at('2026-01-10T12:00:00Z'));
    expect(withAttr).toContain('</Encabezado><FechaHoraFirma>10-01-2026 08:00:00</FechaHoraFirma><Signature ');
    expect(verifyXml(withAttr).valid).toBe(true);
  });

  it('keeps FechaHoraFirma of a pretty-printed passthrough e-CF', async () => {
    const xml = prettyEcf.replace(/\r\n$/, '').replace(/<\/ECF>$/, '  <FechaHoraFirma>09-01-2026 08:00:00</FechaHoraFirma>\r\n</ECF>');
    const signed = await signEcf(xml, signer(), at('2026-01-10T12:00:00Z'));
    expect(stamp(signed)).toBe('09-01-2026 08:00:00');
    expect(signed.match(/<FechaHoraFirma>/g)).toHaveLength(1);
  });

  it('refuses a document whose root is not ECF → wrong_root', async () => {
    await expect(signEcf(prettySeed, signer(), at('2026-01-10T12:00:00Z'))).rejects.toMatchObject({ name: 'SigningError', code: 'wrong_root' });
    await expect(signEcf('<RFCE><A>1</A></RFCE>', signer(), at('2026-01-10T12:00:00Z'))).rejects.toBeInstanceOf(SigningError);
  });
});
