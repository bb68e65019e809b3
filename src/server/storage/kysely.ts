/**
 * The query layer both adapters share. An adapter supplies a Kysely instance and its dialect; everything
 * else (row mapping, reservation, leases, voiding) lives here once.
 *
 * Transactions are driven by hand on one connection (`db.connection()`): SQLite needs `BEGIN IMMEDIATE`
 * (take the write lock up front, so two processes queue on busy_timeout instead of failing when a read
 * transaction tries to upgrade), which Kysely's own transaction API does not issue. On SQLite the single
 * connection is guarded by Kysely's mutex for the whole callback, so concurrent async callers in one
 * process never interleave inside a transaction. On PostgreSQL the reservation locks its sequence rows
 * with `SELECT … FOR UPDATE`, which serialises server processes sharing the database.
 *
 * Every query inside a transaction must go through the callback's `q`, never `db`: on SQLite `db` would
 * wait for the mutex the transaction holds.
 */
import { sql, type Generated, type Kysely } from 'kysely';
import { composeEncf, MAX_CONSECUTIVE, parseEncf, type EcfType } from '../../index.js';
import { mergeRanges } from '../ranges.js';
import { isStorageUnavailable } from './errors.js';
import { runMigrations, type Dialect } from './migrations.js';
import type {
  ApprovalState, DocumentApproval, DocumentFilter, DocumentPatch, DocumentRecord, EncfRefusal, InboundStorage, InboundToken, Issuer,
  NewDocument, NewIssuer, NewSequence, ReceiptReason, ReceiptState, ReceivedDocument, SequenceRecord, Storage, SubmissionRecord,
  TokenRecord, VoidBatch,
} from './types.js';

type Bool = number | boolean;
type Big = number | string;

interface IssuersTable {
  id: Generated<number>;
  rnc: string;
  name: string;
  profile: string;
  signing_mode: string;
  certificate: Uint8Array | null;
  certificate_info: string | null;
  created_at: number;
}
interface TokensTable {
  id: Generated<number>;
  issuer_id: number;
  hash: string;
  label: string | null;
  created_at: number;
  revoked_at: number | null;
}
interface SequencesTable {
  id: Generated<number>;
  issuer_id: number;
  tipo: string;
  first_number: number;
  last_number: number;
  next_number: number;
  expires_on: string | null;
  active: Bool;
  created_at: number;
}
interface DocumentsTable {
  id: Generated<number>;
  issuer_id: number;
  tipo: string;
  encf: string;
  consecutive: number;
  status: string;
  source: string;
  unsigned_xml: string;
  signed_xml: string | null;
  rfce_xml: string | null;
  summary: Bool;
  security_code: string | null;
  track_id: string | null;
  issued_at: string;
  issued_on: string;
  signed_at: string | null;
  total_amount: string;
  total_itbis: string;
  sequence_reusable: Bool | null;
  errors: string | null;
  authority_state: string | null;
  transmission: string;
  send_attempts: number;
  attempts: number;
  not_found_polls: Generated<number>;
  next_attempt_at: number | null;
  lease_owner: string | null;
  lease_until: number | null;
  created_at: number;
  updated_at: number;
}
interface SubmissionsTable {
  id: Generated<number>;
  document_id: number;
  kind: string;
  track_id: string | null;
  state: string | null;
  at: number;
}
interface VoidBatchesTable {
  id: Generated<number>;
  issuer_id: number;
  lote: string;
  accepted: Bool | null;
  messages: string;
  created_at: number;
  updated_at: number;
}
interface VoidRangesTable {
  id: Generated<number>;
  batch_id: number;
  issuer_id: number;
  tipo: string;
  first_number: number;
  last_number: number;
}

interface ReceivedDocumentsTable {
  id: Generated<number>;
  issuer_id: number;
  emisor_rnc: string;
  emisor_name: string | null;
  encf: string;
  tipo: string;
  fecha_emision: string;
  issued_on: string;
  monto_total: string;
  total_itbis: string | null;
  xml: string;
  arecf_xml: string;
  estado: number;
  motivo: number | null;
  received_at: number;
  approval_estado: number | null;
  approval_motivo: string | null;
  approval_xml: string | null;
  approval_sent_at: number | null;
  approval_outcome: string | null;
  updated_at: number;
  sender_fingerprint: string | null;
}
interface DocumentApprovalsTable {
  id: Generated<number>;
  document_id: number;
  estado: number;
  motivo: string | null;
  rnc_comprador: string;
  acecf_xml: string;
  received_at: number;
  signer_fingerprint: string | null;
}
interface InboundSeedsTable {
  valor: string;
  scope: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
interface InboundTokensTable {
  hash: string;
  scope: string;
  subject: string;
  created_at: number;
  expires_at: number;
  principals: string | null;
}

export interface Database {
  issuers: IssuersTable;
  tokens: TokensTable;
  sequences: SequencesTable;
  documents: DocumentsTable;
  submissions: SubmissionsTable;
  void_batches: VoidBatchesTable;
  void_ranges: VoidRangesTable;
  received_documents: ReceivedDocumentsTable;
  document_approvals: DocumentApprovalsTable;
  inbound_seeds: InboundSeedsTable;
  inbound_tokens: InboundTokensTable;
}

type Row<T> = { [K in keyof T]: T[K] extends Generated<infer U> ? U : T[K] };
type IssuerRow = Row<IssuersTable>;
type TokenRow = Row<TokensTable>;
type SequenceRow = Row<SequencesTable>;
type DocumentRow = Row<DocumentsTable>;
type SubmissionRow = Row<SubmissionsTable>;
type VoidBatchRow = Row<VoidBatchesTable>;

/** Used consecutives are read ahead in chunks of this size while looking for a free one. */
const USED_CHUNK = 256;
export { composeEncf, MAX_CONSECUTIVE };

/** Thrown on a uniqueness conflict the caller can explain (e.g. an issuer with that RNC exists). */
export class StorageConflictError extends Error {
  readonly code = 'conflict';
  override readonly name = 'StorageConflictError';
}

/** Thrown when a record addressed by id does not exist. */
export class StorageNotFoundError extends Error {
  readonly code = 'not_found';
  override readonly name = 'StorageNotFoundError';
}

function num(v: Big): number {
  return typeof v === 'number' ? v : Number(v);
}
function numOrNull(v: Big | null): number | null {
  return v === null || v === undefined ? null : num(v);
}
function boolOrNull(v: Bool | null): boolean | null {
  return v === null || v === undefined ? null : Boolean(v);
}
function bytes(v: Uint8Array | null): Uint8Array | null {
  // Copy out of the driver's Buffer so callers get a plain Uint8Array they own.
  return v === null || v === undefined ? null : new Uint8Array(v);
}
function json<T>(v: string | null): T | null {
  return v === null || v === undefined ? null : (JSON.parse(v) as T);
}

/** `dd-MM-yyyy` → `yyyy-MM-dd` (for range filters); other shapes are kept as given. */
function isoDay(ddmmyyyy: string): string {
  const m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(ddmmyyyy);
  return m ? `${m[3]}-${m[2]}-${m[1]}` : ddmmyyyy;
}

function toIssuer(r: IssuerRow): Issuer {
  return {
    id: num(r.id),
    rnc: r.rnc,
    name: r.name,
    profile: json<Record<string, unknown>>(r.profile) ?? {},
    signingMode: r.signing_mode as Issuer['signingMode'],
    certificate: bytes(r.certificate),
    certificateInfo: json<Record<string, unknown>>(r.certificate_info),
    createdAt: num(r.created_at),
  };
}
function toToken(r: TokenRow): TokenRecord {
  return {
    id: num(r.id), issuerId: num(r.issuer_id), hash: r.hash, label: r.label,
    createdAt: num(r.created_at), revokedAt: numOrNull(r.revoked_at),
  };
}
function toSequence(r: SequenceRow): SequenceRecord {
  return {
    id: num(r.id), issuerId: num(r.issuer_id), tipo: r.tipo as EcfType,
    from: num(r.first_number), to: num(r.last_number), next: num(r.next_number),
    expiresOn: r.expires_on, active: Boolean(r.active), createdAt: num(r.created_at),
  };
}
function toDocument(r: DocumentRow): DocumentRecord {
  return {
    id: num(r.id),
    issuerId: num(r.issuer_id),
    tipo: r.tipo as EcfType,
    encf: r.encf,
    status: r.status as DocumentRecord['status'],
    source: r.source as DocumentRecord['source'],
    unsignedXml: r.unsigned_xml,
    signedXml: r.signed_xml,
    rfceXml: r.rfce_xml,
    summary: Boolean(r.summary),
    securityCode: r.security_code,
    trackId: r.track_id,
    issuedAt: r.issued_at,
    signedAt: r.signed_at,
    totalAmount: r.total_amount,
    totalItbis: r.total_itbis,
    sequenceReusable: boolOrNull(r.sequence_reusable),
    errors: json<string[]>(r.errors),
    authorityState: r.authority_state,
    transmission: r.transmission as DocumentRecord['transmission'],
    sendAttempts: num(r.send_attempts),
    attempts: num(r.attempts),
    notFoundPolls: num(r.not_found_polls),
    nextAttemptAt: numOrNull(r.next_attempt_at),
    leaseOwner: r.lease_owner,
    leaseUntil: numOrNull(r.lease_until),
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
  };
}
function toSubmission(r: SubmissionRow): SubmissionRecord {
  return {
    id: num(r.id), documentId: num(r.document_id), kind: r.kind as SubmissionRecord['kind'],
    trackId: r.track_id, state: r.state, at: num(r.at),
  };
}

/** True for a unique-constraint violation on either engine. */
function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string } | null;
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || err?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export interface KyselyStorageOptions {
  db: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL schema to create during migrate(). */
  schema?: string;
  /** Releases the underlying connection(s). */
  destroy: () => Promise<void>;
}

/**
 * Builds the Storage over a Kysely instance. Returns a plain object of functions (not a class instance),
 * so callers may wrap it with `{ ...storage, method }`.
 */
/** How long a COMMIT whose connection was lost waits for the database to tell whether it happened. */
const COMMIT_CONFIRM_MS = 15_000;

export function createKyselyStorage(options: KyselyStorageOptions): Storage {
  const { db, dialect } = options;
  const pg = dialect === 'postgres';
  /** Booleans as the engine stores them. */
  const b = (v: boolean): Bool => (pg ? v : v ? 1 : 0);
  const bOrNull = (v: boolean | null): Bool | null => (v === null ? null : b(v));
  const blob = (v: Uint8Array | null): Uint8Array | null => (v === null ? null : Buffer.from(v.buffer, v.byteOffset, v.byteLength));
  let closed = false;

  /**
   * Runs `fn` in one transaction. When the connection is lost during COMMIT (the database restarts or
   * crashes), the commit may or may not have happened; with `confirm`, the outcome is then looked up once the
   * database answers again (for up to COMMIT_CONFIRM_MS), and a commit that did happen returns its result
   * instead of an error, so a caller is never told "failed" about data that was stored.
   */
  async function tx<T>(fn: (q: Kysely<Database>) => Promise<T>, confirm?: (result: T) => Promise<boolean>): Promise<T> {
    let committing: { result: T } | null = null;
    try {
      return await db.connection().execute(async (q) => {
        await sql.raw(pg ? 'BEGIN' : 'BEGIN IMMEDIATE').execute(q);
        let result: T;
        try {
          result = await fn(q);
        } catch (e) {
          await sql.raw('ROLLBACK').execute(q).catch(() => undefined);
          throw e;
        }
        try {
          committing = { result };
          await sql.raw('COMMIT').execute(q);
        } catch (e) {
          await sql.raw('ROLLBACK').execute(q).catch(() => undefined);
          throw e;
        }
        return result;
      });
    } catch (e) {
      const pending = committing as { result: T } | null;
      if (!pending || !confirm || !isStorageUnavailable(e)) throw e;
      const deadline = Date.now() + COMMIT_CONFIRM_MS;
      for (let attempt = 0; Date.now() < deadline; attempt++) {
        try {
          if (await confirm(pending.result)) return pending.result;
          throw e; // the database answers and the data is not there: the commit did not happen
        } catch (inner) {
          if (inner === e || !isStorageUnavailable(inner)) throw e;
          await new Promise((r) => setTimeout(r, Math.min(1_000, 100 * 2 ** attempt)));
        }
      }
      throw e;
    }
  }

  /** Whether `rec` was committed: the same row (id, e-NCF, XML, creation instant) is there. */
  async function documentStored(rec: DocumentRecord): Promise<boolean> {
    const row = await db.selectFrom('documents').select(['encf', 'unsigned_xml', 'created_at']).where('id', '=', rec.id).executeTakeFirst();
    return !!row && row.encf === rec.encf && row.unsigned_xml === rec.unsignedXml && Number(row.created_at) === rec.createdAt;
  }

  async function issuerById(q: Kysely<Database>, id: number): Promise<Issuer | null> {
    const r = await q.selectFrom('issuers').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? toIssuer(r) : null;
  }

  async function voidBatchesWithRanges(q: Kysely<Database>, rows: VoidBatchRow[]): Promise<VoidBatch[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => num(r.id));
    const ranges = await q.selectFrom('void_ranges').selectAll().where('batch_id', 'in', ids).orderBy('id').execute();
    const byBatch = new Map<number, VoidBatch['ranges']>();
    for (const r of ranges) {
      const list = byBatch.get(num(r.batch_id)) ?? [];
      list.push({ tipo: r.tipo as EcfType, from: num(r.first_number), to: num(r.last_number) });
      byBatch.set(num(r.batch_id), list);
    }
    return rows.map((r) => ({
      id: num(r.id),
      issuerId: num(r.issuer_id),
      lote: r.lote,
      accepted: boolOrNull(r.accepted),
      messages: json<string[]>(r.messages) ?? [],
      ranges: byBatch.get(num(r.id)) ?? [],
      createdAt: num(r.created_at),
      updatedAt: num(r.updated_at),
    }));
  }

  /** Ranges that withhold consecutives (batch accepted or still pending), merged, overlapping [from, to]. */
  async function blockingRanges(q: Kysely<Database>, issuerId: number, tipo: EcfType, from: number, to: number) {
    const rows = await q.selectFrom('void_ranges as r')
      .innerJoin('void_batches as vb', 'vb.id', 'r.batch_id')
      .select(['r.first_number', 'r.last_number'])
      .where('r.issuer_id', '=', issuerId)
      .where('r.tipo', '=', tipo)
      .where('r.last_number', '>=', from)
      .where('r.first_number', '<=', to)
      .where((eb) => eb.or([eb('vb.accepted', 'is', null), eb('vb.accepted', '=', b(true))]))
      .execute();
    return mergeRanges(rows.map((r) => ({ from: num(r.first_number), to: num(r.last_number) })));
  }

  /**
   * The first consecutive in [start, end] neither used by a document nor withheld by a void range, or
   * null. Void ranges are jumped over whole; used numbers are read ahead in sorted chunks.
   */
  async function firstFree(q: Kysely<Database>, issuerId: number, tipo: EcfType, start: number, end: number): Promise<number | null> {
    const ranges = await blockingRanges(q, issuerId, tipo, start, end);
    let ri = 0;
    let used: number[] | null = null;
    let ui = 0;
    let complete = false;
    let n = start;
    while (n <= end) {
      while (ri < ranges.length && ranges[ri]!.to < n) ri++;
      if (ri < ranges.length && ranges[ri]!.from <= n) {
        n = ranges[ri]!.to + 1;
        continue;
      }
      if (used === null) {
        const rows = await q.selectFrom('documents').select('consecutive')
          .where('issuer_id', '=', issuerId).where('tipo', '=', tipo)
          .where('consecutive', '>=', n).where('consecutive', '<=', end)
          .orderBy('consecutive').limit(USED_CHUNK).execute();
        used = rows.map((r) => num(r.consecutive));
        ui = 0;
        complete = used.length < USED_CHUNK;
      }
      while (ui < used.length && used[ui]! < n) ui++;
      if (ui >= used.length && !complete) {
        used = null; // read the next chunk from n
        continue;
      }
      if (ui < used.length && used[ui] === n) {
        n++;
        continue;
      }
      return n;
    }
    return null;
  }

  async function insertDocument(q: Kysely<Database>, issuerId: number, tipo: EcfType, encf: string, consecutive: number, doc: NewDocument): Promise<DocumentRecord> {
    const now = Date.now();
    const row = await q.insertInto('documents').values({
      issuer_id: issuerId,
      tipo,
      encf,
      consecutive,
      status: 'received',
      source: doc.source,
      unsigned_xml: doc.unsignedXml,
      signed_xml: null,
      rfce_xml: null,
      summary: b(doc.summary),
      security_code: null,
      track_id: null,
      issued_at: doc.issuedAt,
      issued_on: isoDay(doc.issuedAt),
      signed_at: null,
      total_amount: doc.totalAmount,
      total_itbis: doc.totalItbis,
      sequence_reusable: null,
      errors: null,
      authority_state: null,
      transmission: 'pending',
      send_attempts: 0,
      attempts: 0,
      next_attempt_at: doc.nextAttemptAt ?? now,
      lease_owner: null,
      lease_until: null,
      created_at: now,
      updated_at: now,
    }).returningAll().executeTakeFirstOrThrow();
    return toDocument(row);
  }

  const storage: Storage = {
    ...createInboundQueries(db),

    async migrate() {
      await db.connection().execute((q) => runMigrations(q, dialect, { schema: options.schema }));
    },

    async close() {
      if (closed) return;
      closed = true;
      await options.destroy();
    },

    async createIssuer(input: NewIssuer) {
      try {
        const row = await db.insertInto('issuers').values({
          rnc: input.rnc,
          name: input.name,
          profile: JSON.stringify(input.profile ?? {}),
          signing_mode: input.signingMode,
          certificate: null,
          certificate_info: null,
          created_at: Date.now(),
        }).returningAll().executeTakeFirstOrThrow();
        return toIssuer(row);
      } catch (e) {
        if (isUniqueViolation(e)) throw new StorageConflictError(`an issuer with RNC ${input.rnc} already exists`);
        throw e;
      }
    },

    getIssuer: (id) => issuerById(db, id),

    async getIssuerByRnc(rnc) {
      const r = await db.selectFrom('issuers').selectAll().where('rnc', '=', rnc).executeTakeFirst();
      return r ? toIssuer(r) : null;
    },

    async listIssuers() {
      return (await db.selectFrom('issuers').selectAll().orderBy('id').execute()).map(toIssuer);
    },

    async updateIssuer(id, patch) {
      const set: Partial<IssuerRow> = {};
      if (patch.name !== undefined) set.name = patch.name;
      if (patch.profile !== undefined) set.profile = JSON.stringify(patch.profile);
      if (patch.signingMode !== undefined) set.signing_mode = patch.signingMode;
      if (patch.certificate !== undefined) set.certificate = blob(patch.certificate);
      if (patch.certificateInfo !== undefined) set.certificate_info = patch.certificateInfo === null ? null : JSON.stringify(patch.certificateInfo);
      if (Object.keys(set).length > 0) await db.updateTable('issuers').set(set).where('id', '=', id).execute();
      const issuer = await issuerById(db, id);
      if (!issuer) throw new StorageNotFoundError(`issuer ${id} not found`);
      return issuer;
    },

    async addToken(issuerId, hash, label = null) {
      try {
        const row = await db.insertInto('tokens').values({
          issuer_id: issuerId, hash, label: label ?? null, created_at: Date.now(), revoked_at: null,
        }).returningAll().executeTakeFirstOrThrow();
        return toToken(row);
      } catch (e) {
        if (isUniqueViolation(e)) throw new StorageConflictError('a token with that hash already exists');
        throw e;
      }
    },

    async findToken(hash) {
      const t = await db.selectFrom('tokens').selectAll().where('hash', '=', hash).where('revoked_at', 'is', null).executeTakeFirst();
      if (!t) return null;
      const issuer = await issuerById(db, num(t.issuer_id));
      return issuer ? { token: toToken(t), issuer } : null;
    },

    async revokeToken(id) {
      const r = await db.updateTable('tokens').set({ revoked_at: Date.now() })
        .where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async listTokens(issuerId) {
      return (await db.selectFrom('tokens').selectAll().where('issuer_id', '=', issuerId).orderBy('id').execute()).map(toToken);
    },

    async addSequence(issuerId, input: NewSequence) {
      const { from, to } = input;
      if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 1 || to > MAX_CONSECUTIVE || from > to) {
        throw new RangeError(`invalid sequence bounds ${from}…${to} (1 ≤ from ≤ to ≤ ${MAX_CONSECUTIVE})`);
      }
      if (input.expiresOn !== null && !/^\d{4}-\d{2}-\d{2}$/.test(input.expiresOn)) {
        throw new RangeError(`invalid expiry ${JSON.stringify(input.expiresOn)} (expected yyyy-MM-dd or null)`);
      }
      const row = await db.insertInto('sequences').values({
        issuer_id: issuerId, tipo: input.tipo, first_number: from, last_number: to, next_number: from,
        expires_on: input.expiresOn, active: b(input.active ?? true), created_at: Date.now(),
      }).returningAll().executeTakeFirstOrThrow();
      return toSequence(row);
    },

    async listSequences(issuerId) {
      const rows = await db.selectFrom('sequences').selectAll().where('issuer_id', '=', issuerId)
        .orderBy('tipo').orderBy('first_number').orderBy('id').execute();
      return rows.map(toSequence);
    },

    async setSequenceActive(id, active) {
      await db.updateTable('sequences').set({ active: b(active) }).where('id', '=', id).execute();
    },

    async reserveAndInsert(issuerId, tipo, today, make) {
      return tx(async (q) => {
        let query = q.selectFrom('sequences').selectAll()
          .where('issuer_id', '=', issuerId)
          .where('tipo', '=', tipo)
          .where('active', '=', b(true))
          .where((eb) => eb.or([eb('expires_on', 'is', null), eb('expires_on', '>=', today)]))
          .whereRef('next_number', '<=', 'last_number')
          .orderBy('first_number').orderBy('id');
        // Rows are locked in this order by every locker, so concurrent reservations cannot deadlock.
        if (pg) query = query.forUpdate();
        const candidates = await query.execute();
        for (const row of candidates) {
          const n = await firstFree(q, issuerId, tipo, num(row.next_number), num(row.last_number));
          if (n === null) continue;
          const encf = composeEncf(tipo, n);
          const doc = await make(encf, toSequence({ ...row, next_number: n + 1 }));
          await q.updateTable('sequences').set({ next_number: n + 1 }).where('id', '=', row.id).execute();
          return insertDocument(q, issuerId, tipo, encf, n, doc);
        }
        return null;
      }, (rec) => (rec ? documentStored(rec) : Promise.resolve(false)));
    },

    async insertWithEncf(issuerId, tipo, encf, today, doc) {
      const parts = parseEncf(encf);
      if (!parts || parts.tipo !== tipo) return { refused: 'outside_sequence' as EncfRefusal };
      const n = parts.consecutive;
      try {
        return await tx(async (q): Promise<DocumentRecord | { refused: EncfRefusal }> => {
          const seqs = await q.selectFrom('sequences').selectAll()
            .where('issuer_id', '=', issuerId).where('tipo', '=', tipo)
            .orderBy('first_number').orderBy('id').execute();
          if (seqs.length === 0) return { refused: 'no_sequence' };
          const containing = seqs.filter((s) => num(s.first_number) <= n && n <= num(s.last_number));
          if (containing.length === 0) return { refused: 'outside_sequence' };
          const usable = containing.find((s) => Boolean(s.active) && (s.expires_on === null || s.expires_on >= today));
          if (!usable) return { refused: containing.some((s) => Boolean(s.active)) ? 'expired' : 'inactive' };
          if (pg) await q.selectFrom('sequences').select('id').where('id', '=', usable.id).forUpdate().execute();
          const dup = await q.selectFrom('documents').select('id').where('issuer_id', '=', issuerId).where('encf', '=', encf).executeTakeFirst();
          if (dup) return { refused: 'duplicate' };
          if ((await blockingRanges(q, issuerId, tipo, n, n)).length > 0) return { refused: 'voided' };
          return insertDocument(q, issuerId, tipo, encf, n, doc);
        }, (r) => ('refused' in r ? Promise.resolve(false) : documentStored(r)));
      } catch (e) {
        if (isUniqueViolation(e)) return { refused: 'duplicate' };
        throw e;
      }
    },

    async getDocument(id) {
      const r = await db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst();
      return r ? toDocument(r) : null;
    },

    async getDocumentByEncf(issuerId, encf) {
      const r = await db.selectFrom('documents').selectAll().where('issuer_id', '=', issuerId).where('encf', '=', encf).executeTakeFirst();
      return r ? toDocument(r) : null;
    },

    async listDocuments(issuerId, filter: DocumentFilter) {
      let query = db.selectFrom('documents').selectAll().where('issuer_id', '=', issuerId);
      if (filter.status !== undefined) query = query.where('status', '=', filter.status);
      if (filter.tipo !== undefined) query = query.where('tipo', '=', filter.tipo);
      if (filter.issuedFrom !== undefined) query = query.where('issued_on', '>=', filter.issuedFrom);
      if (filter.issuedTo !== undefined) query = query.where('issued_on', '<=', filter.issuedTo);
      if (filter.cursor !== undefined) query = query.where('id', '<', filter.cursor);
      const limit = Math.max(0, Math.floor(filter.limit));
      if (limit === 0) return [];
      return (await query.orderBy('id', 'desc').limit(limit).execute()).map(toDocument);
    },

    async updateDocument(id, patch: DocumentPatch, leaseOwner?: string) {
      const set: Partial<DocumentRow> = { updated_at: Date.now() };
      if (patch.status !== undefined) set.status = patch.status;
      if (patch.signedXml !== undefined) set.signed_xml = patch.signedXml;
      if (patch.rfceXml !== undefined) set.rfce_xml = patch.rfceXml;
      if (patch.securityCode !== undefined) set.security_code = patch.securityCode;
      if (patch.trackId !== undefined) set.track_id = patch.trackId;
      if (patch.signedAt !== undefined) set.signed_at = patch.signedAt;
      if (patch.sequenceReusable !== undefined) set.sequence_reusable = bOrNull(patch.sequenceReusable);
      if (patch.errors !== undefined) set.errors = patch.errors === null ? null : JSON.stringify(patch.errors);
      if (patch.authorityState !== undefined) set.authority_state = patch.authorityState;
      if (patch.transmission !== undefined) set.transmission = patch.transmission;
      if (patch.sendAttempts !== undefined) set.send_attempts = patch.sendAttempts;
      if (patch.attempts !== undefined) set.attempts = patch.attempts;
      if (patch.notFoundPolls !== undefined) set.not_found_polls = patch.notFoundPolls;
      if (patch.nextAttemptAt !== undefined) set.next_attempt_at = patch.nextAttemptAt;
      if (patch.leaseOwner !== undefined) set.lease_owner = patch.leaseOwner;
      if (patch.leaseUntil !== undefined) set.lease_until = patch.leaseUntil;
      let query = db.updateTable('documents').set(set).where('id', '=', id);
      // The guard is "nobody else took the lease", not a clock comparison: storage has no clock of its
      // own, and an expired lease nobody re-claimed harms no one. A re-claim changes the owner.
      if (leaseOwner !== undefined) query = query.where('lease_owner', '=', leaseOwner);
      const row = await query.returningAll().executeTakeFirst();
      return row ? toDocument(row) : null;
    },

    async claimDue(now, owner, leaseMs, limit) {
      const n = Math.max(0, Math.floor(limit));
      if (n === 0) return [];
      const until = now + leaseMs;
      let rows: DocumentRow[];
      if (pg) {
        // SKIP LOCKED: concurrent claimers take disjoint sets instead of waiting; a row another claimer
        // committed meanwhile is re-checked against the WHERE (its new lease) before it is taken.
        const r = await sql<DocumentRow>`
          WITH due AS (
            SELECT id FROM documents
            WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ${now}
              AND (lease_until IS NULL OR lease_until <= ${now})
            ORDER BY next_attempt_at, id
            LIMIT ${n}
            FOR UPDATE SKIP LOCKED
          )
          UPDATE documents AS d SET lease_owner = ${owner}, lease_until = ${until}
          FROM due WHERE d.id = due.id
          RETURNING d.*`.execute(db);
        rows = r.rows;
      } else {
        rows = await tx(async (q) => {
          const due = await q.selectFrom('documents').select('id')
            .where('next_attempt_at', 'is not', null)
            .where('next_attempt_at', '<=', now)
            .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
            .orderBy('next_attempt_at').orderBy('id').limit(n).execute();
          if (due.length === 0) return [];
          return q.updateTable('documents').set({ lease_owner: owner, lease_until: until })
            .where('id', 'in', due.map((d) => d.id)).returningAll().execute();
        });
      }
      return rows.map(toDocument).sort((a, b2) => (a.nextAttemptAt! - b2.nextAttemptAt!) || a.id - b2.id);
    },

    async addSubmission(documentId, kind, trackId, state) {
      const row = await db.insertInto('submissions').values({
        document_id: documentId, kind, track_id: trackId, state, at: Date.now(),
      }).returningAll().executeTakeFirstOrThrow();
      return toSubmission(row);
    },

    async listSubmissions(documentId) {
      return (await db.selectFrom('submissions').selectAll().where('document_id', '=', documentId).orderBy('id').execute()).map(toSubmission);
    },

    async findIssuedInRanges(issuerId, ranges, limit) {
      let left = Math.max(0, Math.floor(limit));
      const found: string[] = [];
      const tipos = [...new Set(ranges.map((r) => r.tipo))].sort();
      for (const tipo of tipos) {
        const merged = mergeRanges(ranges.filter((r) => r.tipo === tipo));
        // A bounded OR of BETWEENs per statement: each one is an index range scan.
        for (let i = 0; i < merged.length && left > 0; i += 200) {
          const chunk = merged.slice(i, i + 200);
          const rows = await db.selectFrom('documents').select('encf')
            .where('issuer_id', '=', issuerId).where('tipo', '=', tipo)
            .where((eb) => eb.or(chunk.map((r) => eb.between('consecutive', r.from, r.to))))
            .orderBy('consecutive').limit(left).execute();
          for (const r of rows) found.push(r.encf);
          left -= rows.length;
        }
      }
      return found;
    },

    async createVoidBatch(issuerId, lote, ranges) {
      for (const r of ranges) {
        if (!Number.isSafeInteger(r.from) || !Number.isSafeInteger(r.to) || r.from < 1 || r.to > MAX_CONSECUTIVE || r.from > r.to) {
          throw new RangeError(`invalid void range ${r.tipo} ${r.from}…${r.to}`);
        }
      }
      return tx(async (q) => {
        const tipos = [...new Set(ranges.map((r) => r.tipo))].sort();
        // Lock the affected sequences (same order as reservations) so no reservation of those types is
        // half-way while the ranges appear.
        if (pg && tipos.length > 0) {
          await q.selectFrom('sequences').select('id').where('issuer_id', '=', issuerId).where('tipo', 'in', tipos)
            .orderBy('tipo').orderBy('first_number').orderBy('id').forUpdate().execute();
        }
        const now = Date.now();
        const batch = await q.insertInto('void_batches').values({
          issuer_id: issuerId, lote, accepted: null, messages: '[]', created_at: now, updated_at: now,
        }).returningAll().executeTakeFirstOrThrow();
        const rows = ranges.map((r) => ({
          batch_id: num(batch.id), issuer_id: issuerId, tipo: r.tipo, first_number: r.from, last_number: r.to,
        }));
        // Chunked: up to 10 types × 10,000 ranges, and engines cap bound parameters per statement.
        for (let i = 0; i < rows.length; i += 500) await q.insertInto('void_ranges').values(rows.slice(i, i + 500)).execute();
        return (await voidBatchesWithRanges(q, [batch]))[0]!;
      });
    },

    async settleVoidBatch(id, accepted, messages) {
      return tx(async (q) => {
        const batch = await q.updateTable('void_batches')
          .set({ accepted: b(accepted), messages: JSON.stringify(messages), updated_at: Date.now() })
          .where('id', '=', id).returningAll().executeTakeFirst();
        if (!batch) throw new StorageNotFoundError(`void batch ${id} not found`);
        const [settled] = await voidBatchesWithRanges(q, [batch]);
        if (accepted) {
          // Pointers inside a voided range jump past it. Ranges in ascending order, so a pointer moved
          // to the start of the following range is carried on by it.
          const sorted = [...settled!.ranges].sort((a, c) => a.tipo.localeCompare(c.tipo) || a.from - c.from);
          for (const r of sorted) {
            await q.updateTable('sequences').set({ next_number: r.to + 1 })
              .where('issuer_id', '=', settled!.issuerId).where('tipo', '=', r.tipo)
              .where('next_number', '>=', r.from).where('next_number', '<=', r.to)
              .execute();
          }
        }
        return settled!;
      });
    },

    async listVoidBatches(issuerId, limit) {
      const n = Math.max(0, Math.floor(limit));
      if (n === 0) return [];
      const rows = await db.selectFrom('void_batches').selectAll().where('issuer_id', '=', issuerId).orderBy('id', 'desc').limit(n).execute();
      return voidBatchesWithRanges(db, rows);
    },
  };
  return storage;
}

// ---------------------------------------------------------------------------------------------------------
// Inbound services. Each operation is one statement (no transaction), so it runs the same on both engines
// and concurrent processes agree through the unique keys and conditional updates alone.

type ReceivedRow = Row<ReceivedDocumentsTable>;
type ApprovalRow = Row<DocumentApprovalsTable>;

function toReceived(r: ReceivedRow): ReceivedDocument {
  return {
    id: num(r.id),
    issuerId: num(r.issuer_id),
    emisorRnc: r.emisor_rnc,
    emisorName: r.emisor_name,
    encf: r.encf,
    tipo: r.tipo as EcfType,
    fechaEmision: r.fecha_emision,
    montoTotal: r.monto_total,
    totalItbis: r.total_itbis,
    xml: r.xml,
    arecfXml: r.arecf_xml,
    estado: num(r.estado) as ReceiptState,
    motivo: numOrNull(r.motivo) as ReceiptReason | null,
    receivedAt: num(r.received_at),
    approvalEstado: numOrNull(r.approval_estado) as ApprovalState | null,
    approvalMotivo: r.approval_motivo,
    approvalXml: r.approval_xml,
    approvalSentAt: numOrNull(r.approval_sent_at),
    approvalOutcome: json<Record<string, unknown>>(r.approval_outcome),
    updatedAt: num(r.updated_at),
    senderFingerprint: r.sender_fingerprint ?? null,
  };
}

function toApproval(r: ApprovalRow): DocumentApproval {
  return {
    id: num(r.id),
    documentId: num(r.document_id),
    estado: num(r.estado) as ApprovalState,
    motivo: r.motivo,
    rncComprador: r.rnc_comprador,
    acecfXml: r.acecf_xml,
    receivedAt: num(r.received_at),
    signerFingerprint: r.signer_fingerprint ?? null,
  };
}

function toInboundToken(r: InboundTokensTable): InboundToken {
  const token: InboundToken = { hash: r.hash, scope: r.scope, subject: r.subject, createdAt: num(r.created_at), expiresAt: num(r.expires_at) };
  const principals = json<string[]>(r.principals);
  if (principals) token.principals = principals;
  return token;
}

function createInboundQueries(db: Kysely<Database>): InboundStorage {
  return {
    async addReceivedDocument(issuerId, doc) {
      const row = await db.insertInto('received_documents').values({
        issuer_id: issuerId,
        emisor_rnc: doc.emisorRnc,
        emisor_name: doc.emisorName,
        encf: doc.encf,
        tipo: doc.tipo,
        fecha_emision: doc.fechaEmision,
        issued_on: isoDay(doc.fechaEmision),
        monto_total: doc.montoTotal,
        total_itbis: doc.totalItbis,
        xml: doc.xml,
        arecf_xml: doc.arecfXml,
        estado: doc.estado,
        motivo: doc.motivo,
        received_at: doc.receivedAt,
        approval_estado: null,
        approval_motivo: null,
        approval_xml: null,
        approval_sent_at: null,
        approval_outcome: null,
        updated_at: Date.now(),
        sender_fingerprint: doc.senderFingerprint ?? null,
      }).onConflict((oc) => oc.columns(['issuer_id', 'emisor_rnc', 'encf']).doNothing())
        .returningAll().executeTakeFirst();
      return row ? toReceived(row) : null;
    },

    async getReceivedDocument(issuerId, encf, emisorRnc) {
      let query = db.selectFrom('received_documents').selectAll().where('issuer_id', '=', issuerId).where('encf', '=', encf);
      if (emisorRnc !== undefined) query = query.where('emisor_rnc', '=', emisorRnc);
      const r = await query.orderBy('id', 'desc').limit(1).executeTakeFirst();
      return r ? toReceived(r) : null;
    },

    async listReceivedDocuments(issuerId, filter) {
      const limit = Math.max(0, Math.floor(filter.limit));
      if (limit === 0) return [];
      let query = db.selectFrom('received_documents').selectAll().where('issuer_id', '=', issuerId);
      if (filter.emisorRnc !== undefined) query = query.where('emisor_rnc', '=', filter.emisorRnc);
      if (filter.tipo !== undefined) query = query.where('tipo', '=', filter.tipo);
      if (filter.encf !== undefined) query = query.where('encf', '=', filter.encf);
      if (filter.from !== undefined) query = query.where('issued_on', '>=', filter.from);
      if (filter.to !== undefined) query = query.where('issued_on', '<=', filter.to);
      if (filter.cursor !== undefined) query = query.where('id', '<', filter.cursor);
      return (await query.orderBy('id', 'desc').limit(limit).execute()).map(toReceived);
    },

    async updateReceivedApproval(id, patch, options = {}) {
      const set: Partial<ReceivedRow> = { updated_at: Date.now() };
      if (patch.approvalEstado !== undefined) set.approval_estado = patch.approvalEstado;
      if (patch.approvalMotivo !== undefined) set.approval_motivo = patch.approvalMotivo;
      if (patch.approvalXml !== undefined) set.approval_xml = patch.approvalXml;
      if (patch.approvalSentAt !== undefined) set.approval_sent_at = patch.approvalSentAt;
      if (patch.approvalOutcome !== undefined) set.approval_outcome = patch.approvalOutcome === null ? null : JSON.stringify(patch.approvalOutcome);
      let query = db.updateTable('received_documents').set(set).where('id', '=', id);
      if (options.onlyIfUnapproved) query = query.where('approval_estado', 'is', null);
      const row = await query.returningAll().executeTakeFirst();
      return row ? toReceived(row) : null;
    },

    async addDocumentApproval(documentId, approval) {
      // The unique key (document_id, rnc_comprador) is the whole decision: of concurrent inserts one wins.
      const row = await db.insertInto('document_approvals').values({
        document_id: documentId,
        estado: approval.estado,
        motivo: approval.motivo,
        rnc_comprador: approval.rncComprador,
        acecf_xml: approval.acecfXml,
        received_at: approval.receivedAt,
        signer_fingerprint: approval.signerFingerprint ?? null,
      }).onConflict((oc) => oc.columns(['document_id', 'rnc_comprador']).doNothing()).returningAll().executeTakeFirst();
      if (row) return { approval: toApproval(row), created: true };
      const existing = await db.selectFrom('document_approvals').selectAll()
        .where('document_id', '=', documentId).where('rnc_comprador', '=', approval.rncComprador).executeTakeFirstOrThrow();
      return { approval: toApproval(existing), created: false };
    },

    async countReceivedFromSender(emisorRnc, since) {
      const r = await db.selectFrom('received_documents').select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
        .where('emisor_rnc', '=', emisorRnc).where('received_at', '>=', since).executeTakeFirstOrThrow();
      return Number(r.n);
    },

    async getDocumentApprovals(documentId) {
      return (await db.selectFrom('document_approvals').selectAll().where('document_id', '=', documentId).orderBy('id').execute()).map(toApproval);
    },

    async useInboundSeed(seed) {
      // The primary key is the whole decision: of concurrent users only one inserts the row.
      const row = await db.insertInto('inbound_seeds').values({
        valor: seed.valor, scope: seed.scope, created_at: seed.createdAt, expires_at: seed.expiresAt, used_at: seed.usedAt,
      }).onConflict((oc) => oc.column('valor').doNothing()).returning('valor').executeTakeFirst();
      return row !== undefined;
    },

    async addInboundSeed(seed) {
      await db.insertInto('inbound_seeds').values({
        valor: seed.valor, scope: seed.scope, created_at: seed.createdAt, expires_at: seed.expiresAt, used_at: null,
      }).execute();
    },

    async consumeInboundSeed(valor, scope, now) {
      // The conditional UPDATE is the whole decision: of concurrent consumers only one matches the row.
      const taken = await db.updateTable('inbound_seeds').set({ used_at: now })
        .where('valor', '=', valor).where('scope', '=', scope)
        .where('used_at', 'is', null).where('expires_at', '>', now)
        .returning('valor').executeTakeFirst();
      if (taken) return 'ok';
      const row = await db.selectFrom('inbound_seeds').selectAll().where('valor', '=', valor).executeTakeFirst();
      if (!row || row.scope !== scope) return 'unknown';
      return row.used_at !== null ? 'used' : 'expired';
    },

    async addInboundToken(token) {
      await db.insertInto('inbound_tokens').values({
        hash: token.hash, scope: token.scope, subject: token.subject, created_at: token.createdAt, expires_at: token.expiresAt,
        principals: token.principals === undefined ? null : JSON.stringify(token.principals),
      }).execute();
    },

    async findInboundToken(hash, now) {
      const r = await db.selectFrom('inbound_tokens').selectAll().where('hash', '=', hash).where('expires_at', '>', now).executeTakeFirst();
      return r ? toInboundToken(r) : null;
    },

    async pruneInboundAuth(now) {
      const seeds = await db.deleteFrom('inbound_seeds').where('expires_at', '<=', now).executeTakeFirst();
      const tokens = await db.deleteFrom('inbound_tokens').where('expires_at', '<=', now).executeTakeFirst();
      return Number(seeds.numDeletedRows) + Number(tokens.numDeletedRows);
    },
  };
}
