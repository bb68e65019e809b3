/**
 * `options.deflate`: the pages' content streams compressed by node:zlib (as the service and the CLI render) give a
 * PDF that pdftotext reads exactly as the default one (pdf-lib's pako), on the same pages, with the same QR as jsQR
 * decodes it; the bytes are still a function of the input.
 */
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { dianPdf, type DianPdfFormat, type DianPdfResult } from '../../../src/dian/pdf/index.js';
import { decodeQr, pageCount, pdfText, signedExample } from './fixtures.js';

const zlib = (data: Uint8Array): Uint8Array => deflateSync(data);

async function pdf(xml: string, format: DianPdfFormat, deflate?: typeof zlib): Promise<Uint8Array> {
  const r: DianPdfResult = await dianPdf(xml, { format, ...(deflate ? { deflate } : {}) });
  if (!r.ok) throw new Error(r.message);
  return r.pdf;
}

describe('dianPdf with a node:zlib deflater', () => {
  it.each([
    ['invoice', 'a4'],
    ['pos', 'receipt80'],
  ] as const)(
    '%s (%s): same text, pages and QR as pdf-lib’s own deflate; deterministic',
    async (kind, format) => {
      const { xml, qrUrl } = await signedExample(kind);
      const plain = await pdf(xml, format);
      const fast = await pdf(xml, format, zlib);
      let calls = 0;
      await pdf(xml, format, (d) => {
        calls++;
        return zlib(d);
      });
      expect(calls).toBe(pageCount(plain));
      expect(Buffer.from(fast).equals(Buffer.from(plain))).toBe(false);
      expect(Buffer.from(await pdf(xml, format, zlib)).equals(Buffer.from(fast))).toBe(true);
      expect(pageCount(fast)).toBe(pageCount(plain));
      expect(pdfText(fast)).toBe(pdfText(plain));
      expect(pdfText(fast, { layout: false })).toBe(pdfText(plain, { layout: false }));
      expect(decodeQr(fast, pageCount(fast))?.data).toBe(qrUrl);
    },
    60_000,
  );
});
