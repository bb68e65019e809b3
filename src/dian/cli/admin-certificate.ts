/**
 * `ecf dian admin certificate add`: replaces a company's signing identity (the development one `company add`
 * made) with its .p12, checked and sealed at rest as the server stores identities. The running server signs the
 * company's documents and WS-Security envelopes with it from its next request.
 *
 * The password never travels on the command line: a command line is readable by every user of the machine
 * (`ps`, `/proc/<pid>/cmdline`) and stays in shell history. It comes from an environment variable
 * (`--password-env VAR`) or a file (`--password-file FILE`, one trailing newline ignored), read as `ecf dian sign`
 * reads it.
 */
import type { Clock } from '../../shared/ports.js';
import { systemClock } from '../../shared/server-kit/clock.js';
import { type CliCommand, requireFlag, UsageError } from '../../shared/cli/command.js';
import { command, companyJson, parse, print, STORAGE_FLAGS, withStorage } from './admin.js';
import { password } from './sign.js';

/** The command, over `clock` (default: the system clock) for the validity checks. */
export function dianCertificateAddCommand(options: { clock?: Clock } = {}): CliCommand {
  const clock = options.clock ?? systemClock;
  return command({
    name: 'dian admin certificate add',
    summary: "Replace a DIAN company's signing identity with its .p12 (checked, sealed at rest)",
    usage: 'ecf dian admin certificate add --nit NIT --p12 FILE (--password-env VAR | --password-file FILE) [--data-dir DIR] [--database-url URL]',
    async body(args, io) {
      const flags = parse(args, ['nit', 'p12', 'password-env', 'password-file', 'password', ...STORAGE_FLAGS]);
      if (flags.password !== undefined) {
        throw new UsageError(
          '--password is not accepted: a command line is visible to every user (ps) and kept in shell history; use --password-env VAR or --password-file FILE',
        );
      }
      const nit = requireFlag(flags, 'nit');
      const file = requireFlag(flags, 'p12');
      const pw = await password(flags, io);
      const { DianAdminError, loadDianCertificateKey, setCompanyCertificate } = await import('../server/index.js');
      let p12: Uint8Array;
      try {
        p12 = await io.readFile(file);
      } catch (e) {
        throw new DianAdminError(`cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
      }
      await withStorage(flags, io, async (storage, dir) => {
        const key = loadDianCertificateKey({ dataDir: dir, env: io.env });
        const { company, certificate, warnings } = await setCompanyCertificate(storage, nit, { p12, password: pw }, key, clock());
        for (const w of warnings) io.stderr(`ecf dian admin certificate add: warning: ${w.message}\n`);
        print(io, { company: companyJson(company), certificate, warnings });
      });
    },
  });
}
