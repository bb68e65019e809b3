/**
 * DocumentStore over Kysely: the documents we issue, their hand-overs to the authority (submissions), the
 * commercial approvals buyers sent about them, and the worker's leases. `insertDocument` and
 * `documentStored` are also used by the reservation (sequences.ts), which inserts a document in its transaction.
 */
import { sql, type Kysely } from 'kysely';
import type { EcfType } from '../../../index.js';
import type { DocumentFilter, DocumentPatch, DocumentRecord, DocumentStore, NewDocument } from '../types.js';
import type { KyselyContext } from './core.js';
import { isoDay, toApproval, toDocument, toSubmission } from './rows.js';
import type { Database, DocumentRow } from './schema.js';

/** Whether `rec` was committed: the same row (id, e-NCF, XML, creation instant) is there. */
export async function documentStored(ctx: KyselyContext, rec: DocumentRecord): Promise<boolean> {
  const row = await ctx.db.selectFrom('documents').select(['encf', 'unsigned_xml', 'created_at']).where('id', '=', rec.id).executeTakeFirst();
  return !!row && row.encf === rec.encf && row.unsigned_xml === rec.unsignedXml && Number(row.created_at) === rec.createdAt;
}

/** Inserts a document with its e-NCF, due now unless `doc.nextAttemptAt` says otherwise. */
export async function insertDocument(
  ctx: KyselyContext,
  q: Kysely<Database>,
  issuerId: number,
  tipo: EcfType,
  encf: string,
  consecutive: number,
  doc: NewDocument,
): Promise<DocumentRecord> {
  const { b } = ctx;
  const now = ctx.now();
  const row = await q
    .insertInto('documents')
    .values({
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
      rnc_comprador: doc.rncComprador ?? null,
      numero_factura_interna: doc.numeroFacturaInterna ?? null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toDocument(row);
}

export function createDocumentQueries(ctx: KyselyContext): DocumentStore {
  const { db, pg, bOrNull, tx } = ctx;
  return {
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
      if (filter.rncComprador !== undefined) query = query.where('rnc_comprador', '=', filter.rncComprador);
      if (filter.numeroFacturaInterna !== undefined) query = query.where('numero_factura_interna', '=', filter.numeroFacturaInterna);
      if (filter.cursor !== undefined) query = query.where('id', '<', filter.cursor);
      const limit = Math.max(0, Math.floor(filter.limit));
      if (limit === 0) return [];
      return (await query.orderBy('id', 'desc').limit(limit).execute()).map(toDocument);
    },

    async updateDocument(id, patch: DocumentPatch, leaseOwner?: string) {
      const set: Partial<DocumentRow> = { updated_at: ctx.now() };
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
      // The guard is "nobody else took the lease", not a clock comparison (lease times are the worker's, not
      // storage's clock), and an expired lease nobody re-claimed harms no one. A re-claim changes the owner.
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
          const due = await q
            .selectFrom('documents')
            .select('id')
            .where('next_attempt_at', 'is not', null)
            .where('next_attempt_at', '<=', now)
            .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
            .orderBy('next_attempt_at')
            .orderBy('id')
            .limit(n)
            .execute();
          if (due.length === 0) return [];
          return q
            .updateTable('documents')
            .set({ lease_owner: owner, lease_until: until })
            .where(
              'id',
              'in',
              due.map((d) => d.id),
            )
            .returningAll()
            .execute();
        });
      }
      return rows.map(toDocument).sort((a, b2) => a.nextAttemptAt! - b2.nextAttemptAt! || a.id - b2.id);
    },

    async addSubmission(documentId, kind, trackId, state) {
      const row = await db
        .insertInto('submissions')
        .values({
          document_id: documentId,
          kind,
          track_id: trackId,
          state,
          at: ctx.now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toSubmission(row);
    },

    async listSubmissions(documentId) {
      return (await db.selectFrom('submissions').selectAll().where('document_id', '=', documentId).orderBy('id').execute()).map(toSubmission);
    },

    async addDocumentApproval(documentId, approval) {
      // The unique key (document_id, rnc_comprador) is the whole decision: of concurrent inserts one wins.
      const row = await db
        .insertInto('document_approvals')
        .values({
          document_id: documentId,
          estado: approval.estado,
          motivo: approval.motivo,
          rnc_comprador: approval.rncComprador,
          acecf_xml: approval.acecfXml,
          received_at: approval.receivedAt,
          signer_fingerprint: approval.signerFingerprint ?? null,
        })
        .onConflict((oc) => oc.columns(['document_id', 'rnc_comprador']).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (row) return { approval: toApproval(row), created: true };
      const existing = await db
        .selectFrom('document_approvals')
        .selectAll()
        .where('document_id', '=', documentId)
        .where('rnc_comprador', '=', approval.rncComprador)
        .executeTakeFirstOrThrow();
      return { approval: toApproval(existing), created: false };
    },

    async getDocumentApprovals(documentId) {
      return (await db.selectFrom('document_approvals').selectAll().where('document_id', '=', documentId).orderBy('id').execute()).map(toApproval);
    },
  };
}
