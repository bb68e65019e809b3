import { describe, expect, it } from 'vitest';
import { SigningError } from '../../src/errors/index.js';
import { readP12 } from '../../src/sign/p12.js';
import { p12Signer } from '../../src/sign/signer.js';
import { signEcf, signXml } from '../../src/sign/sign-xml.js';
import { formatDgiiDateTime } from '../../src/sign/signing-time.js';
import { verifyXml } from '../../src/sign/verify-xml.js';
import { modernP12, TEST_PASSWORD } from '../helpers/certs.js';
import { compactEcf31, namespacedEcf, prettyEcf, prettySeed } from './fixtures.js';

const signer = () => p12Signer(readP12(modernP12().p12, TEST_PASSWORD));
const at = (iso: string) => () => new Date(iso);
const stamp = (xml: string) => /<FechaHoraFirma>([^<]*)<\/FechaHoraFirma>/.exec(xml)?.[1];

describe('formatDgiiDateTime', () => {
  it('formats in GMT-4 whatever the host time zone, crossing midnight and the year', () => {
    expect(formatDgiiDateTime(new Date('2026-01-01T03:30:00Z'))).toBe('31-12-2025 23:30:00');
    expect(formatDgiiDateTime(new Date('2026-07-15T16:05:09Z'))).toBe('15-07-2026 12:05:09');
    expect(formatDgiiDateTime(new Date('2026-03-01T04:00:00Z'))).toBe('01-03-2026 00:00:00');
    expect(formatDgiiDateTime(new Date('2024-03-01T03:59:59.999Z'))).toBe('29-02-2024 23:59:59');
  });

  it('rejects an invalid date', () => {
    expect(() => formatDgiiDateTime(new Date('nope'))).toThrow(RangeError);
  });
});

describe('signEcf', () => {
  it('stamps FechaHoraFirma from the clock as the last child of ECF, before the Signature', async () => {
    const signed = await signEcf(compactEcf31, signer(), at('2026-01-01T03:30:00Z'));
    expect(signed).toContain('</DetallesItems><FechaHoraFirma>31-12-2025 23:30:00</FechaHoraFirma><Signature xmlns=');
    expect(verifyXml(signed).valid).toBe(true);
  });

  it('keeps an existing FechaHoraFirma (passthrough XML) and does not read the clock', async () => {
    const withStamp = compactEcf31.replace('</ECF>', '<FechaHoraFirma>09-01-2026 08:00:00</FechaHoraFirma></ECF>');
    const clock = () => { throw new Error('clock must not be read'); };
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
