/**
 * `ecf dian build`: a request body (JSON) of a kind and the issuer's context file → the unsigned UBL document on
 * stdout. A thin adapter over `buildDianXml` of the DIAN entry (src/dian/index.ts); the CLI supplies the clock.
 */
import { buildDianXml, DIAN_KINDS, formatDianFinding, type DianContext, type DianKindId } from '../index.js';
import { parseFlags, UsageError, type CliCommand, type CliIo, optionalFlag } from '../../shared/cli/command.js';

const OPTIONS = ['kind', 'context', 'company', 'resolution', 'today', 'strict'] as const;
const KIND_IDS = Object.keys(DIAN_KINDS) as DianKindId[];

type Json = Record<string, unknown>;

/** A file's problem that is not a usage mistake but still keeps the command from running (exit 2). */
export class FileProblem extends Error {}

export async function readJson(io: CliIo, file: string, what: string): Promise<unknown> {
  let bytes: Uint8Array;
  try {
    bytes = await io.readFile(file);
  } catch (e) {
    throw new FileProblem(`cannot read ${what} ${file}: ${(e as Error).message}`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new FileProblem(`${file}: not valid UTF-8`);
  }
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    throw new FileProblem(`${file}: not valid JSON (${(e as Error).message})`);
  }
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The string members an object of the context must have (the optional ones are checked when present). */
const SHAPES: Record<'company' | 'software' | 'resolution', { required: string[]; optional: string[] }> = {
  company: {
    required: [
      'dv',
      'name',
      'organization_type_code',
      'identification_type_code',
      'regime_type_code',
      'liability_type_code',
      'tax_code',
      'address',
      'country_code',
    ],
    optional: ['nit', 'trade_name', 'merchant_registration', 'municipality_code', 'phone', 'email'],
  },
  software: { required: ['id', 'pin', 'provider_nit', 'provider_dv'], optional: [] },
  resolution: { required: ['from', 'to', 'start_date', 'end_date'], optional: ['prefix', 'technical_key'] },
};

/** Problems of one context object, as `where.member: what` texts. */
function shapeProblems(v: unknown, where: string, part: keyof typeof SHAPES): string[] {
  if (!isObject(v)) return [`${where} must be an object`];
  const { required, optional } = SHAPES[part];
  const out: string[] = [];
  for (const k of required) if (typeof v[k] !== 'string' || v[k] === '') out.push(`${where}.${k} must be a non-empty string`);
  for (const k of optional) if (v[k] !== undefined && typeof v[k] !== 'string') out.push(`${where}.${k} must be a string`);
  for (const k of Object.keys(v)) if (!required.includes(k) && !optional.includes(k)) out.push(`${where}.${k} is not a known member`);
  return out;
}

/** The context file (`{ company, software, resolution?, environment }`) and the optional resolution file → the context. */
export function toContext(raw: unknown, file: string, resolution: { value: unknown; file: string } | undefined): DianContext {
  if (!isObject(raw)) throw new FileProblem(`${file}: the context must be a JSON object { company, software, resolution?, environment }`);
  const problems = [...shapeProblems(raw.company, 'company', 'company'), ...shapeProblems(raw.software, 'software', 'software')];
  if (raw.resolution !== undefined && !resolution) problems.push(...shapeProblems(raw.resolution, 'resolution', 'resolution'));
  const environment = typeof raw.environment === 'number' ? String(raw.environment) : raw.environment;
  if (environment !== '1' && environment !== '2') problems.push('environment must be "1" (production) or "2" (habilitación)');
  for (const k of Object.keys(raw))
    if (!['company', 'software', 'resolution', 'environment'].includes(k))
      problems.push(`${k} is not a member of the context${k === 'now' ? ' (the CLI supplies the clock)' : ''}`);
  if (problems.length) throw new FileProblem(`${file}: ${problems.join('; ')}`);
  if (resolution) {
    const p = shapeProblems(resolution.value, 'resolution', 'resolution');
    if (p.length) throw new FileProblem(`${resolution.file}: ${p.join('; ').replaceAll('resolution.', '')}`);
  }
  const res = resolution ? resolution.value : raw.resolution;
  return {
    company: raw.company as unknown as DianContext['company'],
    software: raw.software as unknown as DianContext['software'],
    ...(res !== undefined ? { resolution: res as DianContext['resolution'] } : {}),
    environment: environment as DianContext['environment'],
    now: () => new Date(),
  };
}

/** Today in Bogotá (UTC−05:00, no daylight saving) as `yyyy-MM-dd`. */
function bogotaToday(now: Date): string {
  return new Date(now.getTime() - 5 * 3600_000).toISOString().slice(0, 10);
}

function checkDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

/**
 * `ecf dian build`: exit 0 built (XML on stdout; rule findings and warnings on stderr), 1 invalid request (the
 * service's 422 body as JSON on stdout) or, with --strict, a Rechazo finding; 2 usage or unreadable file.
 */
export const dianBuildCommand: CliCommand = {
  name: 'dian build',
  summary:
    'Build the unsigned UBL document of a request body (JSON) of a kind, with the issuer context file { company, software, resolution?, environment } (--company is an alias of --context; --resolution replaces its resolution; --today is the Bogotá date for the date rules, default the real one). XML on stdout; DIAN rule findings (`Regla: X, Rechazo: …`) and warnings on stderr. Exit 0 built, 1 invalid request (422 body as JSON on stdout) or, with --strict, a Rechazo finding, 2 usage or unreadable file',
  usage: `ecf dian build --kind ${KIND_IDS.join('|')} --context context.json [--resolution resolution.json] [--today yyyy-MM-dd] [--strict] <request.json>`,
  async run(args, io) {
    const { flags, positional } = parseFlags(args, ['strict']);
    const unknown = Object.keys(flags).filter((k) => !(OPTIONS as readonly string[]).includes(k));
    if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
    const kind = optionalFlag(flags, 'kind');
    if (kind === undefined) throw new UsageError(`missing --kind (one of ${KIND_IDS.join(', ')})`);
    if (!(KIND_IDS as string[]).includes(kind)) throw new UsageError(`unknown kind "${kind}"; expected one of ${KIND_IDS.join(', ')}`);
    const contextFlag = optionalFlag(flags, 'context');
    const companyFlag = optionalFlag(flags, 'company');
    if (contextFlag !== undefined && companyFlag !== undefined) throw new UsageError('give --context or its alias --company, not both');
    const contextFile = contextFlag ?? companyFlag;
    if (contextFile === undefined) throw new UsageError('missing --context (the issuer context file)');
    const resolutionFile = optionalFlag(flags, 'resolution');
    const today = optionalFlag(flags, 'today');
    if (today !== undefined && !checkDate(today)) throw new UsageError(`--today must be a date yyyy-MM-dd, not "${today}"`);
    if (positional.length !== 1)
      throw new UsageError(positional.length === 0 ? 'missing the request file (JSON)' : `give one request file, not ${positional.length}`);
    const strict = flags.strict === true;

    let context: DianContext;
    let request: unknown;
    try {
      const rawContext = await readJson(io, contextFile, 'the context');
      const resolution = resolutionFile === undefined ? undefined : { value: await readJson(io, resolutionFile, 'the resolution'), file: resolutionFile };
      context = toContext(rawContext, contextFile, resolution);
      request = await readJson(io, positional[0]!, 'the request');
    } catch (e) {
      if (!(e instanceof FileProblem)) throw e;
      io.stderr(`ecf dian build: ${e.message}\n`);
      return 2;
    }

    const r = buildDianXml(kind as DianKindId, request, context, { today: today ?? bogotaToday(new Date()) });
    if (!r.ok) {
      io.stdout(`${JSON.stringify(r.body, null, 2)}\n`);
      return 1;
    }
    for (const w of r.warnings) io.stderr(`aviso: ${w.path ? `${w.path}: ` : ''}${w.message}\n`);
    for (const f of r.findings) io.stderr(`${formatDianFinding(f)} (${f.path}${f.detail ? `: ${f.detail}` : ''})\n`);
    if (strict && r.findings.some((f) => f.kind === 'Rechazo')) {
      io.stderr('ecf dian build: --strict: DIAN would reject this document (Rechazo above); no XML written\n');
      return 1;
    }
    io.stdout(r.xml);
    return 0;
  },
};
