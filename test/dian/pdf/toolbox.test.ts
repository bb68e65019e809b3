/** DIAN's toolbox samples print (documents built elsewhere), and input that is no printable DIAN document is a value. */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readUbl } from '../../../src/dian/index.js';
import { dianPdf, readDianPdfInput, renderDianPdf, dianPdfModel } from '../../../src/dian/pdf/index.js';
import { decodeQr, pageCount, pdfText, squash } from './fixtures.js';

const DIR = resolve(import.meta.dirname, '../fixtures/toolbox');
const read = (f: string) => readFileSync(resolve(DIR, f), 'utf8');
const SAMPLES = readdirSync(DIR).filter((f) => f.endsWith('.xml'));
const NOT_PRINTED = SAMPLES.filter((f) => /^03\d-|^nomina/.test(f));
const PRINTED = SAMPLES.filter((f) => !NOT_PRINTED.includes(f));

describe('dianPdf on DIAN toolbox samples', () => {
  it('covers the samples: 37 invoices and notes print, 5 events and 2 payroll documents do not', () => {
    expect(PRINTED).toHaveLength(37);
    expect(NOT_PRINTED).toHaveLength(7);
  });

  it.each(PRINTED)('%s prints its number, its code and its payable amount', async (file) => {
    const xml = read(file);
    const r = await dianPdf(xml);
    if (!r.ok) throw new Error(r.message);
    const text = squash(pdfText(r.pdf));
    const id = /<cbc:ID>([^<]+)<\/cbc:ID>/.exec(xml.slice(xml.indexOf('</ext:UBLExtensions>')))![1]!.trim();
    expect(text).toContain(`No. ${id}`);
    expect(text).toContain(r.model.code.value);
    expect(r.model.code.value).toMatch(/^[0-9a-f]{96}$/);
    const payable = /<cbc:PayableAmount[^>]*>([^<]+)</.exec(xml)![1]!;
    expect(text).toContain(Number(payable).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
  });

  it("encodes generica.xml's own sts:QRCode text (lines and URL), not a URL of ours", async () => {
    const xml = read('generica.xml');
    // The file has CRLF line ends and &amp; in the URL; as XML text they are LF (XML 1.0 §2.11) and &, and so is the QR.
    const declared = /<sts:QRCode>([\s\S]*?)<\/sts:QRCode>/.exec(xml)![1]!.trim().replace(/\r\n/g, '\n').replace(/&amp;/g, '&');
    expect(declared).toContain('NroFactura=SETP990000002');
    const r = await dianPdf(xml);
    if (!r.ok) throw new Error(r.message);
    expect(decodeQr(r.pdf, pageCount(r.pdf), 200)?.data).toBe(declared);
  });

  it('prints the toolbox export invoice in USD with its COP equivalent', async () => {
    const r = await dianPdf(read('exportacion.xml'));
    if (!r.ok) throw new Error(r.message);
    const text = squash(pdfText(r.pdf));
    expect(text).toContain('Conversión: USD a COP');
    expect(text).toContain('Tasa de cambio: 3,100.00');
    expect(text).toContain('Total a pagar USD 14,024.07');
    // 14,024.07 × 3,100 = 43,474,617.00
    expect(text).toContain('COP 43,474,617.00');
    expect(text.replace(/\s+/g, ' ')).toContain('Son: Catorce mil veinticuatro dólares estadounidenses con siete centavos');
  });
});

describe('dianPdf: input that cannot be printed is a value', () => {
  it.each(NOT_PRINTED)('%s is an unsupported document', async (file) => {
    const r = await dianPdf(read(file));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.code).toBe('unsupported_document');
      expect(r.message).toMatch(/No hay representación gráfica para este documento \(raíz (ApplicationResponse|NominaIndividual\w*)\)/);
    }
  });

  it('text that is not XML, an unknown root and a bad format', async () => {
    const notXml = await dianPdf('esto no es XML');
    expect(notXml).toMatchObject({ ok: false, code: 'not_xml' });
    const other = await dianPdf('<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>');
    expect(other).toMatchObject({ ok: false, code: 'unsupported_document' });
    const format = await dianPdf(read('generica.xml'), { format: 'letter' as 'a4' });
    expect(format).toMatchObject({ ok: false, code: 'invalid_option' });
    expect(await dianPdf(undefined as unknown as string)).toMatchObject({ ok: false, code: 'not_xml' });
  });

  it('a document without sts:QRCode nor a 96-character code has no QR to print', async () => {
    const xml = read('generica.xml')
      .replace(/<sts:QRCode>[\s\S]*?<\/sts:QRCode>/, '')
      .replace(/<cbc:UUID([^>]*)>[^<]*</, '<cbc:UUID$1>no-es-un-cufe<');
    const r = await dianPdf(xml);
    expect(r).toMatchObject({ ok: false, code: 'missing_code' });
  });

  it('without sts:QRCode, the QR is the search URL of its code, by environment', async () => {
    const xml = read('generica.xml').replace(/<sts:QRCode>[\s\S]*?<\/sts:QRCode>/, '');
    const input = readDianPdfInput(xml);
    if (!input.ok) throw new Error(input.message);
    const uuid = input.input.codes.uuid!;
    expect(input.input.codes.qrText).toBe(`https://catalogo-vpfe-hab.dian.gov.co/document/searchqr?documentkey=${uuid}`);
    const root = readUbl(xml.replace(/<cbc:ProfileExecutionID>2</, '<cbc:ProfileExecutionID>1<'));
    if (!root.ok) throw new Error(root.message);
    const prod = readDianPdfInput(root.root);
    expect(prod.ok && prod.input.codes.qrText).toBe(`https://catalogo-vpfe.dian.gov.co/document/searchqr?documentkey=${uuid}`);
    const pdf = await renderDianPdf(dianPdfModel(input.input));
    expect(decodeQr(pdf, pageCount(pdf))?.data).toBe(input.input.codes.qrText);
  });

  it('renderDianPdf refuses an unknown format with an EcfError', async () => {
    const input = readDianPdfInput(read('generica.xml'));
    if (!input.ok) throw new Error(input.message);
    await expect(renderDianPdf(dianPdfModel(input.input), { format: 'a5' as 'a4' })).rejects.toThrow(/format must be "a4" or "receipt80"/);
  });
});
