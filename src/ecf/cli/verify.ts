import { X509Certificate } from 'node:crypto';
import { parseFlags, UsageError, type CliCommand } from '../../shared/cli/command.js';
import { readUtf8 } from './sign.js';

/** `ecf verify`: checks the XMLDSig signature of a file. Exit 0 valid, 1 invalid (reason printed), 2 usage. */
export const verifyCommand: CliCommand = {
  name: 'verify',
  summary: 'Verify the XMLDSig signature of a signed XML with its embedded certificate (exit 0 valid, 1 invalid)',
  usage: 'ecf verify <signed.xml>',
  async run(args, io) {
    const { flags, positional } = parseFlags(args);
    if (Object.keys(flags).length)
      throw new UsageError(
        `unknown option(s): ${Object.keys(flags)
          .map((k) => `--${k}`)
          .join(', ')}`,
      );
    if (positional.length !== 1) throw new UsageError('expected exactly one signed XML file');
    const { verifyXml } = await import('../sign/index.js');
    const result = verifyXml(await readUtf8(io, positional[0]!));
    const subject = result.certificate ? certificateSubject(result.certificate) : undefined;
    if (result.valid) {
      io.stdout(`valid${subject ? ` (signed by ${subject})` : ''}\n`);
      return 0;
    }
    io.stdout(`invalid (${result.code}): ${result.reason}\n`);
    return 1;
  },
};

function certificateSubject(base64: string): string | undefined {
  try {
    return new X509Certificate(Buffer.from(base64, 'base64')).subject.replace(/\n/g, ', ');
  } catch {
    return undefined;
  }
}
