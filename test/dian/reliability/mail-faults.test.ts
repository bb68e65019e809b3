/**
 * Mail under faults (issue 23): the mail service's sender runs in a child process (./mail-sender-process.ts) over a
 * SQLite outbox this test accepts mail into, delivering to a real SMTP server in this process (smtp-server, parsed
 * with mailparser: test/shared/mail/helpers.ts). During the run the SMTP server goes down for a while and comes
 * back on the same port, and the sender is SIGKILLed at random and started again on the same outbox.
 * What docs/mail.md claims, and this checks:
 * - never lost: every accepted message reaches the SMTP server;
 * - a row committed `sent` is never sent again: a message `sent` in the outbox at a kill gets no copy after it;
 * - at least once with one duplicate window: a message arrives twice only if it was `sending` (claimed, its
 *   outcome not committed) when a sender was killed, and its copies carry the same Message-ID and Date;
 * - nothing left `queued`, `sending` or `failed`.
 * On a SQLite outbox file and on a PostgreSQL schema (the sender process opens the same one).
 * Reduced in `npm test` (60 messages); 2,000 with `ECF_RELIABILITY=full`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createMailService,
  createPostgresMailStorage,
  createSmtpTransport,
  createSqliteMailStorage,
  type MailStorage,
} from '../../../src/shared/mail/index.js';
import { scale } from '../../ecf/reliability/mode.js';
import { freePort, startSmtp, type TestSmtp, validRequest } from '../../shared/mail/helpers.js';
import { type Child, killChild, startChild, stopChild } from '../server/concurrency/children.js';
import { dropSchema, newSchema, PG_URL } from '../server/helpers.js';

const MESSAGES = scale(60, 2_000);
const BATCHES = 6;
const LEASE_MS = 1_500;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const dir = mkdtempSync(join(tmpdir(), 'dian-mail-faults-'));
let sender: Child | null = null;
let smtp: TestSmtp | null = null;
const schemas: string[] = [];
afterAll(async () => {
  if (sender) await stopChild(sender);
  await smtp?.close();
  rmSync(dir, { recursive: true, force: true });
  for (const s of schemas) await dropSchema(s);
});

/** One outbox the test and the sender process share, and plain SQL reads of it. */
interface Outbox {
  storage: MailStorage;
  env: Record<string, string>;
  query<T>(sql: string, values?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

function sqliteOutbox(): Outbox {
  const file = join(dir, 'mail.sqlite');
  const storage = createSqliteMailStorage({ file });
  let db: Database.Database | null = null;
  return {
    storage,
    env: { MAIL_DB: file },
    async query<T>(sql: string, values: unknown[] = []) {
      db ??= new Database(file, { readonly: true });
      return db.prepare(sql.replace(/\$\d+/g, '?')).all(...values) as T[];
    },
    async close() {
      db?.close();
      await storage.close();
    },
  };
}

function postgresOutbox(): Outbox {
  const schema = newSchema();
  schemas.push(schema);
  const storage = createPostgresMailStorage({ connectionString: PG_URL, schema, maxConnections: 2 });
  return {
    storage,
    env: { MAIL_PG_URL: PG_URL, MAIL_SCHEMA: schema },
    async query<T>(sql: string, values: unknown[] = []) {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      try {
        await c.query(`SET search_path TO "${schema}"`);
        return (await c.query(sql, values)).rows as T[];
      } finally {
        await c.end();
      }
    },
    close: () => storage.close(),
  };
}

function startSender(outbox: Outbox, url: string): Promise<Child> {
  return startChild('test/dian/reliability/mail-sender-process.ts', 'sender', { ...outbox.env, SMTP_URL: url, MAIL_LEASE_MS: String(LEASE_MS) });
}

describe.each([
  ['SQLite', sqliteOutbox],
  ['PostgreSQL', postgresOutbox],
])('mail under faults (%s outbox): SMTP down then back, the sender process SIGKILLed and restarted', (engine, openOutbox) => {
  it(
    `${MESSAGES} accepted messages: none lost, none committed sent delivered twice, duplicates only from the crash window`,
    async () => {
      const start = performance.now();
      const outbox = openOutbox();
      const storage = outbox.storage;
      await storage.migrate();
      const port = await freePort();
      const url = `smtp://127.0.0.1:${port}`;
      // Only `accept` is used here (the outbox); delivery is the child's.
      const mail = createMailService({ storage, transport: createSmtpTransport({ url }) });
      const rows = () => outbox.query<{ mid: string; state: string }>('SELECT header_message_id AS mid, state FROM mail_messages');
      const received: { mid: string; date: string; raw: Buffer }[] = [];
      const servers: TestSmtp[] = [];
      const collect = () => {
        for (const s of servers) {
          for (const [i, m] of s.received.entries()) received.push({ mid: m.messageId!, date: m.headers.get('date')!.toString(), raw: s.raw[i]! });
          s.received.length = 0;
          s.raw.length = 0;
        }
      };
      smtp = await startSmtp(port);
      servers.push(smtp);
      sender = await startSender(outbox, url);

      const accepted: string[] = [];
      /** Per message committed `sent` before a kill: how many copies had arrived then (none may arrive after). */
      const sentBeforeKill = new Map<string, number>();
      const sendingAtKill = new Set<string>();
      let kills = 0;
      let downMs = 0;
      const failed = async () => Number((await outbox.query<{ n: number }>("SELECT COUNT(*) AS n FROM mail_events WHERE type = 'attempt_failed'"))[0]!.n);
      for (let b = 0; b < BATCHES; b++) {
        // SMTP down before the second batch is accepted, so the sender meets it.
        const down = performance.now();
        if (b === 1) {
          await smtp.close();
          collect();
        }
        for (let i = 0; i < MESSAGES / BATCHES; i++) {
          const n = accepted.length;
          const r = await mail.accept(validRequest([[`cliente${n}@example.com`]]), 'empresa-1');
          expect(r.status).toBe(202);
          accepted.push(n.toString());
        }
        await sleep(150 + Math.random() * 300);
        if (b % 2 === 0) {
          // A SIGKILL while messages are in flight; what was committed sent before it must never come again.
          const sent = (await rows()).filter((r) => r.state === 'sent');
          collect();
          for (const r of sent) sentBeforeKill.set(r.mid, received.filter((m) => m.mid === r.mid).length);
          await killChild(sender);
          kills++;
          for (const r of await rows()) if (r.state === 'sending') sendingAtKill.add(r.mid);
          sender = await startSender(outbox, url);
        } else if (b === 1) {
          // Down for a while and until attempts have failed on it, then back on the same port.
          await sleep(scale(2_000, 5_000));
          for (let t = 0; t < 100 && (await failed()) === 0; t++) await sleep(100);
          smtp = await startSmtp(port);
          servers.push(smtp);
          downMs += performance.now() - down;
        }
      }
      // Wait for the outbox to drain.
      const deadline = Date.now() + scale(60_000, 600_000);
      while (Date.now() < deadline && (await rows()).some((r) => r.state !== 'sent')) await sleep(200);
      expect(await stopChild(sender)).toBe(0);
      sender = null;
      collect();
      const final = await rows();

      expect(final).toHaveLength(MESSAGES);
      expect(final.filter((r) => r.state !== 'sent')).toEqual([]);
      const copies = new Map<string, { date: string; raw: Buffer }[]>();
      for (const m of received) copies.set(m.mid, [...(copies.get(m.mid) ?? []), m]);
      // Never lost.
      const missing = final.filter((r) => !copies.has(r.mid)).map((r) => r.mid);
      expect(missing).toEqual([]);
      expect(copies.size).toBe(MESSAGES);
      // Committed sent before a kill: no copy after that (a row committed sent is never sent again).
      const history = async (mid: string) =>
        JSON.stringify(
          await outbox.query(
            'SELECT e.type, e.attempt, e.detail, e.at FROM mail_events e JOIN mail_messages m ON m.message_id = e.message_id AND m.personalization = e.personalization WHERE m.header_message_id = $1 ORDER BY e.id',
            [mid],
          ),
        );
      for (const [mid, then] of sentBeforeKill) {
        const got = copies.get(mid)!.length;
        expect(got, got === then ? mid : `${mid} ${await history(mid)}`).toBe(then);
      }
      // A duplicate only from the window (sending at a kill), with the same Message-ID and Date.
      const duplicated = [...copies].filter(([, list]) => list.length > 1);
      for (const [mid, list] of duplicated) {
        expect(sendingAtKill.has(mid), `${mid} delivered ${list.length} times without being in flight at a kill: ${await history(mid)}`).toBe(true);
        expect(new Set(list.map((c) => c.date)).size, mid).toBe(1);
      }
      // The SMTP outage was met: attempts failed with the connection refused and were retried.
      const failedAttempts = await failed();
      expect(failedAttempts).toBeGreaterThan(0);
      // The SMTP server met only what killed clients cause (a reset or broken socket), nothing else.
      const serverErrors = servers.flatMap((s) => s.errors).map((e) => (e as NodeJS.ErrnoException).code ?? e.message);
      expect(serverErrors.filter((c) => c !== 'ECONNRESET' && c !== 'EPIPE')).toEqual([]);
      await outbox.close();
      console.info(
        `dian mail faults (${engine}): ${failedAttempts} attempts failed while SMTP was down, ${MESSAGES} messages, ${received.length} deliveries (${duplicated.length} duplicated from the crash window, ${sendingAtKill.size} in flight at ${kills} SIGKILLs), SMTP down ${(downMs / 1000).toFixed(1)} s, wall ${((performance.now() - start) / 1000).toFixed(1)} s`,
      );
    },
    scale(120_000, 3_600_000),
  );
});
