/**
 * `installDianXsd(source, targetDir)`: copies the DIAN XSD set from a folder or a .zip into `targetDir`, laid out as
 * `maindoc/`, `common/`, `payroll/`, checking every file against the SHA-256 pinned in pinned.ts. Files are
 * recognised by content hash first, then by name, wherever they sit in the source (the toolboxes nest them as
 * `…/XSD/maindoc/…`, and the payroll toolbox repeats ten common files in `Schemes/`: same hashes, installed once).
 * The work is the kernel's (src/shared/xsd/install.ts), driven by DIAN_XSD_MANIFEST.
 */
import { installPinnedXsd, verifyPinnedXsdDir, type InstallXsdOptions, type InstallXsdResult, type XsdDirCheck } from '../../shared/xsd/install.js';
import { DIAN_XSD_MANIFEST } from './pinned.js';

export { XsdInstallError, type InstallXsdOptions, type InstallXsdResult, type XsdFileCheck, type XsdDirCheck } from '../../shared/xsd/install.js';

/** Copies the DIAN XSD set from `source` (folder or .zip) into `targetDir`. Throws `XsdInstallError` when refused. */
export function installDianXsd(source: string, targetDir: string, options: InstallXsdOptions = {}): InstallXsdResult {
  return installPinnedXsd(source, targetDir, DIAN_XSD_MANIFEST, options);
}

/** Compares the files of an installed DIAN XSD directory with the pinned hashes (reads, never writes). */
export function verifyDianXsdDir(dir: string): XsdDirCheck {
  return verifyPinnedXsdDir(dir, DIAN_XSD_MANIFEST);
}
