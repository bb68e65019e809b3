import type { SchemaId } from '../ports.js';
import { assertPinnedXsdDir, loadPinnedXsdSet, type LoadedXsdFile, type LoadedXsdSet } from '../../shared/xsd/load.js';
import { fixXsd, type XsdFix } from './fixes.js';
import { DGII_XSD_MANIFEST } from './pinned.js';
import { SCHEMA_FILES, SCHEMA_IDS } from './schemas.js';

export { sha256Hex } from '../../shared/xsd/load.js';

/** One XSD file as read from disk, with its in-memory fixes applied. */
export type LoadedXsd = LoadedXsdFile<SchemaId, XsdFix>;

export type XsdSet = LoadedXsdSet<SchemaId, XsdFix>;

/** Throws a `SchemaError` unless `dir` is a directory holding all fifteen files. */
export function assertXsdDir(dir: string): void {
  assertPinnedXsdDir(dir, DGII_XSD_MANIFEST);
}

/** Reads and fixes (in memory) the fifteen official XSD files of `dir`. Nothing is compiled here. */
export function loadXsdSet(dir: string): XsdSet {
  return loadPinnedXsdSet(dir, { manifest: DGII_XSD_MANIFEST, ids: SCHEMA_IDS, fileOf: SCHEMA_FILES, fix: fixXsd });
}
