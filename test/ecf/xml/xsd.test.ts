/**
 * Layer 4: every example and golden case of every type, built with the fixed context and given the placeholder
 * signature (`withPlaceholderSignature`), validates against the official XSD of its type through the
 * `SchemaValidator` port (libxml2). Plus the type-32 10,000-line case that needs `relaxed32`.
 *
 * Measured on the development container (Node 20, libxml2 via libxmljs, schemas compiled beforehand): building a
 * 10,000-line 32 (3.0 MB of XML, validation + rendering) takes 0.18–0.42 s, the relaxed XSD validation 30–75 ms, the
 * strict one 50–125 ms to reject it at `Item[1001]` (ranges over several runs, alone or with the whole suite). The
 * test prints the timings of each run.
 */
import { describe, expect, it } from 'vitest';
import { fillTotals } from '../../../src/ecf/calc/totals.js';
import { ECF_TYPES } from '../../../src/ecf/spec/model.js';
import { buildEcfXmlFromJson } from '../../../src/ecf/xml/ecf.js';
import { safeValidateEcfJson } from '../../../src/ecf/validate/index.js';
import { EcfValidationError } from '../../../src/shared/errors/validation-error.js';
import { caseContext, loadExamples, loadFixtureCases } from '../helpers/corpus.js';
import { ecfSchema, formatViolations, schemaValidator, validateEcfXsd, withPlaceholderSignature } from '../helpers/xsd.js';

describe('examples and golden cases validate against the official XSD', () => {
  const cases = [
    ...loadExamples().map((e) => ({ label: `examples/ecf-${e.tipo}.${e.variant}.json`, tipo: e.tipo, name: e.variant, doc: e.doc })),
    ...loadFixtureCases().map((c) => ({ label: `fixtures/ecf/${c.tipo}/${c.name}.json`, tipo: c.tipo, name: c.name, doc: c.doc })),
  ];

  it('covers every type', () => {
    expect(new Set(cases.map((c) => c.tipo))).toEqual(new Set(ECF_TYPES));
  });

  for (const c of cases) {
    it(c.label, () => {
      const xml = buildEcfXmlFromJson(c.tipo, c.doc, caseContext(c.tipo, c.name));
      const r = validateEcfXsd(c.tipo, xml);
      expect(r.valid, formatViolations(r)).toBe(true);
    });
  }
});

describe('the placeholder signature', () => {
  const ex = loadExamples().find((e) => e.tipo === '31' && e.variant === 'minimal')!;
  const xml = buildEcfXmlFromJson('31', ex.doc, caseContext('31', 'minimal'));

  it('is needed: an unsigned e-CF does not validate (FechaHoraFirma and the signature slot are required)', () => {
    const r = schemaValidator().validate(xml, ecfSchema('31'));
    expect(r.valid).toBe(false);
  });

  it('goes right before </ECF>', () => {
    expect(withPlaceholderSignature(xml).endsWith('<FechaHoraFirma>01-04-2026 10:00:00</FechaHoraFirma><Signature/></ECF>')).toBe(true);
  });

  it("another type's schema rejects the document (the check is not vacuous)", () => {
    const r = validateEcfXsd('43', xml);
    expect(r.valid).toBe(false);
  });
});

describe('type 32 below RD$250,000 with 10,000 lines', () => {
  it('builds, validates with relaxed32, and fails the strict 32 XSD', () => {
    const items = Array.from({ length: 10_000 }, (_, i) => ({
      indicador_facturacion: i % 10 === 0 ? 4 : 1,
      nombre: `Artículo de colmado n.º ${i + 1}`,
      indicador_bien_servicio: '1',
      cantidad: 1 + (i % 3),
      precio_unitario: 7.25,
    }));
    const doc = fillTotals('32', { id_doc: { tipo_ingresos: '01', tipo_pago: '1' }, items });
    expect((doc.totales as Record<string, number>).monto_total).toBeLessThan(250_000);
    const v = schemaValidator();
    v.validate('<x/>', 'ECF-32', { relaxed32: true }); // compile both variants outside the timings
    v.validate('<x/>', 'ECF-32');

    const t0 = performance.now();
    const xml = buildEcfXmlFromJson('32', doc, caseContext('32', 'minimal'));
    const t1 = performance.now();
    const relaxed = validateEcfXsd('32', xml, { relaxed32: true });
    const t2 = performance.now();
    const strict = validateEcfXsd('32', xml);
    const t3 = performance.now();

    expect(relaxed.valid, formatViolations(relaxed)).toBe(true);
    expect(strict.valid).toBe(false);
    expect(strict.violations[0]!.xpath).toBe('/ECF/DetallesItems/Item[1001]');
    console.log(
      `32 with 10,000 lines (${(xml.length / 1e6).toFixed(1)} MB): build (validate + render) ${(t1 - t0).toFixed(0)} ms, ` +
        `relaxed XSD ${(t2 - t1).toFixed(0)} ms, strict XSD (rejects) ${(t3 - t2).toFixed(0)} ms`,
    );
  });
});

describe('characters XML 1.0 excludes', () => {
  // Regression: the shape layer let U+FFFE, U+FFFF and lone surrogates through, and libxml2 then refused the XML.
  it.each([
    ['U+FFFE', 'Pintura\uFFFE blanca'],
    ['U+FFFF', 'Pintura\uFFFF'],
    ['lone surrogate', 'Pintura \uD800 blanca'],
  ])('%s in a name is refused at its path, never built', (_n, nombre) => {
    const ex = loadExamples().find((e) => e.tipo === '32' && e.variant === 'minimal')!;
    const doc = structuredClone(ex.doc) as { items: Array<Record<string, unknown>> };
    doc.items[0]!.nombre = nombre;
    const r = safeValidateEcfJson('32', doc);
    expect(r.success).toBe(false);
    expect(!r.success && r.issues.map((i) => i.path)).toContain('items.0.nombre');
    expect(() => buildEcfXmlFromJson('32', doc, caseContext('32', 'minimal'))).toThrow(EcfValidationError);
  });

  it('an astral character (valid surrogate pair) is accepted and XSD-valid', () => {
    const ex = loadExamples().find((e) => e.tipo === '32' && e.variant === 'minimal')!;
    const doc = structuredClone(ex.doc) as { items: Array<Record<string, unknown>> };
    doc.items[0]!.nombre = 'Pintura blanca \u{1F3A8}';
    const xml = buildEcfXmlFromJson('32', doc, caseContext('32', 'minimal'));
    expect(validateEcfXsd('32', xml).valid).toBe(true);
  });
});
