/**
 * The mail outbox over Kysely, one code path for SQLite and PostgreSQL (the kit's connections, transactions
 * and migration runner). Claims take a lease: on PostgreSQL the due rows are locked with `FOR UPDATE SKIP
 * LOCKED`, so several processes claim disjoint rows; on SQLite `BEGIN IMMEDIATE` serialises the claimers.
 */
import type { Generated, Kysely } from 'kysely';
import type { Clock } from '../../ports.js';
import { systemClock } from '../../server-kit/clock.js';
import type { Dialect } from '../../server-kit/storage/migrations.js';
import { runMigrations } from '../../server-kit/storage/migrations.js';
import { openPostgresConnection } from '../../server-kit/storage/postgres.js';
import { openSqliteConnection } from '../../server-kit/storage/sqlite.js';
import { runTransaction } from '../../server-kit/storage/transactions.js';
import { MAIL_MIGRATIONS } from './migrations.js';
import type { ClaimedMail, MailEvent, MailEventType, MailState, MailStorage } from './types.js';

interface MailTables {
  mail_requests: { message_id: string; tenant_id: string; request_json: string; accepted_at: number };
  mail_messages: {
    id: string;
    message_id: string;
    personalization: number;
    header_message_id: string;
    state: MailState;
    attempts: number;
    next_attempt_at: number;
    lease_owner: string | null;
    lease_until: number | null;
    updated_at: number;
  };
  mail_events: {
    id: Generated<number>;
    message_id: string;
    personalization: number;
    type: MailEventType;
    attempt: number;
    detail: string | null;
    at: number;
  };
}

/** Longest reason kept in an event (an SMTP answer can be long). */
const MAX_DETAIL = 1000;

function createKyselyMailStorage(db: Kysely<MailTables>, dialect: Dialect, destroy: () => Promise<void>, clock: Clock, schema?: string): MailStorage {
  const tx = <T>(fn: (q: Kysely<MailTables>) => Promise<T>) => runTransaction(db, dialect, fn);

  /** Moves a leased row on, with its events; false when `owner` no longer holds the lease. */
  async function finish(
    id: string,
    owner: string,
    at: number,
    patch: { state: MailState; next_attempt_at?: number },
    events: { type: MailEventType; detail: string }[],
  ): Promise<boolean> {
    return tx(async (q) => {
      const row = await q
        .selectFrom('mail_messages')
        .select(['message_id', 'personalization', 'attempts'])
        .where('id', '=', id)
        .where('state', '=', 'sending')
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      if (!row) return false;
      await q
        .updateTable('mail_messages')
        .set({ ...patch, lease_owner: null, lease_until: null, updated_at: at })
        .where('id', '=', id)
        .execute();
      for (const e of events) {
        await q
          .insertInto('mail_events')
          .values({
            message_id: row.message_id,
            personalization: row.personalization,
            type: e.type,
            attempt: row.attempts,
            detail: e.detail.slice(0, MAX_DETAIL),
            at,
          })
          .execute();
      }
      return true;
    });
  }

  return {
    async migrate() {
      await db.connection().execute((q) => runMigrations(q, dialect, MAIL_MIGRATIONS, { schema, now: () => clock().getTime() }));
    },

    async enqueue(mail) {
      await tx(async (q) => {
        await q
          .insertInto('mail_requests')
          .values({ message_id: mail.messageId, tenant_id: mail.tenantId, request_json: mail.requestJson, accepted_at: mail.at })
          .execute();
        for (const [i, header] of mail.headerMessageIds.entries()) {
          await q
            .insertInto('mail_messages')
            .values({
              id: `${mail.messageId}.${i}`,
              message_id: mail.messageId,
              personalization: i,
              header_message_id: header,
              state: 'queued',
              attempts: 0,
              next_attempt_at: mail.at,
              lease_owner: null,
              lease_until: null,
              updated_at: mail.at,
            })
            .execute();
          await q
            .insertInto('mail_events')
            .values({ message_id: mail.messageId, personalization: i, type: 'queued', attempt: 0, detail: null, at: mail.at })
            .execute();
        }
      });
    },

    async claimDue(now, owner, leaseMs, limit) {
      return tx(async (q) => {
        let due = q
          .selectFrom('mail_messages')
          .select('id')
          .where((w) =>
            w.or([w.and([w('state', '=', 'queued'), w('next_attempt_at', '<=', now)]), w.and([w('state', '=', 'sending'), w('lease_until', '<=', now)])]),
          )
          .orderBy('next_attempt_at')
          .limit(limit);
        if (dialect === 'postgres') due = due.forUpdate().skipLocked();
        const ids = (await due.execute()).map((r) => r.id);
        if (ids.length === 0) return [];
        await q
          .updateTable('mail_messages')
          .set((eb) => ({ state: 'sending', lease_owner: owner, lease_until: now + leaseMs, attempts: eb('attempts', '+', 1), updated_at: now }))
          .where('id', 'in', ids)
          .execute();
        const rows = await q
          .selectFrom('mail_messages as m')
          .innerJoin('mail_requests as r', 'r.message_id', 'm.message_id')
          .select(['m.id', 'm.message_id', 'r.tenant_id', 'm.personalization', 'm.header_message_id', 'm.attempts', 'r.request_json', 'r.accepted_at'])
          .where('m.id', 'in', ids)
          .orderBy('m.next_attempt_at')
          .execute();
        return rows.map(
          (r): ClaimedMail => ({
            id: r.id,
            messageId: r.message_id,
            tenantId: r.tenant_id,
            personalization: Number(r.personalization),
            headerMessageId: r.header_message_id,
            attempts: Number(r.attempts),
            requestJson: r.request_json,
            acceptedAt: Number(r.accepted_at),
          }),
        );
      });
    },

    markSent: (id, owner, at, detail) => finish(id, owner, at, { state: 'sent' }, [{ type: 'sent', detail }]),
    markRetry: (id, owner, at, nextAt, reason) =>
      finish(id, owner, at, { state: 'queued', next_attempt_at: nextAt }, [{ type: 'attempt_failed', detail: reason }]),
    markFailed: (id, owner, at, reason) =>
      finish(id, owner, at, { state: 'failed' }, [
        { type: 'attempt_failed', detail: reason },
        { type: 'failed', detail: reason },
      ]),

    async events(messageId, tenantId) {
      const owner = await db
        .selectFrom('mail_requests')
        .select('message_id')
        .where('message_id', '=', messageId)
        .where('tenant_id', '=', tenantId)
        .executeTakeFirst();
      if (!owner) return null;
      const messages = await db
        .selectFrom('mail_messages')
        .select(['personalization', 'state', 'attempts'])
        .where('message_id', '=', messageId)
        .orderBy('personalization')
        .execute();
      const events = await db
        .selectFrom('mail_events')
        .select(['personalization', 'type', 'attempt', 'detail', 'at'])
        .where('message_id', '=', messageId)
        .orderBy('id')
        .execute();
      return {
        messages: messages.map((m) => ({ personalization: Number(m.personalization), state: m.state, attempts: Number(m.attempts) })),
        events: events.map(
          (e): MailEvent => ({ personalization: Number(e.personalization), type: e.type, attempt: Number(e.attempt), detail: e.detail, at: Number(e.at) }),
        ),
      };
    },

    close: destroy,
  };
}

/** The outbox in a SQLite file (shared with whatever else the process keeps in it); `clock` stamps the migrations. */
export function createSqliteMailStorage(options: { file: string; private?: boolean; clock?: Clock }): MailStorage {
  const c = openSqliteConnection<MailTables>({ file: options.file, private: options.private });
  return createKyselyMailStorage(c.db, 'sqlite', c.release, options.clock ?? systemClock);
}

/** The outbox in PostgreSQL (`schema` as search_path, created by migrate() when missing). */
export function createPostgresMailStorage(options: { connectionString: string; schema?: string; maxConnections?: number; clock?: Clock }): MailStorage {
  const db = openPostgresConnection<MailTables>({ connectionString: options.connectionString, schema: options.schema, maxConnections: options.maxConnections });
  return createKyselyMailStorage(db, 'postgres', () => db.destroy(), options.clock ?? systemClock, options.schema);
}
