/**
 * Writes the files generated from the DIAN request description (scripts/dian/render-fields.ts).
 *
 * Usage: tsx scripts/dian/gen.ts [--check]
 * With --check nothing is written; exits 1 listing the committed files that differ from what it would write.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dianFieldOutputs } from './render-fields.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const check = process.argv.includes('--check');
const outputs = dianFieldOutputs();

const stale: string[] = [];
for (const { path, text } of outputs) {
  const abs = resolve(root, path);
  if (existsSync(abs) && readFileSync(abs, 'utf8') === text) continue;
  if (check) {
    stale.push(path);
  } else {
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    console.log(`wrote ${path}`);
  }
}
if (check && stale.length > 0) {
  for (const path of stale) console.error(`stale generated file: ${path} (run npm run gen)`);
  process.exit(1);
}
if (check) console.log(`DIAN generated files are current (${outputs.length} files)`);
