import { beforeAll, describe, expect, it } from 'vitest';
import { add, fromNumber, toFixed, ZERO, type Dec } from '../../../src/shared/money/decimal.js';
import { qrUrlFromSignedXml } from '../../../src/ecf/derive/qr-url.js';
import { renderPdf } from '../../../src/ecf/pdf/index.js';
import { formatMoney } from '../../../src/ecf/pdf/format.js';
import { assertValid, manyLines, signed } from './fixtures.js';

const MM = 72 / 25.4;
const LETTER = { w: 612, h: 792 };
import { parseEcfXml } from '../../../src/ecf/xml/ecf.js';
import { decodeQr, pageCount, pageTexts, pageWords, squash } from './tools.js';

const money = (d: Dec) => toFixed(d, 2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Amount after a "Van" / "Vienen" label on a page of `pdftotext -layout` output. */
function carried(page: string, labelText: 'Van' | 'Vienen'): string | null {
  const m = new RegExp(`^\\s*${labelText}\\s+([\\d,]+\\.\\d{2})\\s*$`, 'm').exec(page);
  return m ? m[1]! : null;
}

describe('renderPdf: long documents', () => {
  let doc: Record<string, any>;
  let xml: string;
  let pdf: Uint8Array;
  let pages: string[];

  beforeAll(async () => {
    doc = manyLines('31', 1000, 12.5);
    assertValid('31', doc);
    xml = await signed('31', doc);
    pdf = await renderPdf(xml, { environment: 'certecf' });
    pages = pageTexts(pdf);
  });

  it('1,000 lines paginate with "Página x de N" on every page', () => {
    const n = pageCount(pdf);
    expect(n).toBeGreaterThan(1);
    expect(pages).toHaveLength(n);
    pages.forEach((p, i) => expect(p).toContain(`Página ${i + 1} de ${n}`));
  });

  it('repeats the table header and the document identification on every page with lines', () => {
    const withLines = pages.filter((p) => /Artículo \d+ de prueba/.test(p));
    expect(withLines.length).toBeGreaterThan(1);
    for (const p of withLines) {
      expect(squash(p)).toMatch(/Cant\. Descripción Precio unitario ITBIS Monto/);
      expect(p).toContain('E310000000001');
    }
  });

  it('every line appears exactly once, in order', () => {
    const all = pages.join('\n');
    const seen = [...all.matchAll(/Artículo (\d+) de prueba/g)].map((m) => Number(m[1]));
    expect(seen).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
  });

  it('carries the running line total: "Van" at the foot equals "Vienen" at the head of the next page', () => {
    let running: Dec = ZERO;
    let checked = 0;
    pages.forEach((p, i) => {
      const vienen = carried(p, 'Vienen');
      if (i > 0 && /Artículo \d+ de prueba/.test(p)) {
        expect(vienen, `page ${i + 1} has no "Vienen"`).toBe(money(running));
      }
      const lines = [...p.matchAll(/Artículo (\d+) de prueba/g)].length;
      for (let k = 0; k < lines; k++) running = add(running, fromNumber(12.5)!);
      const van = carried(p, 'Van');
      if (van !== null) {
        expect(van).toBe(money(running));
        checked++;
      }
    });
    expect(checked).toBe(pages.filter((p) => /Artículo \d+ de prueba/.test(p)).length - 1);
    expect(money(running)).toBe('12,500.00');
  });

  it('the last page holds the totals (TOTAL = monto_total) and the QR', () => {
    const last = squash(pages.at(-1)!);
    expect(last).toContain(`TOTAL RD$ ${formatMoney(doc.totales.monto_total)}`);
    expect(last).toContain('Código de Seguridad:');
    for (const p of pages.slice(0, -1)) expect(p).not.toContain('TOTAL RD$');
    expect(decodeQr(pdf, pages.length)!.data).toBe(qrUrlFromSignedXml(xml, { environment: 'certecf' }));
  });
});

describe('renderPdf: 10,000 lines on a type 32 below RD$250,000', () => {
  it('paginates every line and ends with the total', async () => {
    const doc = manyLines('32', 10000, 10);
    assertValid('32', doc);
    expect(doc.totales.monto_total).toBeLessThan(250000);
    const xml = await signed('32', doc);
    const pdf = await renderPdf(xml, { environment: 'certecf' });
    const pages = pageTexts(pdf);
    expect(pages.length).toBeGreaterThan(100);
    expect(pages[0]).toContain(`Página 1 de ${pages.length}`);
    const count = pages.reduce((n, p) => n + [...p.matchAll(/Artículo \d+ de prueba/g)].length, 0);
    expect(count).toBe(10000);
    expect(squash(pages.at(-1)!)).toContain(`TOTAL RD$ ${formatMoney(doc.totales.monto_total)}`);
    expect(decodeQr(pdf, pages.length)!.data).toBe(qrUrlFromSignedXml(xml, { environment: 'certecf' }));
  }, 120_000);
});

describe('renderPdf: nothing leaves the page', () => {
  it('splits a row taller than a page and keeps every word inside the margins', async () => {
    // Object input is not validated: a 6,000-character description (the XSD allows 1,000) must still paginate.
    const doc = manyLines('31', 3, 10);
    const words = Array.from({ length: 750 }, (_, i) => `palabra${i}`);
    doc.items[1].descripcion = words.join(' ');
    const xml = await signed('31', manyLines('31', 3, 10));
    const parsed = parseEcfXml(xml);
    const pdf = await renderPdf({ ...parsed, document: doc, securityCode: 'abc123' }, { environment: 'certecf' });
    const n = pageCount(pdf);
    expect(n).toBeGreaterThan(1);
    const seen: string[] = [];
    for (let p = 1; p <= n; p++) {
      for (const w of pageWords(pdf, p)) {
        expect(w.xMin, w.text).toBeGreaterThanOrEqual(15 * MM - 0.5);
        expect(w.xMax, w.text).toBeLessThanOrEqual(LETTER.w - 15 * MM + 0.5);
        expect(w.yMin, w.text).toBeGreaterThanOrEqual(14 * MM - 0.5);
        expect(w.yMax, w.text).toBeLessThanOrEqual(LETTER.h - 8 * MM);
        if (/^palabra\d+$/.test(w.text)) seen.push(w.text);
      }
    }
    expect(seen).toEqual(words);
    // Line 2's amount is printed with its first fragment (page 1 or 2): it is carried from that page on.
    const texts = pageTexts(pdf);
    const firstWithLine2 = texts.findIndex((t) => t.includes('Artículo 2 de prueba'));
    expect(carried(texts[firstWithLine2]!, 'Van')).toBe('20.00');
    expect(carried(texts[firstWithLine2 + 1]!, 'Vienen')).toBe('20.00');
  });
});
