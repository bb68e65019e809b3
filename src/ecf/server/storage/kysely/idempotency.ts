/**
 * Idempotency keys of issue requests (issue 16). The claim runs inside the issuing transaction (sequences.ts),
 * after the sequence rows are locked: every keyed request takes its locks in the same order (sequence rows,
 * then the key), so concurrent requests cannot deadlock. `INSERT … ON CONFLICT DO NOTHING` decides: on
 * PostgreSQL a second claimer of a key another transaction holds waits for that transaction and, once it has
 * committed, finds the key (READ COMMITTED: the next statement sees the committed row) and replays its
 * document; on SQLite transactions are serialised anyway (BEGIN IMMEDIATE).
 */
import type { Kysely } from 'kysely';
import type { IdempotencyClaim, IdempotencyHit, IdempotencyStore } from '../types.js';
import { StorageConflictError, type KyselyContext } from './core.js';
import { toDocument } from './rows.js';
import type { Database } from './schema.js';

/** Claims the key for this transaction (null), or returns the document an unexpired earlier claim created. */
export async function claimIdempotencyKey(q: Kysely<Database>, issuerId: number, claim: IdempotencyClaim): Promise<IdempotencyHit | null> {
  // An expired key is free again, whether or not the purge has run yet.
  await q
    .deleteFrom('idempotency_keys')
    .where('issuer_id', '=', issuerId)
    .where('idempotency_key', '=', claim.key)
    .where('created_at', '<', claim.notBefore)
    .execute();
  const inserted = await q
    .insertInto('idempotency_keys')
    .values({ issuer_id: issuerId, idempotency_key: claim.key, fingerprint: claim.fingerprint, document_id: null, created_at: claim.at })
    .onConflict((oc) => oc.columns(['issuer_id', 'idempotency_key']).doNothing())
    .returning('issuer_id')
    .executeTakeFirst();
  if (inserted) return null;
  const held = await q
    .selectFrom('idempotency_keys as k')
    .innerJoin('documents as d', 'd.id', 'k.document_id')
    .selectAll('d')
    .select('k.fingerprint as key_fingerprint')
    .where('k.issuer_id', '=', issuerId)
    .where('k.idempotency_key', '=', claim.key)
    .executeTakeFirst();
  // Never expected: a key row is committed only together with its document.
  if (!held) throw new StorageConflictError(`idempotency key of issuer ${issuerId} is held without a document`);
  const { key_fingerprint, ...row } = held;
  return { replayOf: toDocument(row), sameRequest: key_fingerprint === claim.fingerprint };
}

/** Points the claimed key at the document inserted in the same transaction. */
export async function bindIdempotencyKey(q: Kysely<Database>, issuerId: number, key: string, documentId: number): Promise<void> {
  await q.updateTable('idempotency_keys').set({ document_id: documentId }).where('issuer_id', '=', issuerId).where('idempotency_key', '=', key).execute();
}

/** Gives the claimed key up when the transaction ends without a document (no number, passthrough refusal). */
export async function releaseIdempotencyKey(q: Kysely<Database>, issuerId: number, key: string): Promise<void> {
  await q.deleteFrom('idempotency_keys').where('issuer_id', '=', issuerId).where('idempotency_key', '=', key).where('document_id', 'is', null).execute();
}

export function isIdempotencyHit(v: unknown): v is IdempotencyHit {
  return typeof v === 'object' && v !== null && 'replayOf' in v;
}

export function createIdempotencyQueries(ctx: KyselyContext): IdempotencyStore {
  const { db } = ctx;
  return {
    async findIdempotencyKey(issuerId, key, notBefore) {
      const held = await db
        .selectFrom('idempotency_keys as k')
        .innerJoin('documents as d', 'd.id', 'k.document_id')
        .selectAll('d')
        .select('k.fingerprint as key_fingerprint')
        .where('k.issuer_id', '=', issuerId)
        .where('k.idempotency_key', '=', key)
        .where('k.created_at', '>=', notBefore)
        .executeTakeFirst();
      if (!held) return null;
      const { key_fingerprint, ...row } = held;
      return { fingerprint: key_fingerprint, document: toDocument(row) };
    },

    async purgeIdempotencyKeys(before) {
      const r = await db.deleteFrom('idempotency_keys').where('created_at', '<', before).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
