/** `ecf dian hash`, through the dispatcher, on DIAN's toolbox samples. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { fakeIo } from '../../ecf/xsd/fixtures.js';

const dir = resolve(import.meta.dirname, '../fixtures/toolbox');
const sample = (f: string) => resolve(dir, f);
/** The habilitación technical key and PIN, as DIAN's sample pre-image notes carry them (see from-tree.test.ts). */
const KEY = 'fc8eac422eba16e22ffd8c6f94b3f40a6e38162c';
const PIN = '20191';
const CONSUMIDOR_CUFE = 'b629c5d2a9bea378550e74f3f376bc9aa85d09d8ff6d7455f689599d4b4f1c39b6f670feb1d93aee376c716817807a1c';

describe('ecf dian hash', () => {
  it('exits 0 and prints kind, computed and declared code when they match', async () => {
    const f = fakeIo();
    expect(await runCli(['dian', 'hash', '--technical-key', KEY, sample('consumidor-final.xml')], f.io)).toBe(0);
    expect(f.out()).toBe(`kind: CUFE (Invoice 01, CUFE-SHA384)\ncomputed: ${CONSUMIDOR_CUFE}\ndeclared: ${CONSUMIDOR_CUFE}\ncode: matches\n`);
    expect(f.err()).toBe('');
  });

  it('with --pin also checks the security code, with the software id of the file unless --software-id is given', async () => {
    const f = fakeIo();
    expect(await runCli(['dian', 'hash', '--technical-key', KEY, '--pin', PIN, sample('factura-otra-moneda.xml')], f.io)).toBe(0);
    expect(f.out()).toMatch(/\ncode: matches\nsecurity code computed: ([0-9a-f]{96})\nsecurity code declared: \1\nsecurity code: matches\n$/);
    const g = fakeIo();
    expect(await runCli(['dian', 'hash', '--technical-key', KEY, '--pin', PIN, '--software-id', 'other', sample('factura-otra-moneda.xml')], g.io)).toBe(1);
    expect(g.out()).toMatch(/\ncode: matches\n.*\nsecurity code: DIFFERS\n$/s);
  });

  it('exits 1 when a code differs, prefixing lines with the file name when given several files', async () => {
    const f = fakeIo();
    const files = [sample('consumidor-final.xml'), sample('creditnote.xml')];
    expect(await runCli(['dian', 'hash', '--technical-key', KEY, '--pin', PIN, ...files], f.io)).toBe(1);
    const out = f.out();
    expect(out).toContain(`${files[0]}: code: matches\n`);
    expect(out).toContain(`${files[1]}: kind: CUDE (CreditNote 91, CUDE-SHA384)\n`);
    expect(out).toContain(`${files[1]}: code: DIFFERS\n`);
    expect(out).toContain(`${files[1]}: security code: matches\n`);
    expect(
      out
        .split('\n')
        .filter(Boolean)
        .every((l) => files.some((p) => l.startsWith(`${p}: `))),
    ).toBe(true);
  });

  it('reports an event as event CUDE with its response code', async () => {
    const f = fakeIo();
    expect(await runCli(['dian', 'hash', '--pin', PIN, sample('030-acuse-recibofev.xml')], f.io)).toBe(1);
    expect(f.out()).toMatch(/^kind: event CUDE \(ApplicationResponse 030, CUDE-SHA384\)\n/);
    expect(f.out()).toContain('\nsecurity code: matches\n');
  });

  it('reports a scheme name that disagrees with the type code, and exits 1', async () => {
    const xml = readFileSync(sample('consumidor-final.xml'), 'utf8').replace('schemeName="CUFE-SHA384"', 'schemeName="CUDE-SHA384"');
    const f = fakeIo({}, { 'x.xml': xml });
    expect(await runCli(['dian', 'hash', '--technical-key', KEY, 'x.xml'], f.io)).toBe(1);
    expect(f.out()).toContain('code: matches\nscheme: DIFFERS (cbc:UUID/@schemeName is "CUDE-SHA384", expected CUFE-SHA384)\n');
  });

  it('exits 2 on usage problems, missing keys and unreadable files, with the reason on stderr', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['dian', 'hash'], /missing the XML file/],
      [['dian', 'hash', '--bogus', 'x', 'a.xml'], /unknown option\(s\): --bogus/],
      [['dian', 'hash', 'a.xml', '--pin'], /--pin needs a value/],
      [['dian', 'hash', sample('generica.xml')], /clave técnica.*\(pass --technical-key\)/],
      [['dian', 'hash', '--technical-key', KEY, sample('creditnote.xml')], /PIN del software.*\(pass --pin\)/],
      [['dian', 'hash', '--pin', PIN, 'missing.xml'], /cannot read missing\.xml/],
      [['dian', 'hash', '--pin', PIN, 'bad.xml'], /bad\.xml: El XML no está bien formado/],
      [['dian', 'hash', '--pin', PIN, 'latin1.xml'], /latin1\.xml: not valid UTF-8/],
      [['dian', 'hash', '--pin', PIN, 'no-time.xml'], /Falta la hora de emisión \(\/Invoice\/cbc:IssueTime\)/],
    ];
    const noTime = readFileSync(sample('consumidor-final.xml'), 'utf8').replace(/<cbc:IssueTime>[^<]*<\/cbc:IssueTime>/, '');
    for (const [argv, re] of cases) {
      const f = fakeIo({}, { 'bad.xml': '<Invoice', 'latin1.xml': new Uint8Array([0x3c, 0x61, 0xe9, 0x3e]), 'no-time.xml': noTime });
      expect(await runCli(argv, f.io), argv.join(' ')).toBe(2);
      expect(f.err(), argv.join(' ')).toMatch(re);
      expect(f.out(), argv.join(' ')).toBe('');
    }
  });

  it('goes on with the other files after an unreadable one, and still exits 2', async () => {
    const f = fakeIo();
    expect(await runCli(['dian', 'hash', '--technical-key', KEY, 'missing.xml', sample('consumidor-final.xml')], f.io)).toBe(2);
    expect(f.out()).toContain(': code: matches\n');
  });

  it('is listed in the help', async () => {
    const f = fakeIo();
    expect(await runCli(['--help'], f.io)).toBe(0);
    expect(f.err()).toContain('ecf dian hash [--technical-key KEY] [--pin PIN] [--software-id ID] <file.xml>...');
  });
});
