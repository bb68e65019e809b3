import { describe, expect, it } from 'vitest';
import { fileNameFor } from '../../../src/ecf/derive/file-name.js';
import { ARECF_MOTIVOS, buildArecfXml, parseArecfXml, type ArecfInput, type ArecfMotivo } from '../../../src/ecf/documents/arecf.js';
import { signXml } from '../../../src/ecf/sign/sign-xml.js';
import { splitSigned } from '../sign/reference.js';
import { expectSignedAndValid, issuesOf, testSigner } from './support.js';

const received: ArecfInput = {
  rnc_emisor: '130000001',
  rnc_comprador: '131880738',
  encf: 'E310000000001',
  estado: '0',
  fecha_hora_acuse_recibo: '01-04-2026 10:00:00',
};

describe('ARECF (acuse de recibo)', () => {
  it('received (estado 0): builds the XSD order, signs, validates against the ARECF XSD, verifies', async () => {
    const xml = buildArecfXml(received);
    expect(xml).toBe(
      '<?xml version="1.0" encoding="utf-8"?><ARECF><DetalleAcusedeRecibo><Version>1.0</Version><RNCEmisor>130000001</RNCEmisor>' +
        '<RNCComprador>131880738</RNCComprador><eNCF>E310000000001</eNCF><Estado>0</Estado>' +
        '<FechaHoraAcuseRecibo>01-04-2026 10:00:00</FechaHoraAcuseRecibo></DetalleAcusedeRecibo></ARECF>',
    );
    const signed = await signXml(xml, testSigner());
    expect(splitSigned(signed).rest).toBe(xml);
    expectSignedAndValid(signed, 'ARECF');
    expect(fileNameFor(signed)).toBe('131880738E310000000001.xml');
  });

  for (const motivo of Object.keys(ARECF_MOTIVOS) as ArecfMotivo[]) {
    it(`not received (estado 1) with motivo ${motivo} (${ARECF_MOTIVOS[motivo]}): signed and valid`, async () => {
      const xml = buildArecfXml({ ...received, estado: '1', codigo_motivo_no_recibido: motivo });
      expect(xml).toContain(`<Estado>1</Estado><CodigoMotivoNoRecibido>${motivo}</CodigoMotivoNoRecibido><FechaHoraAcuseRecibo>`);
      expectSignedAndValid(await signXml(xml, testSigner()), 'ARECF');
    });
  }

  it('the motivo is required iff estado is 1', () => {
    expect(issuesOf(() => buildArecfXml({ ...received, estado: '1' }))).toEqual([
      expect.objectContaining({ code: 'required', path: 'codigo_motivo_no_recibido', message: expect.stringMatching(/requerido cuando el estado es 1/) }),
    ]);
    expect(issuesOf(() => buildArecfXml({ ...received, codigo_motivo_no_recibido: '2' }))).toEqual([
      expect.objectContaining({
        code: 'not_allowed',
        path: 'codigo_motivo_no_recibido',
        message: expect.stringMatching(/solo se indica cuando el estado es 1/),
      }),
    ]);
  });

  it('refuses bad values with Spanish messages and paths, all at once', () => {
    const issues = issuesOf(() =>
      buildArecfXml({
        ...received,
        rnc_emisor: '13000',
        encf: 'E31',
        estado: '2' as '0',
        codigo_motivo_no_recibido: '5' as ArecfMotivo,
        fecha_hora_acuse_recibo: '2026-04-01 10:00',
      }),
    );
    expect(issues.map((i) => i.path).sort()).toEqual(['codigo_motivo_no_recibido', 'encf', 'estado', 'fecha_hora_acuse_recibo', 'rnc_emisor']);
    for (const i of issues) expect(i.message).toMatch(/[áéíóúñ]|inválido|Debe|Valor/);
  });

  it('parse: round trip of the signed document, version and signature reported', async () => {
    for (const input of [received, { ...received, estado: '1', codigo_motivo_no_recibido: '4' } as ArecfInput]) {
      const signed = await signXml(buildArecfXml(input), testSigner());
      expect(parseArecfXml(signed)).toEqual({ data: input, version: '1.0', signed: true, issues: [] });
      expect(parseArecfXml(buildArecfXml(input))).toEqual({ data: input, version: '1.0', signed: false, issues: [] });
    }
  });

  it('parse: reports a motivo that contradicts Estado, and refuses another root', () => {
    const xml = buildArecfXml(received).replace('<Estado>0</Estado>', '<Estado>1</Estado>');
    expect(parseArecfXml(xml).issues).toEqual([expect.objectContaining({ code: 'required', path: '/ARECF/DetalleAcusedeRecibo/CodigoMotivoNoRecibido' })]);
    expect(() => parseArecfXml('<ACECF><DetalleAprobacionComercial/></ACECF>')).toThrow(/Se esperaba un documento ARECF/);
    expect(() => parseArecfXml('<ARECF>')).toThrow(/mal formado/);
  });
});
