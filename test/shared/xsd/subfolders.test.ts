/**
 * A pinned set laid out in sibling folders whose schemas import each other (`main/Doc.xsd` imports
 * `../types/Types.xsd`): the kernel installer writes relative-path keys into subfolders, the check and the loader
 * read them there, and anchorSchemaLocations lets a schema compiled from memory find its imports on disk.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { anchorSchemaLocations } from '../../../src/shared/xsd/anchor.js';
import { installPinnedXsd, verifyPinnedXsdDir } from '../../../src/shared/xsd/install.js';
import { compileSchema } from '../../../src/shared/xsd/libxml.js';
import { loadPinnedXsdSet } from '../../../src/shared/xsd/load.js';
import type { PinnedXsdManifest } from '../../../src/shared/xsd/manifest.js';

const sha = (b: string) => createHash('sha256').update(b).digest('hex');
const TYPES = `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:demo:types" elementFormDefault="qualified">
  <xs:element name="Code"><xs:simpleType><xs:restriction base="xs:string"><xs:pattern value="[A-Z]{3}"/></xs:restriction></xs:simpleType></xs:element>
</xs:schema>
`;
const DOC = `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:demo:types" targetNamespace="urn:demo:doc" elementFormDefault="qualified">
  <xs:import namespace="urn:demo:types" schemaLocation="../types/Types.xsd"/>
  <xs:element name="Doc"><xs:complexType><xs:sequence><xs:element ref="t:Code"/></xs:sequence></xs:complexType></xs:element>
</xs:schema>
`;
const manifest: PinnedXsdManifest = {
  product: 'demo',
  publisher: 'ACME',
  setDate: '2030-01-02',
  files: { 'main/Doc.xsd': sha(DOC), 'types/Types.xsd': sha(TYPES) },
  fileNames: ['main/Doc.xsd', 'types/Types.xsd'],
  sourceHint: 'give the ACME folder',
  help: 'Get the set from ACME.',
};

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'xsd sub & dirs-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('a pinned set in subfolders', () => {
  it('installs relative-path keys into subfolders from a flat source, and checks and loads them there', () => {
    const from = tmp();
    writeFileSync(join(from, 'Doc.xsd'), DOC);
    writeFileSync(join(from, 'renamed-types.xsd'), TYPES);
    const target = join(tmp(), 'xsd');
    const r = installPinnedXsd(from, target, manifest);
    expect(r.installed.map((c) => [c.file, c.matchedBy])).toEqual([
      ['main/Doc.xsd', 'hash'],
      ['types/Types.xsd', 'hash'],
    ]);
    expect(existsSync(join(target, 'main', 'Doc.xsd'))).toBe(true);
    expect(existsSync(join(target, 'types', 'Types.xsd'))).toBe(true);
    expect(verifyPinnedXsdDir(target, manifest).ok).toBe(true);
    const set = loadPinnedXsdSet(target, { manifest, ids: ['doc'] as const, fileOf: { doc: 'main/Doc.xsd' } });
    expect(set.files.doc).toMatchObject({ file: 'main/Doc.xsd', path: join(target, 'main', 'Doc.xsd'), pinned: true, text: DOC });
  });

  it('matches a changed file by the last segment of its key', () => {
    const from = tmp();
    mkdirSync(join(from, 'deep'));
    writeFileSync(join(from, 'deep', 'Doc.xsd'), DOC);
    writeFileSync(join(from, 'types.xsd'), `${TYPES}\n`);
    const r = installPinnedXsd(from, join(tmp(), 'xsd'), manifest, { acceptChanged: true });
    expect(r.installed.map((c) => [c.file, c.matchedBy, c.status])).toEqual([
      ['main/Doc.xsd', 'hash', 'pinned'],
      ['types/Types.xsd', 'name', 'changed'],
    ]);
  });

  it('refuses a manifest key that could leave the target directory', () => {
    const from = tmp();
    writeFileSync(join(from, 'Doc.xsd'), DOC);
    for (const bad of ['../Doc.xsd', '/abs/Doc.xsd', 'main//Doc.xsd', 'main\\Doc.xsd']) {
      const m = { ...manifest, files: { [bad]: sha(DOC) }, fileNames: [bad] };
      expect(() => installPinnedXsd(from, join(tmp(), 'xsd'), m), bad).toThrow(/Invalid file name in the demo XSD manifest/);
    }
  });

  it('compiles an entry schema from memory once its relative imports are anchored to its file', () => {
    const from = tmp();
    writeFileSync(join(from, 'Doc.xsd'), DOC);
    writeFileSync(join(from, 'Types.xsd'), TYPES);
    const target = join(tmp(), 'xsd');
    installPinnedXsd(from, target, manifest);
    const path = join(target, 'main', 'Doc.xsd');
    const { text, anchored } = anchorSchemaLocations(DOC, path);
    const url = new URL('../types/Types.xsd', pathToFileURL(path)).href;
    expect(anchored).toEqual([`../types/Types.xsd → ${url}`]);
    expect(text).toContain(`schemaLocation="${url.replace(/&/g, '&amp;')}"`);
    const schema = compileSchema(text);
    const doc = (code: string) => Buffer.from(`<Doc xmlns="urn:demo:doc" xmlns:t="urn:demo:types"><t:Code>${code}</t:Code></Doc>`);
    expect(schema.validate(doc('ABC')).code).toBe(0);
    const bad = schema.validate(doc('abc'));
    expect(bad.code).toBeGreaterThan(0);
    expect(bad.errors[0]!.message).toMatch(/Code.*pattern/);
  });

  it('leaves absolute locations and other elements alone', () => {
    const src = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:import namespace="a" schemaLocation="http://example.org/a.xsd"/><xs:include schemaLocation='/abs/b.xsd'/><xs:element name="x" schemaLocation="c.xsd"/><xsd:redefine schemaLocation="d.xsd"/></xs:schema>`;
    const { text, anchored } = anchorSchemaLocations(src, '/base/dir/main.xsd');
    expect(anchored).toEqual(['d.xsd → file:///base/dir/d.xsd']);
    expect(text).toBe(src.replace('"d.xsd"', '"file:///base/dir/d.xsd"'));
  });
});
