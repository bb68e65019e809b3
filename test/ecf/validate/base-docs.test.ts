/** The base documents of test/ecf/helpers/docs.ts: valid for every type, with zero errors and zero warnings, and XSD-valid once built. */
import { describe, expect, it } from 'vitest';
import { ECF_TYPES } from '../../../src/ecf/spec/model.js';
import { RULES } from '../../../src/ecf/validate/rules/index.js';
import { buildEcfXmlFromJson } from '../../../src/ecf/xml/ecf.js';
import { baseContext, baseDoc } from '../helpers/docs.js';
import { schemaValidator, withPlaceholderSignature } from '../helpers/xsd.js';
import { validate } from './helpers.js';

describe('base documents of the ten types', () => {
  it.each(ECF_TYPES.map((t) => [t]))('type %s passes every rule with zero errors and zero warnings', (tipo) => {
    const r = validate(tipo, baseDoc(tipo));
    expect(r.success ? [] : r.issues).toEqual([]);
    expect(r.warnings).toEqual([]);
  });

  it.each(ECF_TYPES.map((t) => [t]))('type %s builds and validates against the official XSD', (tipo) => {
    const xml = buildEcfXmlFromJson(tipo, baseDoc(tipo), baseContext(tipo));
    const res = schemaValidator().validate(withPlaceholderSignature(xml), `ECF-${tipo}`);
    expect(res.violations).toEqual([]);
  });

  it('the sample type-31 document of the brief is valid', () => {
    const doc = {
      id_doc: { tipo_ingresos: '01', tipo_pago: '1' },
      comprador: { rnc: '131880738', razon_social: 'Cliente SRL' },
      items: [{ indicador_facturacion: 1, nombre: 'Café', indicador_bien_servicio: '1', cantidad: 2, precio_unitario: 100, monto: 200 }],
      totales: { monto_gravado_total: 200, monto_gravado_i1: 200, itbis1: 18, total_itbis: 36, total_itbis1: 36, monto_total: 236 },
    };
    const r = validate('31', doc);
    expect(r.success).toBe(true);
    expect(r.warnings).toEqual([]);
  });
});

describe('rule registry', () => {
  it('every rule has a unique ECF- id, a source, a description and valid appliesTo', () => {
    const ids = RULES.map((r) => r.rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { rule: r, origin, severity } of RULES) {
      expect(['dgii', 'spec', 'advice', 'tolerance']).toContain(origin);
      // Issue 15: only a rule that mirrors a documented DGII rejection may refuse a document.
      expect(severity, r.id).toBe(origin === 'dgii' ? 'error' : 'warning');
      expect(r.id).toMatch(/^ECF-[A-Z0-9-]+$/);
      expect(r.source.length).toBeGreaterThan(5);
      expect(r.description.length).toBeGreaterThan(10);
      if (r.appliesTo !== 'all') {
        expect(r.appliesTo.length).toBeGreaterThan(0);
        for (const t of r.appliesTo) expect(ECF_TYPES).toContain(t);
      }
    }
  });

  it('no rule throws on an empty or malformed clean document', () => {
    const weird = [
      {},
      { items: [null, 3, 'x'] },
      { totales: 5, items: [{}] },
      { id_doc: null, referencia: 'x', paginacion: [{}], descuentos_recargos: [{}], otra_moneda: {} },
    ];
    for (const tipo of ECF_TYPES) {
      for (const doc of weird) {
        for (const { rule } of RULES) expect(() => rule.check({ tipo, doc: doc as Record<string, unknown>, fechaEmision: '01-04-2026' })).not.toThrow();
      }
    }
  });
});
