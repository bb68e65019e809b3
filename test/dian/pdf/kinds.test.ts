/**
 * dianPdf on every kind's signed maximal example: the text pdftotext reads (title, number, code, payable total,
 * signing time), the QR as jsQR decodes it, identical bytes for the same input, and the kind-specific blocks.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DIAN_KINDS, DOCUMENT_TYPES, type DianKindId } from '../../../src/dian/index.js';
import { dianPdf, type DianPdfResult } from '../../../src/dian/pdf/index.js';
import { formatMoney } from '../../../src/shared/pdf/numbers.js';
import { decodeQr, pageCount, pdfInfo, pdfText, signedExample, squash } from './fixtures.js';

const KINDS = Object.keys(DIAN_KINDS) as DianKindId[];
const LABEL: Record<string, string> = { 'CUFE-SHA384': 'CUFE', 'CUDE-SHA384': 'CUDE', 'CUDS-SHA384': 'CUDS' };

interface Case {
  xml: string;
  request: Record<string, any>;
  hash: string;
  qrUrl: string;
  result: DianPdfResult & { ok: true };
  text: string;
}
const cases = {} as Record<DianKindId, Case>;

beforeAll(async () => {
  for (const kind of KINDS) {
    const ex = await signedExample(kind);
    const result = await dianPdf(ex.xml);
    if (!result.ok) throw new Error(`${kind}: ${result.message}`);
    cases[kind] = { ...ex, result, text: squash(pdfText(result.pdf)) };
  }
}, 120_000);

describe.each(KINDS)('dianPdf: %s', (kind) => {
  it('prints the title, number, code with its label and the payable total', () => {
    const c = cases[kind];
    const type = DOCUMENT_TYPES[c.request.document_type_code]!;
    const totals = c.request[DIAN_KINDS[kind].totalsField];
    expect(c.text).toContain(type.printTitle);
    expect(c.text).toContain(`No. ${c.request.prefix ?? ''}${c.request.number}`);
    expect(c.text).toContain(`${LABEL[type.uuidScheme]} ${c.hash}`);
    expect(c.text).toMatch(new RegExp(`Total a pagar ${c.request.currency_type_code} ${formatMoney(totals.payable_amount).replace(/\./g, '\\.')}`));
    expect(c.text).toContain('Representación gráfica');
    expect(c.text).toContain('Fecha y hora de firma 2025-03-14T10:30:00');
  });

  it("encodes the document's sts:QRCode (the search URL of its code) in a QR that decodes", () => {
    const c = cases[kind];
    const qr = decodeQr(c.result.pdf, pageCount(c.result.pdf));
    expect(qr?.data).toBe(c.qrUrl);
    expect(c.qrUrl).toContain(c.hash);
  });

  it('gives identical bytes for the same input, dated by the signing time', async () => {
    const c = cases[kind];
    const again = await dianPdf(c.xml);
    expect(again.ok && Buffer.from(again.pdf).equals(Buffer.from(c.result.pdf))).toBe(true);
    // 10:30 in Bogotá is 15:30 UTC (pdf-lib writes the instant in UTC).
    expect(pdfInfo(c.result.pdf).CreationDate).toBe('2025-03-14T15:30:00Z');
  });
});

describe('dianPdf: what differs by kind comes from the document', () => {
  it('invoices print the numbering resolution; notes do not', () => {
    expect(cases.invoice.text).toContain('Resolución DIAN: No. 18760000001 vigente del 2025-01-01 al 2026-');
    expect(cases.invoice.text).toContain('Rango autorizado: SETP990000000 al SETP995000000');
    expect(cases['credit-note'].text).not.toContain('Autorización de numeración');
  });

  it('notes print the corrected document and the correction concept', () => {
    const c = cases['credit-note'];
    expect(c.text).toContain('Documento referenciado');
    expect(c.text).toContain(`Número: ${c.request.billing_reference.number}`);
    expect(c.text).toContain('Concepto de corrección: 1 - Devolución parcial');
    expect(cases['debit-note'].text).toContain('Documento referenciado');
  });

  it('the support document names its parties by role: the request customer is the seller', () => {
    expect(cases['support-invoice'].text).toContain('Vendedor o prestador del servicio');
    expect(cases['support-invoice'].text).toContain('CUDS');
    expect(cases.invoice.text).toContain('Adquiriente');
  });

  it('the export invoice shows the exchange rate and the total in the other currency', () => {
    const c = cases['export-invoice'];
    expect(c.request.payment_exchange_rate.calculation_rate).toBe(4120.35);
    expect(c.text).toContain('Tasa de cambio: 4,120.35');
    expect(c.text).toContain('Conversión: USD a COP');
    // 14,363,000.00 COP ÷ 4,120.35 = 3,485.86…: rounded half-even to cents.
    expect(c.text).toMatch(/Equivalente en USD \(tasa 4,120\.35\) USD 3,485\.87/);
  });

  it('writes the total in Spanish words with the currency', () => {
    expect(cases.invoice.request.legal_monetary_totals.payable_amount).toBe(716700);
    expect(cases.invoice.text).toContain('Son: Setecientos dieciséis mil setecientos pesos M/CTE');
  });

  it('groups taxes by type and rate and lists withholdings apart', () => {
    const t = cases.invoice.text;
    expect(t).toMatch(/IVA 19% 830,400\.00 157,776\.00/);
    expect(t).toMatch(/INC Bolsas 66\.00 por 2 Unidad 400\.00 132\.00/);
    expect(t).toMatch(/ReteRenta 2\.5% 630,000\.00 15,750\.00/);
  });

  it('prints the software provider and the environment', () => {
    expect(cases.invoice.text).toContain('Proveedor tecnológico NIT 901458732-8');
    expect(cases.invoice.text).toContain('Ambiente 2 - Habilitación (pruebas)');
  });
});
