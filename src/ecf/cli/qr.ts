import { parseFlags, UsageError, type CliCommand } from '../../shared/cli/command.js';
import { readUtf8 } from './sign.js';
import { rejectUnknownFlags, TIMBRE_FLAGS, timbreFlags } from './timbre-flags.js';

/** `ecf qr`: prints the timbre (QR) URL of a signed e-CF or RFCE. */
export const qrCommand: CliCommand = {
  name: 'qr',
  summary: 'Print the timbre (QR) URL of a signed e-CF or RFCE (default environment: ecf, i.e. production)',
  usage: 'ecf qr [--env testecf|certecf|ecf] [--env-case lower|mixed] [--path-case pascal|lower] <signed.xml>',
  async run(args, io) {
    const { flags, positional } = parseFlags(args);
    rejectUnknownFlags(flags, TIMBRE_FLAGS);
    if (positional.length !== 1) throw new UsageError('expected exactly one signed XML file');
    const options = timbreFlags(flags);
    const { qrUrlFromSignedXml } = await import('../index.js');
    const url = qrUrlFromSignedXml(await readUtf8(io, positional[0]!), options);
    io.stdout(`${url}\n`);
    return 0;
  },
};
