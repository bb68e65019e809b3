/**
 * InboundStore over Kysely: e-CF other issuers sent us, the per-sender quota count, and the seed/token
 * authentication other issuers use to call us. Each operation is one statement (no transaction), so it runs
 * the same on both engines and concurrent processes agree through the unique keys and conditional updates alone.
 */
import type { InboundStore } from '../types.js';
import type { KyselyContext } from './core.js';
import { isoDay, toInboundToken, toReceived } from './rows.js';
import type { ReceivedRow } from './schema.js';

export function createInboundQueries(ctx: KyselyContext): InboundStore {
  const { db } = ctx;
  return {
    async addReceivedDocument(issuerId, doc) {
      const row = await db
        .insertInto('received_documents')
        .values({
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
          updated_at: ctx.now(),
          sender_fingerprint: doc.senderFingerprint ?? null,
        })
        .onConflict((oc) => oc.columns(['issuer_id', 'emisor_rnc', 'encf']).doNothing())
        .returningAll()
        .executeTakeFirst();
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
      const set: Partial<ReceivedRow> = { updated_at: ctx.now() };
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

    async countReceivedFromSender(emisorRnc, since) {
      const r = await db
        .selectFrom('received_documents')
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
        .where('emisor_rnc', '=', emisorRnc)
        .where('received_at', '>=', since)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    async useInboundSeed(seed) {
      // The primary key is the whole decision: of concurrent users only one inserts the row.
      const row = await db
        .insertInto('inbound_seeds')
        .values({
          valor: seed.valor,
          scope: seed.scope,
          created_at: seed.createdAt,
          expires_at: seed.expiresAt,
          used_at: seed.usedAt,
        })
        .onConflict((oc) => oc.column('valor').doNothing())
        .returning('valor')
        .executeTakeFirst();
      return row !== undefined;
    },

    async addInboundToken(token) {
      await db
        .insertInto('inbound_tokens')
        .values({
          hash: token.hash,
          scope: token.scope,
          subject: token.subject,
          created_at: token.createdAt,
          expires_at: token.expiresAt,
          principals: token.principals === undefined ? null : JSON.stringify(token.principals),
        })
        .execute();
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
