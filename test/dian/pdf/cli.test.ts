/** `ecf dian pdf`, through the dispatcher. */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { fakeIo } from '../../ecf/helpers/cli.js';
import { pdfInfo, pdfText } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'dian-pdf-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sample = join(dir, 'generica.xml');
writeFileSync(sample, readFileSync(resolve(import.meta.dirname, '../fixtures/toolbox/generica.xml')));

describe('ecf dian pdf', () => {
  it('writes the A4 PDF to --out and says what it printed', async () => {
    const out = join(dir, 'a4.pdf');
    const f = fakeIo({}, {}, { disk: true });
    expect(await runCli(['dian', 'pdf', '--in', sample, '--out', out, '--provider-name', 'Proveedor Ejemplo'], f.io)).toBe(0);
    expect(f.out()).toMatch(/^Factura electrónica de venta SETP990000002 \(CUFE 941cf36af62d…\): .*a4\.pdf \(\d+ bytes, a4\)\n$/);
    const pdf = new Uint8Array(readFileSync(out));
    expect(pdfText(pdf)).toContain('Proveedor Ejemplo, NIT 800197268-4');
    expect(pdfInfo(pdf)['Page size']).toMatch(/^595\.2\d? x 841\.8\d? pts \(A4\)/);
  });

  it('--format receipt80 writes the 80 mm strip', async () => {
    const out = join(dir, 'strip.pdf');
    const f = fakeIo({}, {}, { disk: true });
    expect(await runCli(['dian', 'pdf', '--in', sample, '--format', 'receipt80', '--out', out], f.io)).toBe(0);
    expect(pdfInfo(new Uint8Array(readFileSync(out)))['Page size']).toMatch(/^226\.77\d* x /);
  });

  it('exit 1 for a file that is no printable DIAN document, 2 on usage errors; nothing written', async () => {
    const bad = join(dir, 'event.xml');
    writeFileSync(bad, readFileSync(resolve(import.meta.dirname, '../fixtures/toolbox/030-acuse-recibofev.xml')));
    const out = join(dir, 'never.pdf');
    const f = fakeIo({}, {}, { disk: true });
    expect(await runCli(['dian', 'pdf', '--in', bad, '--out', out], f.io)).toBe(1);
    expect(f.err()).toMatch(/No hay representación gráfica para este documento \(raíz ApplicationResponse\).*\(unsupported_document\)/);
    expect(await runCli(['dian', 'pdf', '--in', sample, '--out', out, '--format', 'letter'], f.io)).toBe(2);
    expect(f.err()).toMatch(/--format must be one of a4, receipt80/);
    expect(await runCli(['dian', 'pdf', '--in', sample], f.io)).toBe(2);
    expect(await runCli(['dian', 'pdf', '--in', join(dir, 'missing.xml'), '--out', out], f.io)).toBe(2);
    expect(existsSync(out)).toBe(false);
  });
});
