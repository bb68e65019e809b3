import { describe, expect, it } from 'vitest';
import { qrUrlFromSignedXml } from '../../../src/ecf/derive/qr-url.js';
import { securityCode } from '../../../src/ecf/derive/security-code.js';
import { renderPdf } from '../../../src/ecf/pdf/index.js';
import { formatMoney } from '../../../src/ecf/pdf/format.js';
import { ECF_TYPE_INFO } from '../../../src/ecf/spec/doc-types.js';
import { ECF_TYPES, type EcfType } from '../../../src/ecf/spec/model.js';
import { parseEcfXml } from '../../../src/ecf/xml/ecf.js';
import { assertValid, ISSUER, LONG_NAME, minimal, richDocs, signed, SIGNED_AT_TEXT } from './fixtures.js';
import { decodeQr, pageCount, pageWords, pdfInfo, pdfText, squash } from './tools.js';

const MM = 72 / 25.4;

describe('renderPdf: every e-CF type', () => {
  it.each(ECF_TYPES.map((t) => [t]))('type %s: text, totals, security code and QR', async (tipo: EcfType) => {
    const { doc, ctx } = minimal(tipo);
    assertValid(tipo, doc);
    const xml = await signed(tipo, doc, ctx);
    const pdf = await renderPdf(xml, { environment: 'certecf' });
    expect(pdf.subarray(0, 5)).toEqual(new TextEncoder().encode('%PDF-'));
    const text = squash(pdfText(pdf));
    const info = ECF_TYPE_INFO[tipo];

    expect(text).toContain(info.nameEs);
    expect(text).toContain(ctx.encf);
    expect(text).toContain(`RNC: ${ISSUER.rnc}`);
    expect(text).toContain(ISSUER.razon_social);
    if (doc.comprador?.rnc) expect(text).toContain(doc.comprador.rnc);
    if (doc.comprador?.identificador_extranjero) expect(text).toContain(doc.comprador.identificador_extranjero);
    expect(text).toContain(`TOTAL RD$ ${formatMoney(doc.totales.monto_total)}`);
    expect(text).toContain(`Código de Seguridad: ${securityCode(xml)}`);
    expect(text).toContain(`Fecha de Firma Digital: ${SIGNED_AT_TEXT}`);
    expect(text).toContain('Fecha de emisión: 01-04-2026');
    // Sequence expiry: printed unless the type hides it (32, 34).
    if (info.hidesSequenceExpiry) expect(text).not.toContain('Válido hasta');
    else expect(text).toContain('Válido hasta: 31-12-2027');
    // Buyer block: none on 43.
    if (doc.comprador) expect(text).toMatch(/Datos del (comprador|proveedor|beneficiario)/);
    else expect(text).not.toMatch(/Datos del (comprador|proveedor|beneficiario)/);

    const qr = decodeQr(pdf, pageCount(pdf));
    expect(qr, 'QR code not found on the last page').not.toBeNull();
    expect(qr!.data).toBe(qrUrlFromSignedXml(xml, { environment: 'certecf' }));
    expect(qr!.version).toBeGreaterThanOrEqual(8);
  });

  it('type 32 below RD$250,000 encodes the ConsultaTimbreFC URL', async () => {
    const { doc, ctx } = minimal('32');
    const xml = await signed('32', doc, ctx);
    const qr = decodeQr(await renderPdf(xml, { environment: 'ecf' }), 1);
    expect(qr!.data).toMatch(/^https:\/\/fc\.dgii\.gov\.do\/ecf\/ConsultaTimbreFC\?RncEmisor=/);
    expect(qr!.data).toBe(qrUrlFromSignedXml(xml, { environment: 'ecf' }));
  });

  it('rich 31: items, discounts, payment, accents and ñ', async () => {
    const doc = richDocs['31']();
    assertValid('31', doc);
    const pdf = await renderPdf(await signed('31', doc), { environment: 'testecf' });
    const text = squash(pdfText(pdf));
    for (const s of [
      'Distribuidora Peña & Asociados, S.R.L.',
      'Ferretería La Ñapa',
      'Constructora Núñez & Hermanos, S.A.',
      'Ing. Ramón Ibáñez',
      'Manual técnico «Construcción sismorresistente»',
      'Distrito Nacional',
      'Tel.: 809-555-0101 / 829-555-0103',
      'Sucursal: Piantini',
      'Tipo de pago: Crédito',
      'Fecha límite de pago: 01-05-2026',
      'Factura interna: FI-2026-0451',
      'Descuentos y recargos globales',
      'Descuento por pronto pago',
      'Venta a Crédito',
      'Saco',
      'Pieza',
      'Exento',
      'ITBIS 18%',
      '-2,793.00',
      'Descuento 5%: 2,793.00',
      `Total ITBIS ${formatMoney(doc.totales.total_itbis)}`,
      `Monto exento ${formatMoney(doc.totales.monto_exento)}`,
    ]) {
      expect(text).toContain(s);
    }
  });

  it('rich 46: foreign buyer with country, customs and transport', async () => {
    const doc = richDocs['46']();
    assertValid('46', doc);
    const pdf = await renderPdf(await signed('46', doc), { environment: 'certecf' });
    const text = squash(pdfText(pdf));
    for (const s of [
      'Comprobante Electrónico para Exportaciones',
      'Identificador extranjero: EIN 12-3456789',
      'País: Estados Unidos',
      'Informaciones adicionales',
      'Puerto de embarque: Puerto de Haina',
      'Total FOB: 740,000.00',
      'Peso bruto: 2,450.5 Kilogramo',
      'Transporte',
      'Vía de transporte: Marítima',
      'País de destino: Estados Unidos',
      'ITBIS 0%',
      'TOTAL RD$ 740,000.00',
    ]) {
      expect(text).toContain(s);
    }
    expect(text).not.toContain('RNC/Cédula:');
  });

  it('33 and 34 print the reference block; 34 hides the sequence expiry', async () => {
    for (const tipo of ['33', '34'] as const) {
      const { doc, ctx } = minimal(tipo);
      const text = squash(pdfText(await renderPdf(await signed(tipo, doc, ctx), { environment: 'certecf' })));
      expect(text).toContain('Información de referencia');
      expect(text).toContain(`NCF modificado: ${doc.referencia.ncf_modificado}`);
      expect(text).toContain(`Fecha del NCF modificado: ${doc.referencia.fecha_ncf_modificado}`);
      expect(text).toContain('Código de modificación: 3 - Corrige montos del NCF modificado');
      expect(text).toContain(`Razón de la modificación: ${doc.referencia.razon_modificacion}`);
    }
  });

  it('41 and 47 print the withholdings', async () => {
    const t41 = squash(pdfText(await renderPdf(await signed('41', minimal('41').doc, minimal('41').ctx), { environment: 'certecf' })));
    expect(t41).toContain('Datos del proveedor');
    expect(t41).toContain('ITBIS retenido 36.00');
    expect(t41).toContain('ISR retenido 20.00');
    const t47 = squash(pdfText(await renderPdf(await signed('47', minimal('47').doc, minimal('47').ctx), { environment: 'certecf' })));
    expect(t47).toContain('Datos del beneficiario');
    expect(t47).toContain('ISR retenido 270.00');
  });

  it('places the QR lower-left: ≥ 22 mm wide, ≥ 20 mm from the left and bottom edges, code and date below it', async () => {
    const doc = richDocs['31']();
    const pdf = await renderPdf(await signed('31', doc), { environment: 'certecf' });
    const dpi = 150;
    const px = (pt: number) => (pt / 72) * dpi;
    const { PNG } = await import('pngjs');
    const { rasterize } = await import('./tools.js');
    const png = PNG.sync.read(rasterize(pdf, 1, dpi));
    const jsQR = (await import('jsqr')).default;
    const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)!;
    expect(code).not.toBeNull();
    const { topLeftCorner: tl, bottomLeftCorner: bl, topRightCorner: tr } = code.location;
    expect(tr.x - tl.x).toBeGreaterThanOrEqual(px(22 * MM) - 2);
    expect(Math.min(tl.x, bl.x)).toBeGreaterThanOrEqual(px(20 * MM) - 2);
    expect(png.height - Math.max(bl.y)).toBeGreaterThanOrEqual(px(20 * MM) - 2);
    expect(tl.y).toBeGreaterThan(png.height / 2);
    expect(tl.x).toBeLessThan(png.width / 3);
    // The security code and the signing date are printed below the symbol.
    const words = pageWords(pdf, 1);
    const codeWord = words.find((w) => w.text === 'Seguridad:')!;
    const dateWord = words.find((w) => w.text === 'Firma' && words.some((o) => o.text === 'Digital:' && Math.abs(o.yMin - w.yMin) < 1))!;
    const qrBottomPt = (bl.y / dpi) * 72;
    expect(codeWord.yMin).toBeGreaterThan(qrBottomPt);
    expect(dateWord.yMin).toBeGreaterThan(codeWord.yMin);
  });

  it('is deterministic: same input, same bytes; dates come from FechaHoraFirma', async () => {
    const xml = await signed('31', richDocs['31']());
    const a = await renderPdf(xml, { environment: 'certecf' });
    const b = await renderPdf(xml, { environment: 'certecf' });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const info = pdfInfo(a);
    expect(info.CreationDate).toBe('2026-04-01T14:00:00Z');
    expect(info.ModDate).toBe('2026-04-01T14:00:00Z');
    expect(info.Title).toBe('Factura de Crédito Fiscal Electrónica E310000000001');
    expect(info.Author).toBe(ISSUER.razon_social);
  });

  it('golden: a fixed document (no signing: fixed security code) always gives the same bytes', async () => {
    const { createHash } = await import('node:crypto');
    const { context } = await import('./fixtures.js');
    const pdf = await renderPdf(
      { tipo: '31', document: richDocs['31'](), context: context('31'), fecha_hora_firma: SIGNED_AT_TEXT, securityCode: 'Ab+/12' },
      { environment: 'ecf' },
    );
    // A deliberate layout change (or a pdf-lib upgrade) changes this hash: look at the output, then update it.
    // Last: the QR drawn as rectangles instead of an SVG path (pixel-identical pages at 150 dpi, smaller file).
    expect(createHash('sha256').update(pdf).digest('hex')).toBe('aacd4f090416bc3d81ac332342d88d331c4ba195190812cb410892ad3be800e2');
  });

  it('accepts a parsed document plus its security code and gives the same QR', async () => {
    const xml = await signed('31', richDocs['31']());
    const parsed = parseEcfXml(xml);
    const pdf = await renderPdf({ ...parsed, securityCode: securityCode(xml) }, { environment: 'certecf' });
    expect(decodeQr(pdf, 1)!.data).toBe(qrUrlFromSignedXml(xml, { environment: 'certecf' }));
    expect(squash(pdfText(pdf))).toContain(`Código de Seguridad: ${securityCode(xml)}`);
  });

  it('embeds a PNG logo and honours the A4 page size', async () => {
    const { PNG } = await import('pngjs');
    const logo = new PNG({ width: 120, height: 60 });
    for (let i = 0; i < logo.data.length; i += 4) logo.data.set([20, 60, 100, 255], i);
    const xml = await signed('31', richDocs['31']());
    const pdf = await renderPdf(xml, { environment: 'certecf', logo: PNG.sync.write(logo), pageSize: 'a4' });
    expect(pdfInfo(pdf)['Page size']).toMatch(/^595\.2\d* x 841\.8\d* pts \(A4\)/);
    expect(Buffer.from(pdf).includes(Buffer.from('/Subtype /Image'))).toBe(true);
    await expect(renderPdf(xml, { environment: 'certecf', logo: new Uint8Array([1, 2, 3]) })).rejects.toThrow(/PNG or JPEG/);
  });

  it('rejects unsigned XML and a missing environment', async () => {
    const { buildEcfXmlFromJson } = await import('../../../src/ecf/xml/ecf.js');
    const { doc, ctx } = minimal('31');
    await expect(renderPdf(buildEcfXmlFromJson('31', doc, ctx), { environment: 'certecf' })).rejects.toThrow(/signed e-CF only/);
    await expect(renderPdf(await signed('31', doc, ctx), {} as never)).rejects.toThrow(/environment/);
  });

  it('wraps an 80-character item name inside the description column', async () => {
    const pdf = await renderPdf(await signed('31', richDocs['31']()), { environment: 'certecf' });
    const words = pageWords(pdf, 1);
    const header = (t: string) => words.find((w) => w.text === t)!;
    const descLeft = header('Descripción').xMin;
    // Right edge of the description column ≤ left of the (right-aligned) price header and price value.
    const priceLeft = Math.min(header('Precio').xMin, header('1,185.25').xMin);
    const nameWords = LONG_NAME.split(' ');
    const first = words.findIndex((w) => w.text === nameWords[0]);
    expect(first).toBeGreaterThan(-1);
    const placed = words.slice(first, first + nameWords.length);
    expect(placed.map((w) => w.text)).toEqual(nameWords);
    for (const w of placed) {
      expect(w.xMin).toBeGreaterThanOrEqual(descLeft - 0.5);
      expect(w.xMax).toBeLessThan(priceLeft);
    }
    // More than one line: the words do not all share the first word's baseline.
    expect(new Set(placed.map((w) => Math.round(w.yMin))).size).toBeGreaterThan(1);
  });
});
