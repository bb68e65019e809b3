import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SchemaId } from '../../shared/ports.js';
import { SchemaError } from '../../shared/errors/index.js';
import { fixXsd, type XsdFix } from './fixes.js';
import { PINNED_XSD_SHA256 } from './pinned.js';
import { SCHEMA_FILES, SCHEMA_IDS, XSD_HELP } from './schemas.js';

/** One XSD file as read from disk, with its in-memory fixes applied. */
export interface LoadedXsd {
  id: SchemaId;
  file: string;
  path: string;
  /** SHA-256 (hex) of the file as it is on disk. */
  sha256: string;
  /** True when `sha256` equals the hash the project pins for this file. */
  pinned: boolean;
  /** The XSD text after the fixes (what gets compiled). */
  text: string;
  fixes: XsdFix[];
}

export interface XsdSet {
  dir: string;
  files: Record<SchemaId, LoadedXsd>;
  /** Every fix applied, over all files. */
  fixes: XsdFix[];
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Throws a `SchemaError` unless `dir` is a directory holding all fifteen files. */
export function assertXsdDir(dir: string): void {
  const abs = resolve(dir);
  let isDir = false;
  try { isDir = statSync(abs).isDirectory(); } catch { /* reported below */ }
  if (!isDir) throw new SchemaError(`XSD directory not found: ${abs}. ${XSD_HELP}`, { code: 'xsd_dir_missing' });
  const missing = SCHEMA_IDS.map((id) => SCHEMA_FILES[id]).filter((f) => {
    try { return !statSync(join(abs, f)).isFile(); } catch { return true; }
  });
  if (missing.length) {
    throw new SchemaError(`XSD file(s) missing in ${abs}: ${missing.join(', ')}. ${XSD_HELP}`, { code: 'xsd_file_missing' });
  }
}

/** Reads and fixes (in memory) the fifteen official XSD files of `dir`. Nothing is compiled here. */
export function loadXsdSet(dir: string): XsdSet {
  assertXsdDir(dir);
  const abs = resolve(dir);
  const files = {} as Record<SchemaId, LoadedXsd>;
  const fixes: XsdFix[] = [];
  for (const id of SCHEMA_IDS) {
    const file = SCHEMA_FILES[id];
    const path = join(abs, file);
    let bytes: Uint8Array;
    try { bytes = readFileSync(path); } catch (e) {
      throw new SchemaError(`Cannot read XSD file ${path}: ${(e as Error).message}. ${XSD_HELP}`, { code: 'xsd_file_unreadable', cause: e });
    }
    const sha256 = sha256Hex(bytes);
    const fixed = fixXsd(file, bytes);
    files[id] = { id, file, path, sha256, pinned: PINNED_XSD_SHA256[file] === sha256, text: fixed.text, fixes: fixed.fixes };
    fixes.push(...fixed.fixes);
  }
  return { dir: abs, files, fixes };
}
