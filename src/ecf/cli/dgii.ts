/**
 * `ecf dgii …`: talk to DGII (or anything speaking its protocol, e.g. the simulator) from the command
 * line. Every command authenticates with a .p12 whose password comes from an environment variable
 * (`--password-env VAR`, default ECF_P12_PASSWORD), never from the command line unless `--password`
 * is given explicitly. Answers are printed as JSON on stdout.
 */
import type { AuthorityIdentity, DgiiClient } from '../dgii/index.js';
import { parseFlags, requireFlag, UsageError, type CliCommand, type CliIo } from '../../shared/cli/command.js';
import { loadSigner, readUtf8 } from './sign.js';

const CONNECTION_FLAGS = ['env', 'base-url', 'p12', 'password', 'password-env', 'rnc', 'timeout-ms'];
const CONNECTION_USAGE = '(--env testecf|certecf|ecf | --base-url URL [--env …]) --p12 FILE [--password-env VAR | --password PW]';

type Flags = Record<string, string | true>;

function checkFlags(flags: Flags, extra: string[]): void {
  const known = [...CONNECTION_FLAGS, ...extra];
  const unknown = Object.keys(flags).filter((k) => !known.includes(k));
  if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
}

function optional(flags: Flags, name: string): string | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} needs a value`);
  return v;
}

/** The client and identity the flags describe. `rncFallback`: the RNC read from the document. */
async function connect(flags: Flags, io: CliIo, rncFallback?: string | null): Promise<{ client: DgiiClient; who: AuthorityIdentity }> {
  const { createDgiiClient, isDgiiEnvironment } = await import('../dgii/index.js');
  const baseUrl = optional(flags, 'base-url');
  const environment = optional(flags, 'env') ?? (baseUrl ? 'testecf' : undefined);
  if (environment === undefined) throw new UsageError('missing --env testecf|certecf|ecf (or --base-url URL)');
  if (!isDgiiEnvironment(environment)) throw new UsageError(`--env must be testecf, certecf or ecf (got "${environment}")`);
  const timeout = optional(flags, 'timeout-ms');
  const timeoutMs = timeout === undefined ? undefined : Number(timeout);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) throw new UsageError('--timeout-ms must be a positive integer');
  const rnc = optional(flags, 'rnc') ?? rncFallback ?? undefined;
  if (!rnc) throw new UsageError('missing --rnc (the RNC to authenticate as)');

  const variable = optional(flags, 'password-env') ?? 'ECF_P12_PASSWORD';
  const password = flags.password === undefined ? io.env[variable] : optional(flags, 'password');
  if (password === undefined) throw new UsageError(`missing certificate password: set ${variable} (or choose the variable with --password-env VAR)`);
  const signer = await loadSigner({ p12: requireFlag(flags, 'p12'), password }, io, () => new Date());
  let client: DgiiClient;
  try {
    client = createDgiiClient({ environment, baseUrl, timeoutMs });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  return { client, who: { rnc, signer } };
}

/**
 * Runs an authority call, prints its answer as JSON and closes the client. Authority and transport
 * failures are printed as JSON too (`{"error": …}`, exit 1) so that scripts can read DGII's reasons.
 */
async function run(client: DgiiClient, io: CliIo, call: () => Promise<unknown>, exitCode: (answer: unknown) => number = () => 0): Promise<number> {
  const { isAuthorityError, isTransportError } = await import('../../shared/errors/index.js');
  try {
    const answer = await call();
    io.stdout(`${JSON.stringify(answer, null, 2)}\n`);
    return exitCode(answer);
  } catch (e) {
    if (isAuthorityError(e)) {
      io.stdout(
        `${JSON.stringify({ error: { type: 'authority', code: e.code, status: e.status, message: e.message, mensajes: e.mensajes, trackId: e.trackId } }, null, 2)}\n`,
      );
      return 1;
    }
    if (isTransportError(e)) {
      io.stdout(
        `${JSON.stringify({ error: { type: 'transport', code: e.code, status: e.status, message: e.message, retryable: e.retryable, outcomeUnknown: e.outcomeUnknown } }, null, 2)}\n`,
      );
      return 1;
    }
    throw e;
  } finally {
    await client.close();
  }
}

/** Which upload a signed document goes to, by root element, and where its file-name RNC is. */
const SENDABLE: Record<string, { rnc: readonly string[]; op: 'sendEcf' | 'sendRfce' | 'sendApproval' }> = {
  ECF: { rnc: ['Encabezado', 'Emisor', 'RNCEmisor'], op: 'sendEcf' },
  RFCE: { rnc: ['Encabezado', 'Emisor', 'RNCEmisor'], op: 'sendRfce' },
  ACECF: { rnc: ['DetalleAprobacionComercial', 'RNCComprador'], op: 'sendApproval' },
};

/**
 * `ecf dgii send <signed.xml>`: uploads a signed document: an e-CF (root `ECF`) to e-CF reception,
 * an RFCE to the consumer-summary reception (synchronous verdict; exit 1 when rejected), an ACECF to
 * commercial approval. The file name DGII expects is derived from the document; `--rnc` defaults to
 * the RNC the file is named after.
 */
export const dgiiSendCommand: CliCommand = {
  name: 'dgii send',
  summary: 'Send a signed e-CF, RFCE or ACECF to DGII (reception chosen by root element); prints the answer as JSON',
  usage: `ecf dgii send ${CONNECTION_USAGE} [--rnc RNC] <signed.xml>`,
  async run(args, io) {
    const { flags, positional } = parseFlags(args);
    checkFlags(flags, []);
    if (positional.length !== 1) throw new UsageError('expected exactly one signed XML file');
    const xml = await readUtf8(io, positional[0]!);
    const { fileNameFor, parseDocument, rootName, textAt } = await import('../index.js');
    let root: string;
    let fileName: string;
    let docRnc: string | null;
    try {
      const doc = parseDocument(xml);
      root = rootName(doc);
      const target = SENDABLE[root];
      if (!target) throw new UsageError(`cannot send <${root}> documents (expected ECF, RFCE or ACECF)`);
      docRnc = textAt(doc, target.rnc);
      fileName = fileNameFor(xml);
    } catch (e) {
      if (e instanceof UsageError) throw e;
      throw new UsageError(`${positional[0]}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const { client, who } = await connect(flags, io, docRnc);
    const op = SENDABLE[root]!.op;
    return run(
      client,
      io,
      () => client[op](who, { fileName, xml }),
      (answer) => (op === 'sendRfce' && (answer as { estado?: string }).estado === 'Rechazado' ? 1 : 0),
    );
  },
};

/**
 * `ecf dgii status`: the result of a submission (`--track-id`), the fiscal status of an e-CF
 * (`--encf` + `--security-code`, as a receiver would ask), or the verdict of an RFCE (`--rfce`).
 */
export const dgiiStatusCommand: CliCommand = {
  name: 'dgii status',
  summary: 'Query DGII: result by track id, fiscal status by e-NCF and security code, or an RFCE verdict (--rfce)',
  usage: `ecf dgii status ${CONNECTION_USAGE} --rnc RNC (--track-id ID | --encf ENCF --security-code CODE [--issuer RNC] [--buyer RNC] [--rfce])`,
  async run(args, io) {
    const { flags, positional } = parseFlags(args, ['rfce']);
    checkFlags(flags, ['track-id', 'encf', 'security-code', 'issuer', 'buyer', 'rfce']);
    if (positional.length) throw new UsageError(`unexpected argument(s): ${positional.join(' ')}`);
    const trackId = optional(flags, 'track-id');
    const encf = optional(flags, 'encf');
    if (trackId && encf) throw new UsageError('give either --track-id or --encf, not both');
    if (!trackId && !encf) throw new UsageError('missing --track-id ID or --encf ENCF --security-code CODE');
    const code = encf ? requireFlag(flags, 'security-code') : undefined;
    const issuerFlag = optional(flags, 'issuer');
    const buyer = optional(flags, 'buyer') ?? null;
    const { client, who } = await connect(flags, io);
    const issuer = issuerFlag ?? who.rnc;
    if (trackId) return run(client, io, () => client.result(who, trackId));
    if (flags.rfce) return run(client, io, () => client.rfceStatus(who, { rncEmisor: issuer, encf: encf!, codigoSeguridad: code! }));
    return run(client, io, () => client.status(who, { rncEmisor: issuer, encf: encf!, rncComprador: buyer, codigoSeguridad: code! }));
  },
};

/** `ecf dgii track-ids`: every submission DGII holds for an e-NCF (resolve an unknown outcome with it). */
export const dgiiTrackIdsCommand: CliCommand = {
  name: 'dgii track-ids',
  summary: 'List the submissions (track ids and states) DGII holds for an e-NCF',
  usage: `ecf dgii track-ids ${CONNECTION_USAGE} --rnc RNC --encf ENCF [--issuer RNC]`,
  async run(args, io) {
    const { flags, positional } = parseFlags(args);
    checkFlags(flags, ['encf', 'issuer']);
    if (positional.length) throw new UsageError(`unexpected argument(s): ${positional.join(' ')}`);
    const encf = requireFlag(flags, 'encf');
    const issuer = optional(flags, 'issuer');
    const { client, who } = await connect(flags, io);
    return run(client, io, () => client.trackIds(who, { rncEmisor: issuer ?? who.rnc, encf }));
  },
};

/** `ecf dgii directory [RNC]`: the receiver URLs of one taxpayer, or the whole list. */
export const dgiiDirectoryCommand: CliCommand = {
  name: 'dgii directory',
  summary: "Look up electronic taxpayers' receiver URLs in DGII's directory (one RNC, or the whole list)",
  usage: `ecf dgii directory ${CONNECTION_USAGE} --rnc RNC [RNC-TO-LOOK-UP]`,
  async run(args, io) {
    const { flags, positional } = parseFlags(args);
    checkFlags(flags, []);
    if (positional.length > 1) throw new UsageError('expected at most one RNC to look up');
    const { client, who } = await connect(flags, io);
    return run(client, io, () => client.directory(who, positional[0]));
  },
};
