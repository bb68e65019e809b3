/** The 80 mm POS strip: page width, one tall page, content and QR. */
import { describe, expect, it } from 'vitest';
import { dianPdf } from '../../../src/dian/pdf/index.js';
import { decodeQr, pageCount, pdfInfo, pdfText, signedExample, squash } from './fixtures.js';

describe('dianPdf: receipt80', () => {
  it('prints the POS document on one 80 mm (226.77 pt) strip with its cash register, code and QR', async () => {
    const ex = await signedExample('pos');
    const r = await dianPdf(ex.xml, { format: 'receipt80' });
    if (!r.ok) throw new Error(r.message);
    expect(pageCount(r.pdf)).toBe(1);
    const size = /([\d.]+) x ([\d.]+) pts/.exec(pdfInfo(r.pdf)['Page size']!)!;
    expect(Number(size[1])).toBeCloseTo(226.77, 2);
    expect(Number(size[2])).toBeGreaterThan(600);
    const text = squash(pdfText(r.pdf));
    expect(text).toContain('No. SETP990000105');
    expect(text).toContain('Caja: CAJA-01');
    expect(text).toContain('Total a pagar COP 880,004.00');
    // The 96-character CUDE wraps on the narrow strip: read without the line breaks.
    expect(text.replace(/\s+/g, '')).toContain(ex.hash);
    expect(decodeQr(r.pdf, 1, 200)?.data).toBe(ex.qrUrl);
  });
});
