import { EcfError } from '../index.js';
import { buildEcfXmlFromJson, formatDateDO, type BuildContext } from '../index.js';
import { EcfValidationError } from '../../shared/errors/validation-error.js';
import { toIssueReport } from '../../shared/issues.js';
import { parseFlags, requireFlag, UsageError, type CliCommand, type CliIo } from '../../shared/cli/command.js';

async function readJson(io: CliIo, path: string, what: string): Promise<unknown> {
  const text = new TextDecoder().decode(await io.readFile(path));
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new JsonInputError(what, path, e instanceof Error ? e.message : String(e));
  }
}

class JsonInputError extends EcfError {
  constructor(
    readonly what: string,
    readonly file: string,
    detail: string,
  ) {
    super(`${what}: JSON mal formado en ${file}: ${detail}`, { code: 'invalid_json' });
    this.name = 'JsonInputError';
  }
}

export const buildCommand: CliCommand = {
  name: 'build',
  summary: 'Build the unsigned e-CF XML from canonical JSON (XML on stdout; issues as JSON on stdout, exit 1).',
  usage: 'ecf build --type T --issuer issuer.json --encf E31… [--sequence-expiry dd-MM-yyyy] [--issued-at dd-MM-yyyy] doc.json',
  async run(args, io) {
    const { flags, positional } = parseFlags(args);
    const tipo = requireFlag(flags, 'type');
    const encf = requireFlag(flags, 'encf');
    const issuerFile = requireFlag(flags, 'issuer');
    if (positional.length !== 1) throw new UsageError('expected exactly one document file');
    let doc: unknown;
    let emisor: unknown;
    try {
      emisor = await readJson(io, issuerFile, 'emisor');
      doc = await readJson(io, positional[0]!, 'documento');
    } catch (e) {
      if (!(e instanceof JsonInputError)) throw e;
      io.stdout(`${JSON.stringify({ errors: [e.message], detailed_errors: { _: [e.message] } })}\n`);
      return 1;
    }
    const context: BuildContext = {
      emisor: emisor as BuildContext['emisor'],
      encf,
      fecha_emision: typeof flags['issued-at'] === 'string' ? flags['issued-at'] : formatDateDO(new Date()),
    };
    if (typeof flags['sequence-expiry'] === 'string') context.fecha_vencimiento_secuencia = flags['sequence-expiry'];
    try {
      io.stdout(buildEcfXmlFromJson(tipo, doc, context));
      io.stdout('\n');
      return 0;
    } catch (e) {
      if (!(e instanceof EcfValidationError)) throw e;
      io.stdout(`${JSON.stringify(toIssueReport(e.issues))}\n`);
      return 1;
    }
  },
};
