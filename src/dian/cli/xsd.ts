/**
 * `ecf dian xsd install`, `ecf dian xsd check` and `ecf dian validate`: the DIAN XSD set, reached through its public
 * entry (src/dian/xsd/index.ts). The XSD directory is `--xsd-dir DIR`, else DIAN_XSD_DIR.
 */
import { parseFlags, UsageError, type CliCommand, type CliIo } from '../../shared/cli/command.js';
import { validateFiles } from '../../shared/cli/validate-files.js';

function xsdDir(flags: Record<string, string | true>, io: CliIo): string {
  const f = flags['xsd-dir'];
  if (f === true) throw new UsageError('--xsd-dir needs a directory');
  const dir = f ?? io.env.DIAN_XSD_DIR;
  if (!dir) throw new UsageError('no XSD directory: pass --xsd-dir DIR or set DIAN_XSD_DIR (install the set with `ecf dian xsd install`)');
  return dir;
}

function rejectUnknown(flags: Record<string, string | true>, known: string[]): void {
  const unknown = Object.keys(flags).filter((k) => !known.includes(k));
  if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
}

/** `ecf dian xsd install <folder|zip>`: copy the DIAN set into the XSD directory, checking the pinned SHA-256. */
export const dianXsdInstallCommand: CliCommand = {
  name: 'dian xsd install',
  summary:
    'Install the DIAN XSD set (maindoc/, common/, payroll/) from the toolbox folders or a .zip, checking the pinned SHA-256 (--force accepts changed or missing files)',
  usage: 'ecf dian xsd install <folder|zip> [--xsd-dir DIR] [--force]',
  async run(args, io) {
    const { flags, positional } = parseFlags(args, ['force']);
    rejectUnknown(flags, ['xsd-dir', 'force']);
    if (positional.length !== 1) throw new UsageError('give exactly one source: the folder or the .zip holding the XSD folders of the DIAN toolboxes');
    const dir = xsdDir(flags, io);
    const force = flags.force === true;
    const xsd = await import('../xsd/index.js');
    try {
      const r = xsd.installDianXsd(positional[0]!, dir, { acceptChanged: force, allowMissing: force });
      for (const c of r.changed)
        io.stderr(`warning: ${c.file} differs from the pinned SHA-256 (installed because of --force)\n  expected ${c.expected}\n  actual   ${c.actual}\n`);
      for (const m of r.missing) io.stderr(`warning: ${m} not found in the source (not installed)\n`);
      for (const i of r.ignored) io.stderr(`note: ignored ${i} (not one of the DIAN files, or a copy of one already taken)\n`);
      io.stdout(`installed ${r.installed.length} file(s) into ${r.targetDir}\n`);
      for (const c of r.installed) io.stdout(`  ${c.file}  ${c.status}${c.matchedBy === 'name' ? ' (matched by name)' : ''}\n`);
      return 0;
    } catch (e) {
      io.stderr(`ecf dian xsd install: ${(e as Error).message}\n`);
      return 1;
    }
  },
};

/** `ecf dian xsd check`: hashes of the installed set against the pinned ones, then a compile of each document's schema. */
export const dianXsdCheckCommand: CliCommand = {
  name: 'dian xsd check',
  summary: 'Check the installed DIAN XSD set: pinned SHA-256 of the 22 files, and that the seven document schemas compile',
  usage: 'ecf dian xsd check [--xsd-dir DIR]',
  async run(args, io) {
    const { flags, positional } = parseFlags(args);
    rejectUnknown(flags, ['xsd-dir']);
    if (positional.length) throw new UsageError(`unexpected argument: ${positional[0]}`);
    const dir = xsdDir(flags, io);
    const xsd = await import('../xsd/index.js');
    const check = xsd.verifyDianXsdDir(dir);
    for (const f of check.files) io.stdout(`${f.status.padEnd(7)} ${f.file}${f.status === 'changed' ? `  (sha256 ${f.actual}, pinned ${f.expected})` : ''}\n`);
    if (check.files.some((f) => f.status === 'missing')) {
      io.stderr(`ecf dian xsd check: the set in ${check.dir} is incomplete\n`);
      return 1;
    }
    try {
      const v = xsd.createDianSchemaValidator(dir);
      v.compile('all');
      io.stdout(
        `compiled ${xsd.DIAN_SCHEMA_IDS.length} schemas (${xsd.DIAN_SCHEMA_IDS.join(', ')}); maindoc/DIAN_UBL_Structures.xsd is documentation, not a gate\n`,
      );
    } catch (e) {
      io.stderr(`ecf dian xsd check: ${(e as Error).message}\n`);
      return 1;
    }
    return check.ok ? 0 : 1;
  },
};

/** `ecf dian validate`: XML files against the DIAN XSD set. Exit 0 all valid, 1 some invalid, 2 usage / cannot validate. */
export const dianValidateCommand: CliCommand = {
  name: 'dian validate',
  summary:
    'Validate XML against the DIAN XSD set (schema from the root element and its namespace; --unsigned accepts the empty UBLExtensions placeholder; exit 0 valid, 1 invalid, 2 usage or XSD unavailable)',
  usage: 'ecf dian validate [--xsd-dir DIR] [--schema ID] [--unsigned] <file.xml>...',
  async run(args, io) {
    const { flags, positional } = parseFlags(args, ['unsigned']);
    rejectUnknown(flags, ['xsd-dir', 'schema', 'unsigned']);
    if (positional.length === 0) throw new UsageError('missing the XML file to validate');
    const dir = xsdDir(flags, io);
    const schemaFlag = flags.schema;
    if (schemaFlag === true) throw new UsageError('--schema needs a schema id');
    const xsd = await import('../xsd/index.js');
    if (schemaFlag !== undefined && !xsd.isDianSchemaId(schemaFlag)) {
      throw new UsageError(`unknown schema "${schemaFlag}"; expected one of ${xsd.DIAN_SCHEMA_IDS.join(', ')}`);
    }
    let validator;
    try {
      validator = xsd.createDianSchemaValidator(dir);
    } catch (e) {
      io.stderr(`ecf dian validate: ${(e as Error).message}\n`);
      return 2;
    }
    const unsigned = flags.unsigned === true;
    return validateFiles(
      {
        command: 'ecf dian validate',
        files: positional,
        utf8Rule: 'DIAN documents must be UTF-8',
        schemaOf: (xml) => schemaFlag ?? xsd.detectDianSchemaId(xml),
        undetected: (xml) => {
          const root = xsd.xmlRoot(xml);
          return root ? ` (${root.localName} in ${root.namespace ?? 'no namespace'})` : '';
        },
        validate: (xml, schema) => validator.validate(xml, schema, { unsigned }),
        label: (schema) => `${schema}${unsigned ? ', unsigned' : ''}`,
      },
      io,
    );
  },
};
