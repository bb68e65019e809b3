import { parseFlags, UsageError, type CliCommand } from '../command.js';
import { readUtf8 } from './sign.js';

const KNOWN_FLAGS = ['env', 'env-case', 'path-case', 'page-size', 'logo'];
const ENVIRONMENTS = ['testecf', 'certecf', 'ecf'] as const;

/** `ecf pdf`: the printed representation (PDF) of a signed e-CF, written to stdout. */
export const pdfCommand: CliCommand = {
  name: 'pdf',
  summary: 'Render the printed representation (PDF) of a signed e-CF to stdout (QR for --env, default ecf, i.e. production)',
  usage: 'ecf pdf [--env testecf|certecf|ecf] [--page-size letter|a4] [--logo logo.png] [--env-case lower|mixed] [--path-case pascal|lower] <signed.xml> > out.pdf',
  async run(args, io) {
    const { flags, positional } = parseFlags(args);
    const unknown = Object.keys(flags).filter((k) => !KNOWN_FLAGS.includes(k));
    if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
    if (positional.length !== 1) throw new UsageError('expected exactly one signed XML file');
    const env = flags.env ?? 'ecf';
    if (typeof env !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(env)) {
      throw new UsageError(`--env must be one of ${ENVIRONMENTS.join(', ')}`);
    }
    const pageSize = option(flags['page-size'], ['letter', 'a4'], 'page-size') as 'letter' | 'a4' | undefined;
    const envCase = option(flags['env-case'], ['lower', 'mixed'], 'env-case') as 'lower' | 'mixed' | undefined;
    const pathCase = option(flags['path-case'], ['pascal', 'lower'], 'path-case') as 'pascal' | 'lower' | undefined;
    if (flags.logo === true) throw new UsageError('--logo needs a PNG or JPEG file');
    const logo = typeof flags.logo === 'string' ? await io.readFile(flags.logo) : undefined;
    const { renderPdf } = await import('../../pdf/index.js');
    const pdf = await renderPdf(await readUtf8(io, positional[0]!), {
      environment: env as (typeof ENVIRONMENTS)[number],
      ...(pageSize ? { pageSize } : {}),
      ...(logo ? { logo } : {}),
      ...(envCase || pathCase ? { qrUrl: { ...(envCase ? { environmentCase: envCase } : {}), ...(pathCase ? { pathCase } : {}) } } : {}),
    });
    io.stdout(pdf);
    return 0;
  },
};

function option(value: string | true | undefined, allowed: string[], name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !allowed.includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value;
}
