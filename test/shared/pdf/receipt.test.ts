/** shared/pdf/receipt.ts: the strip's width, its height following the content, paging past maxHeight, the QR. */
import { describe, expect, it } from 'vitest';
import { renderReceipt, type PrintedReceipt } from '../../../src/shared/pdf/receipt.js';
import { decodeQr, pageCount, pageTexts, pdfInfo } from '../../ecf/pdf/tools.js';

const MM = 72 / 25.4;

function receipt(lines: number): PrintedReceipt {
  return {
    header: [{ text: 'Tienda de Prueba', role: 'title' }, { text: 'Recibo 42' }],
    body: [
      { kind: 'pairs', title: 'Cliente', pairs: [{ label: 'Nombre', value: 'Consumidor final' }] },
      {
        kind: 'table',
        title: 'Detalle',
        columns: [
          { header: 'Artículo', width: 0, flex: true, align: 'left' },
          { header: 'Total', width: 56, align: 'right' },
        ],
        rows: Array.from({ length: lines }, (_, i) => ({ cells: [[{ text: `Artículo ${i + 1}` }], [{ text: '1.00' }]] })),
      },
    ],
    totals: [{ label: 'Total', value: `${lines}.00`, strong: true }],
    qr: { text: 'https://example.test/receipt/42', errorCorrection: 'M', minVersion: 1 },
    captions: [{ text: 'Gracias por su compra' }],
    continuation: 'Recibo 42',
    metadata: { title: 'Recibo 42', author: 'Tienda', subject: 'Recibo', keywords: [], creator: 't', producer: 't', language: 'es' },
  };
}

const pageSize = (pdf: Uint8Array, page = 1) => {
  const info = pdfInfo(pdf);
  const m = /([\d.]+) x ([\d.]+) pts/.exec(info[`Page ${page} size`] ?? info['Page size']!)!;
  return { w: Number(m[1]), h: Number(m[2]) };
};

describe('renderReceipt', () => {
  it('is 80 mm wide and as tall as its content', async () => {
    const short = await renderReceipt(receipt(3), { caller: 'test' });
    const long = await renderReceipt(receipt(30), { caller: 'test' });
    expect(pageCount(short)).toBe(1);
    expect(pageSize(short).w).toBeCloseTo(80 * MM, 2);
    expect(pageSize(long).h).toBeGreaterThan(pageSize(short).h + 200);
    const text = pageTexts(short)[0]!;
    expect(text).toContain('Tienda de Prueba');
    expect(text).toContain('Artículo 3');
    expect(text).toContain('Gracias por su compra');
    expect(decodeQr(short, 1, 200)?.data).toBe('https://example.test/receipt/42');
  });

  it('continues past maxHeight on further pages with the table header and x/y, every row once', async () => {
    const pdf = await renderReceipt(receipt(120), { caller: 'test', maxHeight: 600 });
    const n = pageCount(pdf);
    expect(n).toBeGreaterThan(2);
    const pages = pageTexts(pdf);
    pages.slice(1).forEach((p, i) => expect(p).toContain(`Recibo 42 ${i + 2}/${n}`));
    for (const p of pages.filter((t) => /Artículo \d+/.test(t))) expect(p).toMatch(/Artículo\s+Total/);
    const seen = pages.flatMap((p) => [...p.matchAll(/Artículo (\d+)/g)].map((m) => Number(m[1])));
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    expect(decodeQr(pdf, n, 200)?.data).toBe('https://example.test/receipt/42');
  });

  it('refuses a strip too narrow for its margins', async () => {
    await expect(renderReceipt(receipt(1), { caller: 'test', widthMm: 30 })).rejects.toThrow(/test: a receipt needs a width above/);
  });
});
