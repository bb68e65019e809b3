/** A 150-line invoice on A4: pages numbered "Página x de N", the compact header and the table header on every page, every line once. */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDianXml } from '../../../src/dian/index.js';
import { dianPdf } from '../../../src/dian/pdf/index.js';
import { CONTEXT, minimalRequest } from '../helpers/build-fixtures.js';
import { decodeQr, pageCount, pageTexts, squash } from './fixtures.js';

const LINES = 150;
let pdf: Uint8Array;
let pages: string[];
let qrUrl: string;

beforeAll(async () => {
  const request = minimalRequest('invoice', LINES);
  const built = buildDianXml('invoice', request, CONTEXT, { today: request.date as string });
  if (!built.ok) throw new Error('the 150-line invoice did not build');
  qrUrl = built.codes.qrUrl;
  const r = await dianPdf(built.xml);
  if (!r.ok) throw new Error(r.message);
  pdf = r.pdf;
  pages = pageTexts(pdf).map(squash);
}, 60_000);

describe('dianPdf: 150 lines', () => {
  it('paginates with "Página x de N" on every page', () => {
    const n = pageCount(pdf);
    expect(n).toBeGreaterThan(3);
    expect(pages).toHaveLength(n);
    pages.forEach((p, i) => expect(p).toContain(`Página ${i + 1} de ${n}`));
  });

  it('repeats the document header and the table header on every page with lines', () => {
    const withLines = pages.filter((p) => /Producto \d+/.test(p));
    expect(withLines.length).toBeGreaterThan(3);
    for (const p of withLines) {
      expect(p).toContain('No. SETP990000001');
      expect(p).toMatch(/# Código Descripción Cant\. Unidad Precio unitario Desc\.\/Cargo Impuestos Total/);
    }
    // Continuation pages carry the issuer and the document in their compact header.
    for (const p of pages.slice(1)) expect(p).toContain('Ferretería El Tornillo S.A.S.');
  });

  it('prints every line exactly once, in order, and carries the running total between pages', () => {
    const seen = pages.flatMap((p) => [...p.matchAll(/Producto (\d+)/g)].map((m) => Number(m[1])));
    expect(seen).toEqual(Array.from({ length: LINES }, (_, i) => i + 1));
    // Each line is 200,000.00: "Vienen" at the head of page 2 is 200,000 × the lines of page 1.
    const firstPage = [...pages[0]!.matchAll(/Producto (\d+)/g)].length;
    const vienen = /Vienen ([\d,]+\.\d{2})/.exec(pages[1]!)?.[1];
    expect(vienen).toBe((firstPage * 200000).toLocaleString('en-US', { minimumFractionDigits: 2 }));
  });

  it('closes on the last page with the payable total and the QR', () => {
    expect(pages.at(-1)).toContain('Total a pagar COP 35,700,000.00');
    for (const p of pages.slice(0, -1)) expect(p).not.toContain('Total a pagar');
    expect(decodeQr(pdf, pages.length)?.data).toBe(qrUrl);
  });
});
