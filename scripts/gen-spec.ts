/**
 * Generates the field tables from the official XSDs, plus everything derived from them that is committed:
 *   src/ecf/spec/ecf-table.gen.ts      the ordered e-CF field table (ten types)
 *   src/ecf/spec/other-tables.gen.ts   RFCE, ARECF, ACECF, ANECF and Semilla tables
 *   src/ecf/spec/countries.gen.ts      ISO 3166-1 alpha-2 → Spanish country name accepted by the XSD patterns
 *   src/ecf/spec/ecf-types.gen.ts      TypeScript types of the canonical JSON per type (EcfDocument<'31'> …)
 *   docs/fields.md                 field per type
 *   schemas/ecf-<tipo>.schema.json JSON Schema of the canonical JSON per type (+ issuer profile)
 *
 * Usage: tsx scripts/gen-spec.ts [--check] [--xsd-dir DIR]   (DIR defaults to ECF_XSD_DIR or ../shared/dgii-xsd)
 * With --check nothing is written; the command fails when a committed file differs from what it would write.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flatten, readXsd, type XsdElement, type XsdFacets, type XsdFile } from './xsd-read.js';
import { ECF_BLOCKS, ECF_OVERRIDES, STRING_INDICATORS, snake, type BlockRule } from './json-names.js';
import { ECF_TYPES, type DocTable, type Facets, type FieldRow, type JsonKind, type Source } from '../src/ecf/spec/model.js';
import { xsdPatternToJs } from '../src/ecf/spec/xsd-regex.js';
import { renderFieldsDoc } from './render-fields-doc.js';
import { buildJsonSchemas } from './render-json-schema.js';
import { renderEcfTypes } from './render-ts-types.js';
import { buildCountryTable } from './countries.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const dirArg = args.indexOf('--xsd-dir');
const xsdDir = resolve(dirArg >= 0 ? args[dirArg + 1]! : (process.env.ECF_XSD_DIR ?? resolve(root, '../shared/dgii-xsd')));
if (!existsSync(xsdDir)) {
  console.error(`XSD directory not found: ${xsdDir}. Pass --xsd-dir or set ECF_XSD_DIR.`);
  process.exit(2);
}

const ecfFiles = ECF_TYPES.map((t) => readXsd(xsdDir, `e-CF-${t}-v1.0.xsd`));

// ---------------------------------------------------------------------------------------------------------
// e-CF: one ordered superset of the ten trees.

interface Acc {
  xml: string;
  name: string;
  group: boolean;
  occurs: Record<string, [number, number]>;
  types: Record<string, string>;
}
const order: string[] = [];
const acc = new Map<string, Acc>();
for (const [i, f] of ecfFiles.entries()) {
  const tipo = ECF_TYPES[i]!;
  let prev = -1;
  for (const el of flatten(f.root).slice(1)) {
    const xml = el.path.slice('ECF/'.length);
    let pos = order.indexOf(xml);
    if (pos < 0) {
      order.splice(prev + 1, 0, xml);
      pos = prev + 1;
    } else if (pos < prev) throw new Error(`element order differs between types at ${xml}`);
    prev = pos;
    const a = acc.get(xml) ?? { xml, name: el.name, group: el.children !== null, occurs: {}, types: {} };
    a.occurs[tipo] = [el.min, el.max];
    if (el.type) a.types[tipo] = el.type;
    acc.set(xml, a);
  }
}

function blockOf(xml: string): { path: string; rule: BlockRule } | null {
  const parts = xml.split('/');
  for (let n = parts.length - 1; n > 0; n--) {
    const p = parts.slice(0, n).join('/');
    const rule = ECF_BLOCKS[p];
    if (rule) return { path: p, rule };
  }
  return null;
}

/** JSON path of an element: its block's path plus its own key. */
function jsonPathOf(xml: string, name: string): string | null {
  const own = ECF_BLOCKS[xml];
  if (own && own.json === null) return null;
  const parent = blockOf(xml);
  const parentPath = parent ? jsonPathOfBlock(parent.path) : '';
  const key = ECF_OVERRIDES[xml]?.json ?? own?.json ?? snake(name, parent?.rule.strip ?? []);
  const isArray = (acc.get(xml)?.occurs && Math.max(...Object.values(acc.get(xml)!.occurs).map((o) => o[1])) > 1) ?? false;
  return (parentPath ? `${parentPath}.` : '') + key + (isArray ? '[]' : '');
}

function jsonPathOfBlock(blockPath: string): string {
  const rule = ECF_BLOCKS[blockPath]!;
  if (rule.json === null) {
    const up = blockOf(blockPath);
    return up ? jsonPathOfBlock(up.path) : '';
  }
  return jsonPathOf(blockPath, blockPath.split('/').pop()!)!;
}

function mostCommon(values: string[]): string {
  const count = new Map<string, number>();
  for (const v of values) count.set(v, (count.get(v) ?? 0) + 1);
  return [...count.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
}

function jsonKindOf(name: string, type: string, facets: XsdFacets): JsonKind {
  if (type === 'FechaValidationType') return 'date';
  if (type === 'DateTimeValidationType') return 'datetime';
  if (/^Pais/.test(name)) return 'country';
  if (facets.base === 'decimal') return 'amount';
  if (facets.enumeration) {
    if (/^Indicador/.test(name) && !STRING_INDICATORS.has(name) && facets.base === 'integer') return 'integer';
    return 'code';
  }
  if (facets.base === 'integer') return (facets.totalDigits ?? 0) > 9 ? 'digits' : 'integer';
  if (type === 'TipoIngresosValidationType') return 'code';
  return 'string';
}

function toFacets(f: XsdFacets): Facets {
  const out: Facets = { base: (f.base === 'decimal' || f.base === 'integer' ? f.base : 'string') as Facets['base'] };
  if (f.enumeration) out.enumeration = f.enumeration;
  if (f.pattern) {
    out.pattern = f.pattern;
    out.jsPattern = f.pattern.map((p) => xsdPatternToJs(p));
  }
  for (const k of ['minLength', 'maxLength', 'minInclusive', 'maxInclusive', 'minExclusive', 'maxExclusive', 'totalDigits', 'fractionDigits'] as const) {
    if (f[k] !== undefined) (out as unknown as Record<string, unknown>)[k] = f[k];
  }
  return out;
}

const ecfSimple: Record<string, Facets> = {};
const ecfSimpleOverrides: Record<string, Record<string, Facets>> = {};
{
  const names = new Set(ecfFiles.flatMap((f) => Object.keys(f.simpleTypes)));
  for (const n of [...names].sort()) {
    const variants = ECF_TYPES.map((t, i) => [t, ecfFiles[i]!.simpleTypes[n]] as const).filter(([, f]) => f);
    const keyed = variants.map(([t, f]) => [t, JSON.stringify(toFacets(f!))] as const);
    const common = mostCommon(keyed.map(([, k]) => k));
    ecfSimple[n] = JSON.parse(common);
    for (const [t, k] of keyed) if (k !== common) (ecfSimpleOverrides[n] ??= {})[t] = JSON.parse(k);
  }
}

const ecfRows: FieldRow[] = order.map((xml) => {
  const a = acc.get(xml)!;
  const ov = ECF_OVERRIDES[xml] ?? {};
  const typeValues = Object.values(a.types);
  const type = typeValues.length ? mostCommon(typeValues) : null;
  const typeByTipo: Record<string, string> = {};
  for (const [t, ty] of Object.entries(a.types)) if (ty !== type) typeByTipo[t] = ty;
  const block = blockOf(xml);
  const source: Source = ov.source ?? block?.rule.source ?? 'doc';
  const json = jsonPathOf(xml, a.name);
  const row: FieldRow = {
    xml,
    name: a.name,
    kind: a.group ? 'group' : 'value',
    json,
    source,
    type,
    jsonKind: type ? (ov.jsonKind ?? jsonKindOf(a.name, type, ecfSimple[type] as unknown as XsdFacets)) : null,
    occurs: a.occurs,
  };
  if (Object.keys(typeByTipo).length) row.typeByTipo = typeByTipo;
  if (ov.jsonByTipo) row.jsonByTipo = ov.jsonByTipo;
  return row;
});

const ecfTable: DocTable = {
  root: 'ECF',
  signatureMin: ecfFiles[0]!.root.anyMin ?? 0,
  rows: ecfRows,
  simpleTypes: ecfSimple,
  simpleTypeOverrides: ecfSimpleOverrides,
  sources: Object.fromEntries(ecfFiles.map((f) => [f.file, f.sha256])),
};

// ---------------------------------------------------------------------------------------------------------
// Other documents: one table each, JSON names by the plain rule (no block words dropped).

function otherTable(f: XsdFile, transparent: readonly string[]): DocTable {
  const simple: Record<string, Facets> = {};
  for (const [n, facets] of Object.entries(f.simpleTypes)) simple[n] = toFacets(facets);
  const rows: FieldRow[] = [];
  const walk = (el: XsdElement, parentJson: string) => {
    for (const c of el.children ?? []) {
      const xml = c.path.slice(f.root.name.length + 1);
      const isTransparent = transparent.includes(c.name);
      const key = snake(c.name);
      const json = isTransparent ? null : (parentJson ? `${parentJson}.` : '') + key + (c.max > 1 ? '[]' : '');
      const facets = c.type ? (simple[c.type] ?? { base: c.type.replace(/^xs:/, '') as Facets['base'] }) : null;
      // Tax ids keep leading zeros (strings); the version is a constant.
      const kind = !c.type ? null : /^(RNC|Rnc)/.test(c.name) ? 'string' : jsonKindOf(c.name, c.type, (facets ?? { base: 'string' }) as unknown as XsdFacets);
      rows.push({
        xml,
        name: c.name,
        kind: c.children ? 'group' : 'value',
        json,
        source: c.name === 'Version' ? 'fixed' : 'doc',
        type: c.type,
        jsonKind: kind,
        occurs: { '*': [c.min, c.max] },
      });
      walk(c, isTransparent ? parentJson : json!.replace(/\[\]$/, '[]'));
    }
  };
  walk(f.root, '');
  return { root: f.root.name, signatureMin: f.root.anyMin ?? 0, rows, simpleTypes: simple, sources: { [f.file]: f.sha256 } };
}

const others = {
  RFCE: otherTable(readXsd(xsdDir, 'RFCE-32-v1.0.xsd'), ['Encabezado', 'TablaFormasPago', 'ImpuestosAdicionales']),
  ARECF: otherTable(readXsd(xsdDir, 'ARECF-v1.0.xsd'), ['DetalleAcusedeRecibo']),
  ACECF: otherTable(readXsd(xsdDir, 'ACECF-v1.0.xsd'), ['DetalleAprobacionComercial']),
  ANECF: otherTable(readXsd(xsdDir, 'ANECF-v1.0.xsd'), ['TablaRangoSecuenciasAnuladaseNCF', 'DetalleAnulacion']),
  Semilla: otherTable(readXsd(xsdDir, 'Semilla-v1.0.xsd'), []),
};

// ---------------------------------------------------------------------------------------------------------
// Output.

function header(sources: Record<string, string>): string {
  const src = Object.entries(sources)
    .map(([f, h]) => ` *   ${f} sha256 ${h}`)
    .join('\n');
  return `/**\n * GENERATED by scripts/gen-spec.ts from the official DGII XSDs — do not edit.\n${src}\n */\n`;
}

function rowsLiteral(rows: readonly FieldRow[]): string {
  return `[\n${rows.map((r) => `  ${JSON.stringify(r)},`).join('\n')}\n]`;
}

function tableModule(name: string, t: DocTable): string {
  return `export const ${name}: DocTable = {\n  root: ${JSON.stringify(t.root)},\n  signatureMin: ${t.signatureMin},\n  sources: ${JSON.stringify(t.sources)},\n  rows: ${rowsLiteral(t.rows).replace(/\n/g, '\n  ')},\n  simpleTypes: {\n${Object.entries(
    t.simpleTypes,
  )
    .map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)},`)
    .join(
      '\n',
    )}\n  },\n${t.simpleTypeOverrides ? `  simpleTypeOverrides: ${JSON.stringify(t.simpleTypeOverrides, null, 2).replace(/\n/g, '\n  ')},\n` : ''}};\n`;
}

const outputs: Record<string, string> = {};
outputs['src/ecf/spec/ecf-table.gen.ts'] =
  `${header(ecfTable.sources as Record<string, string>)}import type { DocTable } from './model.js';\n\n${tableModule('ECF_TABLE', ecfTable)}`;
outputs['src/ecf/spec/other-tables.gen.ts'] =
  `${header(Object.assign({}, ...Object.values(others).map((t) => t.sources)))}import type { DocTable } from './model.js';\n\n` +
  Object.entries(others)
    .map(([k, t]) => tableModule(`${k.toUpperCase()}_TABLE`, t))
    .join('\n');
outputs['src/ecf/spec/countries.gen.ts'] = buildCountryTable(ecfTable);
outputs['src/ecf/spec/ecf-types.gen.ts'] = renderEcfTypes(ecfTable, header(ecfTable.sources as Record<string, string>));
outputs['docs/fields.md'] = renderFieldsDoc(ecfTable);
for (const [file, schema] of Object.entries(buildJsonSchemas(ecfTable))) outputs[`schemas/${file}`] = `${JSON.stringify(schema, null, 2)}\n`;

let stale = 0;
for (const [rel, content] of Object.entries(outputs)) {
  const abs = resolve(root, rel);
  const current = existsSync(abs) ? readFileSync(abs, 'utf8') : null;
  if (current === content) continue;
  if (check) {
    console.error(`stale generated file: ${rel} (run npm run gen)`);
    stale++;
  } else {
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
    console.log(`wrote ${rel}`);
  }
}
if (check && stale > 0) process.exit(1);
if (check) console.log(`generated files are current (${Object.keys(outputs).length} files)`);
