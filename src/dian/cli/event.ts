/**
 * `ecf dian event`: an event request (JSON, the service's event payload) and the company's context file → the
 * event's ApplicationResponse, signed when a .p12 is given. A thin adapter over `buildDianEvent` of the DIAN
 * entry and `signDianXml` of `ecf-kit/dian/sign`; the CLI supplies the clock (the same instant dates the event
 * and its signature, as DIAN's rule AAD09e wants).
 */
import { writeFile } from 'node:fs/promises';
import { parseFlags, UsageError, type CliCommand, optionalFlag } from '../../shared/cli/command.js';
import { buildDianEvent, DIAN_EVENT_CODES, type DianContext } from '../index.js';
import type { DianSignerRole, Signer } from '../sign/index.js';
import { FileProblem, readJson, toContext } from './build.js';
import { password } from './sign.js';

const OPTIONS = ['in', 'context', 'prefix', 'p12', 'password-env', 'password-file', 'role', 'out'] as const;
const ROLES: Record<string, DianSignerRole> = { supplier: 'supplier', 'third-party': 'third party' };

/**
 * `ecf dian event`: exit 0 when the event is written (stdout, or `--out`; its CUDE on stderr), 1 when the request
 * is invalid (the service's 422 body as JSON on stdout) or the signature is refused, 2 on usage, unreadable files or
 * a .p12 that does not open.
 */
export const dianEventCommand: CliCommand = {
  name: 'dian event',
  summary:
    'Build a RADIAN event (ApplicationResponse 030–034) from a request file (the service event payload) and the company context file { company, software, environment }; signed with --p12 (XAdES-EPES, same clock as the event). XML on stdout unless --out, the CUDE on stderr. Exit 0 written, 1 invalid request (422 body as JSON on stdout) or signature refused, 2 usage or unreadable file',
  usage: `ecf dian event <${DIAN_EVENT_CODES.join('|')}> --in request.json --context context.json [--prefix P] [--p12 FILE (--password-env VAR | --password-file FILE) [--role supplier|third-party]] [--out FILE]`,
  async run(args, io) {
    const { flags, positional } = parseFlags(args);
    if ('password' in flags)
      throw new UsageError('--password is not accepted (it would show in the process list): use --password-env VAR or --password-file FILE');
    const unknown = Object.keys(flags).filter((k) => !(OPTIONS as readonly string[]).includes(k));
    if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
    if (positional.length !== 1) throw new UsageError(`give one event code (${DIAN_EVENT_CODES.join(', ')})`);
    const code = positional[0]!;
    if (!(DIAN_EVENT_CODES as string[]).includes(code)) throw new UsageError(`unknown event "${code}"; expected one of ${DIAN_EVENT_CODES.join(', ')}`);
    const input = optionalFlag(flags, 'in');
    if (input === undefined) throw new UsageError('missing --in (the event request, JSON)');
    const contextFile = optionalFlag(flags, 'context');
    if (contextFile === undefined) throw new UsageError('missing --context (the company context file)');
    const prefix = optionalFlag(flags, 'prefix');
    const out = optionalFlag(flags, 'out');
    const p12Path = optionalFlag(flags, 'p12');
    const roleName = optionalFlag(flags, 'role');
    if (p12Path === undefined && (roleName !== undefined || 'password-env' in flags || 'password-file' in flags))
      throw new UsageError('--role, --password-env and --password-file go with --p12');
    const role = ROLES[roleName ?? 'supplier'];
    if (!role) throw new UsageError(`--role must be supplier or third-party, got "${roleName}"`);
    const pw = p12Path === undefined ? undefined : await password(flags, io);

    let context: DianContext;
    let request: Record<string, unknown>;
    try {
      context = toContext(await readJson(io, contextFile, 'the context'), contextFile, undefined);
      const raw = await readJson(io, input, 'the request');
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new FileProblem(`${input}: the request must be a JSON object`);
      request = raw as Record<string, unknown>;
    } catch (e) {
      if (!(e instanceof FileProblem)) throw e;
      io.stderr(`ecf dian event: ${e.message}\n`);
      return 2;
    }
    if (request.event_code !== undefined && request.event_code !== code) {
      io.stderr(`ecf dian event: ${input} is event ${String(request.event_code)}, not ${code}\n`);
      return 2;
    }

    const now = new Date();
    let signer: Signer | undefined;
    const sign = p12Path === undefined ? undefined : await import('../sign/index.js');
    if (sign && p12Path !== undefined) {
      const p12 = await io.readFile(p12Path).catch((e: Error) => e);
      if (p12 instanceof Error) {
        io.stderr(`ecf dian event: cannot read ${p12Path}: ${p12.message}\n`);
        return 2;
      }
      try {
        const identity = sign.readP12(p12, pw!);
        const { notBefore, notAfter, subject } = identity.info;
        if (now.getTime() > notAfter.getTime() || now.getTime() < notBefore.getTime()) {
          io.stderr(
            `ecf dian event: the certificate "${subject.text}" is valid from ${notBefore.toISOString()} to ${notAfter.toISOString()}, not now; DIAN rejects such signatures\n`,
          );
          return 2;
        }
        signer = sign.p12Signer(identity);
      } catch (e) {
        io.stderr(`ecf dian event: ${p12Path}: ${e instanceof Error ? e.message : String(e)}\n`);
        return 2;
      }
    }

    const r = buildDianEvent({ ...request, event_code: code }, { ...context, now: () => now }, prefix === undefined ? {} : { prefix });
    if (!r.ok) {
      io.stdout(`${JSON.stringify(r.body, null, 2)}\n`);
      return 1;
    }
    let xml = r.xml;
    if (sign && signer) {
      const s = await sign.signDianXml(xml, signer, { clock: () => now, role });
      if (!s.ok) {
        io.stderr(`ecf dian event: ${s.code}: ${s.message}\n`);
        return 1;
      }
      xml = s.xml;
    }
    io.stderr(`cude: ${r.cude}\n`);
    if (out === undefined) {
      io.stdout(xml);
      return 0;
    }
    try {
      await writeFile(out, xml);
    } catch (e) {
      io.stderr(`ecf dian event: cannot write ${out}: ${(e as Error).message}\n`);
      return 2;
    }
    io.stdout(`event ${code} ${r.id}: ${out}\n`);
    return 0;
  },
};
