import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { xsdDir } from '../helpers/env.js';
import { createSchemaValidator, PINNED_XSD_SHA256, SCHEMA_FILES, SCHEMA_IDS, XSD_FILE_NAMES } from '../../../src/ecf/xsd/index.js';
import { compileSchema, XsdCompileError } from '../../../src/shared/xsd/libxml.js';
import { fixXsd } from '../../../src/ecf/xsd/fixes.js';

const dir = xsdDir();
const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

describe('official XSD set', () => {
  it('names fifteen distinct files, one per schema id', () => {
    expect(SCHEMA_IDS).toHaveLength(15);
    expect(new Set(XSD_FILE_NAMES).size).toBe(15);
    expect(Object.keys(PINNED_XSD_SHA256).sort()).toEqual([...XSD_FILE_NAMES].sort());
  });

  it.each(SCHEMA_IDS)('compiles %s after the in-memory fixes', (id) => {
    const v = createSchemaValidator(dir);
    expect(() => v.compile(id)).not.toThrow();
  });

  it('compiles the relaxed e-CF-32 variant', () => {
    expect(() => createSchemaValidator(dir).compile('ECF-32', { relaxed32: true })).not.toThrow();
  });

  it('needs the fixes: e-CF-31, RFCE and ACECF do not compile as served', () => {
    for (const id of ['ECF-31', 'RFCE', 'ACECF'] as const) {
      const raw = readFileSync(join(dir, SCHEMA_FILES[id]), 'utf8').replace(/^\uFEFF/, '');
      expect(() => compileSchema(raw), id).toThrow(XsdCompileError);
    }
  });

  it('reports exactly the fixes it applied, per file', () => {
    const fixes = createSchemaValidator(dir).fixesApplied();
    const of = (file: string) =>
      fixes
        .filter((f) => f.file === file)
        .map((f) => f.kind)
        .sort();
    expect(of('e-CF-31-v1.0.xsd')).toContain('trim-name');
    expect(fixes.find((f) => f.kind === 'trim-name')!.detail).toContain('IndicadorServicioTodoIncluidoType');
    expect(fixes.find((f) => f.file === 'RFCE-32-v1.0.xsd' && f.kind === 'non-capturing-group')!.count).toBe(4);
    expect(fixes.find((f) => f.file === 'ACECF-v1.0.xsd' && f.kind === 'non-capturing-group')!.count).toBe(1);
    // A BOM fix is reported for exactly the files that start with one on disk.
    for (const file of XSD_FILE_NAMES) {
      const b = readFileSync(join(dir, file));
      const hasBom = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
      expect(of(file).includes('strip-bom'), file).toBe(hasBom);
    }
    expect(of('Semilla-v1.0.xsd')).toEqual([]);
    expect(of('ARECF-v1.0.xsd')).toEqual([]);
  });

  it('never modifies the files on disk and recognises them as the pinned set', () => {
    const before = XSD_FILE_NAMES.map((f) => sha(join(dir, f)));
    const v = createSchemaValidator(dir);
    v.compile('all');
    expect(XSD_FILE_NAMES.map((f) => sha(join(dir, f)))).toEqual(before);
    expect(v.files().every((f) => f.pinned)).toBe(true);
    expect(v.files().map((f) => f.sha256)).toEqual(XSD_FILE_NAMES.map((f) => PINNED_XSD_SHA256[f]));
  });

  it('fixXsd leaves a clean file untouched', () => {
    const text =
      '<?xml version="1.0"?><xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:simpleType name="A"><xs:restriction base="xs:string"><xs:pattern value="(a|b)"/></xs:restriction></xs:simpleType></xs:schema>';
    const r = fixXsd('x.xsd', new TextEncoder().encode(text));
    expect(r.fixes).toEqual([]);
    expect(r.text).toBe(text);
  });
});
