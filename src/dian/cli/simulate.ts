/**
 * `ecf dian simulate`: a local DIAN (`ecf-kit/dian/simulator`) on one port until Ctrl-C, seeded with the example
 * company of examples/dian/context.json (its software, PIN, test set and numbering range), so documents built with
 * `ecf dian build --context examples/dian/context.json` are accepted by it.
 */
import { intFlag, optionalFlag, parseFlags, UsageError, type CliCommand, type CliIo } from '../../shared/cli/command.js';

const USAGE = 'ecf dian simulate [--port 9091] [--host 127.0.0.1] [--data DIR] [--delay MS] [--seed N] [--xsd DIR]';
const KNOWN = new Set(['port', 'host', 'data', 'delay', 'seed', 'xsd']);

/** Runs the local DIAN until `stop` aborts, then closes it (tests pass their own signal). Exit code 0. */
export async function runDianSimulate(args: string[], io: CliIo, stop: AbortSignal): Promise<number> {
  const { flags, positional } = parseFlags(args);
  const unknown = Object.keys(flags).filter((k) => !KNOWN.has(k));
  if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
  if (positional.length) throw new UsageError(`unexpected argument(s): ${positional.join(' ')}`);
  const xsdDir = optionalFlag(flags, 'xsd') ?? io.env.DIAN_XSD_DIR ?? '../shared/dian-xsd';
  const port = intFlag(flags, 'port', 0, 65535) ?? 9091;
  const delay = intFlag(flags, 'delay', 0, 3_600_000);
  const seed = intFlag(flags, 'seed', 0, 2 ** 32 - 1);
  const host = optionalFlag(flags, 'host') ?? '127.0.0.1';
  const dataDir = optionalFlag(flags, 'data');

  const { startDianSimulator, DIAN_SIM_EXAMPLE_COMPANY: company, DIAN_SIM_EXAMPLE_RANGE: range } = await import('../simulator/index.js');
  const sim = await startDianSimulator({
    xsdDir,
    host,
    port,
    companies: [company],
    ranges: [range],
    ...(dataDir !== undefined ? { dataDir } : {}),
    ...(delay !== undefined ? { processingDelayMs: delay } : {}),
    ...(seed !== undefined ? { seed } : {}),
  });
  io.stdout(
    `DIAN simulator listening on ${sim.url}\n` +
      `  control:    ${sim.controlUrl}/stats | companies | ranges | scenarios | faults | outage | test-sets\n` +
      `  company:    NIT ${company.nit} (${company.name}), software ${company.softwareId}, PIN ${company.pin}, test set ${company.testSetId}\n` +
      `  range:      ${range.prefix}${range.from}–${range.prefix}${range.to}, technical key ${range.technicalKey}, resolution ${range.resolutionNumber} (${range.validFrom} to ${range.validTo})\n` +
      `${dataDir ? `  state:      ${dataDir}/state.json\n` : ''}` +
      'Press Ctrl-C to stop.\n',
  );
  if (!stop.aborted) await new Promise<void>((resolve) => stop.addEventListener('abort', () => resolve(), { once: true }));
  await sim.close();
  io.stdout('DIAN simulator stopped.\n');
  return 0;
}

/** `ecf dian simulate`: a local DIAN (WcfDianCustomerServices over SOAP 1.2) until SIGINT/SIGTERM. */
export const dianSimulateCommand: CliCommand = {
  name: 'dian simulate',
  summary:
    'Run a local DIAN (WcfDianCustomerServices: SOAP 1.2 + WS-Security, every operation, signed ApplicationResponses) seeded with the example company of examples/dian/context.json, until Ctrl-C',
  usage: USAGE,
  async run(args, io) {
    const controller = new AbortController();
    const onSignal = () => controller.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      return await runDianSimulate(args, io, controller.signal);
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};
