import type { Signer } from '../../shared/ports.js';
import { parseFlags, requireFlag, UsageError, type CliCommand, type CliIo } from '../../shared/cli/command.js';

const KNOWN_FLAGS = ['p12', 'password'];
/** Warn on stderr when the certificate expires within this many days. */
const EXPIRY_WARNING_DAYS = 30;

/** Reads a UTF-8 file (BOM dropped); throws UsageError when it is not UTF-8. */
export async function readUtf8(io: CliIo, file: string): Promise<string> {
  const bytes = await io.readFile(file);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${file} is not valid UTF-8 (DGII documents must be UTF-8)`);
  }
}

/**
 * `ecf sign`: signs an XML file with a .p12. e-CF (root ECF) get FechaHoraFirma from the system
 * clock first. The signed XML goes to stdout byte for byte (no newline added), the security code to
 * stderr. The password comes from --password or the ECF_P12_PASSWORD environment variable.
 */
export const signCommand: CliCommand = {
  name: 'sign',
  summary: 'Sign XML with a .p12 (DGII XMLDSig profile; e-CF get FechaHoraFirma); signed XML on stdout, security code on stderr',
  usage: 'ecf sign --p12 FILE [--password PW | env ECF_P12_PASSWORD] <in.xml>',
  async run(args, io) {
    const { flags, positional } = parseFlags(args);
    const unknown = Object.keys(flags).filter((k) => !KNOWN_FLAGS.includes(k));
    if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
    if (positional.length !== 1) throw new UsageError('expected exactly one XML file to sign');
    const clock = () => new Date();
    const signer = await loadSigner(flags, io, clock);

    const { signEcf, signXml } = await import('../sign/index.js');
    const { parseDocument, rootName, securityCode } = await import('../index.js');
    const xml = await readUtf8(io, positional[0]!);
    const signed = rootName(parseDocument(xml)) === 'ECF' ? await signEcf(xml, signer, clock) : await signXml(xml, signer);
    io.stdout(signed);
    io.stderr(`CodigoSeguridad: ${securityCode(signed)}\n`);
    return 0;
  },
};

/**
 * The signer of `--p12` with `--password` (or ECF_P12_PASSWORD): refuses expired and not-yet-valid
 * certificates, and warns on stderr when fewer than 30 days remain.
 */
export async function loadSigner(flags: Record<string, string | true>, io: CliIo, clock: () => Date): Promise<Signer> {
  const p12Path = requireFlag(flags, 'p12');
  const password = typeof flags.password === 'string' ? flags.password : io.env.ECF_P12_PASSWORD;
  if (password === undefined) throw new UsageError('missing --password (or set ECF_P12_PASSWORD)');
  const { readP12, checkValidity, daysToExpiry, p12Signer } = await import('../sign/index.js');
  const identity = readP12(await io.readFile(p12Path), password);
  checkValidity(identity, clock);
  const days = daysToExpiry(identity, clock);
  if (days < EXPIRY_WARNING_DAYS) io.stderr(`warning: the certificate expires in ${days} day(s) (${identity.info.notAfter.toISOString()})\n`);
  return p12Signer(identity);
}
