import { describe, expect, it } from 'vitest';
import { fileNameFor } from '../../../src/ecf/derive/file-name.js';
import { ACECF_TYPES, buildAcecfXml, parseAcecfXml, type AcecfInput } from '../../../src/ecf/documents/acecf.js';
import { signXml } from '../../../src/ecf/sign/sign-xml.js';
import { splitSigned } from '../sign/reference.js';
import { expectSignedAndValid, issuesOf, testSigner } from './support.js';

const approve: AcecfInput = {
  rnc_emisor: '130000001',
  encf: 'E310000000001',
  fecha_emision: '01-04-2026',
  monto_total: 35400,
  rnc_comprador: '131880738',
  estado: '1',
  fecha_hora_aprobacion_comercial: '02-04-2026 09:15:00',
};

/** 250 characters, with every character DGII wants escaped. */
const LONG_REASON = `Precio "distinto" & cantidad <menor> a la orden 'OC-77'; ${'ñ'.repeat(250)}`.slice(0, 250);

describe('ACECF (aprobación comercial)', () => {
  it('approve: MontoTotal with exactly 2 decimals (35400 → 35400.00), signed, valid against the ACECF XSD, verifies', async () => {
    const xml = buildAcecfXml(approve);
    expect(xml).toBe(
      '<?xml version="1.0" encoding="utf-8"?><ACECF><DetalleAprobacionComercial><Version>1.0</Version><RNCEmisor>130000001</RNCEmisor>' +
        '<eNCF>E310000000001</eNCF><FechaEmision>01-04-2026</FechaEmision><MontoTotal>35400.00</MontoTotal><RNCComprador>131880738</RNCComprador>' +
        '<Estado>1</Estado><FechaHoraAprobacionComercial>02-04-2026 09:15:00</FechaHoraAprobacionComercial></DetalleAprobacionComercial></ACECF>',
    );
    const signed = await signXml(xml, testSigner());
    expectSignedAndValid(signed, 'ACECF');
    expect(fileNameFor(signed)).toBe('131880738E310000000001.xml');
  });

  it('MontoTotal is always written with 2 decimals', () => {
    for (const [n, text] of [
      [0.1, '0.10'],
      [1180.5, '1180.50'],
      [7, '7.00'],
      [123456789.99, '123456789.99'],
    ] as const) {
      expect(buildAcecfXml({ ...approve, monto_total: n })).toContain(`<MontoTotal>${text}</MontoTotal>`);
    }
    expect(issuesOf(() => buildAcecfXml({ ...approve, monto_total: 10.005 }))).toEqual([expect.objectContaining({ code: 'decimals', path: 'monto_total' })]);
  });

  it('reject with a 250-character reason: entity references kept in the signed bytes, valid, verifies', async () => {
    expect([...LONG_REASON]).toHaveLength(250);
    const xml = buildAcecfXml({ ...approve, estado: '2', detalle_motivo_rechazo: LONG_REASON });
    expect(xml).toContain('<DetalleMotivoRechazo>Precio &quot;distinto&quot; &amp; cantidad &lt;menor&gt; a la orden &apos;OC-77&apos;; ñññ');
    const signed = await signXml(xml, testSigner());
    expect(splitSigned(signed).rest).toBe(xml);
    expectSignedAndValid(signed, 'ACECF');
  });

  it('a reason longer than 250 characters is refused', () => {
    expect(issuesOf(() => buildAcecfXml({ ...approve, estado: '2', detalle_motivo_rechazo: `${LONG_REASON}x` }))).toEqual([
      expect.objectContaining({ code: 'max_length', path: 'detalle_motivo_rechazo' }),
    ]);
  });

  it('the reason is required iff estado is 2', () => {
    expect(issuesOf(() => buildAcecfXml({ ...approve, estado: '2' }))).toEqual([
      expect.objectContaining({ code: 'required', path: 'detalle_motivo_rechazo', message: expect.stringMatching(/requerido cuando el estado es 2/) }),
    ]);
    expect(issuesOf(() => buildAcecfXml({ ...approve, detalle_motivo_rechazo: 'No' }))).toEqual([
      expect.objectContaining({ code: 'not_allowed', path: 'detalle_motivo_rechazo' }),
    ]);
  });

  it('types that admit approval (31, 33, 34, 44, 45) build; 32, 41, 43, 46 and 47 are refused', async () => {
    expect([...ACECF_TYPES]).toEqual(['31', '33', '34', '44', '45']);
    for (const t of ACECF_TYPES) expectSignedAndValid(await signXml(buildAcecfXml({ ...approve, encf: `E${t}0000000009` }), testSigner()), 'ACECF');
    for (const t of ['32', '41', '43', '46', '47']) {
      expect(issuesOf(() => buildAcecfXml({ ...approve, encf: `E${t}0000000009` }))).toEqual([
        expect.objectContaining({ code: 'rule', path: 'encf', message: `El tipo ${t} no admite aprobación comercial (solo 31, 33, 34, 44, 45).` }),
      ]);
    }
  });

  it('refuses bad dates and RNCs with paths', () => {
    const issues = issuesOf(() =>
      buildAcecfXml({ ...approve, fecha_emision: '2026-04-01', rnc_comprador: '1', fecha_hora_aprobacion_comercial: '02-04-2026' }),
    );
    expect(issues.map((i) => i.path).sort()).toEqual(['fecha_emision', 'fecha_hora_aprobacion_comercial', 'rnc_comprador']);
  });

  it('parse: round trip of approve and reject, signed or not', async () => {
    const reject: AcecfInput = { ...approve, estado: '2', detalle_motivo_rechazo: LONG_REASON };
    for (const input of [approve, reject]) {
      const xml = buildAcecfXml(input);
      expect(parseAcecfXml(xml)).toEqual({ data: input, version: '1.0', signed: false, issues: [] });
      expect(parseAcecfXml(await signXml(xml, testSigner()))).toEqual({ data: input, version: '1.0', signed: true, issues: [] });
    }
  });

  it('parse: reports broken rules with XML paths', () => {
    const xml = buildAcecfXml(approve).replace('<Estado>1</Estado>', '<Estado>2</Estado>').replace('E310000000001', 'E320000000001');
    expect(parseAcecfXml(xml).issues).toEqual([
      expect.objectContaining({ code: 'required', path: '/ACECF/DetalleAprobacionComercial/DetalleMotivoRechazo' }),
      expect.objectContaining({ code: 'rule', path: '/ACECF/DetalleAprobacionComercial/eNCF' }),
    ]);
  });
});
