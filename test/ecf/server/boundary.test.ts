/**
 * The reference server is a thin adapter over the SDK: it may import the SDK only through its public
 * entry files, so everything it needs is also available to embedders (design.md §5).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/env.js';

const src = join(repoRoot, 'src/ecf');
/** The shared kernel is not the SDK: the server uses it like any other library. */
const kernel = join(repoRoot, 'src/shared');
const ENTRIES = ['index.ts', 'sign/index.ts', 'xsd/index.ts', 'pdf/index.ts', 'dgii/index.ts', 'simulator/index.ts'];

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]/g), ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (m) => m[1]!,
  );
  return specs.filter((s) => s.startsWith('.'));
}

describe('server boundary', () => {
  const files = walk(join(src, 'server'));

  it('finds the server sources', () => {
    expect(files.length).toBeGreaterThan(3);
  });

  it('imports the SDK only through its public entry files', () => {
    const offenders: string[] = [];
    for (const file of files) {
      for (const spec of relativeImports(file)) {
        const target = relative(src, resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
        if (target.startsWith('server/') || ENTRIES.includes(target)) continue;
        if (!relative(kernel, resolve(dirname(file), spec)).startsWith('..')) continue;
        offenders.push(`${relative(repoRoot, file)} → ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
