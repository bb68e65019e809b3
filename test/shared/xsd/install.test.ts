/**
 * The XSD installer and loader kernel (src/shared/xsd/install.ts, load.ts) driven by a made-up two-file manifest:
 * nothing in it comes from the e-CF set, so these prove the kernel carries any product's pinned set.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SchemaError } from '../../../src/shared/errors/index.js';
import { installPinnedXsd, normalizeXsdFileName, verifyPinnedXsdDir, XsdInstallError } from '../../../src/shared/xsd/install.js';
import { assertPinnedXsdDir, loadPinnedXsdSet } from '../../../src/shared/xsd/load.js';
import type { PinnedXsdManifest } from '../../../src/shared/xsd/manifest.js';

const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
const xsd = (el: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">\n  <xs:element name="${el}" type="xs:string"/>\n</xs:schema>\n`;
const ALPHA = xsd('Alpha');
const BETA = xsd('Beta');

const manifest: PinnedXsdManifest = {
  product: 'demo',
  publisher: 'ACME',
  setDate: '2030-01-02',
  files: { 'Beta-v2.1.xsd': sha(BETA), 'Alpha-v2.1.xsd': sha(ALPHA) },
  fileNames: ['Alpha-v2.1.xsd', 'Beta-v2.1.xsd'],
  sourceHint: 'give the ACME folder',
  help: 'Get the set from ACME.',
  versionSuffix: 'v21',
};

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'xsd-kernel-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A source folder holding `files` (name → content). */
function source(files: Record<string, string>): string {
  const d = tmp();
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(d, name, '..'), { recursive: true });
    writeFileSync(join(d, name), text);
  }
  return d;
}

function refusal(f: () => unknown): XsdInstallError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(XsdInstallError);
    expect(e).toBeInstanceOf(SchemaError);
    return e as XsdInstallError;
  }
  throw new Error('expected a refusal');
}

describe('installPinnedXsd over a made-up manifest', () => {
  it('matches files by hash whatever their names, and installs them under the canonical names', () => {
    const from = source({ 'sub/first.xsd': ALPHA, 'zz-other-name.XSD': BETA, 'notes.txt': 'x' });
    const target = join(tmp(), 'xsd');
    const r = installPinnedXsd(from, target, manifest);
    expect(r.installed.map((c) => [c.file, c.matchedBy, c.status])).toEqual([
      ['Alpha-v2.1.xsd', 'hash', 'pinned'],
      ['Beta-v2.1.xsd', 'hash', 'pinned'],
    ]);
    expect(r.installed[0]!.source).toBe(join(from, 'sub/first.xsd'));
    expect(r.changed).toEqual([]);
    expect(r.missing).toEqual([]);
    expect(r.ignored).toEqual([]);
    expect(readdirSync(target).sort()).toEqual(['Alpha-v2.1.xsd', 'Beta-v2.1.xsd']);
    expect(readFileSync(join(target, 'Alpha-v2.1.xsd'), 'utf8')).toBe(ALPHA);
    expect(verifyPinnedXsdDir(target, manifest)).toEqual({
      dir: target,
      ok: true,
      files: [
        { file: 'Alpha-v2.1.xsd', status: 'pinned', expected: sha(ALPHA), actual: sha(ALPHA) },
        { file: 'Beta-v2.1.xsd', status: 'pinned', expected: sha(BETA), actual: sha(BETA) },
      ],
    });
  });

  it("refuses a file recognised by name whose hash changed, naming the manifest's publisher, unless forced", () => {
    const changed = BETA.replace('</xs:schema>', '<!-- new -->\n</xs:schema>');
    const from = source({ 'Alpha-v2.1.xsd': ALPHA, 'BETA v.2.1.xsd': changed });
    const target = join(tmp(), 'xsd');
    const e = refusal(() => installPinnedXsd(from, target, manifest));
    expect(e.code).toBe('xsd_changed');
    expect(e.report.changed).toEqual([
      {
        file: 'Beta-v2.1.xsd',
        source: join(from, 'BETA v.2.1.xsd'),
        matchedBy: 'name',
        status: 'changed',
        expected: sha(BETA),
        actual: sha(changed),
      },
    ]);
    expect(e.message).toContain('ACME may have published a new set');
    expect(e.message).toContain(`actual   sha256 ${sha(changed)}`);
    expect(e.message).not.toContain('DGII');
    expect(existsSync(target)).toBe(false);

    const r = installPinnedXsd(from, target, manifest, { acceptChanged: true });
    expect(r.installed.map((c) => c.file)).toEqual(['Alpha-v2.1.xsd', 'Beta-v2.1.xsd']);
    expect(readFileSync(join(target, 'Beta-v2.1.xsd'), 'utf8')).toBe(changed);
    const v = verifyPinnedXsdDir(target, manifest);
    expect(v.ok).toBe(false);
    expect(v.files.map((f) => f.status)).toEqual(['pinned', 'changed']);
  });

  it("reports missing files against the manifest's count and refuses unless allowed", () => {
    const from = source({ 'alpha.xsd': ALPHA, 'gamma-v2.1.xsd': xsd('Gamma') });
    const target = join(tmp(), 'xsd');
    const e = refusal(() => installPinnedXsd(from, target, manifest));
    expect(e.code).toBe('xsd_incomplete');
    expect(e.message).toContain('1 of the 2 files are missing');
    expect(e.report.missing).toEqual(['Beta-v2.1.xsd']);
    expect(e.report.ignored).toEqual([join(from, 'gamma-v2.1.xsd')]);
    expect(existsSync(target)).toBe(false);

    const r = installPinnedXsd(from, target, manifest, { allowMissing: true });
    expect(r.installed.map((c) => c.file)).toEqual(['Alpha-v2.1.xsd']);
    expect(verifyPinnedXsdDir(target, manifest).files.map((f) => [f.file, f.status])).toEqual([
      ['Alpha-v2.1.xsd', 'pinned'],
      ['Beta-v2.1.xsd', 'missing'],
    ]);
    expect(() => assertPinnedXsdDir(target, manifest)).toThrow('XSD file(s) missing in ' + target + ': Beta-v2.1.xsd. Get the set from ACME.');
  });

  it('words the missing and empty source errors from the manifest', () => {
    const nowhere = join(tmp(), 'nope');
    expect(() => installPinnedXsd(nowhere, tmp(), manifest)).toThrow(`XSD source not found: ${nowhere} (give the ACME folder)`);
    const empty = source({ 'unrelated.xsd': xsd('Other') });
    const e = refusal(() => installPinnedXsd(empty, tmp(), manifest));
    expect(e.code).toBe('xsd_source_empty');
    expect(e.message).toBe(`No ACME XSD file found in ${empty}.`);
  });

  it("drops only the manifest's version tag when normalising names", () => {
    expect(normalizeXsdFileName('ALPHA v.2.1.xsd', 'v21')).toBe('alpha');
    expect(normalizeXsdFileName('dir/Alpha-v2.1.xsd', 'v21')).toBe('alpha');
    expect(normalizeXsdFileName('Alpha-v1.0.xsd', 'v21')).toBe('alphav10');
    expect(normalizeXsdFileName('Alpha-v2.1.xsd')).toBe('alphav21');
  });
});

describe('loadPinnedXsdSet over a made-up manifest', () => {
  const ids = ['alpha', 'beta'] as const;
  const fileOf = { alpha: 'Alpha-v2.1.xsd', beta: 'Beta-v2.1.xsd' } as const;

  it("reads every file, flags the pinned ones and applies the product's fixer", () => {
    const dir = source({ 'Alpha-v2.1.xsd': ALPHA, 'Beta-v2.1.xsd': BETA.replace('Beta', 'Beta2') });
    const set = loadPinnedXsdSet(dir, {
      manifest,
      ids,
      fileOf,
      fix: (file, bytes) => ({ text: new TextDecoder().decode(bytes).toUpperCase(), fixes: [`upper:${file}`] }),
    });
    expect(set.dir).toBe(dir);
    expect(Object.keys(set.files)).toEqual(['alpha', 'beta']);
    expect(set.files.alpha).toMatchObject({
      id: 'alpha',
      file: 'Alpha-v2.1.xsd',
      path: join(dir, 'Alpha-v2.1.xsd'),
      sha256: sha(ALPHA),
      pinned: true,
      text: ALPHA.toUpperCase(),
    });
    expect(set.files.beta.pinned).toBe(false);
    expect(set.fixes).toEqual(['upper:Alpha-v2.1.xsd', 'upper:Beta-v2.1.xsd']);
  });

  it("without a fixer decodes the bytes as they are; a missing directory gets the manifest's help", () => {
    const dir = source({ 'Alpha-v2.1.xsd': ALPHA, 'Beta-v2.1.xsd': BETA });
    const set = loadPinnedXsdSet(dir, { manifest, ids, fileOf });
    expect(set.files.beta.text).toBe(BETA);
    expect(set.fixes).toEqual([]);
    const nowhere = join(tmp(), 'absent');
    expect(() => loadPinnedXsdSet(nowhere, { manifest, ids, fileOf })).toThrow(`XSD directory not found: ${nowhere}. Get the set from ACME.`);
  });
});
