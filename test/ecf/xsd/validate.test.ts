import { describe, expect, it } from 'vitest';
import { xsdDir } from '../helpers/env.js';
import { createSchemaValidator, SchemaError } from '../../../src/ecf/xsd/index.js';
import type { SchemaId } from '../../../src/ecf/ports.js';
import { acecf, ecf32, ecf43, positionOf, semilla } from './fixtures.js';

const v = createSchemaValidator(xsdDir());
const ITEM5 = '/ECF/DetallesItems/Item[5]/IndicadorFacturacion';

describe('valid documents', () => {
  it.each<[string, string, SchemaId]>([
    ['type 43', ecf43({ items: 3 }), 'ECF-43'],
    ['type 32', ecf32({ items: 2 }), 'ECF-32'],
    ['Semilla', semilla(), 'Semilla'],
    ['ACECF (pattern fixed from "(?:")', acecf(), 'ACECF'],
  ])('%s validates', (_name, xml, id) => {
    expect(v.validate(xml, id)).toEqual({ valid: true, violations: [] });
  });

  it('accepts a BOM and an XML declaration that names another encoding (the string is already decoded)', () => {
    const xml = ecf43({ razonSocial: 'é'.repeat(150) });
    expect(v.validate('\uFEFF' + xml, 'ECF-43').valid).toBe(true);
    expect(v.validate(xml.replace('encoding="utf-8"', 'encoding="ISO-8859-1"'), 'ECF-43').valid).toBe(true);
    // 151 characters is over the limit whatever the byte count.
    expect(v.validate(ecf43({ razonSocial: 'é'.repeat(151) }).replace('utf-8', 'ISO-8859-1'), 'ECF-43').valid).toBe(false);
  });
});

describe('violations and their element paths', () => {
  it('locates a wrong value in the 5th item', () => {
    const xml = ecf43({ items: 8, badItem: 5 });
    const r = v.validate(xml, 'ECF-43');
    expect(r.valid).toBe(false);
    expect(r.violations).toHaveLength(1);
    const [x] = r.violations;
    expect(x!.xpath).toBe(ITEM5);
    expect(x!.message).toMatch(/^Element 'IndicadorFacturacion': \[facet 'enumeration'\] The value '9'/);
    expect({ line: x!.line, column: x!.column }).toEqual(positionOf(xml, '<IndicadorFacturacion>', 5));
  });

  it('gives the same path and the right line in a pretty-printed document', () => {
    const xml = ecf43({ items: 8, badItem: 5, sep: '\n    ' });
    const [x] = v.validate(xml, 'ECF-43').violations;
    expect(x!.xpath).toBe(ITEM5);
    expect({ line: x!.line, column: x!.column }).toEqual(positionOf(xml, '<IndicadorFacturacion>', 5));
    expect(x!.line).toBeGreaterThan(30);
  });

  it('counts columns in characters, also after accents and astral-plane characters', () => {
    const xml = ecf43({ items: 6, badItem: 5, razonSocial: 'Ñandú 𝄞 Música' });
    const [x] = v.validate(xml, 'ECF-43').violations;
    expect(x!.xpath).toBe(ITEM5);
    expect({ line: x!.line, column: x!.column }).toEqual(positionOf(xml, '<IndicadorFacturacion>', 5));
  });

  it('is not fooled by markup-like text in comments, CDATA and attribute values', () => {
    const xml = ecf43({ items: 6, badItem: 5 })
      .replace('<DetallesItems>', '<DetallesItems><!-- <Item><Item> --><?pi <Item>?>')
      .replace('<NombreItem>Artículo 2</NombreItem>', '<NombreItem><![CDATA[<Item></Item>]]></NombreItem>');
    const r = v.validate(xml, 'ECF-43');
    expect(r.violations.map((x) => x.xpath)).toEqual([ITEM5]);
  });

  it('has no index on an element without same-name siblings', () => {
    const r = v.validate(ecf43({ items: 1, badItem: 1 }), 'ECF-43');
    expect(r.violations.map((x) => x.xpath)).toEqual(['/ECF/DetallesItems/Item/IndicadorFacturacion']);
  });

  it('locates an unexpected element on itself and a missing child on its parent', () => {
    const extra = v.validate(ecf43({ afterEmisor: '<Foo a="x>y"><Bar/></Foo>' }), 'ECF-43');
    expect(extra.violations.map((x) => x.xpath)).toEqual(['/ECF/Encabezado/Foo']);
    expect(extra.violations[0]!.message).toContain('This element is not expected');

    const unsigned = v.validate(ecf43({ unsigned: true }), 'ECF-43');
    expect(unsigned.valid).toBe(false);
    expect(unsigned.violations.map((x) => [x.xpath, x.line, x.column])).toEqual([['/ECF', 1, 39]]);
    expect(unsigned.violations[0]!.message).toContain('Missing child element(s)');
  });

  it('reports every violation, in document order', () => {
    const xml = ecf43({ items: 3, badItem: 2 })
      .replace('<RNCEmisor>131880681</RNCEmisor>', '<RNCEmisor>12</RNCEmisor>')
      .replace('<DetallesItems>', '<DetallesItems>texto');
    const r = v.validate(xml, 'ECF-43');
    expect(r.violations.map((x) => x.xpath)).toEqual([
      '/ECF/Encabezado/Emisor/RNCEmisor',
      '/ECF/DetallesItems',
      '/ECF/DetallesItems/Item[2]/IndicadorFacturacion',
    ]);
  });

  it('reports a wrong decimal format in ACECF MontoTotal (exactly two decimals required)', () => {
    const r = v.validate(acecf('35400'), 'ACECF');
    expect(r.violations.map((x) => x.xpath)).toEqual(['/ACECF/DetalleAprobacionComercial/MontoTotal']);
  });

  it('rejects a default namespace on the root (the XSDs have no target namespace)', () => {
    const r = v.validate(ecf43().replace('<ECF>', '<ECF xmlns="http://dgii.gov.do/eCF">'), 'ECF-43');
    expect(r.valid).toBe(false);
    expect(r.violations[0]!.xpath).toBe('/ECF');
    expect(r.violations[0]!.message).toContain('No matching global declaration');
  });

  it('rejects a document of another type', () => {
    const r = v.validate(ecf43(), 'ARECF');
    expect(r.valid).toBe(false);
    expect(r.violations[0]!.xpath).toBe('/ECF');
  });

  it('reports malformed XML with the element open at that point', () => {
    const r = v.validate(ecf43({ items: 3 }).replace('</Item><Item><NumeroLinea>3', '</Itm><Item><NumeroLinea>3'), 'ECF-43');
    expect(r.valid).toBe(false);
    expect(r.violations.length).toBeGreaterThan(0);
    expect(r.violations[0]!.message).toMatch(/mismatch|Opening and ending tag/i);
    expect(r.violations[0]!.xpath).toMatch(/^\/ECF\/DetallesItems\/Item\[2\]/);

    const empty = v.validate('', 'ECF-43');
    expect(empty.valid).toBe(false);
    expect(empty.violations[0]!.message).toMatch(/empty|Start tag expected/i);
  });

  it('throws SchemaError for an unknown schema id', () => {
    expect(() => v.validate(ecf43(), 'ECF-99' as SchemaId)).toThrow(SchemaError);
  });

  it('keeps validating correctly after invalid documents (context reuse)', () => {
    for (let i = 0; i < 50; i++) {
      expect(v.validate(ecf43({ items: 6, badItem: 5 }), 'ECF-43').valid).toBe(false);
      expect(v.validate(ecf43({ items: 6 }), 'ECF-43').valid).toBe(true);
    }
  });
});
