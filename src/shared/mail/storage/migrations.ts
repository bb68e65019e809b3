/**
 * The outbox tables (prefixed `mail_`). Versions start at 9001: they share the kit's `schema_migrations`
 * table with the product server's own migrations in the same database, whose versions count from 1.
 */
import type { Migration } from '../../server-kit/storage/migrations.js';

export const MAIL_MIGRATIONS: readonly Migration[] = [
  {
    version: 9001,
    name: 'mail outbox',
    statements: (dialect) => {
      const serial = dialect === 'postgres' ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT';
      return [
        `CREATE TABLE IF NOT EXISTS mail_requests (
          message_id TEXT PRIMARY KEY,
          tenant_id TEXT NOT NULL,
          request_json TEXT NOT NULL,
          accepted_at BIGINT NOT NULL
        )`,
        `CREATE TABLE IF NOT EXISTS mail_messages (
          id TEXT PRIMARY KEY,
          message_id TEXT NOT NULL REFERENCES mail_requests (message_id),
          personalization INTEGER NOT NULL,
          header_message_id TEXT NOT NULL,
          state TEXT NOT NULL,
          attempts INTEGER NOT NULL DEFAULT 0,
          next_attempt_at BIGINT NOT NULL,
          lease_owner TEXT,
          lease_until BIGINT,
          updated_at BIGINT NOT NULL,
          UNIQUE (message_id, personalization)
        )`,
        'CREATE INDEX IF NOT EXISTS mail_messages_due ON mail_messages (state, next_attempt_at)',
        `CREATE TABLE IF NOT EXISTS mail_events (
          id ${serial},
          message_id TEXT NOT NULL REFERENCES mail_requests (message_id),
          personalization INTEGER NOT NULL,
          type TEXT NOT NULL,
          attempt INTEGER NOT NULL,
          detail TEXT,
          at BIGINT NOT NULL
        )`,
        'CREATE INDEX IF NOT EXISTS mail_events_message ON mail_events (message_id, id)',
      ];
    },
  },
];
