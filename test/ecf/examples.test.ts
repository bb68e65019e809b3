/**
 * Examples never rot: every `examples/*.ts` runs (tsx, child process) and exits 0, and every
 * `examples/ecf-<tipo>.<variant>.json` validates, builds and round-trips with the fixed context.
 * Also checks that the minimal examples are minimal and the maximal ones use every block their type allows.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ECF_TYPES, type EcfType } from '../../src/ecf/spec/model.js';
import type { JsonField } from '../../src/ecf/spec/tree.js';
import { safeValidateEcfJson } from '../../src/ecf/validate/index.js';
import { buildEcfXmlFromJson, checkContext, parseEcfXml } from '../../src/ecf/xml/ecf.js';
import { caseContext, docFields, examplesDir, exampleIssuer, ISSUE_DATE, loadExamples } from './helpers/corpus.js';
import { repoRoot } from './helpers/env.js';

const examples = loadExamples();
const tsx = join(repoRoot, 'node_modules/.bin/tsx');

describe('examples/*.ts run', () => {
  const scripts = readdirSync(examplesDir)
    .filter((f) => f.endsWith('.ts'))
    .sort();

  it('there is at least one runnable example', () => {
    expect(scripts).toContain('build.ts');
  });

  for (const f of scripts) {
    it(`${f} exits 0 and prints XML`, () => {
      const out = execFileSync(tsx, [join(examplesDir, f)], {
        cwd: repoRoot,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, NODE_NO_WARNINGS: '1' },
      });
      expect(out).toMatch(/<ECF>[\s\S]*<\/ECF>/);
    });
  }
});

describe('examples/issuer*.json', () => {
  it.each([false, true])('issuer (full=%s) is a valid issuer profile for every type', (full) => {
    for (const t of ECF_TYPES) expect(checkContext(t, caseContext(t, full ? 'maximal' : 'minimal')), t).toEqual([]);
    expect(exampleIssuer(full).rnc).toMatch(/^\d{9}$/);
  });

  it('issuer.full.json fills every field of the issuer profile', () => {
    const keys = Object.keys(exampleIssuer(true)).sort();
    expect(keys).toEqual([
      'actividad_economica',
      'correo',
      'direccion',
      'municipio',
      'nombre_comercial',
      'provincia',
      'razon_social',
      'rnc',
      'sucursal',
      'telefonos',
      'web_site',
    ]);
  });
});

describe('examples/ecf-*.json', () => {
  it('a minimal and a maximal example for each of the ten types', () => {
    const have = examples.map((e) => `${e.tipo}.${e.variant}`).sort();
    expect(have).toEqual(ECF_TYPES.flatMap((t) => [`${t}.maximal`, `${t}.minimal`]));
  });

  for (const ex of examples) {
    describe(`ecf-${ex.tipo}.${ex.variant}.json`, () => {
      const ctx = caseContext(ex.tipo, ex.variant);

      it('passes safeValidateEcf with no errors and no warnings', () => {
        const r = safeValidateEcfJson(ex.tipo, ex.doc, { fechaEmision: ISSUE_DATE });
        expect(r.success ? [] : r.issues).toEqual([]);
        expect(r.warnings).toEqual([]);
      });

      it('builds and parses back to the same document and context', () => {
        const xml = buildEcfXmlFromJson(ex.tipo, ex.doc, ctx);
        const parsed = parseEcfXml(xml);
        expect(parsed.issues).toEqual([]);
        expect(parsed.document).toEqual(ex.doc);
        expect(parsed.context).toEqual(ctx);
      });
    });
  }
});

/** Leaf JSON paths present in a document, array indexes written `[]`: `items[].retencion.indicador`. */
function presentPaths(v: unknown, prefix = ''): Set<string> {
  const out = new Set<string>();
  const walk = (x: unknown, p: string) => {
    if (Array.isArray(x)) x.forEach((y) => walk(y, `${p}[]`));
    else if (x && typeof x === 'object') for (const [k, y] of Object.entries(x)) walk(y, p ? `${p}.${k}` : k);
    else out.add(p);
  };
  walk(v, prefix);
  return out;
}

/** Leaf paths a type allows, with `required` resolved through the chain of required parents. */
function allowedPaths(tipo: EcfType): Map<string, boolean> {
  const out = new Map<string, boolean>();
  const walk = (fs: JsonField[], requiredChain: boolean) => {
    for (const f of fs) {
      const req = requiredChain && f.required;
      if (f.fields) walk(f.fields, req);
      else out.set(f.json, req);
    }
  };
  walk(docFields(tipo), true);
  return out;
}

/**
 * Fields the maximal examples leave out on purpose, with the reason.
 * - `comprador.rnc` vs `comprador.identificador_extranjero`: a buyer is domestic or foreign, not both.
 * - `comprador.responsable_pago` on 33/34: their XSD pattern `^[…]*$` takes `^` and `$` literally (XSD regexes
 *   have no anchors), so only values like `^Tesorería$` validate; not something to show in an example.
 * - `comprador.municipio` / `comprador.provincia` on 46: the buyer of an export is abroad.
 * - `subtotales[].impuesto_adicional` on 41: no additional taxes on a purchase receipt (spec), though the XSD has the
 *   subtotal field.
 * - `items[].otra_moneda.descuento` / `.recargo` on 43 and 47: their lines have no discount or surcharge in pesos
 *   (no `descuento_monto` / `recargo_monto` in those XSDs), so there is nothing to convert.
 */
const MAXIMAL_OMITS: Partial<Record<EcfType, string[]>> = {
  '32': ['comprador.identificador_extranjero'],
  '33': ['comprador.identificador_extranjero', 'comprador.responsable_pago'],
  '34': ['comprador.identificador_extranjero', 'comprador.responsable_pago'],
  '41': ['subtotales[].impuesto_adicional'],
  '43': ['items[].otra_moneda.descuento', 'items[].otra_moneda.recargo'],
  '44': ['comprador.rnc'],
  '46': ['comprador.rnc', 'comprador.municipio', 'comprador.provincia'],
  '47': ['items[].otra_moneda.descuento', 'items[].otra_moneda.recargo'],
};

/**
 * Optional fields the minimal examples carry because a business rule (not the XSD) requires them, or because the
 * type makes no sense without them.
 */
const MINIMAL_EXTRAS: Partial<Record<EcfType, string[]>> = {
  '33': ['id_doc.tipo_ingresos'],
  '34': ['id_doc.tipo_ingresos'],
  '41': ['items[].retencion.monto_itbis_retenido', 'items[].retencion.monto_isr_retenido', 'totales.total_itbis_retenido', 'totales.total_isr_retencion'],
  '47': ['totales.total_isr_retencion'],
};

/** Totals a document of these items must carry (computed keys, not chosen by the author). */
const TOTALS_COMPUTED = /^totales\.(monto_gravado_total|monto_gravado_i[123]|itbis[123]|total_itbis[123]?|monto_exento)$/;

describe('minimal examples are minimal, maximal examples are maximal', () => {
  for (const t of ECF_TYPES) {
    const allowed = allowedPaths(t);

    it(`${t}: minimal carries only required fields`, () => {
      const ex = examples.find((e) => e.tipo === t && e.variant === 'minimal');
      if (!ex) return;
      const extra = [...presentPaths(ex.doc)].filter((p) => !allowed.get(p) && !TOTALS_COMPUTED.test(p) && !(MINIMAL_EXTRAS[t] ?? []).includes(p));
      expect(extra).toEqual([]);
    });

    it(`${t}: maximal fills every field the type allows`, () => {
      const ex = examples.find((e) => e.tipo === t && e.variant === 'maximal');
      if (!ex) return;
      const present = presentPaths(ex.doc);
      const missing = [...allowed.keys()].filter((p) => !present.has(p) && !(MAXIMAL_OMITS[t] ?? []).includes(p));
      expect(missing).toEqual([]);
    });
  }

  it('32 minimal has no comprador at all (the builder still writes the Comprador the 32 XSD requires)', () => {
    const ex = examples.find((e) => e.tipo === '32' && e.variant === 'minimal')!;
    expect(ex.doc).not.toHaveProperty('comprador');
    expect(buildEcfXmlFromJson('32', ex.doc, caseContext('32', 'minimal'))).toContain('<Comprador></Comprador>');
  });

  it('47 identifies the beneficiary abroad with identificador_extranjero, never rnc', () => {
    for (const ex of examples.filter((e) => e.tipo === '47')) expect(ex.doc.comprador ?? {}).not.toHaveProperty('rnc');
  });
});
