/**
 * Regenerates the golden XMLs of the DIAN examples (test/dian/fixtures/golden/<kind>.<min|max>.xml) from
 * examples/dian/. Run it after a deliberate change of the builder or of an example, and review the diff; the
 * tests (test/dian/build/goldens.test.ts) only compare.
 *
 *   npx tsx scripts/dian/goldens.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildExample, EXAMPLE_KINDS, EXAMPLE_SIZES, GOLDEN_DIR, goldenFile } from '../../test/dian/helpers/examples.js';

mkdirSync(GOLDEN_DIR, { recursive: true });
let failed = 0;
for (const kind of EXAMPLE_KINDS)
  for (const size of EXAMPLE_SIZES) {
    const r = buildExample(kind, size);
    if (!r.ok) {
      console.error(`${kind}.${size}: ${JSON.stringify(r.body)}`);
      failed++;
      continue;
    }
    writeFileSync(goldenFile(kind, size), r.xml);
  }
console.log(`wrote ${EXAMPLE_KINDS.length * EXAMPLE_SIZES.length - failed} golden file(s) to ${GOLDEN_DIR}`);
process.exit(failed ? 1 : 0);
