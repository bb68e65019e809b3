import { parseFlags, UsageError, type CliCommand, type CliIo } from '../../shared/cli/command.js';

function targetDir(flags: Record<string, string | true>, io: CliIo): string {
  const f = flags['xsd-dir'];
  if (f === true) throw new UsageError('--xsd-dir needs a directory');
  const dir = f ?? io.env.ECF_XSD_DIR;
  if (!dir) throw new UsageError('no XSD directory: pass --xsd-dir DIR or set ECF_XSD_DIR');
  return dir;
}

function rejectUnknown(flags: Record<string, string | true>, known: string[]): void {
  const unknown = Object.keys(flags).filter((k) => !known.includes(k));
  if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
}

/** `ecf xsd install <folder|zip>`: copy the official set into the XSD directory, checking the pinned SHA-256. */
export const xsdInstallCommand: CliCommand = {
  name: 'xsd install',
  summary: 'Install the official DGII XSD set from a folder or the DGII .zip, checking the pinned SHA-256 (--force accepts changed or missing files)',
  usage: 'ecf xsd install <folder|zip> [--xsd-dir DIR] [--force]',
  async run(args, io) {
    const { flags, positional } = parseFlags(args, ['force']);
    rejectUnknown(flags, ['xsd-dir', 'force']);
    if (positional.length !== 1) throw new UsageError('give exactly one source: the folder or the .zip downloaded from DGII');
    const dir = targetDir(flags, io);
    const force = flags.force === true;
    const xsd = await import('../xsd/index.js');
    try {
      const r = xsd.installXsd(positional[0]!, dir, { acceptChanged: force, allowMissing: force });
      for (const c of r.changed)
        io.stderr(`warning: ${c.file} differs from the pinned SHA-256 (installed because of --force)\n  expected ${c.expected}\n  actual   ${c.actual}\n`);
      for (const m of r.missing) io.stderr(`warning: ${m} not found in the source (not installed)\n`);
      for (const i of r.ignored) io.stderr(`note: ignored ${i} (not one of the DGII files)\n`);
      io.stdout(`installed ${r.installed.length} file(s) into ${r.targetDir}\n`);
      for (const c of r.installed) io.stdout(`  ${c.file}  ${c.status}${c.matchedBy === 'name' ? ' (matched by name)' : ''}\n`);
      return 0;
    } catch (e) {
      io.stderr(`ecf xsd install: ${(e as Error).message}\n`);
      return 1;
    }
  },
};

/** `ecf xsd check`: hashes of the installed set against the pinned ones, in-memory fixes, and a compile of each schema. */
export const xsdCheckCommand: CliCommand = {
  name: 'xsd check',
  summary: 'Check the installed XSD set: pinned SHA-256, in-memory fixes applied, and that every schema compiles',
  usage: 'ecf xsd check [--xsd-dir DIR]',
  async run(args, io) {
    const { flags, positional } = parseFlags(args);
    rejectUnknown(flags, ['xsd-dir']);
    if (positional.length) throw new UsageError(`unexpected argument: ${positional[0]}`);
    const dir = targetDir(flags, io);
    const xsd = await import('../xsd/index.js');
    const check = xsd.verifyXsdDir(dir);
    for (const f of check.files) io.stdout(`${f.status.padEnd(7)} ${f.file}${f.status === 'changed' ? `  (sha256 ${f.actual}, pinned ${f.expected})` : ''}\n`);
    if (check.files.some((f) => f.status === 'missing')) {
      io.stderr(`ecf xsd check: the set in ${check.dir} is incomplete\n`);
      return 1;
    }
    try {
      const v = xsd.createSchemaValidator(dir);
      for (const f of v.fixesApplied()) io.stdout(`fix     ${f.file}: ${f.detail}\n`);
      v.compile('all');
      v.compile('ECF-32', { relaxed32: true });
      io.stdout(`compiled ${xsd.SCHEMA_IDS.length} schemas (+ relaxed ECF-32)\n`);
    } catch (e) {
      io.stderr(`ecf xsd check: ${(e as Error).message}\n`);
      return 1;
    }
    return check.ok ? 0 : 1;
  },
};
