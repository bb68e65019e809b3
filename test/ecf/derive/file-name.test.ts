import { describe, expect, it } from 'vitest';
import { dgiiFileName, fileNameFor } from '../../../src/ecf/derive/file-name.js';
import { compactEcf31, noDeclaration } from '../sign/fixtures.js';

describe('dgiiFileName', () => {
  it('is RNC + e-NCF + .xml', () => {
    expect(dgiiFileName('130000001', 'E310000000001')).toBe('130000001E310000000001.xml');
    expect(dgiiFileName('00199999996', 'E320000000064')).toBe('00199999996E320000000064.xml');
  });

  it('rejects malformed RNC / e-NCF (DGII rejects bad file-name lengths, code 3243)', () => {
    expect(() => dgiiFileName('13000000', 'E310000000001')).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
    expect(() => dgiiFileName('130000001', 'E31000000001')).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
    expect(() => dgiiFileName('130000001', 'e310000000001')).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
  });
});

describe('fileNameFor', () => {
  it('e-CF and RFCE use RNCEmisor', () => {
    expect(fileNameFor(compactEcf31)).toBe('130000001E310000000001.xml');
    const rfce = '<RFCE><Encabezado><IdDoc><eNCF>E320000000064</eNCF></IdDoc><Emisor><RNCEmisor>131880738</RNCEmisor></Emisor></Encabezado></RFCE>';
    expect(fileNameFor(rfce)).toBe('131880738E320000000064.xml');
  });

  it('ARECF and ACECF use RNCComprador', () => {
    expect(fileNameFor(noDeclaration)).toBe('131880738E310000000001.xml');
    const acecf =
      '<ACECF><DetalleAprobacionComercial><Version>1.0</Version><RNCEmisor>130000001</RNCEmisor><eNCF>E310000000001</eNCF>' +
      '<RNCComprador>00199999996</RNCComprador></DetalleAprobacionComercial></ACECF>';
    expect(fileNameFor(acecf)).toBe('00199999996E310000000001.xml');
  });

  it('documents without a naming rule, or missing fields, are reported', () => {
    expect(() => fileNameFor('<ANECF><Encabezado/></ANECF>')).toThrow(expect.objectContaining({ code: 'unsupported_document' }));
    expect(() => fileNameFor('<ECF><Encabezado/></ECF>')).toThrow(expect.objectContaining({ code: 'missing_field' }));
  });
});
