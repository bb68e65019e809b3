/**
 * The local DIAN in its own process for the multi-process test (./multiprocess.test.ts) and bench/dian-server.ts, run as
 * `node --import tsx test/dian/server/concurrency/simulator-process.ts`: `startDianSimulator` with a fixed clock,
 * its state in DIAN_SIM_DATA_DIR, seeded with the companies and ranges of DIAN_SIM_SEED (JSON `{companies, ranges}`,
 * what the real DIAN knows from habilitación); prints `simulator <url> <controlUrl>` on stdout and closes on
 * SIGTERM (exit 0, its state written). Started with an IPC channel, it reports its CPU time and memory when asked.
 *
 * Environment: DIAN_XSD_DIR, DIAN_SIM_DATA_DIR (optional: in memory without it), DIAN_SIM_SEED, DIAN_NOW (ISO
 * instant). Optional DIAN_CLOCK_RATE with DIAN_CLOCK_EPOCH_MS: the clock runs from DIAN_NOW at that rate from that
 * real instant (the same in every process, so envelope timestamps agree; the fault test uses it to let reservation
 * leases expire).
 */
import { startDianSimulator } from '../../../../src/dian/simulator/index.js';
import { answerUsageOverIpc } from './usage.js';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
};
const now = new Date(env('DIAN_NOW'));
const rate = Number(process.env.DIAN_CLOCK_RATE ?? 0);
const epoch = Number(process.env.DIAN_CLOCK_EPOCH_MS ?? 0);
const clock = rate > 0 ? () => new Date(now.getTime() + (Date.now() - epoch) * rate) : () => now;
const seed = JSON.parse(env('DIAN_SIM_SEED'));
const sim = await startDianSimulator({
  xsdDir: env('DIAN_XSD_DIR'),
  // Without DIAN_SIM_DATA_DIR the state stays in memory (bench/dian-server.ts: rewriting state.json, every signed
  // document included, after each change would make the local DIAN's cost grow with the documents it holds).
  dataDir: process.env.DIAN_SIM_DATA_DIR || undefined,
  clock,
  companies: seed.companies,
  ranges: seed.ranges,
});
answerUsageOverIpc();
process.stdout.write(`simulator ${sim.url} ${sim.controlUrl}\n`);
process.once('SIGTERM', () => {
  void sim.close().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
});
