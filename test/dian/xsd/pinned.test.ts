/** The pinned DIAN manifest is the set in the shared XSD folder: same 22 paths, same SHA-256, nothing else. */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIAN_SCHEMA_FILES, DIAN_SCHEMA_IDS, DIAN_XSD_FILE_NAMES, DIAN_XSD_MANIFEST, DIAN_XSD_SHA256, verifyDianXsdDir } from '../../../src/dian/xsd/index.js';
import { dianXsdDir } from '../helpers/env.js';

const dir = dianXsdDir();

/** Every .xsd under `dir`, as `folder/name`. */
function xsdFiles(): string[] {
  const out: string[] = [];
  for (const sub of readdirSync(dir, { withFileTypes: true })) {
    if (!sub.isDirectory()) continue;
    for (const f of readdirSync(join(dir, sub.name))) if (f.endsWith('.xsd')) out.push(`${sub.name}/${f}`);
  }
  return out.sort();
}

describe('DIAN_XSD_MANIFEST', () => {
  it('pins exactly the 22 files of the shared folder, each by the SHA-256 of its bytes', () => {
    expect(DIAN_XSD_FILE_NAMES).toHaveLength(22);
    expect([...DIAN_XSD_FILE_NAMES].sort()).toEqual(xsdFiles());
    expect(Object.keys(DIAN_XSD_SHA256).sort()).toEqual(xsdFiles());
    for (const f of DIAN_XSD_FILE_NAMES) {
      expect(DIAN_XSD_SHA256[f], f).toBe(
        createHash('sha256')
          .update(readFileSync(join(dir, f)))
          .digest('hex'),
      );
    }
    expect(DIAN_XSD_MANIFEST.files).toBe(DIAN_XSD_SHA256);
    expect(DIAN_XSD_MANIFEST.fileNames).toBe(DIAN_XSD_FILE_NAMES);
  });

  it("agrees with the folder's SHA256SUMS", () => {
    const sums = Object.fromEntries(
      readFileSync(join(dir, 'SHA256SUMS'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => {
          const [hash, path] = l.trim().split(/\s+/);
          return [path!.replace(/^\.\//, ''), hash!];
        }),
    );
    expect(sums).toEqual({ ...DIAN_XSD_SHA256 });
  });

  it('names an entry schema in the set for every document, and verifyDianXsdDir finds the folder pinned', () => {
    for (const id of DIAN_SCHEMA_IDS) expect(DIAN_XSD_FILE_NAMES).toContain(DIAN_SCHEMA_FILES[id]);
    const check = verifyDianXsdDir(dir);
    expect(check.ok).toBe(true);
    expect(check.files.map((f) => f.status)).toEqual(Array(22).fill('pinned'));
  });
});
