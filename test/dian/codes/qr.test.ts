/** The QR search URL per environment and the printed QR text lines (dian-protocol.md §3.4, §3.7). */
import { describe, expect, it } from 'vitest';
import { cufe, invoiceQrText, qrUrl, supportDocumentQrText } from '../../../src/dian/index.js';

const KEY = '8bb918b19ba22a694f1da11c643b5e9de39adf60311cf179179e9b33381030bcd4c3c3f156c506ed5908f9276f5bd9b4';

describe('qrUrl', () => {
  it('production (1) and habilitación (2) hosts', () => {
    expect(qrUrl(KEY, '1')).toBe(`https://catalogo-vpfe.dian.gov.co/document/searchqr?documentkey=${KEY}`);
    expect(qrUrl(KEY, '2')).toBe(`https://catalogo-vpfe-hab.dian.gov.co/document/searchqr?documentkey=${KEY}`);
  });

  it('refuses a key that is not a SHA-384 hex code, and an unknown environment', () => {
    expect(() => qrUrl(KEY.toUpperCase(), '1')).toThrow(/qrUrl: documentKey must be a SHA-384 code in lower-case hex/);
    expect(() => qrUrl(KEY.slice(1), '1')).toThrow(/documentKey/);
    expect(() => qrUrl(KEY, '0' as '1')).toThrow(/qrUrl: environment must be "1" \(production\) or "2"/);
  });
});

describe('invoiceQrText', () => {
  it('the annex invoice: ten lines then the URL; other taxes summed exactly, then truncated', () => {
    const text = invoiceQrText({
      id: '323200000129',
      issueDate: '2019-01-16',
      issueTime: '10:53:10-05:00',
      supplierCompanyId: '700085371',
      customerCompanyId: '800199436',
      lineExtensionAmount: '1500000.00',
      ivaTaxAmount: '285000.00',
      otherTaxAmounts: ['0.005', '0.005', '1.10'],
      payableAmount: '1785000.00',
      documentKey: KEY,
      environment: '1',
    });
    expect(text.split('\n')).toEqual([
      'NumFac: 323200000129',
      'FecFac: 2019-01-16',
      'HorFac: 10:53:10-05:00',
      'NitFac: 700085371',
      'DocAdq: 800199436',
      'ValFac: 1500000.00',
      'ValIva: 285000.00',
      'ValOtroIm: 1.11',
      'ValTolFac: 1785000.00',
      `CUFE: ${KEY}`,
      `https://catalogo-vpfe.dian.gov.co/document/searchqr?documentkey=${KEY}`,
    ]);
  });

  it('no IVA and no other taxes: 0.00; a note labels its key CUDE', () => {
    const lines = invoiceQrText({
      id: 'NC1',
      issueDate: '2024-01-02',
      issueTime: '08:00:00-05:00',
      supplierCompanyId: '1',
      customerCompanyId: '2',
      lineExtensionAmount: '10',
      payableAmount: '10',
      documentKey: KEY,
      keyLabel: 'CUDE',
      environment: '2',
    }).split('\n');
    expect(lines.slice(6)).toEqual([
      'ValIva: 0.00',
      'ValOtroIm: 0.00',
      'ValTolFac: 10.00',
      `CUDE: ${KEY}`,
      `https://catalogo-vpfe-hab.dian.gov.co/document/searchqr?documentkey=${KEY}`,
    ]);
  });

  it('refuses a negative other tax with its index', () => {
    expect(() =>
      invoiceQrText({
        id: 'X',
        issueDate: '2024-01-02',
        issueTime: '08:00:00-05:00',
        supplierCompanyId: '1',
        customerCompanyId: '2',
        lineExtensionAmount: '10',
        otherTaxAmounts: ['1', '-2'],
        payableAmount: '10',
        documentKey: KEY,
        environment: '1',
      }),
    ).toThrow(/invoiceQrText: otherTaxAmounts.1 "-2" is negative/);
  });
});

describe('supportDocumentQrText', () => {
  it('nine lines then the URL, amounts truncated', () => {
    const text = supportDocumentQrText({
      id: 'DS100',
      issueDate: '2024-07-01',
      issueTime: '14:00:59-05:00',
      supplierCompanyId: '1020304050',
      customerCompanyId: '900123456',
      lineExtensionAmount: '250000.509',
      ivaTaxAmount: '47500.0999',
      payableAmount: '297500.6',
      documentKey: KEY,
      environment: '2',
    });
    expect(text).toBe(
      [
        'NumDS: DS100',
        'FecDS: 2024-07-01',
        'HorDS: 14:00:59-05:00',
        'NumSNO: 1020304050',
        'DocABS: 900123456',
        'ValDS: 250000.50',
        'ValIva: 47500.09',
        'ValTolDS: 297500.60',
        `CUDS: ${KEY}`,
        `https://catalogo-vpfe-hab.dian.gov.co/document/searchqr?documentkey=${KEY}`,
      ].join('\n'),
    );
  });

  it('the URL carries the code computed from the same document', () => {
    const { hash } = cufe({
      id: '1',
      issueDate: '2024-01-01',
      issueTime: '00:00:00-05:00',
      lineExtensionAmount: '1',
      payableAmount: '1',
      supplierCompanyId: '1',
      customerCompanyId: '2',
      technicalKey: 'k',
      environment: '1',
    });
    expect(qrUrl(hash, '1').endsWith(`documentkey=${hash}`)).toBe(true);
  });
});
