import { parseFlags, UsageError, type CliCommand } from '../command.js';
import { readUtf8 } from './sign.js';

const KNOWN_FLAGS = ['env', 'env-case', 'path-case'];
const ENVIRONMENTS = ['testecf', 'certecf', 'ecf'] as const;

/** `ecf qr`: prints the timbre (QR) URL of a signed e-CF or RFCE. */
export const qrCommand: CliCommand = {
  name: 'qr',
  summary: 'Print the timbre (QR) URL of a signed e-CF or RFCE (default environment: ecf, i.e. production)',
  usage: 'ecf qr [--env testecf|certecf|ecf] [--env-case lower|mixed] [--path-case pascal|lower] <signed.xml>',
  async run(args, io) {
    const { flags, positional } = parseFlags(args);
    const unknown = Object.keys(flags).filter((k) => !KNOWN_FLAGS.includes(k));
    if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
    if (positional.length !== 1) throw new UsageError('expected exactly one signed XML file');
    const env = flags.env ?? 'ecf';
    if (typeof env !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(env)) {
      throw new UsageError(`--env must be one of ${ENVIRONMENTS.join(', ')}`);
    }
    const envCase = option(flags['env-case'], ['lower', 'mixed'], 'env-case');
    const pathCase = option(flags['path-case'], ['pascal', 'lower'], 'path-case');
    const { qrUrlFromSignedXml } = await import('../../derive/qr-url.js');
    const url = qrUrlFromSignedXml(await readUtf8(io, positional[0]!), {
      environment: env as (typeof ENVIRONMENTS)[number],
      ...(envCase ? { environmentCase: envCase as 'lower' | 'mixed' } : {}),
      ...(pathCase ? { pathCase: pathCase as 'pascal' | 'lower' } : {}),
    });
    io.stdout(`${url}\n`);
    return 0;
  },
};

function option(value: string | true | undefined, allowed: string[], name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !allowed.includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value;
}
