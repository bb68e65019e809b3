/**
 * XSD validation (libxml2 via libxmljs, streamed, schemas compiled once): `npx tsx bench/xsd.ts`.
 * XSD dir from ECF_XSD_DIR, else ../shared/dgii-xsd. Figures are recorded in docs/xsd-engine.md.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import libxmljs from 'libxmljs';
import * as lx from 'libxmljs/dist/lib/bindings/functions.js';
import { createSchemaValidator } from '../src/ecf/xsd/index.js';
import { loadXsdSet } from '../src/ecf/xsd/load.js';
import { ecf32, ecf43 } from '../test/ecf/xsd/fixtures.js';
import { measure, printTable, round, writeResults } from './lib.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = process.env.ECF_XSD_DIR ? resolve(process.env.ECF_XSD_DIR) : resolve(root, '../shared/dgii-xsd');
if (!existsSync(dir)) throw new Error(`XSD directory not found: ${dir} (set ECF_XSD_DIR)`);

let t0 = performance.now();
const v = createSchemaValidator(dir);
const loadMs = performance.now() - t0;
t0 = performance.now();
v.compile('all');
const compileMs = performance.now() - t0;

const doc10 = ecf43({ items: 10 });
const bad10 = ecf43({ items: 10, badItem: 5 });
const doc1000 = ecf43({ items: 1000 });
const bad1000 = ecf43({ items: 1000, badItem: 500 });
const all1000 = ecf32({ items: 1000 }).replace(/<IndicadorFacturacion>4</g, '<IndicadorFacturacion>9<');
const doc10000 = ecf32({ items: 10_000 });
for (const [xml, id, valid] of [
  [doc10, 'ECF-43', true],
  [bad10, 'ECF-43', false],
  [doc1000, 'ECF-43', true],
  [doc10000, 'ECF-32', true],
] as const) {
  if (v.validate(xml, id, { relaxed32: true }).valid !== valid) throw new Error('bench document has the wrong verdict');
}

const rows = [
  measure('10-line e-CF 43, valid', () => v.validate(doc10, 'ECF-43')),
  measure('10-line e-CF 43, 1 violation (with xpath)', () => v.validate(bad10, 'ECF-43')),
  measure('1,000-line e-CF 43, valid', () => v.validate(doc1000, 'ECF-43')),
  measure('1,000-line e-CF 43, 1 violation', () => v.validate(bad1000, 'ECF-43')),
  measure('1,000-line e-CF 32, 1,000 violations', () => v.validate(all1000, 'ECF-32'), { warmup: 3 }),
  measure('10,000-line e-CF 32, relaxed32, valid', () => v.validate(doc10000, 'ECF-32', { relaxed32: true }), { warmup: 2 }),
];

// Alternatives with the same libxml2, for the engine choice (docs/xsd-engine.md).
type Opaque = object;
const b = lx as unknown as {
  withStructuredErrors<T>(fn: (e: unknown[]) => T): T;
  xmlSchemaNewMemParserCtxt(buf: Buffer, n: number): Opaque;
  xmlSchemaParse(c: Opaque): Opaque;
  xmlSchemaFreeParserCtxt(c: Opaque): void;
  xmlSchemaNewValidCtxt(s: Opaque): Opaque;
  xmlReadMemory(buf: Buffer, n: number, url: null, enc: Buffer, opts: number): Opaque;
  xmlSchemaValidateDoc(c: Opaque, d: Opaque): number;
};
const xsdText = loadXsdSet(dir).files['ECF-43'].text;
const xsdBuf = Buffer.from(xsdText);
const vctxt = b.withStructuredErrors(() => {
  const p = b.xmlSchemaNewMemParserCtxt(xsdBuf, xsdBuf.length);
  const s = b.xmlSchemaParse(p);
  b.xmlSchemaFreeParserCtxt(p);
  return b.xmlSchemaNewValidCtxt(s);
});
const UTF8 = Buffer.from('UTF-8\0', 'latin1');
const xsdDoc = libxmljs.parseXml(xsdText);
const alternatives = [
  measure('alt: tree (xmlReadMemory + xmlSchemaValidateDoc), 10-line', () =>
    b.withStructuredErrors(() => {
      const x = Buffer.from(doc10);
      return b.xmlSchemaValidateDoc(vctxt, b.xmlReadMemory(x, x.length, null, UTF8, 0));
    }),
  ),
  measure('alt: libxmljs parseXml().validate(xsdDoc), 10-line', () => libxmljs.parseXml(doc10).validate(xsdDoc), { minMs: 1000 }),
];

console.log(`XSD set: ${dir}; load + in-memory fixes ${round(loadMs, 1)} ms; compile 15 schemas ${round(compileMs, 1)} ms; libxml2 ${libxmljs.libxml_version}`);
printTable('XSD validation, ecf-kit/xsd (one core)', rows);
printTable('Alternatives, same libxml2 (not used)', alternatives);
const target = rows[0]!.ops_per_second >= 2000;
console.log(`target: 10-line documents ≥ thousands/s on one core: ${target ? 'met' : 'NOT met'} (${Math.round(rows[0]!.ops_per_second)} docs/s)`);
writeResults('xsd.json', {
  load_ms: round(loadMs, 1),
  compile_all_ms: round(compileMs, 1),
  valid_10_lines: { docs_per_second: rows[0]!.ops_per_second },
  invalid_10_lines: { docs_per_second: rows[1]!.ops_per_second },
  valid_1000_lines: { ms: rows[2]!.ms_per_op },
  invalid_1000_lines_1: { ms: rows[3]!.ms_per_op },
  invalid_1000_lines_1000: { ms: rows[4]!.ms_per_op },
  relaxed32_10000_lines: { ms: rows[5]!.ms_per_op },
  alternatives: Object.fromEntries(alternatives.map((a) => [a.name, { docs_per_second: a.ops_per_second }])),
  results: [...rows, ...alternatives],
  targets: { docs_per_second_10_lines_min: 2000, met: target },
});
