/**
 * `ecf dian payroll build` and `ecf dian payroll sign`: a payroll request (JSON) and the context file → the
 * individual payroll (102) or adjustment note (103), signed when a .p12 is given. A thin adapter over
 * `buildDianPayroll` of the DIAN entry and `signDianXml` of `ecf-kit/dian/sign`; the CLI supplies the clock (read
 * for a request without generation date and time, and for the signing time). Sending is `ecf dian send` (SendNominaSync,
 * chosen by the payroll root) and the verdict `ecf dian status`.
 */
import { writeFile } from 'node:fs/promises';
import { parseFlags, UsageError, type CliCommand, optionalFlag } from '../../shared/cli/command.js';
import { buildDianPayroll, PAYROLL_KINDS, type PayrollContext, type PayrollKindId } from '../index.js';
import type { Signer } from '../sign/index.js';
import { FileProblem, readJson } from './build.js';
import { dianSignCommand, password } from './sign.js';

const OPTIONS = ['in', 'context', 'kind', 'p12', 'password-env', 'password-file', 'out'] as const;
const KINDS = Object.keys(PAYROLL_KINDS) as PayrollKindId[];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The payroll context of a context file: `software` (id, pin, provider_nit, provider_dv) and `environment`; other members are ignored. */
function toPayrollContext(raw: unknown, file: string): Omit<PayrollContext, 'now'> {
  if (!isObject(raw)) throw new FileProblem(`${file}: the context must be a JSON object`);
  const problems: string[] = [];
  const software = raw.software;
  if (!isObject(software)) problems.push('software must be an object');
  else
    for (const k of ['id', 'pin', 'provider_nit', 'provider_dv'])
      if (typeof software[k] !== 'string' || software[k] === '') problems.push(`software.${k} must be a non-empty string`);
  if (raw.environment !== '1' && raw.environment !== '2') problems.push('environment must be "1" (production) or "2" (habilitación)');
  if (problems.length) throw new FileProblem(`${file}: ${problems.join('; ')}`);
  return { software: software as unknown as PayrollContext['software'], environment: raw.environment as '1' | '2' };
}

/**
 * `ecf dian payroll build`: exit 0 when the document is written (stdout, or `--out`; its CUNE on stderr), 1 when the
 * request is invalid (the service's 422 body as JSON on stdout) or the signature is refused, 2 on usage, unreadable
 * files or a .p12 that does not open.
 */
export const dianPayrollBuildCommand: CliCommand = {
  name: 'dian payroll build',
  summary:
    'Build a DIAN individual payroll (102) or adjustment note (103; the default when the request has note_type) from a request file and the context file { software, environment }; signed with --p12 (XAdES-EPES). XML on stdout unless --out, the CUNE on stderr; validation warnings on stderr. Exit 0 written, 1 invalid request (422 body as JSON on stdout) or signature refused, 2 usage or unreadable file',
  usage: `ecf dian payroll build --in request.json --context context.json [--kind ${KINDS.join('|')}] [--p12 FILE (--password-env VAR | --password-file FILE)] [--out FILE]`,
  async run(args, io) {
    const { flags, positional } = parseFlags(args);
    if ('password' in flags)
      throw new UsageError('--password is not accepted (it would show in the process list): use --password-env VAR or --password-file FILE');
    const unknown = Object.keys(flags).filter((k) => !(OPTIONS as readonly string[]).includes(k));
    if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
    if (positional.length > 0) throw new UsageError(`unexpected argument(s): ${positional.join(' ')}`);
    const input = optionalFlag(flags, 'in');
    if (input === undefined) throw new UsageError('missing --in (the payroll request, JSON)');
    const contextFile = optionalFlag(flags, 'context');
    if (contextFile === undefined) throw new UsageError('missing --context (the context file)');
    const kindFlag = optionalFlag(flags, 'kind');
    if (kindFlag !== undefined && !(KINDS as string[]).includes(kindFlag)) throw new UsageError(`--kind must be ${KINDS.join(' or ')}, got "${kindFlag}"`);
    const out = optionalFlag(flags, 'out');
    const p12Path = optionalFlag(flags, 'p12');
    if (p12Path === undefined && ('password-env' in flags || 'password-file' in flags))
      throw new UsageError('--password-env and --password-file go with --p12');
    const pw = p12Path === undefined ? undefined : await password(flags, io);

    let context: Omit<PayrollContext, 'now'>;
    let request: Json;
    try {
      context = toPayrollContext(await readJson(io, contextFile, 'the context'), contextFile);
      const raw = await readJson(io, input, 'the request');
      if (!isObject(raw)) throw new FileProblem(`${input}: the request must be a JSON object`);
      request = raw;
    } catch (e) {
      if (!(e instanceof FileProblem)) throw e;
      io.stderr(`ecf dian payroll build: ${e.message}\n`);
      return 2;
    }
    const kind: PayrollKindId = (kindFlag as PayrollKindId | undefined) ?? (request.note_type === undefined ? 'payroll' : 'payroll-adjustment');

    const now = new Date();
    let signer: Signer | undefined;
    const sign = p12Path === undefined ? undefined : await import('../sign/index.js');
    if (sign && p12Path !== undefined) {
      const p12 = await io.readFile(p12Path).catch((e: Error) => e);
      if (p12 instanceof Error) {
        io.stderr(`ecf dian payroll build: cannot read ${p12Path}: ${p12.message}\n`);
        return 2;
      }
      try {
        const identity = sign.readP12(p12, pw!);
        const { notBefore, notAfter, subject } = identity.info;
        if (now.getTime() > notAfter.getTime() || now.getTime() < notBefore.getTime()) {
          io.stderr(
            `ecf dian payroll build: the certificate "${subject.text}" is valid from ${notBefore.toISOString()} to ${notAfter.toISOString()}, not now; DIAN rejects such signatures\n`,
          );
          return 2;
        }
        signer = sign.p12Signer(identity);
      } catch (e) {
        io.stderr(`ecf dian payroll build: ${p12Path}: ${e instanceof Error ? e.message : String(e)}\n`);
        return 2;
      }
    }

    const r = buildDianPayroll(kind, request, { ...context, now: () => now });
    if (!r.ok) {
      io.stdout(`${JSON.stringify(r.body, null, 2)}\n`);
      return 1;
    }
    for (const w of r.warnings) io.stderr(`aviso: ${w.path}: ${w.message}\n`);
    let xml = r.xml;
    if (sign && signer) {
      const s = await sign.signDianXml(xml, signer, { clock: () => now });
      if (!s.ok) {
        io.stderr(`ecf dian payroll build: ${s.code}: ${s.message}\n`);
        return 1;
      }
      xml = s.xml;
    }
    io.stderr(`cune: ${r.codes.cune}\n`);
    if (out === undefined) {
      io.stdout(xml);
      return 0;
    }
    try {
      await writeFile(out, xml);
    } catch (e) {
      io.stderr(`ecf dian payroll build: cannot write ${out}: ${(e as Error).message}\n`);
      return 2;
    }
    io.stdout(`${PAYROLL_KINDS[kind].documentType} ${r.codes.number}: ${out}\n`);
    return 0;
  },
};

/** `ecf dian payroll sign`: `ecf dian sign` under the payroll name (the XAdES-EPES profile is the same; the signature goes in the payroll's ExtensionContent). */
export const dianPayrollSignCommand: CliCommand = {
  ...dianSignCommand,
  name: 'dian payroll sign',
  summary:
    'Sign a built payroll document (102/103) with a .p12: the same command as ecf dian sign (XAdES-EPES, DIAN policy), signature in its ExtensionContent',
  usage: dianSignCommand.usage.replace('ecf dian sign', 'ecf dian payroll sign'),
};
