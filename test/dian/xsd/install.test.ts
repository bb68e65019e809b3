/** installDianXsd: the toolbox layout (nested, with the payroll toolbox's duplicate common files) into maindoc/, common/, payroll/. */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDianSchemaValidator, DIAN_XSD_FILE_NAMES, installDianXsd, verifyDianXsdDir, XsdInstallError } from '../../../src/dian/xsd/index.js';
import { tempDir } from '../../ecf/xsd/fixtures.js';
import { dianXsdDir } from '../helpers/env.js';
import { invoice } from './fixtures.js';

const dir = dianXsdDir();
const dirs: string[] = [];
const tmp = () => {
  const d = tempDir('dian-xsd-');
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A copy of the set laid out as the two toolboxes ship it. */
function toolboxCopy(): string {
  const from = tmp();
  for (const f of DIAN_XSD_FILE_NAMES) {
    const [folder] = f.split('/');
    const dest =
      folder === 'payroll'
        ? join(from, 'Caja-de-Herramientas-Nomina-Electronica-V1-0', 'XSD', basename(f))
        : join(from, 'Caja-de-herramientas-FE-V1-9', 'XSD', f);
    mkdirSync(dirname(dest), { recursive: true });
    copyFileSync(join(dir, f), dest);
  }
  // The payroll toolbox repeats common schemas in Schemes/ (same bytes).
  const schemes = join(from, 'Caja-de-Herramientas-Nomina-Electronica-V1-0', 'XSD', 'Schemes');
  mkdirSync(schemes);
  copyFileSync(join(dir, 'common/UBL-CommonBasicComponents-2.1.xsd'), join(schemes, 'UBL-CommonBasicComponents-2.1.xsd'));
  return from;
}

describe('installDianXsd', () => {
  it('installs the 22 files from the toolbox layout into maindoc/, common/ and payroll/, and the result validates', () => {
    const target = join(tmp(), 'dian xsd');
    const r = installDianXsd(toolboxCopy(), target);
    expect(r.installed).toHaveLength(22);
    expect(r.installed.every((c) => c.status === 'pinned' && c.matchedBy === 'hash')).toBe(true);
    expect(r.missing).toEqual([]);
    // One of the two identical copies is installed, the other is reported as ignored.
    expect(r.ignored).toEqual([expect.stringMatching(/UBL-CommonBasicComponents-2\.1\.xsd$/)]);
    for (const f of DIAN_XSD_FILE_NAMES) expect(readFileSync(join(target, f)).equals(readFileSync(join(dir, f))), f).toBe(true);
    expect(verifyDianXsdDir(target).ok).toBe(true);
    expect(createDianSchemaValidator(target).validate(invoice(), 'Invoice').valid).toBe(true);
  });

  it('refuses a changed file unless forced, naming it with both hashes', () => {
    const from = toolboxCopy();
    const changed = join(from, 'Caja-de-herramientas-FE-V1-9', 'XSD', 'maindoc', 'UBL-Invoice-2.1.xsd');
    writeFileSync(changed, `${readFileSync(changed, 'utf8')}\r\n`);
    const target = join(tmp(), 'xsd');
    let err: unknown;
    try {
      installDianXsd(from, target);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(XsdInstallError);
    expect((err as Error).message).toMatch(
      /DIAN may have published a new set[\s\S]*changed: maindoc\/UBL-Invoice-2\.1\.xsd[\s\S]*expected sha256 73a771d90790/,
    );
    expect(existsSync(target)).toBe(false);

    const r = installDianXsd(from, target, { acceptChanged: true });
    expect(r.changed.map((c) => [c.file, c.matchedBy])).toEqual([['maindoc/UBL-Invoice-2.1.xsd', 'name']]);
    const check = verifyDianXsdDir(target);
    expect(check.ok).toBe(false);
    expect(check.files.filter((f) => f.status !== 'pinned').map((f) => [f.file, f.status])).toEqual([['maindoc/UBL-Invoice-2.1.xsd', 'changed']]);
  });

  it('refuses an incomplete set (the payroll toolbox alone) unless allowed', () => {
    const from = tmp();
    for (const f of DIAN_XSD_FILE_NAMES.filter((n) => n.startsWith('payroll/'))) copyFileSync(join(dir, f), join(from, basename(f)));
    expect(() => installDianXsd(from, join(tmp(), 'xsd'))).toThrow(/20 of the 22 files are missing/);
    const r = installDianXsd(from, join(tmp(), 'xsd'), { allowMissing: true });
    expect(r.installed.map((c) => c.file)).toEqual([
      'payroll/NominaIndividualDeAjusteElectronicaXSDV1.0.6.xsd',
      'payroll/NominaIndividualElectronicaXSDV1.0.6.xsd',
    ]);
  });
});
