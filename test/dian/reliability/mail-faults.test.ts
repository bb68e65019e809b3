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
 * Reduced in `npm test` (60 messages); 2,000 with `ECF_RELIABILITY=full`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createMailService, createSmtpTransport, createSqliteMailStorage } from '../../../src/shared/mail/index.js';
import { scale } from '../../ecf/reliability/mode.js';
import { freePort, startSmtp, type TestSmtp, validRequest } from '../../shared/mail/helpers.js';
import { type Child, killChild, startChild, stopChild } from '../server/concurrency/children.js';

const MESSAGES = scale(60, 2_000);
const BATCHES = 6;
const LEASE_MS = 1_500;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const dir = mkdtempSync(join(tmpdir(), 'dian-mail-faults-'));
const DB = join(dir, 'mail.sqlite');
let sender: Child | null = null;
let smtp: TestSmtp | null = null;
afterAll(async () => {
  if (sender) await stopChild(sender);
  await smtp?.close();
  rmSync(dir, { recursive: true, force: true });
});

function startSender(url: string): Promise<Child> {
  return startChild('test/dian/reliability/mail-sender-process.ts', 'sender', { MAIL_DB: DB, SMTP_URL: url, MAIL_LEASE_MS: String(LEASE_MS) });
}

describe('mail under faults: SMTP down then back, the sender process SIGKILLed and restarted', () => {
  it(
    `${MESSAGES} accepted messages: none lost, none committed sent delivered twice, duplicates only from the crash window`,
    async () => {
      const start = performance.now();
      const storage = createSqliteMailStorage({ file: DB });
      await storage.migrate();
      const port = await freePort();
      const url = `smtp://127.0.0.1:${port}`;
      // Only `accept` is used here (the outbox); delivery is the child's.
      const mail = createMailService({ storage, transport: createSmtpTransport({ url }) });
      const db = new Database(DB, { readonly: true });
      const rows = () =>
        db.prepare('SELECT header_message_id AS mid, state FROM mail_messages').all() as {
          mid: string;
          state: string;
        }[];
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
      sender = await startSender(url);

      const accepted: string[] = [];
      /** Per message committed `sent` before a kill: how many copies had arrived then (none may arrive after). */
      const sentBeforeKill = new Map<string, number>();
      const sendingAtKill = new Set<string>();
      let kills = 0;
      let downMs = 0;
      for (let b = 0; b < BATCHES; b++) {
        for (let i = 0; i < MESSAGES / BATCHES; i++) {
          const n = accepted.length;
          const r = await mail.accept(validRequest([[`cliente${n}@example.com`]]), 'empresa-1');
          expect(r.status).toBe(202);
          accepted.push(n.toString());
        }
        await sleep(150 + Math.random() * 300);
        if (b % 2 === 0) {
          // A SIGKILL while messages are in flight; what was committed sent before it must never come again.
          const sent = rows().filter((r) => r.state === 'sent');
          collect();
          for (const r of sent) sentBeforeKill.set(r.mid, received.filter((m) => m.mid === r.mid).length);
          await killChild(sender);
          kills++;
          for (const r of rows()) if (r.state === 'sending') sendingAtKill.add(r.mid);
          sender = await startSender(url);
        } else if (b === 1) {
          // SMTP down for a while, then back on the same port.
          const down = performance.now();
          await smtp.close();
          collect();
          await sleep(scale(2_000, 5_000));
          smtp = await startSmtp(port);
          servers.push(smtp);
          downMs += performance.now() - down;
        }
      }
      // Wait for the outbox to drain.
      const deadline = Date.now() + scale(60_000, 600_000);
      while (Date.now() < deadline && rows().some((r) => r.state !== 'sent')) await sleep(200);
      expect(await stopChild(sender)).toBe(0);
      sender = null;
      collect();
      const final = rows();
      db.close();
      await storage.close();

      expect(final).toHaveLength(MESSAGES);
      expect(final.filter((r) => r.state !== 'sent')).toEqual([]);
      const copies = new Map<string, { date: string; raw: Buffer }[]>();
      for (const m of received) copies.set(m.mid, [...(copies.get(m.mid) ?? []), m]);
      // Never lost.
      const missing = final.filter((r) => !copies.has(r.mid)).map((r) => r.mid);
      expect(missing).toEqual([]);
      expect(copies.size).toBe(MESSAGES);
      // Committed sent before a kill: no copy after that (a row committed sent is never sent again).
      const db2 = new Database(DB, { readonly: true });
      const history = (mid: string) =>
        JSON.stringify(
          db2
            .prepare(
              'SELECT e.type, e.attempt, e.detail, e.at FROM mail_events e JOIN mail_messages m ON m.message_id = e.message_id AND m.personalization = e.personalization WHERE m.header_message_id = ? ORDER BY e.at',
            )
            .all(mid),
        );
      for (const [mid, then] of sentBeforeKill) expect(copies.get(mid)!.length, `${mid} ${history(mid)}`).toBe(then);
      // A duplicate only from the window (sending at a kill), with the same Message-ID and Date.
      const duplicated = [...copies].filter(([, list]) => list.length > 1);
      for (const [mid, list] of duplicated) {
        expect(sendingAtKill.has(mid), `${mid} delivered ${list.length} times without being in flight at a kill`).toBe(true);
        expect(new Set(list.map((c) => c.date)).size, mid).toBe(1);
      }
      // The SMTP outage was met: attempts failed with the connection refused and were retried.
      const failedAttempts = (db2.prepare("SELECT COUNT(*) AS n FROM mail_events WHERE type = 'attempt_failed'").get() as { n: number }).n;
      expect(failedAttempts).toBeGreaterThan(0);
      db2.close();
      console.info(
        `dian mail faults: ${failedAttempts} attempts failed while SMTP was down, ${MESSAGES} messages, ${received.length} deliveries (${duplicated.length} duplicated from the crash window, ${sendingAtKill.size} in flight at ${kills} SIGKILLs), SMTP down ${(downMs / 1000).toFixed(1)} s, wall ${((performance.now() - start) / 1000).toFixed(1)} s`,
      );
    },
    scale(120_000, 3_600_000),
  );
});
