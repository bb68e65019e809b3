/**
 * The events' storage (RADIAN events sent through `/v1/0xx`): one row per company and event number, its
 * request hash (idempotency), state, CUDE, the signed event, its zip and the HTTP answer given. Kept apart from
 * the documents' adapter (./kysely.ts spreads it in) with its own migration entry (`events_…`).
 */
import type { Generated, Kysely } from 'kysely';
import type { Clock } from '../../../shared/ports.js';
import type { Dialect, Migration } from '../../../shared/server-kit/storage/migrations.js';
import { isUniqueViolation, runTransaction } from '../../../shared/server-kit/storage/transactions.js';

/** `building` (number reserved), `sending` (signed, SendEventUpdateStatus under way or lost), `accepted`, `rejected` (the number is free again). */
export type EventState = 'building' | 'sending' | 'accepted' | 'rejected';

export interface EventRecord {
  id: number;
  companyId: number;
  /** `030` … `034`. */
  code: string;
  number: number;
  requestHash: string;
  state: EventState;
  /** The referenced invoice's CUFE. */
  documentKey: string;
  /** The event's CUDE. */
  cude: string | null;
  signedXml: string | null;
  zip: Uint8Array | null;
  dianAnswer: unknown;
  /** The signed AttachedDocument of an accepted event (the event and DIAN's answer). */
  attachedDocument: string | null;
  response: { status: number; body: unknown } | null;
  createdAt: number;
  updatedAt: number;
}

export type EventReservation =
  | { outcome: 'reserved'; event: EventRecord }
  | { outcome: 'same'; event: EventRecord }
  | { outcome: 'different'; event: EventRecord };

export interface EventPatch {
  state?: EventState;
  cude?: string | null;
  signedXml?: string | null;
  zip?: Uint8Array | null;
  dianAnswer?: unknown;
  attachedDocument?: string | null;
  response?: { status: number; body: unknown } | null;
}

export interface EventStore {
  /** In one transaction: a free number (or one DIAN refused) becomes a `building` row; else the row there and whether its body was the same. */
  reserveEvent(input: { companyId: number; code: string; number: number; requestHash: string; documentKey: string }): Promise<EventReservation>;
  updateEvent(id: number, patch: EventPatch): Promise<EventRecord>;
  /** Compare-and-set on the event's state (and `updatedAt`), as the documents' `claimDocument`: the updated row, or null when another request changed it first. */
  claimEvent(id: number, expected: { state: EventState; updatedAt?: number }, patch: EventPatch): Promise<EventRecord | null>;
  /** Deletes a reservation never sent (DIAN unreachable): the number is free again. */
  releaseEvent(id: number): Promise<void>;
  getEventByNumber(companyId: number, number: number): Promise<EventRecord | null>;
}

interface EventRow {
  id: Generated<number>;
  company_id: number;
  event_code: string;
  number: number;
  request_hash: string;
  state: string;
  document_key: string;
  cude: string | null;
  signed_xml: string | null;
  zip: Uint8Array | null;
  dian_answer: string | null;
  attached_document: string | null;
  response: string | null;
  created_at: number;
  updated_at: number;
}

export interface DianEventTables {
  dian_events: EventRow;
}

/** The events table (version 31, named `events_…` so it merges beside other slices' entries). */
export const DIAN_EVENT_MIGRATION: Migration = {
  version: 3,
  name: 'events_: dian_events (RADIAN events per company and number)',
  statements(dialect: Dialect) {
    const pg = dialect === 'postgres';
    return [
      `CREATE TABLE dian_events (
        id ${pg ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT'},
        company_id BIGINT NOT NULL REFERENCES dian_companies(id),
        event_code TEXT NOT NULL,
        number BIGINT NOT NULL,
        request_hash TEXT NOT NULL,
        state TEXT NOT NULL,
        document_key TEXT NOT NULL,
        cude TEXT,
        signed_xml TEXT,
        zip ${pg ? 'BYTEA' : 'BLOB'},
        dian_answer TEXT,
        response TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (company_id, number)
      )`,
      `CREATE INDEX dian_events_document ON dian_events (company_id, document_key)`,
    ];
  },
};

/** The event's AttachedDocument (version 6, named `events_…` as the table's own entry; 4 is payroll's, 5 the test set's). */
export const DIAN_EVENT_ATTACHED_MIGRATION: Migration = {
  version: 6,
  name: 'events_attached: dian_events.attached_document (the AttachedDocument of an accepted event)',
  statements() {
    return ['ALTER TABLE dian_events ADD COLUMN attached_document TEXT'];
  },
};

function record(r: EventRow & { id: number }): EventRecord {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    code: r.event_code,
    number: Number(r.number),
    requestHash: r.request_hash,
    state: r.state as EventState,
    documentKey: r.document_key,
    cude: r.cude,
    signedXml: r.signed_xml,
    zip: r.zip == null ? null : new Uint8Array(r.zip),
    dianAnswer: r.dian_answer == null ? null : JSON.parse(r.dian_answer),
    attachedDocument: r.attached_document ?? null,
    response: r.response == null ? null : JSON.parse(r.response),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/** The columns an event patch sets, with `updated_at`. */
function eventSet(patch: EventPatch, updatedAt: number): Record<string, unknown> {
  const set: Record<string, unknown> = { updated_at: updatedAt };
  if (patch.state !== undefined) set.state = patch.state;
  if (patch.cude !== undefined) set.cude = patch.cude;
  if (patch.signedXml !== undefined) set.signed_xml = patch.signedXml;
  if (patch.zip !== undefined) set.zip = patch.zip == null ? null : Buffer.from(patch.zip.buffer, patch.zip.byteOffset, patch.zip.byteLength);
  if (patch.dianAnswer !== undefined) set.dian_answer = patch.dianAnswer === null ? null : JSON.stringify(patch.dianAnswer);
  if (patch.attachedDocument !== undefined) set.attached_document = patch.attachedDocument;
  if (patch.response !== undefined) set.response = patch.response === null ? null : JSON.stringify(patch.response);
  return set;
}

/** The event store over the DIAN storage's Kysely instance. */
export function createDianEventStore(anyDb: Kysely<unknown>, dialect: Dialect, clock: Clock): EventStore {
  const db = anyDb as unknown as Kysely<DianEventTables>;
  const now = () => clock().getTime();
  const fresh = {
    state: 'building',
    cude: null,
    signed_xml: null,
    zip: null,
    dian_answer: null,
    attached_document: null,
    response: null,
  } as const;
  return {
    async reserveEvent(input) {
      const attempt = () =>
        runTransaction(db, dialect, async (q) => {
          for (;;) {
            const existing = await q
              .selectFrom('dian_events')
              .selectAll()
              .where('company_id', '=', input.companyId)
              .where('number', '=', input.number)
              .executeTakeFirst();
            const t = now();
            if (existing) {
              const ev = record(existing as EventRow & { id: number });
              if (ev.state !== 'rejected') return { outcome: ev.requestHash === input.requestHash ? ('same' as const) : ('different' as const), event: ev };
              const row = await q
                .updateTable('dian_events')
                .set({ ...fresh, event_code: input.code, request_hash: input.requestHash, document_key: input.documentKey, updated_at: t })
                .where('id', '=', ev.id)
                // Only while still rejected (a concurrent takeover committed first: read the row again).
                .where('state', '=', 'rejected')
                .returningAll()
                .executeTakeFirst();
              if (!row) continue;
              return { outcome: 'reserved' as const, event: record(row as EventRow & { id: number }) };
            }
            const row = await q
              .insertInto('dian_events')
              .values({
                ...fresh,
                company_id: input.companyId,
                event_code: input.code,
                number: input.number,
                request_hash: input.requestHash,
                document_key: input.documentKey,
                created_at: t,
                updated_at: t,
              })
              .returningAll()
              .executeTakeFirstOrThrow();
            return { outcome: 'reserved' as const, event: record(row as EventRow & { id: number }) };
          }
        });
      try {
        return await attempt();
      } catch (e) {
        if (isUniqueViolation(e)) return attempt();
        throw e;
      }
    },
    async updateEvent(id, patch) {
      const row = await db
        .updateTable('dian_events')
        .set(eventSet(patch, now()) as never)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return record(row as EventRow & { id: number });
    },
    async claimEvent(id, expected, patch) {
      const t = expected.updatedAt === undefined ? now() : Math.max(now(), expected.updatedAt + 1);
      let q = db
        .updateTable('dian_events')
        .set(eventSet(patch, t) as never)
        .where('id', '=', id)
        .where('state', '=', expected.state);
      if (expected.updatedAt !== undefined) q = q.where('updated_at', '=', expected.updatedAt);
      const row = await q.returningAll().executeTakeFirst();
      return row ? record(row as EventRow & { id: number }) : null;
    },
    async releaseEvent(id) {
      await db.deleteFrom('dian_events').where('id', '=', id).where('state', 'in', ['building', 'sending']).execute();
    },
    async getEventByNumber(companyId, number) {
      const row = await db.selectFrom('dian_events').selectAll().where('company_id', '=', companyId).where('number', '=', number).executeTakeFirst();
      return row ? record(row as EventRow & { id: number }) : null;
    },
  };
}
