import { readFileSync, writeFileSync, copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { xsdDir } from '../helpers/env.js';
import { XSD_FILE_NAMES } from '../../../src/ecf/xsd/index.js';
import { ecf32, ecf43, fakeIo, makeZip, tempDir } from './fixtures.js';

const dir = xsdDir();
const dirs: string[] = [];
const tmp = () => {
  const d = tempDir();
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('ecf validate', () => {
  it('exits 0 and says valid, with the schema detected from root and TipoeCF', async () => {
    const f = fakeIo({}, { 'a.xml': ecf43({ items: 2 }) });
    expect(await runCli(['validate', '--xsd-dir', dir, 'a.xml'], f.io)).toBe(0);
    expect(f.out()).toBe('valid (ECF-43)\n');
  });

  it('exits 1 with one `xpath: message` line per violation', async () => {
    const f = fakeIo({}, { 'bad.xml': ecf43({ items: 6, badItem: 5 }).replace('<RNCEmisor>131880681</RNCEmisor>', '<RNCEmisor>1</RNCEmisor>') });
    expect(await runCli(['validate', '--xsd-dir', dir, 'bad.xml'], f.io)).toBe(1);
    const lines = f.out().trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\/ECF\/Encabezado\/Emisor\/RNCEmisor: Element 'RNCEmisor': \[facet 'pattern'\]/);
    expect(lines[1]).toMatch(/^\/ECF\/DetallesItems\/Item\[5\]\/IndicadorFacturacion: Element 'IndicadorFacturacion': /);
  });

  it('uses ECF_XSD_DIR when --xsd-dir is absent, and reads real files', async () => {
    const file = join(tmp(), 'doc.xml');
    writeFileSync(file, ecf32({ items: 3 }));
    const f = fakeIo({ ECF_XSD_DIR: dir });
    expect(await runCli(['validate', file], f.io)).toBe(0);
    expect(f.out()).toBe('valid (ECF-32)\n');
  });

  it('--schema overrides detection; --relaxed32 applies to type 32', async () => {
    const f = fakeIo({ ECF_XSD_DIR: dir }, { 'a.xml': ecf43(), 'big.xml': ecf32({ items: 1001 }) });
    expect(await runCli(['validate', '--schema', 'ECF-31', 'a.xml'], f.io)).toBe(1);
    expect(f.out()).toContain('/ECF/Encabezado/IdDoc');
    const g = fakeIo({ ECF_XSD_DIR: dir }, { 'big.xml': ecf32({ items: 1001 }) });
    expect(await runCli(['validate', 'big.xml'], g.io)).toBe(1);
    expect(g.out()).toContain('/ECF/DetallesItems/Item[1001]: ');
    const h = fakeIo({ ECF_XSD_DIR: dir }, { 'big.xml': ecf32({ items: 1001 }) });
    expect(await runCli(['validate', '--relaxed32', 'big.xml'], h.io)).toBe(0);
    expect(h.out()).toBe('valid (ECF-32, relaxed32)\n');
  });

  it('prefixes lines with the file name when given several files; exit 1 if any is invalid', async () => {
    const f = fakeIo({ ECF_XSD_DIR: dir }, { 'ok.xml': ecf43(), 'ko.xml': ecf43({ unsigned: true }) });
    expect(await runCli(['validate', 'ok.xml', 'ko.xml'], f.io)).toBe(1);
    expect(f.out()).toMatch(/^ok\.xml: valid \(ECF-43\)\nko\.xml: \/ECF: Element 'ECF': Missing child element/);
  });

  it('exits 2 on usage problems and when the XSD set is unavailable', async () => {
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [['validate', 'a.xml'], {}, /no XSD directory/],
      [['validate', '--xsd-dir', dir], {}, /missing the XML file/],
      [['validate', '--xsd-dir', dir, '--schema', 'ECF-99', 'a.xml'], {}, /unknown schema "ECF-99"/],
      [['validate', '--xsd-dir', dir, '--bogus', 'a.xml'], {}, /unknown option/],
      [['validate', '--xsd-dir', dir, 'unknown.xml'], {}, /cannot tell the schema/],
      [['validate', '--xsd-dir', join(dir, 'nope'), 'a.xml'], {}, /XSD directory not found.*ecf xsd install/s],
      [['validate', '--xsd-dir', dir, 'missing-file.xml'], {}, /cannot read missing-file\.xml/],
    ];
    for (const [argv, env, re] of cases) {
      const f = fakeIo(env, { 'a.xml': ecf43(), 'unknown.xml': '<Factura/>' });
      expect(await runCli(argv, f.io), argv.join(' ')).toBe(2);
      expect(f.err(), argv.join(' ')).toMatch(re);
      expect(f.out()).toBe('');
    }
  });

  it('reports a file that is not UTF-8 as invalid', async () => {
    const latin1 = Buffer.from(ecf43({ razonSocial: 'Ñandú' }), 'latin1');
    const f = fakeIo({ ECF_XSD_DIR: dir }, { 'l.xml': new Uint8Array(latin1) });
    expect(await runCli(['validate', 'l.xml'], f.io)).toBe(1);
    expect(f.out()).toContain('not valid UTF-8');
  });
});

describe('ecf xsd install / check', () => {
  it('installs from a zip into --xsd-dir and checks the result', async () => {
    const zip = join(tmp(), 'dgii.zip');
    writeFileSync(zip, makeZip(XSD_FILE_NAMES.map((n) => ({ name: n.replace('-v1.0', ' v.1.0'), data: readFileSync(join(dir, n)) }))));
    const target = join(tmp(), 'xsd');
    const f = fakeIo();
    expect(await runCli(['xsd', 'install', zip, '--xsd-dir', target], f.io)).toBe(0);
    expect(f.out()).toContain(`installed 15 file(s) into ${target}`);
    for (const n of XSD_FILE_NAMES) expect(existsSync(join(target, n))).toBe(true);

    const c = fakeIo({ ECF_XSD_DIR: target });
    expect(await runCli(['xsd', 'check'], c.io)).toBe(0);
    expect(c.out()).toContain('pinned  e-CF-31-v1.0.xsd');
    expect(c.out()).toContain('fix     e-CF-31-v1.0.xsd: name=" IndicadorServicioTodoIncluidoType"');
    expect(c.out()).toContain('compiled 15 schemas');
  });

  it('refuses a changed file (exit 1, expected/actual listed) unless --force', async () => {
    const from = tmp();
    for (const n of XSD_FILE_NAMES) copyFileSync(join(dir, n), join(from, n));
    writeFileSync(join(from, 'Semilla-v1.0.xsd'), readFileSync(join(dir, 'Semilla-v1.0.xsd'), 'utf8') + '\n');
    const target = join(tmp(), 'xsd');
    const f = fakeIo({ ECF_XSD_DIR: target });
    expect(await runCli(['xsd', 'install', from], f.io)).toBe(1);
    expect(f.err()).toMatch(/changed: Semilla-v1\.0\.xsd[\s\S]*expected sha256 bebef2033c93[\s\S]*actual {3}sha256 [0-9a-f]{64}/);
    expect(existsSync(join(target, 'Semilla-v1.0.xsd'))).toBe(false);

    const g = fakeIo({ ECF_XSD_DIR: target });
    expect(await runCli(['xsd', 'install', from, '--force'], g.io)).toBe(0);
    expect(g.err()).toContain('warning: Semilla-v1.0.xsd differs from the pinned SHA-256');
    expect(g.out()).toContain('Semilla-v1.0.xsd  changed');

    const c = fakeIo({ ECF_XSD_DIR: target });
    expect(await runCli(['xsd', 'check'], c.io)).toBe(1);
    expect(c.out()).toContain('changed Semilla-v1.0.xsd');
  });

  it('exits 2 without a target directory or a source', async () => {
    const f = fakeIo();
    expect(await runCli(['xsd', 'install', dir], f.io)).toBe(2);
    expect(f.err()).toMatch(/no XSD directory/);
    const g = fakeIo({ ECF_XSD_DIR: tmp() });
    expect(await runCli(['xsd', 'install'], g.io)).toBe(2);
    expect(g.err()).toMatch(/exactly one source/);
  });
});
