/**
 * The mail service's sender in its own process for the mail fault test (./mail-faults.test.ts), run as
 * `node --import tsx test/dian/reliability/mail-sender-process.ts`: `createMailService` over the SQLite outbox
 * MAIL_DB (or the PostgreSQL one of MAIL_PG_URL and MAIL_SCHEMA), SMTP to SMTP_URL, a short lease (MAIL_LEASE_MS) so a killed sender's rows are claimed again within the
 * test, quick retries. Prints `sender <pid>` once started; SIGTERM stops it (exit 0); the test SIGKILLs it.
 *
 * Environment: MAIL_DB or MAIL_PG_URL + MAIL_SCHEMA, SMTP_URL, MAIL_LEASE_MS.
 */
import { createMailService, createPostgresMailStorage, createSmtpTransport, createSqliteMailStorage } from '../../../src/shared/mail/index.js';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
};
const storage = process.env.MAIL_PG_URL
  ? createPostgresMailStorage({ connectionString: process.env.MAIL_PG_URL, schema: env('MAIL_SCHEMA'), maxConnections: 3 })
  : createSqliteMailStorage({ file: env('MAIL_DB') });
await storage.migrate();
const quiet = { debug() {}, info() {}, warn() {}, error: (obj: object, msg?: string) => console.error(msg ?? '', obj) };
const mail = createMailService({
  storage,
  transport: createSmtpTransport({ url: env('SMTP_URL') }),
  leaseMs: Number(env('MAIL_LEASE_MS')),
  retry: { baseMs: 200, maxMs: 1_000, maxAttempts: 1_000 },
  pollIntervalMs: 100,
  logger: quiet,
});
mail.start();
process.stdout.write(`sender ${process.pid}\n`);
process.once('SIGTERM', () => {
  void mail.stop().then(
    async () => {
      await storage.close();
      process.exit(0);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
});
