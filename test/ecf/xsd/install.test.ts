import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { xsdDir } from '../helpers/env.js';
import {
  createSchemaValidator,
  installXsd,
  PINNED_XSD_SHA256,
  SchemaError,
  verifyXsdDir,
  XSD_FILE_NAMES,
  XsdInstallError,
} from '../../../src/ecf/xsd/index.js';
import { normalizeXsdName } from '../../../src/ecf/xsd/install.js';
import { crc32, crc32Js, readZip } from '../../../src/shared/xsd/zip.js';
import { makeZip, tempDir } from './fixtures.js';

const src = xsdDir();
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const dirs: string[] = [];
const tmp = () => {
  const d = tempDir();
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** DGII-style names: spaces, dots and case differ from the canonical ones. */
const dgiiName = (f: string) =>
  f
    .replace(/-v1\.0\.xsd$/, ' v.1.0.xsd')
    .replace(/^e-CF-/, 'e-CF ')
    .toUpperCase();

describe('installXsd', () => {
  it('installs the fifteen files from a folder, all pinned, byte for byte', () => {
    const target = join(tmp(), 'xsd');
    const r = installXsd(src, target);
    expect(r.installed.map((c) => c.file).sort()).toEqual([...XSD_FILE_NAMES].sort());
    expect(r.changed).toEqual([]);
    expect(r.missing).toEqual([]);
    for (const f of XSD_FILE_NAMES) expect(sha(readFileSync(join(target, f)))).toBe(PINNED_XSD_SHA256[f]);
    expect(readdirSync(target).sort()).toEqual([...XSD_FILE_NAMES].sort()); // no temp files left behind
    expect(verifyXsdDir(target).ok).toBe(true);
    expect(() => createSchemaValidator(target).compile('all')).not.toThrow();
  });

  it('installs from a DGII-like zip (subfolder, other names, stored and deflated entries) matching by hash', () => {
    const zip = makeZip([
      { name: 'XSD/', data: new Uint8Array(0), method: 0 },
      ...XSD_FILE_NAMES.map((f, i) => ({ name: `XSD/${dgiiName(f)}`, data: readFileSync(join(src, f)), method: (i % 2 ? 0 : 8) as 0 | 8 })),
      { name: 'XSD/Léame.txt', data: new TextEncoder().encode('hola') },
    ]);
    const zipPath = join(tmp(), 'xsd-dgii.zip');
    writeFileSync(zipPath, zip);
    const target = join(tmp(), 'xsd');
    const r = installXsd(zipPath, target);
    expect(r.installed).toHaveLength(15);
    expect(r.installed.every((c) => c.matchedBy === 'hash' && c.status === 'pinned')).toBe(true);
    expect(r.installed.find((c) => c.file === 'Semilla-v1.0.xsd')!.source).toBe(`${zipPath}!XSD/SEMILLA V.1.0.XSD`);
    for (const f of XSD_FILE_NAMES) expect(sha(readFileSync(join(target, f)))).toBe(PINNED_XSD_SHA256[f]);
  });

  it('refuses a changed file by default, listing expected and actual hashes, and writes nothing', () => {
    const from = tmp();
    for (const f of XSD_FILE_NAMES) copyFileSync(join(src, f), join(from, f === 'ARECF-v1.0.xsd' ? 'arecf v1.0.xsd' : f));
    const changed = Buffer.concat([readFileSync(join(src, 'ARECF-v1.0.xsd')), Buffer.from('\n<!-- new -->\n')]);
    writeFileSync(join(from, 'arecf v1.0.xsd'), changed);
    const target = join(tmp(), 'xsd');
    let err: unknown;
    try {
      installXsd(from, target);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(XsdInstallError);
    expect(err).toBeInstanceOf(SchemaError);
    const e = err as XsdInstallError;
    expect(e.code).toBe('xsd_changed');
    expect(e.report.changed).toEqual([
      expect.objectContaining({
        file: 'ARECF-v1.0.xsd',
        matchedBy: 'name',
        status: 'changed',
        expected: PINNED_XSD_SHA256['ARECF-v1.0.xsd'],
        actual: sha(changed),
      }),
    ]);
    expect(e.message).toContain('ARECF-v1.0.xsd');
    expect(e.message).toContain(sha(changed));
    expect(existsSync(target)).toBe(false);

    const r = installXsd(from, target, { acceptChanged: true });
    expect(r.changed.map((c) => c.file)).toEqual(['ARECF-v1.0.xsd']);
    expect(readFileSync(join(target, 'ARECF-v1.0.xsd'))).toEqual(changed);
    expect(verifyXsdDir(target).files.find((f) => f.file === 'ARECF-v1.0.xsd')!.status).toBe('changed');
    expect(
      createSchemaValidator(target)
        .files()
        .find((f) => f.file === 'ARECF-v1.0.xsd')!.pinned,
    ).toBe(false);
  });

  it('reports missing files and refuses unless allowed', () => {
    const from = tmp();
    for (const f of XSD_FILE_NAMES.filter((f) => f !== 'ANECF-v1.0.xsd' && f !== 'e-CF-47-v1.0.xsd')) copyFileSync(join(src, f), join(from, f));
    writeFileSync(join(from, 'otro.xsd'), '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>');
    const target = join(tmp(), 'xsd');
    expect(() => installXsd(from, target)).toThrow(/missing/);
    try {
      installXsd(from, target);
    } catch (e) {
      expect((e as XsdInstallError).code).toBe('xsd_incomplete');
      expect((e as XsdInstallError).report.missing.sort()).toEqual(['ANECF-v1.0.xsd', 'e-CF-47-v1.0.xsd']);
      expect((e as XsdInstallError).report.ignored).toEqual([join(from, 'otro.xsd')]);
    }
    const r = installXsd(from, target, { allowMissing: true });
    expect(r.installed).toHaveLength(13);
    expect(
      verifyXsdDir(target)
        .files.filter((f) => f.status === 'missing')
        .map((f) => f.file)
        .sort(),
    ).toEqual(['ANECF-v1.0.xsd', 'e-CF-47-v1.0.xsd']);
    expect(() => createSchemaValidator(target)).toThrow(/ANECF-v1\.0\.xsd.*e-CF-47-v1\.0\.xsd|e-CF-47-v1\.0\.xsd.*ANECF-v1\.0\.xsd/);
  });

  it('errors clearly on a missing source, an empty source and a corrupt zip', () => {
    expect(() => installXsd(join(tmp(), 'nope'), tmp())).toThrow(/not found/);
    expect(() => installXsd(tmp(), tmp())).toThrow(/No DGII XSD file/);
    const bad = join(tmp(), 'bad.zip');
    writeFileSync(bad, randomBytes(100));
    expect(() => installXsd(bad, tmp())).toThrow(/ZIP/);
    const crcBad = join(tmp(), 'crc.zip');
    writeFileSync(crcBad, makeZip([{ name: 'Semilla-v1.0.xsd', data: readFileSync(join(src, 'Semilla-v1.0.xsd')), corruptCrc: true }]));
    expect(() => installXsd(crcBad, tmp())).toThrow(/CRC mismatch/);
  });

  it('normalises DGII file names', () => {
    expect(normalizeXsdName('Semilla v.1.0.xsd')).toBe(normalizeXsdName('Semilla-v1.0.xsd'));
    expect(normalizeXsdName('E-CF 31 V1.0.XSD')).toBe(normalizeXsdName('e-CF-31-v1.0.xsd'));
    expect(normalizeXsdName('RFCE 32.xsd')).toBe(normalizeXsdName('RFCE-32-v1.0.xsd'));
    expect(normalizeXsdName('e-CF-31-v1.0.xsd')).not.toBe(normalizeXsdName('e-CF-32-v1.0.xsd'));
    expect(normalizeXsdName('ARECF-v1.0.xsd')).not.toBe(normalizeXsdName('ACECF-v1.0.xsd'));
  });
});

describe('zip reader', () => {
  it('reads stored and deflated entries and checks sizes', () => {
    const a = randomBytes(5000),
      b = Buffer.from('x'.repeat(20000));
    const entries = readZip(
      makeZip([
        { name: 'a.bin', data: a, method: 0 },
        { name: 'dir/b.txt', data: b, method: 8 },
      ]),
    );
    expect(entries.map((e) => [e.name, e.method, e.size])).toEqual([
      ['a.bin', 0, 5000],
      ['dir/b.txt', 8, 20000],
    ]);
    expect(entries[0]!.read()).toEqual(a);
    expect(entries[1]!.read()).toEqual(b);
    expect(entries[1]!.compressedSize).toBeLessThan(1000);
  });

  it('computes CRC-32 in JavaScript identically to zlib', () => {
    const native = (zlib as unknown as { crc32: (d: Uint8Array) => number }).crc32;
    for (const d of [Buffer.alloc(0), Buffer.from('123456789'), randomBytes(4097)]) {
      expect(crc32Js(d)).toBe(native(d) >>> 0);
      expect(crc32(d)).toBe(native(d) >>> 0);
    }
    expect(crc32Js(Buffer.from('123456789'))).toBe(0xcbf43926);
  });
});

describe('missing XSD directory', () => {
  it('createSchemaValidator names the directory and how to install', () => {
    const nowhere = join(tmp(), 'does-not-exist');
    let err: unknown;
    try {
      createSchemaValidator(nowhere);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SchemaError);
    expect((err as SchemaError).code).toBe('xsd_dir_missing');
    expect((err as Error).message).toContain(nowhere);
    expect((err as Error).message).toContain('ecf xsd install');
  });

  it('createSchemaValidator names each missing file', () => {
    const d = tmp();
    mkdirSync(d, { recursive: true });
    copyFileSync(join(src, 'Semilla-v1.0.xsd'), join(d, 'Semilla-v1.0.xsd'));
    let err: unknown;
    try {
      createSchemaValidator(d);
    } catch (e) {
      err = e;
    }
    expect((err as SchemaError).code).toBe('xsd_file_missing');
    for (const f of XSD_FILE_NAMES.filter((f) => f !== 'Semilla-v1.0.xsd')) expect((err as Error).message).toContain(f);
    expect((err as Error).message).not.toContain('Semilla-v1.0.xsd');
  });
});
