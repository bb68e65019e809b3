/**
 * Property-style test over a seeded corpus (test/ecf/helpers/corpus.ts): for every type, CORPUS_SIZE random valid
 * documents (random subsets of optional fields, values from the XSD facets, made consistent and totalled with
 * fillTotals) must
 *   1. pass safeValidateEcfJson with no errors and no warnings (with their issue date),
 *   2. build,
 *   3. validate against the official XSD of their type (with the placeholder signature),
 *   4. round-trip: parseEcfXml(buildEcfXmlFromJson(t, x, ctx)) gives back x and ctx.
 * A failure prints the seed, the index, the document and the issues. `CORPUS_SEED=<n>` explores another corpus,
 * `CORPUS_SIZE=<n>` changes its size.
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ECF_TYPES } from '../../../src/ecf/spec/model.js';
import { safeValidateEcfJson } from '../../../src/ecf/validate/index.js';
import { checkShape } from '../../../src/ecf/validate/shape.js';
import { buildEcfXmlFromJson, parseEcfXml, renderEcfXml } from '../../../src/ecf/xml/ecf.js';
import { corpusSeed, docFields, generateCorpus, randomContext, randomShape, Rng, type Generated } from '../helpers/corpus.js';
import { formatViolations, validateEcfXsd } from '../helpers/xsd.js';

const SEED = corpusSeed();
const SIZE = Number(process.env.CORPUS_SIZE ?? 60);

function describeCase(g: Generated, extra: unknown): string {
  return `seed ${SEED}, type ${g.tipo}, document #${g.index}\n${JSON.stringify(extra, null, 2)}\ncontext: ${JSON.stringify(g.context)}\ndocument: ${JSON.stringify(g.doc, null, 2)}`;
}

/** Leaf paths of a document (`items[].retencion.indicador`), to measure what the corpus covers. */
function leafPaths(v: unknown, p = '', out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) v.forEach((x) => leafPaths(x, `${p}[]`, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) leafPaths(x, p ? `${p}.${k}` : k, out);
  else out.add(p);
  return out;
}

describe(`generated corpus (seed ${SEED}, ${SIZE} documents per type)`, () => {
  for (const tipo of ECF_TYPES) {
    describe(`type ${tipo}`, () => {
      const corpus = generateCorpus(tipo, SIZE, SEED);
      const built = new Map<number, string>();

      it('is deterministic for a seed', () => {
        expect(generateCorpus(tipo, 3, SEED).map((g) => g.doc)).toEqual(corpus.slice(0, 3).map((g) => g.doc));
      });

      it('every document passes safeValidateEcf (no errors, no warnings)', () => {
        for (const g of corpus) {
          const r = safeValidateEcfJson(tipo, g.doc, { fechaEmision: g.context.fecha_emision });
          const problems = [...(r.success ? [] : r.issues), ...r.warnings];
          if (problems.length) expect.fail(describeCase(g, problems));
        }
      });

      it('every document builds and validates against the official XSD', () => {
        for (const g of corpus) {
          let xml: string;
          try {
            xml = buildEcfXmlFromJson(tipo, g.doc, g.context);
          } catch (e) {
            expect.fail(describeCase(g, (e as { issues?: unknown }).issues ?? String(e)));
          }
          built.set(g.index, xml);
          const r = validateEcfXsd(tipo, xml);
          if (!r.valid) expect.fail(describeCase(g, formatViolations(r)));
        }
      });

      it('every document round-trips: parse(build(x)) = x, with the same context', () => {
        for (const g of corpus) {
          const xml = built.get(g.index) ?? buildEcfXmlFromJson(tipo, g.doc, g.context);
          const parsed = parseEcfXml(xml);
          if (parsed.issues.length) expect.fail(describeCase(g, parsed.issues));
          if (!isDeepStrictEqual(parsed.document, g.doc)) expect(parsed.document, describeCase(g, 'document differs')).toEqual(g.doc);
          if (!isDeepStrictEqual(parsed.context, g.context)) expect(parsed.context, describeCase(g, 'context differs')).toEqual(g.context);
          expect(parsed.tipo).toBe(tipo);
        }
      });

      it('uses only fields the type allows, and at least 90 % of them', () => {
        const seen = new Set<string>();
        for (const g of corpus) leafPaths(g.doc, '', seen);
        const allowed: string[] = [];
        const walk = (fs: ReturnType<typeof docFields>) => {
          for (const f of fs) f.fields ? walk(f.fields) : allowed.push(f.json);
        };
        walk(docFields(tipo));
        expect([...seen].filter((p) => !allowed.includes(p))).toEqual([]);
        const covered = allowed.filter((p) => seen.has(p)).length;
        expect(covered / allowed.length, `missing: ${allowed.filter((p) => !seen.has(p)).join(', ')}`).toBeGreaterThanOrEqual(0.9);
      });
    });
  }
});

/**
 * The shape layer alone against the XSD: documents made only from the table (random optional subsets, values from
 * the facets, no business pass, so most break some business rule) that pass `checkShape` must render XSD-valid XML
 * and parse back unchanged. This checks that layer 1 knows every XSD constraint, independently of the rules.
 */
describe(`shape-only documents (seed ${SEED})`, () => {
  for (const tipo of ECF_TYPES) {
    it(`type ${tipo}: shape-valid ⇒ XSD-valid and round-trips`, () => {
      const rng = new Rng(SEED + Number(tipo));
      for (let i = 0; i < SIZE; i++) {
        const doc = randomShape(tipo, rng, rng.next());
        const context = randomContext(tipo, rng);
        const shape = checkShape(tipo, doc);
        if (shape.issues.length) expect.fail(`seed ${SEED}, type ${tipo}, shape #${i}: generator made an invalid shape\n${JSON.stringify(shape.issues)}`);
        const xml = renderEcfXml(tipo, doc, context);
        const r = validateEcfXsd(tipo, xml);
        if (!r.valid) expect.fail(`seed ${SEED}, type ${tipo}, shape #${i}\n${formatViolations(r)}\n${JSON.stringify(doc, null, 2)}`);
        const parsed = parseEcfXml(xml);
        expect(parsed.issues).toEqual([]);
        expect(parsed.document).toEqual(doc);
        expect(parsed.context).toEqual(context);
      }
    });
  }
});
