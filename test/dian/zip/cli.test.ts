/** `ecf dian zip`, through the dispatcher. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { readZip } from '../../../src/shared/xsd/zip.js';
import { fakeIo } from '../../ecf/helpers/cli.js';

const sample = readFileSync(resolve(import.meta.dirname, '../fixtures/toolbox/consumidor-final.xml'));
const dir = mkdtempSync(join(tmpdir(), 'dian-zip-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const xmlFile = join(dir, 'signed.xml');
writeFileSync(xmlFile, sample);

describe('ecf dian zip', () => {
  it('writes the zip next to the XML under its DIAN name and prints both names', async () => {
    const f = fakeIo({}, {}, { disk: true });
    expect(await runCli(['dian', 'zip', '--nit', '800197268', '--provider', '000', '--year', '26', '--counter', '12', xmlFile], f.io)).toBe(0);
    const zipPath = join(dir, 'z0800197268000260000000C.zip');
    const bytes = readFileSync(zipPath);
    expect(f.out()).toBe(`xml: fv0800197268000260000000C.xml\nzip: z0800197268000260000000C.zip\nwritten: ${zipPath} (${bytes.length} bytes)\n`);
    expect(f.err()).toBe('');
    const entries = readZip(bytes);
    expect(entries.map((e) => e.name)).toEqual(['fv0800197268000260000000C.xml']);
    expect(entries[0]!.read().equals(sample)).toBe(true);
  });

  it('honours --kind, --counter-format, --date and --out; payroll without provider', async () => {
    const out = join(dir, 'custom.zip');
    const f = fakeIo({}, {}, { disk: true });
    const args = ['dian', 'zip', '--kind', 'payroll', '--nit', '800197268', '--year', '2020', '--counter', '12', '--counter-format', 'decimal'];
    expect(await runCli([...args, '--date', '2020-05-01', '--out', out, xmlFile], f.io)).toBe(0);
    expect(f.out()).toContain('xml: nie08001972682000000012.xml\nzip: z08001972682000000012.zip\n');
    const zip = readFileSync(out);
    expect(zip.readUInt16LE(12)).toBe(((2020 - 1980) << 9) | (5 << 5) | 1);
    expect(readZip(zip)[0]!.name).toBe('nie08001972682000000012.xml');
  });

  it('exits 2 on a bad value, naming the option, and writes nothing', async () => {
    const f = fakeIo({}, {}, { disk: true });
    expect(await runCli(['dian', 'zip', '--nit', '800197268-4', '--provider', '000', '--year', '26', '--counter', '1', xmlFile], f.io)).toBe(2);
    expect(f.err()).toMatch(/^ecf dian zip: --nit: El NIT debe tener de 1 a 10 dígitos/);
    expect(f.out()).toBe('');
    expect(existsSync(join(dir, 'z08001972680002600000001.zip'))).toBe(false);
    const g = fakeIo({}, {}, { disk: true });
    expect(await runCli(['dian', 'zip', '--nit', '1', '--year', '26', '--counter', '1', xmlFile], g.io)).toBe(2);
    expect(g.err()).toContain('--provider: ');
  });

  it('exits 2 on usage mistakes and unreadable or non-UTF-8 files', async () => {
    const base = ['dian', 'zip', '--nit', '1', '--provider', '000', '--year', '26'];
    for (const args of [
      [...base, xmlFile],
      [...base, '--counter', 'x', xmlFile],
      [...base, '--counter', '1'],
      [...base, '--counter', '1', '--kind', 'receipt', xmlFile],
      [...base, '--counter', '1', '--bogus', 'x', xmlFile],
    ]) {
      const f = fakeIo({}, {}, { disk: true });
      expect(await runCli(args, f.io)).toBe(2);
      expect(f.err()).not.toBe('');
    }
    const missing = fakeIo({}, {}, { disk: true });
    expect(await runCli([...base, '--counter', '1', join(dir, 'nope.xml')], missing.io)).toBe(2);
    expect(missing.err()).toContain('cannot read');
    const latin1 = join(dir, 'latin1.xml');
    writeFileSync(latin1, Buffer.from([0x3c, 0x61, 0x3e, 0xf1, 0x3c, 0x2f, 0x61, 0x3e]));
    const bad = fakeIo({}, {}, { disk: true });
    expect(await runCli([...base, '--counter', '1', latin1], bad.io)).toBe(2);
    expect(bad.err()).toContain('not valid UTF-8');
  });
});
