/**
 * One DIAN server process for the multi-process test (./multiprocess.test.ts) and bench/dian-server.ts, run as
 * `node --import tsx test/dian/server/concurrency/server-process.ts`: `startDianServer` on the PostgreSQL schema
 * (or, without DATABASE_URL, SQLite in DIAN_DATA_DIR) and DIAN endpoint its environment names, with a fixed clock;
 * prints `listening <url>` on stdout and closes on SIGTERM (exit 0). Started with an IPC channel, it reports its
 * CPU time and memory when asked (./usage.ts).
 *
 * Environment: DATABASE_URL and DIAN_SCHEMA (optional: SQLite without them), DIAN_ENDPOINT, DIAN_DATA_DIR,
 * DIAN_CERT_KEY (hex), DIAN_NOW (ISO instant). Optional DIAN_TIMEOUT_MS: the DIAN client's timeout (default the
 * server's 60 s). Optional DIAN_CLOCK_RATE with DIAN_CLOCK_EPOCH_MS: the clock runs from DIAN_NOW at that rate from
 * that real instant (the same in every process, so envelope timestamps agree; the fault test uses it to let
 * reservation leases expire).
 */
import { startDianServer } from '../../../../src/dian/server/index.js';
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
const quiet = { debug() {}, info() {}, warn() {}, error: (obj: object, msg?: string) => console.error(msg ?? '', obj) };

const server = await startDianServer({
  dataDir: env('DIAN_DATA_DIR'),
  databaseUrl: process.env.DATABASE_URL || undefined,
  schema: process.env.DATABASE_URL ? env('DIAN_SCHEMA') : undefined,
  authority: { endpoint: env('DIAN_ENDPOINT') },
  certificateKey: new Uint8Array(Buffer.from(env('DIAN_CERT_KEY'), 'hex')),
  clock,
  dianRetries: 0,
  ...(process.env.DIAN_TIMEOUT_MS ? { dianTimeoutMs: Number(process.env.DIAN_TIMEOUT_MS) } : {}),
  mail: false,
  logger: quiet,
});
answerUsageOverIpc();
process.stdout.write(`listening ${server.url}\n`);
process.once('SIGTERM', () => {
  void server.close().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
});
