import { parseFlags, UsageError, type CliCommand } from '../../shared/cli/command.js';
import { readUtf8 } from './sign.js';
import { choiceFlag, rejectUnknownFlags, TIMBRE_FLAGS, timbreFlags } from './timbre-flags.js';

/** `ecf pdf`: the printed representation (PDF) of a signed e-CF, written to stdout. */
export const pdfCommand: CliCommand = {
  name: 'pdf',
  summary: 'Render the printed representation (PDF) of a signed e-CF to stdout (QR for --env, default ecf, i.e. production)',
  usage:
    'ecf pdf [--env testecf|certecf|ecf] [--page-size letter|a4] [--logo logo.png] [--env-case lower|mixed] [--path-case pascal|lower] <signed.xml> > out.pdf',
  async run(args, io) {
    const { flags, positional } = parseFlags(args);
    rejectUnknownFlags(flags, [...TIMBRE_FLAGS, 'page-size', 'logo']);
    if (positional.length !== 1) throw new UsageError('expected exactly one signed XML file');
    const { environment, ...qrUrl } = timbreFlags(flags);
    const pageSize = choiceFlag(flags, 'page-size', ['letter', 'a4'] as const);
    if (flags.logo === true) throw new UsageError('--logo needs a PNG or JPEG file');
    const logo = typeof flags.logo === 'string' ? await io.readFile(flags.logo) : undefined;
    const { renderPdf } = await import('../pdf/index.js');
    const pdf = await renderPdf(await readUtf8(io, positional[0]!), {
      environment,
      ...(pageSize ? { pageSize } : {}),
      ...(logo ? { logo } : {}),
      ...(Object.keys(qrUrl).length ? { qrUrl } : {}),
    });
    io.stdout(pdf);
    return 0;
  },
};
