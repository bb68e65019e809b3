/**
 * Golden files: `test/ecf/fixtures/ecf/<tipo>/<case>.json` built with the fixed context (`caseContext`) must give
 * `<case>.xml` byte for byte. The `minimal` and `maximal` cases are copies of `examples/ecf-<tipo>.<case>.json`
 * (checked here, so they cannot drift); other cases live only under test/ecf/fixtures.
 *
 * `UPDATE_GOLDEN=1 npx vitest run test/ecf/xml/golden.test.ts` re-copies the examples and rewrites every `.xml`;
 * review the diff before committing.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildEcfXmlFromJson } from '../../../src/ecf/xml/ecf.js';
import { caseContext, fixturesDir, loadExamples, loadFixtureCases } from '../helpers/corpus.js';

const UPDATE = process.env.UPDATE_GOLDEN === '1';

// Under UPDATE_GOLDEN the mirrors are refreshed before the cases are collected, so one run rewrites everything.
if (UPDATE) {
  for (const ex of loadExamples()) {
    const target = join(fixturesDir, ex.tipo, `${ex.variant}.json`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, readFileSync(ex.file, 'utf8'));
  }
}

describe('examples are mirrored as golden cases', () => {
  for (const ex of loadExamples()) {
    it(`ecf-${ex.tipo}.${ex.variant}.json = fixtures/ecf/${ex.tipo}/${ex.variant}.json`, () => {
      const target = join(fixturesDir, ex.tipo, `${ex.variant}.json`);
      expect(existsSync(target), `${target} missing: run with UPDATE_GOLDEN=1`).toBe(true);
      expect(readFileSync(target, 'utf8'), `${target} differs from ${ex.file}: run with UPDATE_GOLDEN=1`).toBe(readFileSync(ex.file, 'utf8'));
    });
  }
});

describe('golden XML', () => {
  const cases = loadFixtureCases();

  it('there is at least a minimal and a maximal case per type', () => {
    for (const t of ['31', '32', '33', '34', '41', '43', '44', '45', '46', '47']) {
      const names = cases.filter((c) => c.tipo === t).map((c) => c.name);
      expect(names, t).toEqual(expect.arrayContaining(['minimal', 'maximal']));
    }
  });

  for (const c of cases) {
    it(`${c.tipo}/${c.name}`, () => {
      const xml = buildEcfXmlFromJson(c.tipo, c.doc, caseContext(c.tipo, c.name));
      // Pure: same input, same bytes.
      expect(buildEcfXmlFromJson(c.tipo, structuredClone(c.doc), caseContext(c.tipo, c.name))).toBe(xml);
      const golden = c.json.replace(/\.json$/, '.xml');
      if (UPDATE) writeFileSync(golden, xml);
      expect(existsSync(golden), `${golden} missing: run with UPDATE_GOLDEN=1`).toBe(true);
      expect(xml).toBe(readFileSync(golden, 'utf8'));
    });
  }

  it('every golden .xml has its .json', () => {
    for (const t of readdirSync(fixturesDir).filter((d) => /^\d{2}$/.test(d))) {
      const dir = join(fixturesDir, t);
      for (const f of readdirSync(dir).filter((x) => x.endsWith('.xml'))) {
        expect(existsSync(join(dir, f.replace(/\.xml$/, '.json'))), `${t}/${f}`).toBe(true);
      }
    }
  });
});
