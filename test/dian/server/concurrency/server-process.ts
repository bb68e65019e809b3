/**
 * One DIAN server process for the multi-process test (./multiprocess.test.ts), run as
 * `node --import tsx test/dian/server/concurrency/server-process.ts`: `startDianServer` on the PostgreSQL schema
 * and DIAN endpoint its environment names, with a fixed clock; prints `listening <url>` on stdout and closes on
 * SIGTERM (exit 0).
 *
 * Environment: DATABASE_URL, DIAN_SCHEMA, DIAN_ENDPOINT, DIAN_DATA_DIR, DIAN_CERT_KEY (hex), DIAN_NOW (ISO instant).
 * Optional DIAN_TIMEOUT_MS: the DIAN client's timeout (default the server's 60 s).
 * Optional DIAN_CLOCK_RATE with DIAN_CLOCK_EPOCH_MS: the clock runs from DIAN_NOW at that rate from that real instant
 * (the same in every process, so envelope timestamps agree; the fault test uses it to let reservation leases expire).
 */
import { startDianServer } from '../../../../src/dian/server/index.js';

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
  databaseUrl: env('DATABASE_URL'),
  schema: env('DIAN_SCHEMA'),
  authority: { endpoint: env('DIAN_ENDPOINT') },
  certificateKey: new Uint8Array(Buffer.from(env('DIAN_CERT_KEY'), 'hex')),
  clock,
  dianRetries: 0,
  ...(process.env.DIAN_TIMEOUT_MS ? { dianTimeoutMs: Number(process.env.DIAN_TIMEOUT_MS) } : {}),
  mail: false,
  logger: quiet,
});
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
