/** `ecf dian validate`, `ecf dian xsd install` and `ecf dian xsd check`, through the dispatcher. */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { DIAN_XSD_FILE_NAMES } from '../../../src/dian/xsd/index.js';
import { fakeIo, makeZip, tempDir } from '../../ecf/xsd/fixtures.js';
import { dianXsdDir } from '../helpers/env.js';
import { invoice, payrollPlaceholder } from './fixtures.js';

const dir = dianXsdDir();
const dirs: string[] = [];
const tmp = () => {
  const d = tempDir('dian-xsd-cli-');
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('ecf dian validate', () => {
  it('exits 0 and says valid, with the schema detected from the root element and its namespace', async () => {
    const f = fakeIo({}, { 'a.xml': invoice() });
    expect(await runCli(['dian', 'validate', '--xsd-dir', dir, 'a.xml'], f.io)).toBe(0);
    expect(f.out()).toBe('valid (Invoice)\n');
  });

  it('exits 1 with one `xpath: message` line per violation; --unsigned accepts the empty extensions placeholder', async () => {
    const f = fakeIo({ DIAN_XSD_DIR: dir }, { 'bad.xml': invoice({ swapIdAndDate: true }), 'u.xml': invoice({ extensions: '<ext:UBLExtensions/>' }) });
    expect(await runCli(['dian', 'validate', 'bad.xml'], f.io)).toBe(1);
    expect(f.out()).toMatch(/^\/Invoice\/cbc:IssueDate: Element '\{[^}]+\}IssueDate': This element is not expected/);
    const g = fakeIo({ DIAN_XSD_DIR: dir }, { 'u.xml': invoice({ extensions: '<ext:UBLExtensions/>' }) });
    expect(await runCli(['dian', 'validate', 'u.xml'], g.io)).toBe(1);
    expect(g.out()).toMatch(/^\/Invoice\/ext:UBLExtensions: /);
    const h = fakeIo({ DIAN_XSD_DIR: dir }, { 'u.xml': invoice({ extensions: '<ext:UBLExtensions/>' }) });
    expect(await runCli(['dian', 'validate', '--unsigned', 'u.xml'], h.io)).toBe(0);
    expect(h.out()).toBe('valid (Invoice, unsigned)\n');
  });

  it('prefixes lines with the file name when given several files', async () => {
    const f = fakeIo({ DIAN_XSD_DIR: dir }, { 'ok.xml': invoice(), 'p.xml': payrollPlaceholder() });
    expect(await runCli(['dian', 'validate', 'ok.xml', 'p.xml'], f.io)).toBe(1);
    expect(f.out()).toMatch(/^ok\.xml: valid \(Invoice\)\n(p\.xml: .*\n)+$/);
    expect(f.out()).toContain('\np.xml: /NominaIndividual/ext:UBLExtensions: ');
  });

  it('exits 2 on usage problems and when the XSD set is unavailable', async () => {
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [['dian', 'validate', 'a.xml'], {}, /no XSD directory.*DIAN_XSD_DIR/],
      [['dian', 'validate', '--xsd-dir', dir], {}, /missing the XML file/],
      [['dian', 'validate', '--xsd-dir', dir, '--schema', 'Factura', 'a.xml'], {}, /unknown schema "Factura"/],
      [['dian', 'validate', '--xsd-dir', dir, '--bogus', 'a.xml'], {}, /unknown option/],
      [['dian', 'validate', '--xsd-dir', dir, 'wrong.xml'], {}, /cannot tell the schema from the root element \(Invoice in urn:other\)/],
      [['dian', 'validate', '--xsd-dir', join(dir, 'nope'), 'a.xml'], {}, /XSD directory not found.*ecf dian xsd install/s],
      [['dian', 'validate', '--xsd-dir', dir, 'missing-file.xml'], {}, /cannot read missing-file\.xml/],
    ];
    for (const [argv, env, re] of cases) {
      const f = fakeIo(env, { 'a.xml': invoice(), 'wrong.xml': '<Invoice xmlns="urn:other"/>' });
      expect(await runCli(argv, f.io), argv.join(' ')).toBe(2);
      expect(f.err(), argv.join(' ')).toMatch(re);
      expect(f.out()).toBe('');
    }
  });

  it('is listed in the help with the e-CF commands', async () => {
    const f = fakeIo();
    expect(await runCli(['--help'], f.io)).toBe(0);
    expect(f.err()).toContain('ecf dian validate [--xsd-dir DIR]');
    expect(f.err()).toContain('ecf dian xsd install <folder|zip>');
    expect(f.err()).toContain('ecf xsd install <folder|zip>');
  });
});

describe('ecf dian xsd install / check', () => {
  it('installs from a zip laid out as the toolboxes into --xsd-dir and checks the result', async () => {
    const zip = join(tmp(), 'dian.zip');
    writeFileSync(
      zip,
      makeZip(
        DIAN_XSD_FILE_NAMES.map((n) => ({
          name: n.startsWith('payroll/') ? `Nomina/XSD/${n.slice('payroll/'.length)}` : `FE-V1-9/XSD/${n}`,
          data: readFileSync(join(dir, n)),
        })),
      ),
    );
    const target = join(tmp(), 'xsd');
    const f = fakeIo();
    expect(await runCli(['dian', 'xsd', 'install', zip, '--xsd-dir', target], f.io)).toBe(0);
    expect(f.out()).toContain(`installed 22 file(s) into ${target}`);
    expect(f.out()).toContain('  common/UBL-CommonAggregateComponents-2.1.xsd  pinned\n');
    for (const n of DIAN_XSD_FILE_NAMES) expect(existsSync(join(target, n))).toBe(true);

    const c = fakeIo({ DIAN_XSD_DIR: target });
    expect(await runCli(['dian', 'xsd', 'check'], c.io)).toBe(0);
    expect(c.out()).toContain('pinned  maindoc/UBL-Invoice-2.1.xsd');
    expect(c.out()).toContain('pinned  payroll/NominaIndividualElectronicaXSDV1.0.6.xsd');
    expect(c.out()).toContain('compiled 7 schemas');
    expect(c.out()).toContain('DIAN_UBL_Structures.xsd is documentation, not a gate');
  });

  it('refuses a changed file (exit 1, expected/actual listed) unless --force; check then exits 1', async () => {
    const from = tmp();
    for (const n of DIAN_XSD_FILE_NAMES) {
      mkdirSync(dirname(join(from, n)), { recursive: true });
      copyFileSync(join(dir, n), join(from, n));
    }
    writeFileSync(join(from, 'common/CCTS_CCT_SchemaModule-2.1.xsd'), `${readFileSync(join(dir, 'common/CCTS_CCT_SchemaModule-2.1.xsd'), 'utf8')}\r\n`);
    const target = join(tmp(), 'xsd');
    const f = fakeIo({ DIAN_XSD_DIR: target });
    expect(await runCli(['dian', 'xsd', 'install', from], f.io)).toBe(1);
    expect(f.err()).toMatch(/changed: common\/CCTS_CCT_SchemaModule-2\.1\.xsd[\s\S]*expected sha256 d5fcf183b62d[\s\S]*actual {3}sha256 [0-9a-f]{64}/);
    expect(existsSync(join(target, 'common'))).toBe(false);

    const g = fakeIo({ DIAN_XSD_DIR: target });
    expect(await runCli(['dian', 'xsd', 'install', from, '--force'], g.io)).toBe(0);
    expect(g.err()).toContain('warning: common/CCTS_CCT_SchemaModule-2.1.xsd differs from the pinned SHA-256');

    const c = fakeIo({ DIAN_XSD_DIR: target });
    expect(await runCli(['dian', 'xsd', 'check'], c.io)).toBe(1);
    expect(c.out()).toContain('changed common/CCTS_CCT_SchemaModule-2.1.xsd');
  });

  it('exits 2 without a target directory or a source; the e-CF xsd commands are unaffected', async () => {
    const f = fakeIo();
    expect(await runCli(['dian', 'xsd', 'install', dir], f.io)).toBe(2);
    expect(f.err()).toMatch(/no XSD directory: pass --xsd-dir DIR or set DIAN_XSD_DIR/);
    const g = fakeIo({ DIAN_XSD_DIR: tmp() });
    expect(await runCli(['dian', 'xsd', 'install'], g.io)).toBe(2);
    expect(g.err()).toMatch(/exactly one source/);
    // DIAN_XSD_DIR does not stand in for ECF_XSD_DIR.
    const h = fakeIo({ DIAN_XSD_DIR: dir });
    expect(await runCli(['xsd', 'check'], h.io)).toBe(2);
    expect(h.err()).toMatch(/set ECF_XSD_DIR/);
  });
});
