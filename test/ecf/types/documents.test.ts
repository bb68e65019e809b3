/**
 * Typed documents (issue 16): the generated `EcfDocument<T>` types make wrong documents compile errors and let
 * editors complete the fields. Proven with the TypeScript compiler itself (the language service an editor uses),
 * over the fixture test/ecf/types/fixtures/typed-usage.ts and over snippets written here in memory beside it:
 * each negative snippet must fail with the expected diagnostic, each positive one must compile, every example in
 * examples/ must typecheck as the document of its type, and completions/hover must offer the generated fields.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ECF_TYPES } from '../../../src/ecf/index.js';
import { repoRoot } from '../helpers/env.js';

const dir = join(repoRoot, 'test/ecf/types/fixtures');
const FIXTURE = join(dir, 'typed-usage.ts');
const IMPORTS = `import { buildEcfXml, safeValidateEcf, validateEcf, type BuildContext, type EcfDocument } from '../../../../src/ecf/index.js';
declare const context: BuildContext;
declare const doc31: EcfDocument<'31'>;
`;

const examples = readdirSync(join(repoRoot, 'examples'))
  .filter((f) => /^ecf-\d\d\.\w+\.json$/.test(f))
  .sort();

/** In-memory files beside the fixture (so their relative imports resolve to the real sources). */
const virtual = new Map<string, string>();
let service: ts.LanguageService;

function addSnippet(name: string, body: string): string {
  const file = join(dir, `${name}.ts`);
  virtual.set(file, `${IMPORTS}${body}\nexport {};\n`);
  return file;
}

function diagnostics(file: string): { code: number; text: string }[] {
  return [...service.getSyntacticDiagnostics(file), ...service.getSemanticDiagnostics(file)].map((d) => ({
    code: d.code,
    text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  }));
}

const NEGATIVE: { name: string; body: string; code: number; mentions: string }[] = [
  {
    name: 'unknown-field',
    body: `buildEcfXml('31', { ...doc31, descuento_global: 10 }, context);`,
    code: 2353, // Object literal may only specify known properties
    mentions: "'descuento_global' does not exist",
  },
  {
    name: 'wrong-type-code',
    body: `safeValidateEcf('30', doc31);`,
    code: 2345, // Argument of type '"30"' is not assignable
    mentions: '"30"',
  },
  {
    name: 'field-of-46-in-31',
    body: `validateEcf('31', { ...doc31, comprador: { rnc: '101543213', razon_social: 'Ferretería', pais: 'US' } });`,
    code: 2353,
    mentions: "'pais' does not exist",
  },
  {
    name: 'amount-as-string',
    body: `safeValidateEcf('31', { ...doc31, totales: { ...doc31.totales, monto_total: '10985.80' } });`,
    code: 2322, // Type 'string' is not assignable to type 'number'
    mentions: "'number'",
  },
  {
    name: 'missing-required',
    body: `buildEcfXml('31', { id_doc: doc31.id_doc, items: doc31.items, totales: doc31.totales }, context);`,
    code: 2345,
    mentions: "'comprador'",
  },
];

const POSITIVE: { name: string; body: string }[] = [
  {
    name: 'field-of-46-in-46',
    body: `declare const doc46: EcfDocument<'46'>;
validateEcf('46', { ...doc46, comprador: { rnc: '101543213', razon_social: 'Ferretería', pais: 'US' } });`,
  },
  { name: 'optional-null', body: `safeValidateEcf('31', { ...doc31, referencia: null, subtotales: null });` },
];

const COMPLETE = '/*complete*/';
const completionFile = (tipo: string) =>
  addSnippet(`complete-${tipo}`, `safeValidateEcf('${tipo}', { ...({} as EcfDocument<'${tipo}'>), comprador: { ${COMPLETE} } });`);

beforeAll(() => {
  for (const c of NEGATIVE) addSnippet(`neg-${c.name}`, c.body);
  for (const c of POSITIVE) addSnippet(`pos-${c.name}`, c.body);
  for (const e of examples) {
    const tipo = e.slice(4, 6);
    const json = readFileSync(join(repoRoot, 'examples', e), 'utf8');
    addSnippet(`example-${e}`, `export const doc: EcfDocument<'${tipo}'> = ${json};`);
  }
  // Control: the check is not vacuous — the maximal 46 (exports) is not a 31.
  addSnippet('example-46-as-31', `export const doc: EcfDocument<'31'> = ${readFileSync(join(repoRoot, 'examples/ecf-46.maximal.json'), 'utf8')};`);
  completionFile('31');
  completionFile('46');

  const config = ts.readConfigFile(join(repoRoot, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, repoRoot);
  const rootNames = [FIXTURE, ...virtual.keys()];
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => ({ ...options, noEmit: true }),
    getScriptFileNames: () => rootNames,
    getScriptVersion: () => '1',
    getScriptSnapshot: (f) => {
      const text = virtual.get(f) ?? ts.sys.readFile(f);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => repoRoot,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (f) => virtual.has(f) || ts.sys.fileExists(f),
    readFile: (f) => virtual.get(f) ?? ts.sys.readFile(f),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  service = ts.createLanguageService(host, ts.createDocumentRegistry());
});

describe('typed documents (compile time)', () => {
  it('the fixture compiles, every @ts-expect-error meeting an error', () => {
    expect(diagnostics(FIXTURE)).toEqual([]);
  });

  it.each(NEGATIVE)('$name is a compile error', (c) => {
    const found = diagnostics(join(dir, `neg-${c.name}.ts`));
    expect(found.length).toBeGreaterThan(0);
    expect(
      found.some((d) => d.code === c.code && d.text.includes(c.mentions)),
      JSON.stringify(found, null, 2),
    ).toBe(true);
  });

  it.each(POSITIVE)('$name compiles', (c) => {
    expect(diagnostics(join(dir, `pos-${c.name}.ts`))).toEqual([]);
  });

  it('every example in examples/ typechecks as the document of its type', () => {
    expect(examples.length).toBe(ECF_TYPES.length * 2);
    for (const e of examples) expect({ example: e, diagnostics: diagnostics(join(dir, `example-${e}.ts`)) }).toEqual({ example: e, diagnostics: [] });
  });

  it('an example of 46 does not typecheck as a 31 (the check is not vacuous)', () => {
    const found = diagnostics(join(dir, 'example-46-as-31.ts'));
    expect(found.some((d) => d.code === 2353 || d.code === 2322)).toBe(true);
  });

  it('editors complete the fields of the type, with the XSD element in the documentation', () => {
    const names = (tipo: string) => {
      const file = join(dir, `complete-${tipo}.ts`);
      const at = virtual.get(file)!.indexOf(COMPLETE);
      return service.getCompletionsAtPosition(file, at, {})!.entries.map((e) => e.name);
    };
    expect(names('31')).toEqual(expect.arrayContaining(['rnc', 'razon_social', 'correo']));
    expect(names('31')).not.toContain('pais');
    expect(names('46')).toContain('pais');

    const file = join(dir, 'complete-31.ts');
    const details = service.getCompletionEntryDetails(file, virtual.get(file)!.indexOf(COMPLETE), 'rnc', {}, undefined, undefined, undefined)!;
    expect(ts.displayPartsToString(details.documentation)).toContain('XSD `Encabezado/Comprador/RNCComprador`');
  });
});
