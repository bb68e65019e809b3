/**
 * `installXsd(source, targetDir)`: copies the official XSD set from a folder or a DGII .zip into `targetDir`,
 * checking every file against the SHA-256 the project pins (pinned.ts).
 * Files are recognised by content hash first, then by a normalised name (case, blanks and punctuation ignored,
 * so `Semilla v.1.0.xsd` is `Semilla-v1.0.xsd`). A recognised-by-name file whose hash differs is "changed".
 * The work is the kernel's (src/shared/xsd/install.ts), driven by DGII_XSD_MANIFEST.
 */
import {
  installPinnedXsd,
  normalizeXsdFileName,
  verifyPinnedXsdDir,
  type InstallXsdOptions,
  type InstallXsdResult,
  type XsdDirCheck,
} from '../../shared/xsd/install.js';
import { DGII_XSD_MANIFEST } from './pinned.js';

export { XsdInstallError, type InstallXsdOptions, type InstallXsdResult, type XsdFileCheck, type XsdDirCheck } from '../../shared/xsd/install.js';

/** Name key: lower case, no extension, letters and digits only, trailing version `v10` dropped. */
export function normalizeXsdName(name: string): string {
  return normalizeXsdFileName(name, DGII_XSD_MANIFEST.versionSuffix);
}

/** Copies the official XSD set from `source` (folder or .zip) into `targetDir`. Throws `XsdInstallError` when refused. */
export function installXsd(source: string, targetDir: string, options: InstallXsdOptions = {}): InstallXsdResult {
  return installPinnedXsd(source, targetDir, DGII_XSD_MANIFEST, options);
}

/** Compares the files of an installed XSD directory with the pinned hashes (reads, never writes). */
export function verifyXsdDir(dir: string): XsdDirCheck {
  return verifyPinnedXsdDir(dir, DGII_XSD_MANIFEST);
}
