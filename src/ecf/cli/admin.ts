/**
 * `ecf admin …`: operator commands for the reference server's database (issuers, API tokens, authorized
 * e-NCF sequences, own certificates). They work on the database the server uses: PostgreSQL when
 * DATABASE_URL is set, else SQLite at `${ECF_DATA_DIR:-./data}/ecf.sqlite`; the schema is migrated first.
 *
 * Output is JSON on stdout. Exit codes: 0 done, 1 refused (unknown issuer, duplicate, bad certificate…),
 * 2 usage errors (missing or malformed flags).
 */
import { resolve } from 'node:path';
import { checkContext, ECF_TABLE, ECF_TYPES, EcfError, isEcfError, isEcfType, MAX_CONSECUTIVE, type EcfType } from '../index.js';
import { parseDate } from '../index.js';
import type { Issuer, IssuerStore, SequenceRecord, SequenceStore, SigningMode, TokenRecord } from '../server/index.js';

/** What the admin commands use of the storage: issuers and tokens, and sequences (its lifetime stays in `withStorage`). */
type AdminStores = IssuerStore & SequenceStore;
import { parseFlags, requireFlag, UsageError, type CliCommand, type CliIo } from '../../shared/cli/command.js';

/** A refusal the operator can act on: printed as is, exit code 1. */
export class AdminError extends EcfError {
  constructor(message: string) {
    super(message, { code: 'admin_refused' });
    this.name = 'AdminError';
  }
}

function dataDir(io: CliIo): string {
  return resolve(io.env.ECF_DATA_DIR || './data');
}

async function withStorage<T>(io: CliIo, fn: (storage: AdminStores) => Promise<T>): Promise<T> {
  const { openStorage } = await import('../server/index.js');
  const storage = await openStorage({ databaseUrl: io.env.DATABASE_URL || undefined, dataDir: dataDir(io) });
  try {
    return await fn(storage);
  } finally {
    await storage.close();
  }
}

function print(io: CliIo, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

function checkFlags(flags: Record<string, string | true>, known: readonly string[]): void {
  const unknown = Object.keys(flags).filter((k) => !known.includes(k));
  if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
}

function parse(args: string[], known: readonly string[]) {
  const { flags, positional } = parseFlags(args);
  checkFlags(flags, known);
  if (positional.length) throw new UsageError(`unexpected argument(s): ${positional.join(' ')}`);
  return flags;
}

function rncFlag(flags: Record<string, string | true>): string {
  const rnc = requireFlag(flags, 'rnc');
  if (!/^(?:\d{9}|\d{11})$/.test(rnc)) throw new UsageError(`--rnc must be 9 digits (RNC) or 11 digits (cédula), got ${JSON.stringify(rnc)}`);
  return rnc;
}

async function issuerByRnc(storage: Pick<IssuerStore, 'getIssuerByRnc'>, rnc: string): Promise<Issuer> {
  const issuer = await storage.getIssuerByRnc(rnc);
  if (!issuer) throw new AdminError(`unknown issuer: no issuer with RNC ${rnc} (add it with \`ecf admin issuer add\`)`);
  return issuer;
}

function signingFlag(flags: Record<string, string | true>, fallback: SigningMode | undefined): SigningMode | undefined {
  const v = flags.signing;
  if (v === undefined) return fallback;
  if (v !== 'own' && v !== 'provider') throw new UsageError('--signing must be own or provider');
  return v;
}

/**
 * Reads and checks an issuer profile file (the `Emisor` block: rnc, razon_social, direccion, …) with the
 * same checks the builder applies to `context.emisor`. A missing `rnc` is filled in; another RNC is refused.
 */
async function readProfile(io: CliIo, file: string, rnc: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await io.readFile(file));
  } catch (e) {
    throw new AdminError(`cannot read profile ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  let profile: unknown;
  try {
    profile = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new AdminError(`profile ${file} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof profile !== 'object' || profile === null || Array.isArray(profile))
    throw new AdminError(`profile ${file} must be a JSON object (the issuer profile: rnc, razon_social, direccion, …)`);
  const p = { ...(profile as Record<string, unknown>) };
  if (p.rnc === undefined) p.rnc = rnc;
  if (p.rnc !== rnc) throw new AdminError(`profile ${file} is for RNC ${JSON.stringify(p.rnc)}, not ${rnc}`);
  const issues = checkContext('31', { emisor: p }).filter((i) => i.path === 'context.emisor' || i.path.startsWith('context.emisor.'));
  if (issues.length) {
    const lines = issues.map((i) => `  ${i.path.replace(/^context\.emisor\.?/, '') || '(profile)'}: ${i.code} (${i.message})`);
    throw new AdminError(`profile ${file} is not a valid issuer profile:\n${lines.join('\n')}`);
  }
  return p;
}

function issuerJson(i: Issuer) {
  return {
    id: i.id,
    rnc: i.rnc,
    name: i.name,
    signing_mode: i.signingMode,
    certificate: i.certificateInfo,
    created_at: new Date(i.createdAt).toISOString(),
  };
}

function tokenJson(t: TokenRecord) {
  return {
    id: t.id,
    label: t.label,
    created_at: new Date(t.createdAt).toISOString(),
    revoked_at: t.revokedAt === null ? null : new Date(t.revokedAt).toISOString(),
  };
}

function sequenceJson(s: SequenceRecord) {
  const expires = s.expiresOn === null ? null : s.expiresOn.split('-').reverse().join('-');
  return { id: s.id, tipo: s.tipo, from: s.from, to: s.to, next: s.next, expires, active: s.active };
}

/** Wraps a command body: AdminError and other known refusals become a message and exit code 1. */
function command(def: Omit<CliCommand, 'run'> & { body(args: string[], io: CliIo): Promise<void> }): CliCommand {
  return {
    name: def.name,
    summary: def.summary,
    usage: def.usage,
    async run(args, io) {
      try {
        await def.body(args, io);
        return 0;
      } catch (e) {
        if (e instanceof UsageError) throw e;
        if (e instanceof AdminError || isRefusal(e)) {
          io.stderr(`ecf ${def.name}: ${e instanceof Error ? e.message : String(e)}\n`);
          return 1;
        }
        throw e;
      }
    },
  };
}

/**
 * Errors with a stable code (storage conflicts, certificate and key checks: all EcfError or storage
 * errors): the operator's input, not a bug. Matched by name so the CLI loads storage only when used.
 */
function isRefusal(e: unknown): boolean {
  return isEcfError(e) || (e instanceof Error && (e.name === 'StorageConflictError' || e.name === 'StorageNotFoundError'));
}

const issuerAdd = command({
  name: 'admin issuer add',
  summary: 'Register an issuer and print its first API token (shown once)',
  usage: 'ecf admin issuer add --rnc RNC --name NAME [--profile issuer.json] [--signing own|provider]',
  async body(args, io) {
    const flags = parse(args, ['rnc', 'name', 'profile', 'signing']);
    const rnc = rncFlag(flags);
    const name = requireFlag(flags, 'name').trim();
    if (!name) throw new UsageError('--name must not be blank');
    const signingMode = signingFlag(flags, 'provider')!;
    if (flags.profile === true) throw new UsageError('--profile needs a file');
    const profile = typeof flags.profile === 'string' ? await readProfile(io, flags.profile, rnc) : { rnc, razon_social: name };
    const { generateToken, hashToken } = await import('../server/index.js');
    await withStorage(io, async (storage) => {
      if (await storage.getIssuerByRnc(rnc)) throw new AdminError(`issuer exists: RNC ${rnc} is already registered`);
      const issuer = await storage.createIssuer({ rnc, name, profile, signingMode });
      const token = generateToken();
      await storage.addToken(issuer.id, hashToken(token), 'initial');
      print(io, { issuer: { id: issuer.id, rnc: issuer.rnc, name: issuer.name, signing_mode: issuer.signingMode }, token });
      if (profile.direccion === undefined) {
        io.stderr(
          'note: no --profile given; documents need at least direccion in the issuer profile: set it with `ecf admin issuer update --rnc RNC --profile issuer.json`\n',
        );
      }
      if (signingMode === 'own') io.stderr('note: own signing: upload the certificate with `ecf admin certificate set` before issuing\n');
    });
  },
});

const issuerUpdate = command({
  name: 'admin issuer update',
  summary: "Change an issuer's name, profile or signing mode",
  usage: 'ecf admin issuer update --rnc RNC [--name NAME] [--profile issuer.json] [--signing own|provider]',
  async body(args, io) {
    const flags = parse(args, ['rnc', 'name', 'profile', 'signing']);
    const rnc = rncFlag(flags);
    if (flags.name === true || flags.profile === true) throw new UsageError('--name and --profile need a value');
    const patch: Parameters<IssuerStore['updateIssuer']>[1] = {};
    if (typeof flags.name === 'string') {
      if (!flags.name.trim()) throw new UsageError('--name must not be blank');
      patch.name = flags.name.trim();
    }
    if (typeof flags.profile === 'string') patch.profile = await readProfile(io, flags.profile, rnc);
    const signing = signingFlag(flags, undefined);
    if (signing) patch.signingMode = signing;
    if (Object.keys(patch).length === 0) throw new UsageError('nothing to change: give --name, --profile or --signing');
    await withStorage(io, async (storage) => {
      const issuer = await issuerByRnc(storage, rnc);
      print(io, { issuer: issuerJson(await storage.updateIssuer(issuer.id, patch)) });
    });
  },
});

const issuerList = command({
  name: 'admin issuer list',
  summary: 'List registered issuers',
  usage: 'ecf admin issuer list',
  async body(args, io) {
    parse(args, []);
    await withStorage(io, async (storage) => {
      print(io, { issuers: (await storage.listIssuers()).map(issuerJson) });
    });
  },
});

const tokenAdd = command({
  name: 'admin token add',
  summary: 'Create another API token for an issuer (printed once; only its hash is stored)',
  usage: 'ecf admin token add --rnc RNC [--label TEXT]',
  async body(args, io) {
    const flags = parse(args, ['rnc', 'label']);
    const rnc = rncFlag(flags);
    if (flags.label === true) throw new UsageError('--label needs a value');
    const { generateToken, hashToken } = await import('../server/index.js');
    await withStorage(io, async (storage) => {
      const issuer = await issuerByRnc(storage, rnc);
      const token = generateToken();
      const record = await storage.addToken(issuer.id, hashToken(token), typeof flags.label === 'string' ? flags.label : null);
      print(io, { id: record.id, label: record.label, token });
    });
  },
});

const tokenRevoke = command({
  name: 'admin token revoke',
  summary: 'Revoke an API token by id (requests with it get 401 from then on)',
  usage: 'ecf admin token revoke --id N',
  async body(args, io) {
    const flags = parse(args, ['id']);
    const raw = requireFlag(flags, 'id');
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)))
      throw new UsageError(`--id must be a token id (a positive integer), got ${JSON.stringify(raw)}`);
    const id = Number(raw);
    await withStorage(io, async (storage) => {
      if (!(await storage.revokeToken(id))) throw new AdminError(`token ${id} does not exist or is already revoked`);
      print(io, { id, revoked: true });
    });
  },
});

const tokenList = command({
  name: 'admin token list',
  summary: "List an issuer's API tokens (ids, labels, revocation; never the secrets)",
  usage: 'ecf admin token list --rnc RNC',
  async body(args, io) {
    const flags = parse(args, ['rnc']);
    const rnc = rncFlag(flags);
    await withStorage(io, async (storage) => {
      const issuer = await issuerByRnc(storage, rnc);
      print(io, { tokens: (await storage.listTokens(issuer.id)).map(tokenJson) });
    });
  },
});

/** Whether the type's XML carries FechaVencimientoSecuencia as a required element (table data). */
function expiryRequired(tipo: EcfType): boolean {
  const row = ECF_TABLE.rows.find((r) => r.name === 'FechaVencimientoSecuencia');
  const occ = row?.occurs[tipo];
  return occ !== undefined && occ[0] >= 1;
}

function consecutiveFlag(flags: Record<string, string | true>, name: string): number {
  const raw = requireFlag(flags, name);
  if (!/^\d{1,10}$/.test(raw) || Number(raw) < 1)
    throw new UsageError(`--${name} must be a whole number between 1 and ${MAX_CONSECUTIVE}, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

const sequenceAdd = command({
  name: 'admin sequence add',
  summary: 'Register an e-NCF range the tax authority authorized for an issuer and type',
  usage: 'ecf admin sequence add --rnc RNC --type 31 --from 1 --to 10000 --expires dd-MM-yyyy|none',
  async body(args, io) {
    const flags = parse(args, ['rnc', 'type', 'from', 'to', 'expires']);
    const rnc = rncFlag(flags);
    const tipo = requireFlag(flags, 'type');
    if (!isEcfType(tipo)) throw new UsageError(`--type must be one of ${ECF_TYPES.join(', ')}, got ${JSON.stringify(tipo)}`);
    const from = consecutiveFlag(flags, 'from');
    const to = consecutiveFlag(flags, 'to');
    if (from > to) throw new UsageError(`--from (${from}) must not be greater than --to (${to})`);
    const expires = requireFlag(flags, 'expires');
    let expiresOn: string | null = null;
    if (expires === 'none') {
      if (expiryRequired(tipo)) throw new UsageError(`type ${tipo} documents carry the sequence expiry (FechaVencimientoSecuencia): give --expires dd-MM-yyyy`);
    } else {
      const d = parseDate(expires);
      if (!d) throw new UsageError(`--expires must be a date dd-MM-yyyy (e.g. 31-12-2027) or none, got ${JSON.stringify(expires)}`);
      expiresOn = `${d[0]}-${String(d[1]).padStart(2, '0')}-${String(d[2]).padStart(2, '0')}`;
    }
    await withStorage(io, async (storage) => {
      const issuer = await issuerByRnc(storage, rnc);
      const overlap = (await storage.listSequences(issuer.id)).find((s) => s.tipo === tipo && s.from <= to && from <= s.to);
      if (overlap) throw new AdminError(`range ${from}…${to} overlaps sequence ${overlap.id} (${overlap.from}…${overlap.to}) of type ${tipo}`);
      const seq = await storage.addSequence(issuer.id, { tipo, from, to, expiresOn });
      print(io, { sequence: sequenceJson(seq) });
    });
  },
});

const sequenceList = command({
  name: 'admin sequence list',
  summary: "List an issuer's e-NCF sequences with their next consecutive",
  usage: 'ecf admin sequence list --rnc RNC',
  async body(args, io) {
    const flags = parse(args, ['rnc']);
    const rnc = rncFlag(flags);
    await withStorage(io, async (storage) => {
      const issuer = await issuerByRnc(storage, rnc);
      print(io, { sequences: (await storage.listSequences(issuer.id)).map(sequenceJson) });
    });
  },
});

const certificateSet = command({
  name: 'admin certificate set',
  summary: "Store an issuer's own .p12 (checked, then encrypted) and switch it to own signing",
  usage: 'ecf admin certificate set --rnc RNC --p12 FILE (--password PW | --password-env VAR)',
  async body(args, io) {
    const flags = parse(args, ['rnc', 'p12', 'password', 'password-env']);
    const rnc = rncFlag(flags);
    const file = requireFlag(flags, 'p12');
    let password: string;
    if (typeof flags.password === 'string') password = flags.password;
    else if (typeof flags['password-env'] === 'string') {
      const v = io.env[flags['password-env']];
      if (v === undefined) throw new UsageError(`environment variable ${flags['password-env']} is not set`);
      password = v;
    } else throw new UsageError('missing --password or --password-env');
    let p12: Uint8Array;
    try {
      p12 = await io.readFile(file);
    } catch (e) {
      throw new AdminError(`cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const { prepareCertificate } = await import('../server/index.js');
    const { loadCertificateKey } = await import('../server/index.js');
    await withStorage(io, async (storage) => {
      const issuer = await issuerByRnc(storage, rnc);
      const key = loadCertificateKey({ env: io.env, dataDir: dataDir(io), production: io.env.NODE_ENV === 'production' });
      const { certificate, certificateInfo } = prepareCertificate({ issuer, p12, password, key, now: new Date() });
      const updated = await storage.updateIssuer(issuer.id, { certificate, certificateInfo, signingMode: 'own' });
      print(io, { issuer: issuerJson(updated) });
    });
  },
});

export const adminCommands: CliCommand[] = [issuerAdd, issuerUpdate, issuerList, tokenAdd, tokenRevoke, tokenList, sequenceAdd, sequenceList, certificateSet];
