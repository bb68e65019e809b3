import { parseFlags, UsageError, type CliCommand } from '../../shared/cli/command.js';
import { loadSigner, readUtf8 } from './sign.js';

const KNOWN_FLAGS = ['p12', 'password'];

/**
 * `ecf rfce`: derives the consumer-invoice summary (RFCE) from a signed type-32 e-CF below
 * RD$250,000.00 and signs it. The signed RFCE goes to stdout byte for byte (no newline added), its
 * CodigoSeguridadeCF (the 32's security code) to stderr. Keep the signed 32: DGII compares the code
 * with it later.
 */
export const rfceCommand: CliCommand = {
  name: 'rfce',
  summary: 'Derive and sign the RFCE (consumer-invoice summary) of a signed type-32 e-CF below 250,000.00; signed RFCE on stdout, code on stderr',
  usage: 'ecf rfce --p12 FILE [--password PW | env ECF_P12_PASSWORD] <signed32.xml>',
  async run(args, io) {
    const { flags, positional } = parseFlags(args);
    const unknown = Object.keys(flags).filter((k) => !KNOWN_FLAGS.includes(k));
    if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
    if (positional.length !== 1) throw new UsageError('expected exactly one signed type-32 XML file');
    const signer = await loadSigner(flags, io, () => new Date());

    const { deriveRfceXml } = await import('../index.js');
    const { signXml } = await import('../sign/index.js');
    const { EcfValidationError } = await import('../../shared/errors/validation-error.js');
    const xml = await readUtf8(io, positional[0]!);
    let rfce: string;
    try {
      rfce = deriveRfceXml(xml);
    } catch (e) {
      if (!(e instanceof EcfValidationError)) throw e;
      io.stderr(`ecf rfce: ${positional[0]} cannot be summarised:\n${e.issues.map((i) => `  ${i.path ? `${i.path}: ` : ''}${i.message}\n`).join('')}`);
      return 1;
    }
    const signed = await signXml(rfce, signer);
    io.stdout(signed);
    io.stderr(`CodigoSeguridadeCF: ${/<CodigoSeguridadeCF>([^<]*)<\/CodigoSeguridadeCF>/.exec(signed)![1]}\n`);
    return 0;
  },
};
