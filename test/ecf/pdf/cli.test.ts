import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { qrUrlFromSignedXml } from '../../../src/ecf/derive/qr-url.js';
import { minimal, signed } from './fixtures.js';
import { decodeQr, pdfText } from './tools.js';
import { fakeIo as sharedFakeIo } from '../helpers/cli.js';

const fakeIo = (files: Record<string, string | Uint8Array>) => {
  const f = sharedFakeIo(files);
  return { io: f.io, out: f.outBytes, err: f.err };
};

describe('ecf pdf', () => {
  it('writes the PDF bytes to stdout, QR for --env', async () => {
    const { doc, ctx } = minimal('31');
    const xml = await signed('31', doc, ctx);
    const f = fakeIo({ 'signed.xml': xml });
    expect(await runCli(['pdf', '--env', 'testecf', '--page-size', 'a4', 'signed.xml'], f.io)).toBe(0);
    const pdf = new Uint8Array(f.out());
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
    expect(pdfText(pdf)).toContain('E310000000001');
    expect(decodeQr(pdf, 1)!.data).toBe(qrUrlFromSignedXml(xml, { environment: 'testecf' }));
  });

  it('defaults to the production environment', async () => {
    const { doc, ctx } = minimal('31');
    const xml = await signed('31', doc, ctx);
    const f = fakeIo({ 'signed.xml': xml });
    expect(await runCli(['pdf', 'signed.xml'], f.io)).toBe(0);
    expect(decodeQr(new Uint8Array(f.out()), 1)!.data).toMatch(/^https:\/\/ecf\.dgii\.gov\.do\/ecf\/ConsultaTimbre\?/);
  });

  it('usage errors exit 2; an unsigned file exits 1 with the reason', async () => {
    const f = fakeIo({ 'signed.xml': '<ECF/>' });
    expect(await runCli(['pdf', '--env', 'prod', 'signed.xml'], f.io)).toBe(2);
    expect(f.err()).toMatch(/--env must be one of testecf, certecf, ecf/);
    expect(await runCli(['pdf', '--bogus', 'x', 'signed.xml'], f.io)).toBe(2);
    expect(await runCli(['pdf'], f.io)).toBe(2);
    const { buildEcfXmlFromJson } = await import('../../../src/ecf/xml/ecf.js');
    const { doc, ctx } = minimal('31');
    const g = fakeIo({ 'u.xml': buildEcfXmlFromJson('31', doc, ctx) });
    expect(await runCli(['pdf', 'u.xml'], g.io)).toBe(1);
    expect(g.err()).toMatch(/signed e-CF only/);
  });
});
