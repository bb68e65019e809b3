/**
 * Several senders (each its own pool, as separate server processes would have) on one PostgreSQL outbox,
 * delivering to a real SMTP server in process: every message arrives exactly once.
 */
import { expect, it } from 'vitest';
import { createMailService, type MailService } from '../../../src/shared/mail/service.js';
import { createPostgresMailStorage } from '../../../src/shared/mail/storage/kysely.js';
import type { MailStorage } from '../../../src/shared/mail/storage/types.js';
import { createSmtpTransport } from '../../../src/shared/mail/transport.js';
import { DATABASE_URL, schemaNames } from '../server-kit/storage/pg.js';
import { startSmtp, validRequest } from './helpers.js';

const newSchema = schemaNames('maild');

it('three senders on one PostgreSQL outbox deliver 60 messages, each exactly once', async () => {
  const smtp = await startSmtp();
  const schema = newSchema();
  const storages: MailStorage[] = [];
  const services: MailService[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const storage = createPostgresMailStorage({ connectionString: DATABASE_URL, schema, maxConnections: 3 });
      await storage.migrate();
      storages.push(storage);
      services.push(createMailService({ storage, transport: createSmtpTransport({ url: smtp.url }), pollIntervalMs: 20, owner: `sender-${i}` }));
    }
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const to = [[`a${i}@example.com`], [`b${i}@example.com`], [`c${i}@example.com`]];
      const r = await services[i % 3]!.accept(validRequest(to), 'tenant');
      if (r.ok) ids.push(r.body.message_id);
    }
    expect(ids).toHaveLength(20);
    for (const s of services) s.start();
    for (let i = 0; i < 500 && smtp.received.length < 60; i++) await new Promise((r) => setTimeout(r, 20));
    await Promise.all(services.map((s) => s.stop()));
    await new Promise((r) => setTimeout(r, 100));

    const recipients = smtp.received.map((m) => (m.to as { value: { address: string }[] }).value[0]!.address);
    expect(recipients).toHaveLength(60);
    expect(new Set(recipients).size).toBe(60);
    const messageIds = smtp.received.map((m) => m.messageId);
    expect(new Set(messageIds).size).toBe(60);
    for (const id of ids) {
      const events = await services[0]!.events(id, 'tenant');
      expect(events!.messages.map((m) => [m.state, m.attempts])).toEqual([
        ['sent', 1],
        ['sent', 1],
        ['sent', 1],
      ]);
    }
  } finally {
    await Promise.all(storages.map((s) => s.close()));
    await smtp.close();
  }
});
