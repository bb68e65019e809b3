/**
 * An SDK consumer's view of the package (issue 14, "How we will know"): build it with tsup into a temporary
 * directory (never the repo's dist/, which other tests and developers may use), pack it with `npm pack` (so
 * `files` in package.json decides what ships), extract the tarball into `node_modules/ecf-kit` of a temporary
 * project whose runtime dependencies are symlinked from the repo's node_modules (nothing is downloaded), then
 * import every subpath of `exports` from child `node` processes, in ESM (`import()`) and CJS (`require()`).
 */
import { execFile, fork } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, xsdDir } from '../ecf/helpers/env.js';

const run = promisify(execFile);

interface PackageJson {
  name: string;
  dependencies: Record<string, string>;
  files: string[];
  exports: Record<string, string | { import: { types: string; default: string }; require: { types: string; default: string } }>;
}

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as PackageJson;
const SUBPATHS = Object.keys(pkg.exports);

/** Names each entry must export (a few per subpath, the ones the docs and README lead with). */
const KNOWN: Record<string, string[]> = {
  '.': ['buildEcfXml', 'validateEcf', 'EcfError'],
  './xsd': ['createSchemaValidator'],
  './sign': ['signXml', 'verifyXml'],
  './pdf': ['renderPdf'],
  './dgii': ['createDgiiClient'],
  './simulator': ['startSimulator'],
  './server': ['startServer', 'createRuntime', 'createApp', 'loadConfig'],
  './dian': [
    'cufe',
    'cude',
    'cuds',
    'eventCude',
    'cune',
    'softwareSecurityCode',
    'qrUrl',
    'invoiceQrText',
    'buildDianXml',
    'parseDianDocument',
    'validateDianRequest',
    'checkDianRules',
    'computeDocumentCodes',
    'buildDianEvent',
    'parseDianEvent',
    'parseDianApplicationResponse',
    'buildDianPayroll',
    'parseDianPayroll',
    'validateDianPayroll',
    'dianRequestJsonSchema',
  ],
  './dian/sign': ['signDianXml', 'verifyDianXml'],
  './dian/xsd': ['createDianSchemaValidator', 'detectDianSchemaId'],
  './dian/transport': ['createDianClient', 'signDianEnvelope', 'verifyDianEnvelope', 'readDianAnswer', 'DIAN_OPERATIONS'],
  './dian/pdf': ['dianPdf', 'renderDianPdf', 'dianPdfModel'],
  './dian/simulator': ['startDianSimulator', 'DIAN_SIM_EXAMPLE_COMPANY', 'DIAN_SIM_EXAMPLE_RANGE'],
  './dian/server': ['startDianServer', 'createDianApp', 'openDianStorage', 'issueDocument', 'addCompany'],
  './package.json': ['name', 'version', 'exports'],
};

// One script per module system: loads every subpath and prints {subpath: {keys} | {error}} as JSON.
const ESM_SCRIPT = `
const subpaths = ${JSON.stringify(SUBPATHS)};
const out = {};
for (const s of subpaths) {
  const spec = s === '.' ? 'ecf-kit' : 'ecf-kit/' + s.slice(2);
  try {
    const m = s.endsWith('.json') ? (await import(spec, { with: { type: 'json' } })).default : await import(spec);
    out[s] = { keys: Object.keys(m).filter((k) => k !== 'default' || s.endsWith('.json')).sort() };
  } catch (e) {
    out[s] = { error: String(e && e.stack || e) };
  }
}
process.stdout.write(JSON.stringify(out));
`;
const CJS_SCRIPT = `
const subpaths = ${JSON.stringify(SUBPATHS)};
const out = {};
for (const s of subpaths) {
  const spec = s === '.' ? 'ecf-kit' : 'ecf-kit/' + s.slice(2);
  try {
    out[s] = { keys: Object.keys(require(spec)).sort() };
  } catch (e) {
    out[s] = { error: String(e && e.stack || e) };
  }
}
process.stdout.write(JSON.stringify(out));
`;

// A CJS consumer starts the server runtime with a one-process offload pool: the pool (bundled in a chunk, with
// tsup's import.meta.url shim) must find dist/offload-child.cjs next to it and run a task there.
const POOL_SCRIPT = `
const { createRuntime, loadConfig } = require('ecf-kit/server');
(async () => {
  const rt = await createRuntime(loadConfig({ ...process.env, ECF_OFFLOAD_PROCESSES: '1', ECF_WORKER: 'off', LOG_LEVEL: 'silent' }));
  try {
    const result = await rt.pool.run('verify', { xml: '<a/>' });
    process.stdout.write(JSON.stringify({ pids: rt.pool.pids().length, valid: result.valid }));
  } finally {
    await rt.close();
  }
})().catch((e) => { console.error(e); process.exit(1); });
`;

// ecf-kit/dian computes the annex CUFE (dian-protocol.md §3.1) in both module systems: its SHA-384 comes from
// @noble/hashes, which must resolve from a CJS require() as well as from an ESM import.
const ANNEX_CUFE_INPUT = JSON.stringify({
  id: '323200000129',
  issueDate: '2019-01-16',
  issueTime: '10:53:10-05:00',
  lineExtensionAmount: '1500000.00',
  ivaTaxAmount: '285000.00',
  payableAmount: '1785000.00',
  supplierCompanyId: '700085371',
  customerCompanyId: '800199436',
  technicalKey: '693ff6f2a553c3646a063436fd4dd9ded0311471',
  environment: '1',
});
const ANNEX_CUFE = '8bb918b19ba22a694f1da11c643b5e9de39adf60311cf179179e9b33381030bcd4c3c3f156c506ed5908f9276f5bd9b4';
const DIAN_ESM_SCRIPT = `import { cufe } from 'ecf-kit/dian';\nprocess.stdout.write(cufe(${ANNEX_CUFE_INPUT}).hash);\n`;
const DIAN_CJS_SCRIPT = `const { cufe } = require('ecf-kit/dian');\nprocess.stdout.write(cufe(${ANNEX_CUFE_INPUT}).hash);\n`;

// The typed documents (issue 16) as a consumer sees them through the published declarations (d.ts for ESM, d.cts
// for CJS): a valid 31 compiles, an unknown field and a wrong type code do not (each @ts-expect-error must meet one).
const TYPED_CONSUMER = (from: string) => `${from}
const doc: EcfDocument<'31'> = {
  id_doc: { tipo_ingresos: '01', tipo_pago: '1' },
  comprador: { rnc: '101543213', razon_social: 'Cliente SRL' },
  items: [{ indicador_facturacion: 1, nombre: 'Café', indicador_bien_servicio: '1', cantidad: 2, precio_unitario: 100, monto: 200 }],
  totales: { monto_gravado_total: 200, monto_gravado_i1: 200, itbis1: 18, total_itbis: 36, total_itbis1: 36, monto_total: 236 },
};
export const ok = safeValidateEcf('31', doc);
// @ts-expect-error unknown field
safeValidateEcf('31', { ...doc, descuento_global: 1 });
// @ts-expect-error not an e-CF type
safeValidateEcf('30', doc);
export const loose = safeValidateEcfJson(String(process.argv[2]), JSON.parse('{}'));
`;
const TYPED_ESM = TYPED_CONSUMER(
  `import { safeValidateEcf, safeValidateEcfJson, type EcfDocument } from 'ecf-kit';\ndeclare const process: { argv: string[] };`,
);
const TYPED_CJS = TYPED_CONSUMER(
  `import ecf = require('ecf-kit');\nconst { safeValidateEcf, safeValidateEcfJson } = ecf;\ntype EcfDocument<T extends ecf.EcfType> = ecf.EcfDocument<T>;\ndeclare const process: { argv: string[] };`,
);

type Loaded = Record<string, { keys?: string[]; error?: string }>;

let work: string;
let project: string;
let installed: string;

const loads = new Map<string, Promise<Loaded>>();
/** Runs a load script once (in a child `node` started in the consumer project) and keeps its answer. */
function node(script: string): Promise<Loaded> {
  let p = loads.get(script);
  if (!p) {
    p = run(process.execPath, [join(project, script)], { cwd: project, timeout: 60_000, maxBuffer: 16 << 20 }).then(
      ({ stdout }) => JSON.parse(stdout) as Loaded,
    );
    loads.set(script, p);
  }
  return p;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ecf-kit-pkg-'));
  // 1. Build into a staging copy of the package root (package.json + the `files` folders), so npm pack sees the
  // same layout as in the repo without touching the repo's dist/.
  const stage = join(work, 'stage');
  mkdirSync(stage);
  const tsupDir = join(repoRoot, 'node_modules/tsup');
  const tsupBin = (JSON.parse(readFileSync(join(tsupDir, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin.tsup!;
  await run(process.execPath, [join(tsupDir, tsupBin), '--out-dir', join(stage, 'dist'), '--silent'], {
    cwd: repoRoot,
    timeout: 150_000,
    maxBuffer: 64 << 20,
  });
  for (const f of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', ...pkg.files.filter((f) => f !== 'dist')]) {
    if (existsSync(join(repoRoot, f))) cpSync(join(repoRoot, f), join(stage, f), { recursive: true });
  }

  // 2. Pack (offline, no lifecycle scripts) and extract into the temporary project.
  const packs = join(work, 'packs');
  mkdirSync(packs);
  const { stdout } = await run('npm', ['pack', '--pack-destination', packs, '--offline', '--ignore-scripts', '--json', '--loglevel=error'], {
    cwd: stage,
    timeout: 60_000,
  });
  const tarball = join(packs, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
  project = join(work, 'project');
  installed = join(project, 'node_modules', 'ecf-kit');
  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));

  // 3. Runtime dependencies from the repo's node_modules (their own dependencies resolve from their real path).
  for (const dep of Object.keys(pkg.dependencies)) {
    const target = join(project, 'node_modules', dep);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules', dep), target, 'dir');
  }
  writeFileSync(join(project, 'load.mjs'), ESM_SCRIPT);
  writeFileSync(join(project, 'load.cjs'), CJS_SCRIPT);
  writeFileSync(join(project, 'pool.cjs'), POOL_SCRIPT);
  writeFileSync(join(project, 'dian.mjs'), DIAN_ESM_SCRIPT);
  writeFileSync(join(project, 'dian.cjs'), DIAN_CJS_SCRIPT);
  writeFileSync(join(project, 'typed.mts'), TYPED_ESM);
  writeFileSync(join(project, 'typed.cts'), TYPED_CJS);
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed package, installed in a consumer project', () => {
  it('ships the build, the bin, the schemas and no sources or tests', () => {
    const top = readdirSync(installed).sort();
    expect(top).toEqual(expect.arrayContaining(['dist', 'bin', 'schemas', 'package.json']));
    expect(top).not.toContain('src');
    expect(top).not.toContain('test');
    expect(top).not.toContain('node_modules');
  });

  it('names existing files in every exports condition (code and types, ESM and CJS)', () => {
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      const files = typeof target === 'string' ? [target] : [target.import.types, target.import.default, target.require.types, target.require.default];
      for (const f of files) expect(existsSync(join(installed, f)), `${subpath} → ${f}`).toBe(true);
      if (typeof target !== 'string') {
        expect(target.import.types).toMatch(/\.d\.ts$/);
        expect(target.require.types).toMatch(/\.d\.cts$/);
      }
    }
  });

  it('includes the offload child entry next to the bundle, in both formats', () => {
    expect(existsSync(join(installed, 'dist/offload-child.js'))).toBe(true);
    expect(existsSync(join(installed, 'dist/offload-child.cjs'))).toBe(true);
  });

  for (const [system, file] of [
    ['ESM import()', 'load.mjs'],
    ['CJS require()', 'load.cjs'],
  ] as const) {
    it(`loads every subpath with ${system}, each with named exports`, async () => {
      const loaded = await node(file);
      expect(Object.keys(loaded).sort()).toEqual([...SUBPATHS].sort());
      for (const s of SUBPATHS) {
        expect(loaded[s]!.error, `${s}: ${loaded[s]!.error}`).toBeUndefined();
        expect(loaded[s]!.keys!.length, s).toBeGreaterThan(0);
        expect(loaded[s]!.keys, s).toEqual(expect.arrayContaining(KNOWN[s] ?? []));
      }
    });
  }

  it('the typed documents reach a TypeScript consumer through the published declarations (ESM and CJS)', () => {
    const files = [join(project, 'typed.mts'), join(project, 'typed.cts')];
    const program = ts.createProgram(files, {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
    });
    const found = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    expect(found).toEqual([]);
    for (const f of files) expect(program.getSourceFile(f), f).toBeDefined();
    // Resolved from the installed package's declarations, not from the repository's sources.
    const declarations = program.getSourceFiles().map((f) => f.fileName);
    expect(declarations).toContain(join(installed, 'dist/index.d.ts'));
    expect(declarations).toContain(join(installed, 'dist/index.d.cts'));
  });

  it('the same names from ESM and CJS', async () => {
    const [esm, cjs] = await Promise.all([node('load.mjs'), node('load.cjs')]);
    for (const s of SUBPATHS.filter((s) => !s.endsWith('.json'))) expect(cjs[s]!.keys, s).toEqual(esm[s]!.keys);
  });

  for (const file of ['dian.mjs', 'dian.cjs']) {
    it(`ecf-kit/dian computes the annex CUFE (${file})`, async () => {
      const { stdout } = await run(process.execPath, [join(project, file)], { cwd: project, timeout: 30_000 });
      expect(stdout).toBe(ANNEX_CUFE);
    });
  }

  it('a CJS consumer runs a task on the offload pool (createRuntime with one process)', async () => {
    const data = join(work, 'data');
    const { stdout } = await run(process.execPath, [join(project, 'pool.cjs')], {
      cwd: project,
      timeout: 60_000,
      env: { ...process.env, ECF_DATA_DIR: data, ECF_XSD_DIR: xsdDir(), DATABASE_URL: '' },
    });
    expect(JSON.parse(stdout)).toEqual({ pids: 1, valid: false });
  });

  for (const ext of ['.js', '.cjs']) {
    it(`the offload child entry (dist/offload-child${ext}) starts and answers a task`, async () => {
      const child = fork(join(installed, `dist/offload-child${ext}`), [], {
        cwd: project,
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      try {
        const answer = await new Promise<{ id?: number; ok?: boolean }>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('no answer from the offload child')), 30_000);
          child.on('error', reject);
          child.on('exit', (code) => reject(new Error(`offload child exited (${code})`)));
          child.on('message', (m: { ready?: boolean; id?: number; ok?: boolean }) => {
            if (m.ready) child.send({ id: 1, task: 'nope', input: {} });
            else {
              clearTimeout(timer);
              resolve(m);
            }
          });
        });
        expect(answer).toMatchObject({ id: 1, ok: false });
      } finally {
        child.kill('SIGKILL');
      }
    });
  }
});
