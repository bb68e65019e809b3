/**
 * Regenerates the DIAN PDF previews in docs/images/ from the golden examples (test/dian/fixtures/golden/): the
 * invoice and the credit note on A4 (page 1) and the POS document on the 80 mm strip. Needs pdftoppm
 * (poppler-utils). Each image stays under 150 KB (low resolution, checked here).
 *
 *   npx tsx scripts/dian/pdf-previews.ts
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { dianPdf, type DianPdfFormat } from '../../src/dian/pdf/index.js';
import { goldenFile } from '../../test/dian/helpers/examples.js';
import { repoRoot } from '../../test/dian/helpers/env.js';
import { rasterize } from '../../test/ecf/pdf/tools.js';

const PREVIEWS: Array<{ kind: 'invoice' | 'credit-note' | 'pos'; format: DianPdfFormat; dpi: number }> = [
  { kind: 'invoice', format: 'a4', dpi: 60 },
  { kind: 'credit-note', format: 'a4', dpi: 60 },
  { kind: 'pos', format: 'receipt80', dpi: 72 },
];

const dir = resolve(repoRoot, 'docs/images');
mkdirSync(dir, { recursive: true });
let failed = 0;
for (const { kind, format, dpi } of PREVIEWS) {
  const r = await dianPdf(readFileSync(goldenFile(kind, 'max'), 'utf8'), { format, providerName: 'Proveedor Tecnológico Ejemplo S.A.S.' });
  if (!r.ok) {
    console.error(`${kind}: ${r.message}`);
    failed++;
    continue;
  }
  const png = rasterize(r.pdf, 1, dpi);
  const out = resolve(dir, `dian-pdf-${kind}.png`);
  writeFileSync(out, png);
  const kb = Math.round(png.length / 1024);
  console.log(`${out} (${kb} KB)`);
  if (png.length >= 150 * 1024) {
    console.error(`${out} is ${kb} KB: keep previews under 150 KB (lower the dpi)`);
    failed++;
  }
}
process.exit(failed ? 1 : 0);
