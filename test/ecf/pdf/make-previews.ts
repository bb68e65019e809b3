/**
 * Regenerates the PDF previews committed in docs/ (`docs/preview-31.png`, `docs/preview-46.png`) from the test
 * fixtures: `npx tsx test/ecf/pdf/make-previews.ts`. Needs pdftoppm (poppler-utils).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { renderPdf } from '../../../src/ecf/pdf/index.js';
import { repoRoot } from '../helpers/env.js';
import { richDocs, signed } from './fixtures.js';
import { rasterize } from './tools.js';

/** A small generated logo: a blue tile with a light diamond (no text, no external file). */
export function sampleLogo(): Uint8Array {
  const w = 160;
  const h = 160;
  const png = new PNG({ width: w, height: h });
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      const r = Math.hypot(Math.max(0, Math.abs(x - 79.5) - 56), Math.max(0, Math.abs(y - 79.5) - 56));
      const inside = r <= 22;
      const diamond = Math.abs(x - 79.5) + Math.abs(y - 79.5) <= 44;
      const c = !inside ? [255, 255, 255, 0] : diamond ? [245, 190, 60, 255] : [28, 61, 102, 255];
      png.data.set(c, i);
    }
  }
  return PNG.sync.write(png);
}

for (const tipo of ['31', '46'] as const) {
  const xml = await signed(tipo, richDocs[tipo]());
  const pdf = await renderPdf(xml, { environment: 'certecf', logo: sampleLogo() });
  const out = join(repoRoot, 'docs', `preview-${tipo}.png`);
  writeFileSync(out, rasterize(pdf, 1, 96));
  console.log(out);
}
