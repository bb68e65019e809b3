/**
 * `installPinnedXsd(source, targetDir, manifest)`: copies a product's official XSD set from a folder or a .zip
 * into `targetDir`, checking every file against the SHA-256 its manifest pins (manifest.ts).
 * Files are recognised by content hash first, then by a normalised name (case, blanks and punctuation ignored,
 * so `Name v.1.0.xsd` is `Name-v1.0.xsd`). A recognised-by-name file whose hash differs is "changed".
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { SchemaError } from '../errors/index.js';
import { sha256Hex } from './load.js';
import type { PinnedXsdManifest } from './manifest.js';
import { readZip } from './zip.js';

export interface InstallXsdOptions {
  /** Install files whose hash differs from the pinned one (they are still reported). Default false: refuse. */
  acceptChanged?: boolean;
  /** Install even if some of the manifest's files are not in the source (they are still reported). Default false: refuse. */
  allowMissing?: boolean;
}

export interface XsdFileCheck {
  /** Canonical file name, as the manifest lists it. */
  file: string;
  /** Where it came from (path, or `archive.zip!inner/path.xsd`). */
  source: string;
  matchedBy: 'hash' | 'name';
  status: 'pinned' | 'changed';
  expected: string;
  actual: string;
}

export interface InstallXsdResult {
  targetDir: string;
  /** Files written to `targetDir` (empty when refused). */
  installed: XsdFileCheck[];
  /** Files whose hash differs from the pinned one. */
  changed: XsdFileCheck[];
  /** Canonical names not found in the source. */
  missing: string[];
  /** `.xsd` files of the source that matched none of the manifest's files. */
  ignored: string[];
}

/** Thrown when the source has changed or missing files and the options do not accept them; `.report` has the details. */
export class XsdInstallError extends SchemaError {
  constructor(
    message: string,
    readonly report: InstallXsdResult,
    code: string,
  ) {
    super(message, { code });
  }
}

interface Candidate {
  source: string;
  name: string;
  bytes: Buffer;
  sha256: string;
}

/**
 * Refuses a manifest file key that could leave the target directory. Keys are relative paths with `/`
 * (`common/Types.xsd` for a set whose schemas import each other across sibling folders); matching is by
 * hash or by the key's last segment, so the layout of the source does not matter.
 */
function assertSafeKeys(manifest: PinnedXsdManifest): void {
  for (const f of manifest.fileNames) {
    if (isAbsolute(f) || f.includes('\\') || f.split('/').some((s) => s === '' || s === '.' || s === '..')) {
      throw new SchemaError(`Invalid file name in the ${manifest.product} XSD manifest: ${f} (relative paths with "/" only)`, { code: 'xsd_manifest_invalid' });
    }
  }
}

/** Name key: lower case, no extension, letters and digits only, trailing `versionSuffix` (e.g. `v10`) dropped. */
export function normalizeXsdFileName(name: string, versionSuffix = ''): string {
  const key = basename(name)
    .toLowerCase()
    .replace(/\.xsd$/, '')
    .replace(/[^a-z0-9]/g, '');
  return versionSuffix && key.endsWith(versionSuffix) ? key.slice(0, key.length - versionSuffix.length) : key;
}

function collectFromDir(dir: string, depth = 0, out: Candidate[] = []): Candidate[] {
  for (const ent of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, ent.name);
    if (ent.isDirectory() && depth < 3) collectFromDir(p, depth + 1, out);
    else if (ent.isFile() && /\.xsd$/i.test(ent.name)) {
      const bytes = readFileSync(p);
      out.push({ source: p, name: ent.name, bytes, sha256: sha256Hex(bytes) });
    }
  }
  return out;
}

function collectFromZip(path: string): Candidate[] {
  return readZip(readFileSync(path))
    .filter((e) => !e.isDirectory && /\.xsd$/i.test(e.name) && !e.name.startsWith('__MACOSX/'))
    .map((e) => {
      const bytes = e.read();
      return { source: `${path}!${e.name}`, name: e.name, bytes, sha256: sha256Hex(bytes) };
    });
}

function collect(source: string, manifest: PinnedXsdManifest): Candidate[] {
  const abs = resolve(source);
  let st;
  try {
    st = statSync(abs);
  } catch {
    throw new SchemaError(`XSD source not found: ${abs} (${manifest.sourceHint})`, { code: 'xsd_source_missing' });
  }
  return st.isDirectory() ? collectFromDir(abs) : collectFromZip(abs);
}

/** Matches source files to the manifest's canonical names: by pinned hash first, then by normalised name. */
function match(candidates: Candidate[], manifest: PinnedXsdManifest) {
  const byHash = new Map(Object.entries(manifest.files).map(([f, h]) => [h, f]));
  const chosen = new Map<string, { c: Candidate; by: 'hash' | 'name' }>();
  const used = new Set<Candidate>();
  for (const c of candidates) {
    const f = byHash.get(c.sha256);
    if (f && !chosen.has(f)) {
      chosen.set(f, { c, by: 'hash' });
      used.add(c);
    }
  }
  const key = (name: string) => normalizeXsdFileName(name, manifest.versionSuffix);
  for (const f of manifest.fileNames) {
    if (chosen.has(f)) continue;
    const c = candidates.find((x) => !used.has(x) && key(x.name) === key(f));
    if (c) {
      chosen.set(f, { c, by: 'name' });
      used.add(c);
    }
  }
  return { chosen, ignored: candidates.filter((c) => !used.has(c)).map((c) => c.source) };
}

function describe(r: InstallXsdResult): string {
  const lines: string[] = [];
  for (const c of r.changed) lines.push(`  changed: ${c.file} (from ${c.source})\n    expected sha256 ${c.expected}\n    actual   sha256 ${c.actual}`);
  for (const m of r.missing) lines.push(`  missing: ${m}`);
  return lines.join('\n');
}

/** Copies the manifest's XSD set from `source` (folder or .zip) into `targetDir`. Throws `XsdInstallError` when refused. */
export function installPinnedXsd(source: string, targetDir: string, manifest: PinnedXsdManifest, options: InstallXsdOptions = {}): InstallXsdResult {
  assertSafeKeys(manifest);
  const { chosen, ignored } = match(collect(source, manifest), manifest);
  const checks: XsdFileCheck[] = [];
  for (const f of manifest.fileNames) {
    const m = chosen.get(f);
    if (!m) continue;
    const expected = manifest.files[f]!;
    checks.push({ file: f, source: m.c.source, matchedBy: m.by, status: m.c.sha256 === expected ? 'pinned' : 'changed', expected, actual: m.c.sha256 });
  }
  const result: InstallXsdResult = {
    targetDir: resolve(targetDir),
    installed: [],
    changed: checks.filter((c) => c.status === 'changed'),
    missing: manifest.fileNames.filter((f) => !chosen.has(f)),
    ignored,
  };
  if (checks.length === 0) {
    throw new XsdInstallError(`No ${manifest.publisher} XSD file found in ${resolve(source)}.`, result, 'xsd_source_empty');
  }
  if (result.changed.length && !options.acceptChanged) {
    throw new XsdInstallError(
      `Refusing to install: ${result.changed.length} file(s) differ from the pinned SHA-256 (${manifest.publisher} may have published a new set; review, then use --force / acceptChanged):\n${describe(result)}`,
      result,
      'xsd_changed',
    );
  }
  if (result.missing.length && !options.allowMissing) {
    throw new XsdInstallError(
      `Refusing to install: ${result.missing.length} of the ${manifest.fileNames.length} files are missing from ${resolve(source)} (use --force / allowMissing to install the rest):\n${describe(result)}`,
      result,
      'xsd_incomplete',
    );
  }
  mkdirSync(result.targetDir, { recursive: true });
  for (const c of checks) {
    const dest = join(result.targetDir, c.file);
    mkdirSync(dirname(dest), { recursive: true });
    const tmp = `${dest}.${process.pid}.tmp`;
    writeFileSync(tmp, chosen.get(c.file)!.c.bytes);
    renameSync(tmp, dest);
    result.installed.push(c);
  }
  return result;
}

export interface XsdDirCheck {
  dir: string;
  files: Array<{ file: string; status: 'pinned' | 'changed' | 'missing'; expected: string; actual: string | null }>;
  ok: boolean;
}

/** Compares the files of an installed XSD directory with the manifest's pinned hashes (reads, never writes). */
export function verifyPinnedXsdDir(dir: string, manifest: PinnedXsdManifest): XsdDirCheck {
  const abs = resolve(dir);
  const files = manifest.fileNames.map((file) => {
    const expected = manifest.files[file]!;
    let actual: string | null = null;
    try {
      actual = sha256Hex(readFileSync(join(abs, file)));
    } catch {
      /* missing */
    }
    const status: 'pinned' | 'changed' | 'missing' = actual === null ? 'missing' : actual === expected ? 'pinned' : 'changed';
    return { file, status, expected, actual };
  });
  return { dir: abs, files, ok: files.every((f) => f.status === 'pinned') };
}
