import { validateFiles } from '../../shared/cli/validate-files.js';
import { parseFlags, UsageError, type CliCommand } from '../../shared/cli/command.js';

const KNOWN_FLAGS = ['xsd-dir', 'schema', 'relaxed32'];

/** `ecf validate`: XML files against the official DGII XSD. Exit 0 all valid, 1 some invalid, 2 usage / cannot validate. */
export const validateCommand: CliCommand = {
  name: 'validate',
  summary: 'Validate XML against the official DGII XSD (schema from the root element and TipoeCF; exit 0 valid, 1 invalid, 2 usage or XSD unavailable)',
  usage: 'ecf validate [--xsd-dir DIR] [--schema ID] [--relaxed32] <file.xml>...',
  async run(args, io) {
    const { flags, positional } = parseFlags(args, ['relaxed32']);
    const unknown = Object.keys(flags).filter((k) => !KNOWN_FLAGS.includes(k));
    if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
    if (positional.length === 0) throw new UsageError('missing the XML file to validate');
    const dirFlag = flags['xsd-dir'];
    if (dirFlag === true) throw new UsageError('--xsd-dir needs a directory');
    const dir = dirFlag ?? io.env.ECF_XSD_DIR;
    if (!dir) throw new UsageError('no XSD directory: pass --xsd-dir DIR or set ECF_XSD_DIR (install the set with `ecf xsd install`)');
    const schemaFlag = flags.schema;
    if (schemaFlag === true) throw new UsageError('--schema needs a schema id');

    const xsd = await import('../xsd/index.js');
    if (schemaFlag !== undefined && !xsd.isSchemaId(schemaFlag)) {
      throw new UsageError(`unknown schema "${schemaFlag}"; expected one of ${xsd.SCHEMA_IDS.join(', ')}`);
    }
    let validator;
    try {
      validator = xsd.createSchemaValidator(dir);
    } catch (e) {
      io.stderr(`ecf validate: ${(e as Error).message}\n`);
      return 2;
    }

    const relaxed32 = flags.relaxed32 === true;
    return validateFiles(
      {
        command: 'ecf validate',
        files: positional,
        utf8Rule: 'DGII documents must be UTF-8',
        schemaOf: (xml) => schemaFlag ?? xsd.detectSchemaId(xml),
        undetected: (xml) => (xsd.rootElementName(xml) === 'ECF' ? ' (no known TipoeCF)' : ''),
        validate: (xml, schema) => validator.validate(xml, schema, { relaxed32 }),
        label: (schema) => `${schema}${relaxed32 && schema === 'ECF-32' ? ', relaxed32' : ''}`,
      },
      io,
    );
  },
};
