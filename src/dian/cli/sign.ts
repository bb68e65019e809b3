/**
 * `ecf dian sign` and `ecf dian verify`: DIAN's XAdES-EPES on files, thin adapters over the public entry
 * `ecf-kit/dian/sign` (src/dian/sign/index.ts). The .p12 password never comes from the command line itself: it is
 * read from an environment variable (`--password-env VAR`) or a file (`--password-file FILE`).
 */
import { X509Certificate } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { parseFlags, requireFlag, UsageError, type CliCommand, type CliIo, optionalFlag } from '../../shared/cli/command.js';
import type { DianDigest, DianSignerRole, Signer } from '../sign/index.js';

const SIGN_OPTIONS = ['p12', 'password-env', 'password-file', 'role', 'digest', 'out'] as const;
const ROLES: Record<string, DianSignerRole> = { supplier: 'supplier', 'third-party': 'third party' };
const DIGESTS: readonly DianDigest[] = ['sha256', 'sha384'];
/** Warn on stderr when the certificate expires within this many days. */
const EXPIRY_WARNING_DAYS = 30;
const MS_PER_DAY = 86_400_000;

export function rejectUnknown(flags: Record<string, string | true>, known: readonly string[]): void {
  if ('password' in flags)
    throw new UsageError('--password is not accepted (it would show in the process list): use --password-env VAR or --password-file FILE');
  const unknown = Object.keys(flags).filter((k) => !known.includes(k));
  if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
}

/** A file's text, or a message saying why it cannot be had (unreadable or not UTF-8). */
export async function readText(io: CliIo, file: string): Promise<{ ok: true; text: string } | { ok: false; message: string }> {
  let bytes: Uint8Array;
  try {
    bytes = await io.readFile(file);
  } catch (e) {
    return { ok: false, message: `cannot read ${file}: ${(e as Error).message}` };
  }
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, message: `${file}: not valid UTF-8 (DIAN documents must be UTF-8)` };
  }
}

/** The .p12 password: the value of the variable `--password-env` names, or the first line of `--password-file`. */
export async function password(flags: Record<string, string | true>, io: CliIo): Promise<string> {
  const env = optionalFlag(flags, 'password-env');
  const file = optionalFlag(flags, 'password-file');
  if (env !== undefined && file !== undefined) throw new UsageError('give --password-env or --password-file, not both');
  if (env !== undefined) {
    const pw = io.env[env];
    if (pw === undefined) throw new UsageError(`the environment variable ${env} (--password-env) is not set`);
    return pw;
  }
  if (file !== undefined) {
    const r = await readText(io, file);
    if (!r.ok) throw new UsageError(`--password-file: ${r.message}`);
    return r.text.replace(/\r?\n$/, '');
  }
  throw new UsageError('missing the .p12 password: --password-env VAR (a variable holding it) or --password-file FILE');
}

/**
 * The signer of a .p12 (its chain included), or the exit code 2 after saying on stderr why not: unreadable file,
 * wrong password, or a certificate outside its validity at the clock's instant (a warning when it expires soon).
 */
export async function openSigner(command: string, p12Path: string, pw: string, io: CliIo, clock: () => Date): Promise<Signer | 2> {
  const p12 = await io.readFile(p12Path).catch((e: Error) => e);
  if (p12 instanceof Error) {
    io.stderr(`${command}: cannot read ${p12Path}: ${p12.message}\n`);
    return 2;
  }
  const { readP12, p12Signer } = await import('../sign/index.js');
  try {
    const identity = readP12(p12, pw);
    const now = clock().getTime();
    const { notBefore, notAfter, subject } = identity.info;
    if (now > notAfter.getTime() || now < notBefore.getTime()) {
      io.stderr(
        `${command}: the certificate "${subject.text}" is valid from ${notBefore.toISOString()} to ${notAfter.toISOString()}, not now; DIAN rejects such signatures\n`,
      );
      return 2;
    }
    const days = Math.floor((notAfter.getTime() - now) / MS_PER_DAY);
    if (days < EXPIRY_WARNING_DAYS) io.stderr(`warning: the certificate expires in ${days} day(s) (${notAfter.toISOString()})\n`);
    return p12Signer(identity);
  } catch (e) {
    io.stderr(`${command}: ${p12Path}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
}

/**
 * `ecf dian sign`: exit 0 when the signed XML is written (stdout, or `--out`), 1 when signDianXml refuses the
 * document, 2 on usage, unreadable files, a .p12 that cannot be opened or a certificate outside its validity.
 */
export const dianSignCommand: CliCommand = {
  name: 'dian sign',
  summary: "Sign a DIAN UBL document with a .p12 (XAdES-EPES, DIAN's policy) into its last empty ext:ExtensionContent; signed XML on stdout unless --out",
  usage: 'ecf dian sign --p12 FILE (--password-env VAR | --password-file FILE) [--role supplier|third-party] [--digest sha256|sha384] [--out FILE] <in.xml>',
  async run(args, io) {
    const { flags, positional } = parseFlags(args);
    rejectUnknown(flags, SIGN_OPTIONS);
    if (positional.length !== 1) throw new UsageError(positional.length === 0 ? 'missing the XML file to sign' : 'one XML file at a time');
    const roleName = optionalFlag(flags, 'role') ?? 'supplier';
    const role = ROLES[roleName];
    if (!role) throw new UsageError(`--role must be supplier or third-party, got "${roleName}"`);
    const digest = (optionalFlag(flags, 'digest') ?? 'sha256') as DianDigest;
    if (!DIGESTS.includes(digest)) throw new UsageError(`--digest must be sha256 or sha384, got "${digest}"`);
    const out = optionalFlag(flags, 'out');
    const p12Path = requireFlag(flags, 'p12');
    const pw = await password(flags, io);
    const file = positional[0]!;

    const input = await readText(io, file);
    if (!input.ok) {
      io.stderr(`ecf dian sign: ${input.message}\n`);
      return 2;
    }
    const clock = () => new Date();
    const signer = await openSigner('ecf dian sign', p12Path, pw, io, clock);
    if (typeof signer === 'number') return signer;
    const { signDianXml } = await import('../sign/index.js');
    const r = await signDianXml(input.text, signer, { clock, role, digest });
    if (!r.ok) {
      io.stderr(`ecf dian sign: ${file}: ${r.code}: ${r.message}\n`);
      return 1;
    }
    if (out === undefined) {
      io.stdout(r.xml);
      return 0;
    }
    try {
      await writeFile(out, r.xml);
    } catch (e) {
      io.stderr(`ecf dian sign: cannot write ${out}: ${(e as Error).message}\n`);
      return 2;
    }
    io.stdout(`signed: ${file} → ${out} (${r.signatureId})\n`);
    return 0;
  },
};

/** `ecf dian verify`: one line per file; exit 0 when all verify, 1 when any is refused, 2 on usage or unreadable files. */
export const dianVerifyCommand: CliCommand = {
  name: 'dian verify',
  summary:
    'Verify the XAdES-EPES signature of signed DIAN documents with their embedded certificate (integrity and XAdES properties, not trust); one line per file',
  usage: 'ecf dian verify <signed.xml>…',
  async run(args, io) {
    const { flags, positional } = parseFlags(args);
    rejectUnknown(flags, []);
    if (positional.length === 0) throw new UsageError('missing the signed XML file(s) to verify');
    const { verifyDianXml } = await import('../sign/index.js');
    let exit = 0;
    for (const file of positional) {
      const input = await readText(io, file);
      if (!input.ok) {
        io.stderr(`ecf dian verify: ${input.message}\n`);
        exit = 2;
        continue;
      }
      const r = verifyDianXml(input.text);
      if (r.valid) {
        const subject = r.certificate ? certificateSubject(r.certificate) : undefined;
        io.stdout(`${file}: ok${subject ? ` (signed by ${subject})` : ''}\n`);
      } else {
        io.stdout(`${file}: invalid (${r.code}): ${r.reason}\n`);
        if (exit === 0) exit = 1;
      }
    }
    return exit;
  },
};

function certificateSubject(base64: string): string | undefined {
  try {
    return new X509Certificate(Buffer.from(base64, 'base64')).subject.replace(/\n/g, ', ');
  } catch {
    return undefined;
  }
}
