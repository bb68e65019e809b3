import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { xsdDir } from '../helpers/env.js';
import { createSchemaValidator, RELAXED32_MAX_LINES, SchemaError } from '../../../src/ecf/xsd/index.js';
import { relax32 } from '../../../src/ecf/xsd/relax32.js';
import { fixXsd } from '../../../src/ecf/xsd/fixes.js';
import { ecf32, ecf43 } from './fixtures.js';

const v = createSchemaValidator(xsdDir());
const relaxed = { relaxed32: true };

describe('relaxed32 (type 32 below RD$250,000: up to 10,000 lines)', () => {
  it('strict 32 rejects 1,001 items; relaxed accepts 1,001 and 10,000', () => {
    const d1001 = ecf32({ items: 1001 });
    const strict = v.validate(d1001, 'ECF-32');
    expect(strict.valid).toBe(false);
    expect(strict.violations.map((x) => x.xpath)).toContain('/ECF/DetallesItems/Item[1001]');
    expect(v.validate(d1001, 'ECF-32', relaxed)).toEqual({ valid: true, violations: [] });
    expect(v.validate(ecf32({ items: RELAXED32_MAX_LINES }), 'ECF-32', relaxed).valid).toBe(true);
  });

  it('strict 32 accepts exactly 1,000 items', () => {
    expect(v.validate(ecf32({ items: 1000 }), 'ECF-32').valid).toBe(true);
  });

  it('relaxed still rejects 10,001 items, at the 10,001st', () => {
    const r = v.validate(ecf32({ items: 10_001 }), 'ECF-32', relaxed);
    expect(r.valid).toBe(false);
    expect(r.violations.map((x) => x.xpath)).toEqual(['/ECF/DetallesItems/Item[10001]']);
  });

  it('relaxes NumeroLinea (1..10,000) but not beyond', () => {
    const one = (n: number) => ecf32({ items: 1, lineNo: () => n });
    expect(v.validate(one(1001), 'ECF-32').violations.map((x) => x.xpath)).toEqual(['/ECF/DetallesItems/Item/NumeroLinea']);
    expect(v.validate(one(10_000), 'ECF-32', relaxed).valid).toBe(true);
    expect(v.validate(one(10_001), 'ECF-32', relaxed).valid).toBe(false);
    expect(v.validate(one(0), 'ECF-32', relaxed).valid).toBe(false);
  });

  it('relaxes Paginacion/Pagina count, PaginaNo/NoLinea* and TotalPaginas', () => {
    const doc = ecf32({ items: 1, pages: 1001 });
    expect(v.validate(doc, 'ECF-32').violations.map((x) => x.xpath)).toEqual(['/ECF/Paginacion/Pagina[1001]']);
    expect(v.validate(doc, 'ECF-32', relaxed).valid).toBe(true);
    expect(v.validate(ecf32({ items: 1, pages: 10_000 }), 'ECF-32', relaxed).valid).toBe(true);

    const onePage = ecf32({ items: 1, pages: 1 });
    for (const el of ['PaginaNo', 'NoLineaDesde', 'NoLineaHasta']) {
      const big = onePage.replace(`<${el}>1</${el}>`, `<${el}>1001</${el}>`);
      expect(v.validate(big, 'ECF-32').violations.map((x) => x.xpath)).toEqual([`/ECF/Paginacion/Pagina/${el}`]);
      expect(v.validate(big, 'ECF-32', relaxed).valid).toBe(true);
      expect(v.validate(onePage.replace(`<${el}>1</${el}>`, `<${el}>10001</${el}>`), 'ECF-32', relaxed).valid).toBe(false);
    }
    const total = (n: number) => ecf32({ items: 1, pages: 2 }).replace('<TotalPaginas>2</TotalPaginas>', `<TotalPaginas>${n}</TotalPaginas>`);
    expect(new Set(v.validate(total(10_000), 'ECF-32').violations.map((x) => x.xpath))).toEqual(new Set(['/ECF/Encabezado/IdDoc/TotalPaginas']));
    expect(v.validate(total(10_000), 'ECF-32', relaxed).valid).toBe(true);
    expect(v.validate(total(10_001), 'ECF-32', relaxed).valid).toBe(false);
  });

  it('changes nothing else: other facets of e-CF-32 still apply', () => {
    const r = v.validate(ecf32({ items: 1200, badItem: 1100 }), 'ECF-32', relaxed);
    expect(r.violations.map((x) => x.xpath)).toEqual(['/ECF/DetallesItems/Item[1100]/IndicadorFacturacion']);
    expect(v.validate(ecf32({ unsigned: true }), 'ECF-32', relaxed).valid).toBe(false);
  });

  it('is ignored for other schemas', () => {
    expect(v.validate(ecf43({ items: 1001 }), 'ECF-43', relaxed).valid).toBe(false);
  });

  it('lists exactly the documented changes', () => {
    expect(v.relaxed32Changes()).toEqual([
      'element DetallesItems/Item: maxOccurs 1000 → 10000',
      'element Paginacion/Pagina: maxOccurs 1000 → 10000',
      'simple type NumeroLineaType (NumeroLinea): maxInclusive 1000 → 10000',
      'simple type NumeroLineaType (NumeroLinea): totalDigits 4 → 5',
      'simple type NumeroLineaType (NumeroLinea): pattern [0-9]{0,4} → [0-9]{0,5}',
      'simple type Integer4V1To1000ValidationType (PaginaNo, NoLineaDesde, NoLineaHasta): maxInclusive 1000 → 10000',
      'simple type Integer4V1To1000ValidationType (PaginaNo, NoLineaDesde, NoLineaHasta): totalDigits 4 → 5',
      'simple type Integer4V1To1000ValidationType (PaginaNo, NoLineaDesde, NoLineaHasta): pattern [0-9]{1,4} → [0-9]{1,5}',
      'simple type Integer4ValidationTypeMayorUno (TotalPaginas): totalDigits 4 → 5',
      'simple type Integer4ValidationTypeMayorUno (TotalPaginas): pattern [0-9]{1,4} → [0-9]{1,5}',
      'simple type Integer4ValidationTypeMayorUno (TotalPaginas): added maxInclusive 10000',
    ]);
  });

  it('refuses (SchemaError) an e-CF-32 XSD that does not have the expected shape', () => {
    const text = fixXsd('e-CF-32-v1.0.xsd', readFileSync(join(xsdDir(), 'e-CF-32-v1.0.xsd'))).text;
    expect(() => relax32(text.replace('name="Item" minOccurs="1" maxOccurs="1000"', 'name="Item" minOccurs="1" maxOccurs="500"'))).toThrow(SchemaError);
    expect(() =>
      relax32(
        text.replace(
          'name="NoLineaHasta" type="Integer4V1To1000ValidationType"',
          'name="NoLineaHasta" type="Integer4V1To1000ValidationType"/><xs:element name="Otro" type="Integer4V1To1000ValidationType"',
        ),
      ),
    ).toThrow(/used by/);
    // The relaxed text differs from the strict one in exactly 10 changed lines and 1 added line.
    const before = text.split('\n'),
      after = relax32(text).text.split('\n');
    const minus = (a: string[], b: string[]) => {
      const rest = [...b];
      return a.filter((l) => {
        const i = rest.indexOf(l);
        if (i < 0) return true;
        rest.splice(i, 1);
        return false;
      });
    };
    const removed = minus(before, after),
      added = minus(after, before);
    expect(removed).toHaveLength(10);
    expect(added).toHaveLength(11);
    for (const l of added) expect(l).toMatch(/maxOccurs="10000"|value="10000"|value="5"|\{0,5\}|\{1,5\}/);
  });
});
