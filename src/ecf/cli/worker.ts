import { parseFlags, UsageError, type CliCommand, type CliIo } from '../../shared/cli/command.js';

/** Flags that override the environment variables of the server configuration. */
const FLAG_ENV: Record<string, string> = {
  'data-dir': 'ECF_DATA_DIR',
  'xsd-dir': 'ECF_XSD_DIR',
  'database-url': 'DATABASE_URL',
  authority: 'ECF_AUTHORITY',
  environment: 'ECF_ENVIRONMENT',
  'log-level': 'LOG_LEVEL',
};
/** Tuning flags (positive integers) and the worker option each sets. */
const TUNING: Record<string, 'concurrency' | 'batchSize' | 'leaseMs' | 'pollIntervalMs'> = {
  concurrency: 'concurrency',
  'batch-size': 'batchSize',
  'lease-ms': 'leaseMs',
  'interval-ms': 'pollIntervalMs',
};
const BOOLEANS = ['once', 'reencrypt-certificates'];
const STRINGS = ['owner'];

/**
 * `ecf worker` with an optional stop signal (tests abort it; the command itself stops on SIGINT/SIGTERM).
 * Reads the server's configuration (loadConfig) and runs the background worker against the same storage and
 * authority, so workers can run as separate processes (several of them against one PostgreSQL).
 */
export async function runWorkerCommand(args: string[], io: CliIo, signal?: AbortSignal): Promise<number> {
  const { flags, positional } = parseFlags(args, BOOLEANS);
  const unknown = Object.keys(flags).filter((k) => !(k in FLAG_ENV) && !(k in TUNING) && !BOOLEANS.includes(k) && !STRINGS.includes(k));
  if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
  if (positional.length) throw new UsageError(`unexpected argument: ${positional[0]}`);

  const env: Record<string, string | undefined> = { ...io.env };
  for (const [flag, name] of Object.entries(FLAG_ENV)) {
    const v = flags[flag];
    if (v === undefined) continue;
    if (v === true) throw new UsageError(`--${flag} needs a value`);
    env[name] = v;
  }
  const tuning: Partial<Record<(typeof TUNING)[string], number>> = {};
  for (const [flag, option] of Object.entries(TUNING)) {
    const v = flags[flag];
    if (v === undefined) continue;
    if (typeof v !== 'string' || !/^\d+$/.test(v) || Number(v) < 1) throw new UsageError(`--${flag} needs a positive integer`);
    tuning[option] = Number(v);
  }
  const owner = flags.owner;
  if (owner === true) throw new UsageError('--owner needs a value');

  const server = await import('../server/index.js');
  let config;
  try {
    config = server.loadConfig(env);
  } catch (e) {
    if (e instanceof server.ConfigError) {
      io.stderr(`ecf worker: ${e.message}\n`);
      return 2;
    }
    throw e;
  }

  const key = server.loadCertificateKey({ env: config.env, dataDir: config.dataDir, production: config.production });

  if (flags['reencrypt-certificates'] === true) {
    const storage = await server.openStorage({ dataDir: config.dataDir, ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}) });
    try {
      const n = await server.reencryptCertificates(storage, key);
      io.stdout(`re-encrypted ${n} certificate(s) with the current key\n`);
    } finally {
      await storage.close();
    }
    return 0;
  }

  const a = config.authority;
  if (a.kind === 'simulator') {
    io.stderr(
      'ecf worker: set ECF_AUTHORITY (testecf, certecf, ecf, or the URL of a DGII-compatible service such as `ecf simulate`): ' +
        'a worker process cannot reach the simulator inside a server process.\n',
    );
    return 2;
  }

  // The same composition root as the server, in its worker role: no offload pool, no receiver client, no simulator.
  const runtime = await server.createRuntime(config, {
    role: 'worker',
    certificateKey: key,
    worker: { ...tuning, ...(typeof owner === 'string' ? { owner } : {}) },
  });
  const worker = runtime.worker!;

  try {
    if (flags.once === true) {
      // Passes while documents are due now; documents waiting for a later poll are left for the next run.
      let total = 0;
      for (let n = await worker.runOnce(); n > 0; n = await worker.runOnce()) total += n;
      io.stdout(`handled ${total} document step(s)\n`);
      return 0;
    }
    io.stdout(`ecf worker ${worker.owner} running (authority: ${a.kind === 'dgii' ? a.environment : a.baseUrl})\n`);
    worker.start();
    await server.waitForStop(io, signal, 'finishing the documents in hand');
    await worker.stop();
    return 0;
  } finally {
    await runtime.close();
  }
}

/** `ecf worker`: the background worker as its own process. */
export const workerCommand: CliCommand = {
  name: 'worker',
  summary: 'Run the background worker (sign, transmit, poll DGII) against the server storage; needs ECF_AUTHORITY',
  usage:
    'ecf worker [--once] [--data-dir DIR] [--xsd-dir DIR] [--database-url URL] [--authority testecf|certecf|ecf|URL] [--environment ENV] ' +
    '[--log-level LEVEL] [--concurrency N] [--batch-size N] [--lease-ms MS] [--interval-ms MS] [--owner NAME] [--reencrypt-certificates]',
  run: (args, io) => runWorkerCommand(args, io),
};
