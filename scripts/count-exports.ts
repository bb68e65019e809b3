/**
 * Exported names per public entry point: runtime names (keys of the module, imported under tsx) and type-only
 * names (from the TypeScript checker: exports whose symbol carries no value). `--names` lists them.
 *
 *   npx tsx scripts/count-exports.ts [--names]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const ENTRIES: Record<string, string> = {
  '.': 'src/ecf/index.ts',
  './xsd': 'src/ecf/xsd/index.ts',
  './sign': 'src/ecf/sign/index.ts',
  './pdf': 'src/ecf/pdf/index.ts',
  './dgii': 'src/ecf/dgii/index.ts',
  './simulator': 'src/ecf/simulator/index.ts',
  './server': 'src/ecf/server/index.ts',
  './dian': 'src/dian/index.ts',
  './dian/sign': 'src/dian/sign/index.ts',
  './dian/xsd': 'src/dian/xsd/index.ts',
  './dian/pdf': 'src/dian/pdf/index.ts',
};

const root = resolve(import.meta.dirname, '..');
const config = ts.readConfigFile(resolve(root, 'tsconfig.json'), ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
const files = Object.values(ENTRIES).map((f) => resolve(root, f));
const program = ts.createProgram(files, { ...parsed.options, noEmit: true });
const checker = program.getTypeChecker();
const showNames = process.argv.includes('--names');

const rows: string[] = [];
let total = 0;
for (const [subpath, file] of Object.entries(ENTRIES)) {
  const source = program.getSourceFile(resolve(root, file))!;
  const symbols = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!);
  const typeOnly = symbols
    .filter((s) => {
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      return !(target.flags & ts.SymbolFlags.Value) || (s.declarations ?? []).some((d) => ts.isTypeOnlyImportOrExportDeclaration(d));
    })
    .map((s) => s.name)
    .sort();
  const mod = (await import(pathToFileURL(resolve(root, file)).href)) as Record<string, unknown>;
  const values = Object.keys(mod).sort();
  total += values.length + typeOnly.length;
  rows.push(
    `${subpath.padEnd(12)} ${String(values.length).padStart(4)} runtime  ${String(typeOnly.length).padStart(4)} type-only  ${String(values.length + typeOnly.length).padStart(4)} total`,
  );
  if (showNames) rows.push(`  runtime: ${values.join(', ')}`, `  types:   ${typeOnly.join(', ')}`);
}
console.log(rows.join('\n'));
console.log(`${'all'.padEnd(12)} ${String(total).padStart(37)} total`);
