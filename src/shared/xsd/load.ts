/**
 * Reads a product's XSD set from a directory, as its manifest lists it, with the product's in-memory fixes
 * applied (a hook: the kernel knows no file's defects). Nothing is compiled here.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SchemaError } from '../errors/index.js';
import type { PinnedXsdManifest } from './manifest.js';

/** Product hook: decodes one file's bytes and repairs it in memory, reporting each repair. */
export type XsdFixer<Fix> = (file: string, bytes: Uint8Array) => { text: string; fixes: Fix[] };

/** One XSD file as read from disk, with its in-memory fixes applied. */
export interface LoadedXsdFile<Id extends string, Fix> {
  id: Id;
  file: string;
  path: string;
  /** SHA-256 (hex) of the file as it is on disk. */
  sha256: string;
  /** True when `sha256` equals the hash the manifest pins for this file. */
  pinned: boolean;
  /** The XSD text after the fixes (what gets compiled). */
  text: string;
  fixes: Fix[];
}

export interface LoadedXsdSet<Id extends string, Fix> {
  dir: string;
  files: Record<Id, LoadedXsdFile<Id, Fix>>;
  /** Every fix applied, over all files. */
  fixes: Fix[];
}

/** What to read: the manifest, the schema ids in a stable order with the file of each, and the product's fixer. */
export interface XsdLoadPlan<Id extends string, Fix> {
  manifest: PinnedXsdManifest;
  ids: readonly Id[];
  fileOf: Readonly<Record<Id, string>>;
  /** Default: decode UTF-8, repair nothing. */
  fix?: XsdFixer<Fix>;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const decodeOnly = <Fix>(_file: string, bytes: Uint8Array): { text: string; fixes: Fix[] } => ({ text: new TextDecoder('utf-8').decode(bytes), fixes: [] });

/** Throws a `SchemaError` unless `dir` is a directory holding every file of the manifest. */
export function assertPinnedXsdDir(dir: string, manifest: PinnedXsdManifest): void {
  const abs = resolve(dir);
  let isDir = false;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    /* reported below */
  }
  if (!isDir) throw new SchemaError(`XSD directory not found: ${abs}. ${manifest.help}`, { code: 'xsd_dir_missing' });
  const missing = manifest.fileNames.filter((f) => {
    try {
      return !statSync(join(abs, f)).isFile();
    } catch {
      return true;
    }
  });
  if (missing.length) {
    throw new SchemaError(`XSD file(s) missing in ${abs}: ${missing.join(', ')}. ${manifest.help}`, { code: 'xsd_file_missing' });
  }
}

/** Reads and fixes (in memory) the files of `dir` the plan names. Nothing is compiled here. */
export function loadPinnedXsdSet<Id extends string, Fix>(dir: string, plan: XsdLoadPlan<Id, Fix>): LoadedXsdSet<Id, Fix> {
  const { manifest, ids, fileOf } = plan;
  const fix: XsdFixer<Fix> = plan.fix ?? decodeOnly;
  assertPinnedXsdDir(dir, manifest);
  const abs = resolve(dir);
  const files = {} as Record<Id, LoadedXsdFile<Id, Fix>>;
  const fixes: Fix[] = [];
  for (const id of ids) {
    const file = fileOf[id];
    const path = join(abs, file);
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(path);
    } catch (e) {
      throw new SchemaError(`Cannot read XSD file ${path}: ${(e as Error).message}. ${manifest.help}`, { code: 'xsd_file_unreadable', cause: e });
    }
    const sha256 = sha256Hex(bytes);
    const fixed = fix(file, bytes);
    files[id] = { id, file, path, sha256, pinned: manifest.files[file] === sha256, text: fixed.text, fixes: fixed.fixes };
    fixes.push(...fixed.fixes);
  }
  return { dir: abs, files, fixes };
}
