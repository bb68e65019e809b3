/**
 * `npm run bench`: runs every benchmark script in bench/ (one process each, so they do not disturb each
 * other's heap), prints their tables and leaves JSON results in bench/results/.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const skip = new Set(['run.ts', 'lib.ts', 'docs.ts']);
const only = process.argv.slice(2);
const scripts = readdirSync(dir).filter((f) => f.endsWith('.ts') && !skip.has(f) && (only.length === 0 || only.some((o) => f.startsWith(o)))).sort();
let failed = 0;
for (const s of scripts) {
  console.log(`\n=== bench/${s}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', resolve(dir, s)], { stdio: 'inherit', env: process.env });
  if (r.status !== 0) failed++;
}
console.log(`\nresults written to bench/results/ (${scripts.length} benchmark scripts${failed ? `, ${failed} failed` : ''})`);
process.exit(failed ? 1 : 0);
