import { intFlag, optionalFlag, parseFlags, UsageError, type CliCommand, type CliIo } from '../../shared/cli/command.js';

const USAGE = 'ecf simulate [--port 9090] [--host 127.0.0.1] [--data FILE] [--delay MS] [--seed N] [--xsd DIR]';
const KNOWN = new Set(['port', 'host', 'data', 'delay', 'seed', 'xsd']);

/**
 * Runs the simulator until `stop` aborts, then closes it. Exit code 0; usage errors throw `UsageError`.
 * (The command wires `stop` to SIGINT/SIGTERM; tests pass their own signal.)
 */
export async function runSimulate(args: string[], io: CliIo, stop: AbortSignal): Promise<number> {
  const { flags, positional } = parseFlags(args);
  const unknown = Object.keys(flags).filter((k) => !KNOWN.has(k));
  if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
  if (positional.length) throw new UsageError(`unexpected argument(s): ${positional.join(' ')}`);
  const xsdDir = optionalFlag(flags, 'xsd') ?? io.env.ECF_XSD_DIR;
  if (!xsdDir) throw new UsageError('missing --xsd DIR (or set ECF_XSD_DIR): the official XSD directory');
  const port = intFlag(flags, 'port', 0, 65535) ?? 9090;
  const delay = intFlag(flags, 'delay', 0, 3_600_000);
  const seed = intFlag(flags, 'seed', 0, 2 ** 32 - 1);
  const host = optionalFlag(flags, 'host') ?? '127.0.0.1';
  const dataFile = optionalFlag(flags, 'data');

  const { startSimulator } = await import('../simulator/index.js');
  const sim = await startSimulator({
    xsdDir,
    host,
    port,
    ...(dataFile !== undefined ? { dataFile } : {}),
    ...(delay !== undefined ? { processingDelayMs: delay } : {}),
    ...(seed !== undefined ? { seed } : {}),
  });
  io.stdout(
    `DGII simulator listening on ${sim.url}\n` +
      `  ecf and fc paths:  ${sim.url}/testecf/… (also /certecf, /ecf)\n` +
      `  statusecf paths:   ${sim.url}/api/estatusservicios/…\n` +
      `  control:           ${sim.url}/_simulator/stats | faults | scenarios | directory\n` +
      `${dataFile ? `  state file:        ${dataFile}\n` : ''}` +
      'Press Ctrl-C to stop.\n',
  );
  if (!stop.aborted) await new Promise<void>((resolve) => stop.addEventListener('abort', () => resolve(), { once: true }));
  await sim.close();
  io.stdout('DGII simulator stopped.\n');
  return 0;
}

/** `ecf simulate`: a local DGII on one port (ecf, fc and statusecf paths) until SIGINT/SIGTERM. */
export const simulateCommand: CliCommand = {
  name: 'simulate',
  summary: 'Run a local DGII simulator (ecf, fc and statusecf paths, emisor–receptor test service) until Ctrl-C',
  usage: USAGE,
  async run(args, io) {
    const controller = new AbortController();
    const onSignal = () => controller.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      return await runSimulate(args, io, controller.signal);
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};
