import { existsSync, readFileSync } from 'node:fs';
import fontkit from '@pdf-lib/fontkit';
import { describe, expect, it } from 'vitest';
import { renderPdf } from '../../../src/ecf/pdf/index.js';
import { context, minimal, signed } from './fixtures.js';
import { pdfText, squash } from './tools.js';

const DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const DEJAVU_BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

function font(path: string): Uint8Array {
  if (!existsSync(path)) throw new Error(`${path} is missing: install Debian's fonts-dejavu-core (apt-get install fonts-dejavu-core).`);
  return new Uint8Array(readFileSync(path));
}

describe('renderPdf with a TrueType font (fontkit)', () => {
  it('prints characters outside Windows-1252 and stays deterministic', async () => {
    const { doc } = minimal('47');
    doc.comprador.razon_social = 'Łódź Ωmega Москва GmbH';
    doc.items[0].nombre = 'Licencia «Ōsaka» — soporte ≥ 12 meses';
    const xml = await signed('47', doc, context('47'));
    const options = { environment: 'certecf' as const, fonts: { regular: font(DEJAVU), bold: font(DEJAVU_BOLD), fontkit } };
    const a = await renderPdf(xml, options);
    const b = await renderPdf(xml, options);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const text = squash(pdfText(a));
    expect(text).toContain('Łódź Ωmega Москва GmbH');
    expect(text).toContain('Licencia «Ōsaka» — soporte ≥ 12 meses');
    expect(text).toContain('Distribuidora Peña & Asociados, S.R.L.');
    // With the default Helvetica the same characters degrade to their base letters or "?" instead of failing.
    const plain = squash(pdfText(await renderPdf(xml, { environment: 'certecf' })));
    expect(plain).toContain('?ódz ?mega ?????? GmbH');
    expect(plain).toContain('Licencia «Osaka» — soporte ? 12 meses');
  });

  it('needs a fontkit instance', async () => {
    const xml = await signed('31', minimal('31').doc, minimal('31').ctx);
    await expect(renderPdf(xml, { environment: 'certecf', fonts: { regular: font(DEJAVU), fontkit: undefined } })).rejects.toThrow(/fontkit/);
  });
});
