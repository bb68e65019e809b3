/**
 * The house rules of .dependency-cruiser.cjs (docs/architecture.md, "Dependency rules") bite: a small made-up
 * tree breaks each rule once and dependency-cruiser names exactly that rule; a tree that keeps them is clean.
 * `npm run lint:deps` (part of `npm test`) applies the same rules to the real tree.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../ecf/helpers/env.js';

const config = createRequire(import.meta.url)(join(repoRoot, '.dependency-cruiser.cjs')) as IConfiguration;
const dirs: string[] = [];

/** Writes `files` (path → source) into a fresh directory and returns the names of the rules broken. */
async function broken(files: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'house-rules-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const result = await cruise(
    ['src'],
    {
      baseDir: dir,
      ruleSet: { forbidden: config.forbidden },
      validate: true,
      tsPreCompilationDeps: true,
      doNotFollow: { path: 'node_modules' },
    },
    { extensions: ['.ts', '.js'] },
  );
  const output = result.output as ICruiseResult;
  return [...new Set(output.summary.violations.map((v) => v.rule.name))].sort();
}

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('dependency rules', () => {
  it('a tree that keeps the rules is clean', async () => {
    expect(
      await broken({
        'src/shared/errors/base.ts': 'export class KitError extends Error {}\n',
        'src/ecf/spec/model.ts': "import { KitError } from '../../shared/errors/base.js';\nexport const x = KitError;\n",
        'src/ecf/index.ts': "export { x } from './spec/model.js';\n",
        'src/ecf/server/index.ts': "import { x } from '../index.js';\nimport { readFileSync } from 'node:fs';\nexport const y = [x, readFileSync];\n",
        'src/ecf/cli/index.ts': "import { y } from '../server/index.js';\nexport const commands = [y];\n",
        'src/cli/main.ts': "import { commands } from '../ecf/cli/index.js';\nexport const all = commands;\n",
      }),
    ).toEqual([]);
  });

  it('the kernel imports no product', async () => {
    expect(
      await broken({
        'src/ecf/spec/model.ts': 'export const x = 1;\n',
        'src/shared/money/decimal.ts': "import { x } from '../../ecf/spec/model.js';\nexport const y = x;\n",
      }),
    ).toEqual(['shared-imports-no-product']);
  });

  it('the products never import each other', async () => {
    expect(
      await broken({
        'src/dian/ubl/build.ts': 'export const x = 1;\n',
        'src/ecf/spec/model.ts': "import { x } from '../../dian/ubl/build.js';\nexport const y = x;\n",
        'src/dian/codes/cufe.ts': "import { y } from '../../ecf/spec/model.js';\nexport const z = y;\n",
      }),
    ).toEqual(['dian-not-ecf', 'ecf-not-dian']);
  });

  it('the pure core imports no Node-only module and no I/O part', async () => {
    expect(
      await broken({
        'src/ecf/dgii/http.ts': 'export const get = 1;\n',
        'src/ecf/validate/rule.ts': "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n",
        'src/ecf/xml/render.ts': "import { get } from '../dgii/http.js';\nexport const g = get;\n",
      }),
    ).toEqual(['pure-core-no-node', 'pure-core-stays-pure']);
  });

  it("DIAN's pure core is held to the same two rules", async () => {
    expect(await broken({ 'src/dian/codes/cufe.ts': "import { createHash } from 'node:crypto';\nexport const h = createHash;\n" })).toEqual([
      'pure-core-no-node',
    ]);
    expect(
      await broken({
        'src/dian/xsd/validator.ts': 'export const v = 1;\n',
        'src/dian/ubl/build.ts': "import { v } from '../xsd/validator.js';\nexport const b = v;\n",
      }),
    ).toEqual(['pure-core-stays-pure']);
  });

  it('the server and the CLI reach the product only through its public entries', async () => {
    expect(
      await broken({
        'src/ecf/spec/formats.ts': 'export const parse = 1;\n',
        'src/ecf/server/routes.ts': "import { parse } from '../spec/formats.js';\nexport const p = parse;\n",
        'src/ecf/cli/admin.ts': "import { parse } from '../spec/formats.js';\nexport const q = parse;\n",
      }),
    ).toEqual(['ecf-cli-through-entries', 'ecf-server-through-entries']);
  });

  it('the DIAN commands reach the product only through its public entries', async () => {
    expect(
      await broken({
        'src/dian/xsd/validator.ts': 'export const create = 1;\n',
        'src/dian/xsd/index.ts': "export { create } from './validator.js';\n",
        'src/dian/cli/xsd.ts': "import { create } from '../xsd/index.js';\nexport const a = create;\n",
        'src/dian/cli/validate.ts': "import { create } from '../xsd/validator.js';\nexport const b = create;\n",
        'src/dian/cli/index.ts': "import { a } from './xsd.js';\nimport { b } from './validate.js';\nexport const commands = [a, b];\n",
        'src/cli/main.ts': "import { commands } from '../dian/cli/index.js';\nexport const all = commands;\n",
      }),
    ).toEqual(['dian-cli-through-entries']);
  });

  it('the dispatcher knows a product only by its command list, and cycles are refused', async () => {
    expect(
      await broken({
        'src/ecf/xml/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
        'src/ecf/xml/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
        'src/cli/main.ts': "import { a } from '../ecf/xml/a.js';\nexport const m = a;\n",
      }),
    ).toEqual(['dispatcher-registers-commands-only', 'no-circular']);
  });
});
