import { parseFlags, UsageError, type CliCommand, type CliIo } from '../../shared/cli/command.js';

/** Flags of `ecf serve` and the environment variable each one overrides. */
const FLAG_ENV: Record<string, string> = {
  port: 'PORT',
  host: 'HOST',
  'data-dir': 'ECF_DATA_DIR',
  'xsd-dir': 'ECF_XSD_DIR',
  'database-url': 'DATABASE_URL',
  authority: 'ECF_AUTHORITY',
  environment: 'ECF_ENVIRONMENT',
  'log-level': 'LOG_LEVEL',
};
const BOOLEANS = ['no-worker', 'print-openapi'];

/**
 * `ecf serve` with an optional stop signal (tests abort it; the command itself stops on SIGINT/SIGTERM).
 * Flags override the environment variables of the server configuration (see docs/server.md).
 */
export async function runServe(args: string[], io: CliIo, signal?: AbortSignal): Promise<number> {
  const { flags, positional } = parseFlags(args, BOOLEANS);
  const unknown = Object.keys(flags).filter((k) => !(k in FLAG_ENV) && !BOOLEANS.includes(k));
  if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
  if (positional.length) throw new UsageError(`unexpected argument: ${positional[0]}`);

  if (flags['print-openapi'] === true) {
    const { openApiDocument } = await import('../server/index.js');
    io.stdout(`${JSON.stringify(openApiDocument(), null, 2)}\n`);
    return 0;
  }

  const env: Record<string, string | undefined> = { ...io.env };
  for (const [flag, name] of Object.entries(FLAG_ENV)) {
    const v = flags[flag];
    if (v === undefined) continue;
    if (v === true) throw new UsageError(`--${flag} needs a value`);
    env[name] = v;
  }
  if (flags['no-worker'] === true) env.ECF_WORKER = 'off';

  const { loadConfig, ConfigError, runServer } = await import('../server/index.js');
  let config;
  try {
    config = loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) {
      io.stderr(`ecf serve: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  return runServer(config, { stdout: (s) => io.stdout(s), stderr: (s) => io.stderr(s) }, signal);
}

/** `ecf serve`: the reference REST server (HTTP app, worker and, without ECF_AUTHORITY, an in-process simulator). */
export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'Run the e-CF REST server (in-process DGII simulator unless --authority/ECF_AUTHORITY); --print-openapi prints its OpenAPI document',
  usage:
    'ecf serve [--port N] [--host H] [--data-dir DIR] [--xsd-dir DIR] [--database-url URL] [--authority testecf|certecf|ecf|URL] ' +
    '[--environment testecf|certecf|ecf] [--log-level LEVEL] [--no-worker] [--print-openapi]',
  run: (args, io) => runServe(args, io),
};
