import { describe, expect, it } from 'vitest';
import { buildAnecfXml, composeEncf, MAX_ANECF_RANGES, parseAnecfXml, type AnecfInput } from '../../../src/ecf/documents/anecf.js';
import { signXml } from '../../../src/ecf/sign/sign-xml.js';
import { ECF_TYPES } from '../../../src/ecf/spec/model.js';
import { splitSigned } from '../sign/reference.js';
import { expectSignedAndValid, issuesOf, testSigner } from './support.js';

const base: AnecfInput = {
  rnc_emisor: '130000001',
  fecha_hora_anulacion_encf: '01-04-2026 10:00:00',
  anulaciones: [
    {
      tipo_ecf: '31',
      rangos: [
        { desde: 1, hasta: 5 },
        { desde: 10, hasta: 10 },
      ],
    },
    { tipo_ecf: '34', rangos: [{ desde: 9_999_999_990, hasta: 9_999_999_999 }] },
  ],
};

describe('ANECF (anulación de rangos)', () => {
  it('composes the 13-character e-NCF from the type and the consecutive', () => {
    expect(composeEncf('31', 1)).toBe('E310000000001');
    expect(composeEncf('47', 1234567)).toBe('E470001234567');
    expect(composeEncf('32', 9_999_999_999)).toBe('E329999999999');
    for (const t of ECF_TYPES) expect(composeEncf(t, 42)).toHaveLength(13);
  });

  it('writes the e-NCF, NoLinea and the counts per type and in total; signed, valid against the ANECF XSD, verifies', async () => {
    const xml = buildAnecfXml(base);
    expect(xml).toBe(
      '<?xml version="1.0" encoding="utf-8"?><ANECF><Encabezado><Version>1.0</Version><RncEmisor>130000001</RncEmisor>' +
        '<CantidadeNCFAnulados>16</CantidadeNCFAnulados><FechaHoraAnulacioneNCF>01-04-2026 10:00:00</FechaHoraAnulacioneNCF></Encabezado>' +
        '<DetalleAnulacion><Anulacion><NoLinea>1</NoLinea><TipoeCF>31</TipoeCF><TablaRangoSecuenciasAnuladaseNCF>' +
        '<Secuencias><SecuenciaeNCFDesde>E310000000001</SecuenciaeNCFDesde><SecuenciaeNCFHasta>E310000000005</SecuenciaeNCFHasta></Secuencias>' +
        '<Secuencias><SecuenciaeNCFDesde>E310000000010</SecuenciaeNCFDesde><SecuenciaeNCFHasta>E310000000010</SecuenciaeNCFHasta></Secuencias>' +
        '</TablaRangoSecuenciasAnuladaseNCF><CantidadeNCFAnulados>6</CantidadeNCFAnulados></Anulacion>' +
        '<Anulacion><NoLinea>2</NoLinea><TipoeCF>34</TipoeCF><TablaRangoSecuenciasAnuladaseNCF>' +
        '<Secuencias><SecuenciaeNCFDesde>E349999999990</SecuenciaeNCFDesde><SecuenciaeNCFHasta>E349999999999</SecuenciaeNCFHasta></Secuencias>' +
        '</TablaRangoSecuenciasAnuladaseNCF><CantidadeNCFAnulados>10</CantidadeNCFAnulados></Anulacion></DetalleAnulacion></ANECF>',
    );
    const signed = await signXml(xml, testSigner());
    expect(splitSigned(signed).rest).toBe(xml);
    expectSignedAndValid(signed, 'ANECF');
  });

  it('up to 10 types in one request (all ten e-CF types), signed and valid; an 11th is refused', async () => {
    const all: AnecfInput = { ...base, anulaciones: ECF_TYPES.map((t, i) => ({ tipo_ecf: t, rangos: [{ desde: 100 * i + 1, hasta: 100 * i + 1 + i }] })) };
    const xml = buildAnecfXml(all);
    expect(xml.match(/<Anulacion>/g)).toHaveLength(10);
    expect(xml).toContain('<CantidadeNCFAnulados>55</CantidadeNCFAnulados><FechaHoraAnulacioneNCF>');
    expect(xml).toContain('<NoLinea>10</NoLinea><TipoeCF>47</TipoeCF>');
    expectSignedAndValid(await signXml(xml, testSigner()), 'ANECF');
    const eleven = { ...all, anulaciones: [...all.anulaciones, { tipo_ecf: '31', rangos: [{ desde: 5000, hasta: 5000 }] }] };
    expect(issuesOf(() => buildAnecfXml(eleven))).toEqual([
      expect.objectContaining({ code: 'too_many', path: 'anulaciones', message: 'Admite como máximo 10 tipos de e-CF por solicitud.' }),
      expect.objectContaining({ code: 'rule', path: 'anulaciones.10.tipo_ecf', message: expect.stringMatching(/^El tipo 31 aparece más de una vez/) }),
    ]);
  });

  it('a type with 10,000 ranges: signed and valid; 10,001 ranges are refused', async () => {
    const rangos = Array.from({ length: MAX_ANECF_RANGES }, (_, i) => ({ desde: 3 * i + 1, hasta: 3 * i + 2 }));
    const xml = buildAnecfXml({ ...base, anulaciones: [{ tipo_ecf: '32', rangos }] });
    expect(xml.match(/<Secuencias>/g)).toHaveLength(10_000);
    expect(xml).toContain(
      '<SecuenciaeNCFDesde>E320000029998</SecuenciaeNCFDesde><SecuenciaeNCFHasta>E320000029999</SecuenciaeNCFHasta></Secuencias></TablaRangoSecuenciasAnuladaseNCF><CantidadeNCFAnulados>20000</CantidadeNCFAnulados>',
    );
    expectSignedAndValid(await signXml(xml, testSigner()), 'ANECF');
    const more = [...rangos, { desde: 40_000, hasta: 40_000 }];
    expect(issuesOf(() => buildAnecfXml({ ...base, anulaciones: [{ tipo_ecf: '32', rangos: more }] }))).toEqual([
      expect.objectContaining({ code: 'too_many', path: 'anulaciones.0.rangos', message: 'Admite como máximo 10,000 rangos por tipo.' }),
    ]);
  });

  it('inverted ranges are refused with the path of the range', () => {
    const input = {
      ...base,
      anulaciones: [
        {
          tipo_ecf: '31',
          rangos: [
            { desde: 1, hasta: 5 },
            { desde: 20, hasta: 11 },
          ],
        },
      ],
    };
    expect(issuesOf(() => buildAnecfXml(input))).toEqual([
      { code: 'rule', path: 'anulaciones.0.rangos.1', message: 'Rango invertido: desde (20) es mayor que hasta (11).', severity: 'error' },
    ]);
  });

  it('overlapping ranges of one type are refused, also a range inside an earlier, wider one', () => {
    const input = {
      ...base,
      anulaciones: [
        {
          tipo_ecf: '31',
          rangos: [
            { desde: 1, hasta: 100 },
            { desde: 5, hasta: 10 },
            { desde: 20, hasta: 30 },
            { desde: 101, hasta: 101 },
          ],
        },
        {
          tipo_ecf: '33',
          rangos: [
            { desde: 7, hasta: 9 },
            { desde: 1, hasta: 7 },
          ],
        },
      ],
    };
    expect(issuesOf(() => buildAnecfXml(input))).toEqual([
      { code: 'rule', path: 'anulaciones.0.rangos.1', message: 'El rango se solapa con el rango 0 del mismo tipo.', severity: 'error' },
      { code: 'rule', path: 'anulaciones.0.rangos.2', message: 'El rango se solapa con el rango 0 del mismo tipo.', severity: 'error' },
      { code: 'rule', path: 'anulaciones.1.rangos.1', message: 'El rango se solapa con el rango 0 del mismo tipo.', severity: 'error' },
    ]);
    // Adjacent ranges and the same consecutives under two types do not overlap.
    expect(() =>
      buildAnecfXml({
        ...base,
        anulaciones: [
          {
            tipo_ecf: '31',
            rangos: [
              { desde: 1, hasta: 5 },
              { desde: 6, hasta: 9 },
            ],
          },
          { tipo_ecf: '32', rangos: [{ desde: 1, hasta: 9 }] },
        ],
      }),
    ).not.toThrow();
  });

  it('refuses consecutives out of 1..9,999,999,999, unknown types, empty requests and a bad header, with paths', () => {
    const issues = issuesOf(() =>
      buildAnecfXml({
        rnc_emisor: '12',
        fecha_hora_anulacion_encf: '01-04-2026',
        anulaciones: [
          { tipo_ecf: '30', rangos: [{ desde: 0, hasta: 10_000_000_000 }] },
          { tipo_ecf: '31', rangos: [{ desde: 1.5, hasta: 2 }] },
          { tipo_ecf: '32', rangos: [] },
        ],
      }),
    );
    expect(issues.map((i) => `${i.code} ${i.path}`)).toEqual([
      'pattern rnc_emisor',
      'pattern fecha_hora_anulacion_encf',
      'enum anulaciones.0.tipo_ecf',
      'range anulaciones.0.rangos.0.desde',
      'range anulaciones.0.rangos.0.hasta',
      'range anulaciones.1.rangos.0.desde',
      'required anulaciones.2.rangos',
    ]);
    expect(issues.find((i) => i.path === 'anulaciones.0.rangos.0.desde')!.message).toBe('Debe ser un entero entre 1 y 9,999,999,999.');
    expect(issuesOf(() => buildAnecfXml({ ...base, anulaciones: [] }))).toEqual([
      expect.objectContaining({ code: 'required', path: 'anulaciones', message: 'Debe indicar al menos un rango a anular.' }),
    ]);
  });

  it('parse: round trip (consecutives back from the e-NCF), cantidad, signed', async () => {
    const xml = buildAnecfXml(base);
    expect(parseAnecfXml(xml)).toEqual({ data: base, version: '1.0', signed: false, issues: [], cantidad: 16 });
    expect(parseAnecfXml(await signXml(xml, testSigner()))).toMatchObject({ data: base, signed: true, issues: [], cantidad: 16 });
  });

  it('parse: reports counts that do not match the ranges and e-NCF of another type', () => {
    const xml = buildAnecfXml(base)
      .replace('<CantidadeNCFAnulados>6</CantidadeNCFAnulados>', '<CantidadeNCFAnulados>7</CantidadeNCFAnulados>')
      .replace('<SecuenciaeNCFHasta>E310000000005<', '<SecuenciaeNCFHasta>E330000000005<');
    expect(parseAnecfXml(xml).issues.map((i) => `${i.code} ${i.path}`)).toEqual([
      'rule /ANECF/DetalleAnulacion/Anulacion[1]/TablaRangoSecuenciasAnuladaseNCF/Secuencias[1]',
      'totals /ANECF/DetalleAnulacion/Anulacion[1]/CantidadeNCFAnulados',
    ]);
  });
});
