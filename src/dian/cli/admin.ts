/**
 * `ecf dian admin …`: operator commands for the DIAN server's database, non-interactive, JSON on stdout:
 * `company add` (profile, software id and PIN, a development signing identity sealed at rest, and a first
 * token shown once), `token add`, `resolution add` (a numbering resolution for one kind), `contingency add` (a
 * contingency window); `certificate add` (./admin-certificate.ts) and `resolution fetch` (./admin-fetch.ts) use the
 * helpers exported here. They work on the
 * database the server uses: PostgreSQL when `--database-url` or DATABASE_URL is set (schema `dian`), else
 * SQLite in `--data-dir` (default DIAN_DATA_DIR, else ECF_DATA_DIR, else ./data, as `npm start` resolves it). Exit codes: 0 done, 1 refused (unknown company,
 * duplicate NIT, bad range…), 2 usage errors.
 */
import { resolve } from 'node:path';
import { isEcfError } from '../index.js';
import type { CompanyRecord, DianStorage, ResolutionRecord } from '../server/index.js';
import { parseFlags, requireFlag, UsageError, type CliCommand, type CliIo } from '../../shared/cli/command.js';

export function parse(args: string[], known: readonly string[]) {
  const { flags, positional } = parseFlags(args);
  const unknown = Object.keys(flags).filter((k) => !known.includes(k));
  if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
  if (positional.length) throw new UsageError(`unexpected argument(s): ${positional.join(' ')}`);
  return flags;
}

export const STORAGE_FLAGS = ['data-dir', 'database-url'];

function dataDir(flags: Record<string, string | true>, io: CliIo): string {
  const v = flags['data-dir'];
  if (v === true) throw new UsageError('--data-dir needs a directory');
  // the directory `npm start` gives the DIAN service (src/start.ts): DIAN_DATA_DIR, else the e-CF server's ECF_DATA_DIR
  return resolve(v || io.env.DIAN_DATA_DIR || io.env.ECF_DATA_DIR || './data');
}

export async function withStorage<T>(flags: Record<string, string | true>, io: CliIo, fn: (s: DianStorage, dir: string) => Promise<T>): Promise<T> {
  const { openDianStorage } = await import('../server/index.js');
  const url = flags['database-url'];
  if (url === true) throw new UsageError('--database-url needs a postgres:// URL');
  const dir = dataDir(flags, io);
  const storage = await openDianStorage({ dataDir: dir, databaseUrl: url || io.env.DATABASE_URL || undefined });
  try {
    return await fn(storage, dir);
  } finally {
    await storage.close();
  }
}

export function print(io: CliIo, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

export function companyJson(c: CompanyRecord) {
  return {
    id: c.id,
    nit: c.nit,
    name: c.profile.name,
    software_id: c.softwareId,
    environment: c.environment,
    test_set_id: c.testSetId ?? null,
    created_at: new Date(c.createdAt).toISOString(),
  };
}

export function resolutionJson(r: ResolutionRecord) {
  return {
    id: r.id,
    kind: r.kind,
    prefix: r.prefix,
    from: r.from,
    to: r.to,
    resolution_number: r.resolutionNumber,
    valid_from: r.validFrom,
    valid_to: r.validTo,
  };
}

export function command(def: Omit<CliCommand, 'run'> & { body(args: string[], io: CliIo): Promise<void> }): CliCommand {
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
        if (isEcfError(e) || (e instanceof Error && e.name === 'StorageConflictError')) {
          io.stderr(`ecf ${def.name}: ${e.message}\n`);
          return 1;
        }
        throw e;
      }
    },
  };
}

async function readJson(io: CliIo, file: string): Promise<Record<string, unknown>> {
  const { DianAdminError } = await import('../server/index.js');
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(await io.readFile(file)).replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new DianAdminError(`cannot read ${file} as JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new DianAdminError(`${file} must hold a JSON object`);
  return value as Record<string, unknown>;
}

const companyAdd = command({
  name: 'dian admin company add',
  summary: 'Register a DIAN company (profile, software) and print its first API token (shown once)',
  usage:
    'ecf dian admin company add --nit NIT --profile company.json --software-id ID --pin PIN [--provider-nit NIT --provider-dv DV] [--environment 1|2] [--test-set-id ID] [--data-dir DIR] [--database-url URL]',
  async body(args, io) {
    const flags = parse(args, ['nit', 'profile', 'software-id', 'pin', 'provider-nit', 'provider-dv', 'environment', 'test-set-id', ...STORAGE_FLAGS]);
    if (flags['test-set-id'] === true) throw new UsageError('--test-set-id needs the test set id DIAN gave the software');
    const nit = requireFlag(flags, 'nit');
    const environment = flags.environment ?? '2';
    if (environment !== '1' && environment !== '2') throw new UsageError('--environment must be 1 (production) or 2 (habilitación)');
    const file = await readJson(io, requireFlag(flags, 'profile'));
    // The profile file is the company part of a DianContext, or a whole context file (examples/dian/context.json).
    const profile = (file.company && typeof file.company === 'object' ? file.company : file) as never;
    const { addCompany, loadDianCertificateKey } = await import('../server/index.js');
    await withStorage(flags, io, async (storage, dir) => {
      const key = loadDianCertificateKey({ dataDir: dir, env: io.env });
      const { company, token } = await addCompany(
        storage,
        {
          nit,
          profile,
          softwareId: requireFlag(flags, 'software-id'),
          softwarePin: requireFlag(flags, 'pin'),
          ...(typeof flags['provider-nit'] === 'string' ? { providerNit: flags['provider-nit'] } : {}),
          ...(typeof flags['provider-dv'] === 'string' ? { providerDv: flags['provider-dv'] } : {}),
          ...(typeof flags['test-set-id'] === 'string' ? { testSetId: flags['test-set-id'] } : {}),
          environment,
        },
        key,
      );
      print(io, { company: companyJson(company), token });
    });
  },
});

const tokenAdd = command({
  name: 'dian admin token add',
  summary: 'Create another API token for a DIAN company (shown once)',
  usage: 'ecf dian admin token add --nit NIT [--label TEXT] [--data-dir DIR] [--database-url URL]',
  async body(args, io) {
    const flags = parse(args, ['nit', 'label', ...STORAGE_FLAGS]);
    const nit = requireFlag(flags, 'nit');
    const label = typeof flags.label === 'string' ? flags.label : null;
    const { addToken } = await import('../server/index.js');
    await withStorage(flags, io, async (storage) => {
      const { company, token, id } = await addToken(storage, nit, label);
      print(io, { company: companyJson(company), token_id: id, token });
    });
  },
});

function intFlag(flags: Record<string, string | true>, name: string): number {
  const v = requireFlag(flags, name);
  if (!/^\d{1,15}$/.test(v)) throw new UsageError(`--${name} must be a whole number, got ${JSON.stringify(v)}`);
  return Number(v);
}

const resolutionAdd = command({
  name: 'dian admin resolution add',
  summary: 'Add a numbering resolution to a DIAN company for one document kind',
  usage:
    'ecf dian admin resolution add --nit NIT --kind KIND --from N --to N --resolution-number N --valid-from yyyy-MM-dd --valid-to yyyy-MM-dd [--prefix P] [--technical-key K] [--resolution-date yyyy-MM-dd] [--data-dir DIR] [--database-url URL]',
  async body(args, io) {
    const flags = parse(args, [
      'nit',
      'kind',
      'prefix',
      'from',
      'to',
      'technical-key',
      'resolution-number',
      'resolution-date',
      'valid-from',
      'valid-to',
      ...STORAGE_FLAGS,
    ]);
    const nit = requireFlag(flags, 'nit');
    const validFrom = requireFlag(flags, 'valid-from');
    const { addResolution } = await import('../server/index.js');
    await withStorage(flags, io, async (storage) => {
      const r = await addResolution(storage, nit, {
        kind: requireFlag(flags, 'kind') as never,
        prefix: typeof flags.prefix === 'string' ? flags.prefix : '',
        from: intFlag(flags, 'from'),
        to: intFlag(flags, 'to'),
        technicalKey: typeof flags['technical-key'] === 'string' ? flags['technical-key'] : null,
        resolutionNumber: requireFlag(flags, 'resolution-number'),
        resolutionDate: typeof flags['resolution-date'] === 'string' ? flags['resolution-date'] : validFrom,
        validFrom,
        validTo: requireFlag(flags, 'valid-to'),
      });
      print(io, { resolution: resolutionJson(r) });
    });
  },
});

const contingencyAdd = command({
  name: 'dian admin contingency add',
  summary: 'Declare a contingency window for a DIAN company (contingency documents must be dated inside one)',
  usage: 'ecf dian admin contingency add --nit NIT --from ISO --to ISO [--data-dir DIR] [--database-url URL]',
  async body(args, io) {
    const flags = parse(args, ['nit', 'from', 'to', ...STORAGE_FLAGS]);
    const nit = requireFlag(flags, 'nit');
    const from = requireFlag(flags, 'from');
    const to = requireFlag(flags, 'to');
    const { addContingencyWindow } = await import('../server/index.js');
    await withStorage(flags, io, async (storage) => {
      const { company, window } = await addContingencyWindow(storage, nit, { from, to });
      print(io, {
        company: companyJson(company),
        contingency_window: { id: window.id, from: new Date(window.from).toISOString(), to: new Date(window.to).toISOString() },
      });
    });
  },
});

/** The `ecf dian admin` commands. */
export const dianAdminCommands: CliCommand[] = [companyAdd, tokenAdd, resolutionAdd, contingencyAdd];
