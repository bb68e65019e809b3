/**
 * SequenceStore over Kysely: authorised e-NCF ranges and the reservation of their numbers. The reservation
 * inserts the document in the same transaction (the number and the document exist together or not at all);
 * it lives here because what it guards is the sequence's invariant (each number of a range used once, none
 * from a voided, expired or inactive range), locked and advanced on the sequence rows.
 */
import type { Kysely } from 'kysely';
import type { EcfType } from '../../../index.js';
import type { DocumentRecord, EncfRefusal, IdempotencyClaim, IdempotencyHit, NewDocument, NewSequence, SequenceRecord, SequenceStore } from '../types.js';
import { parseEncf } from '../../../index.js';
import { composeEncf, isUniqueViolation, MAX_CONSECUTIVE, type KyselyContext } from './core.js';
import { documentStored, insertDocument } from './documents.js';
import { bindIdempotencyKey, claimIdempotencyKey, isIdempotencyHit, releaseIdempotencyKey } from './idempotency.js';
import { num, toSequence } from './rows.js';
import type { Database } from './schema.js';
import { withheldRanges } from './voiding.js';

/** Used consecutives are read ahead in chunks of this size while looking for a free one. */
const USED_CHUNK = 256;

/**
 * The first consecutive in [start, end] neither used by a document nor withheld by a void range, or
 * null. Void ranges are jumped over whole; used numbers are read ahead in sorted chunks.
 */
async function firstFree(ctx: KyselyContext, q: Kysely<Database>, issuerId: number, tipo: EcfType, start: number, end: number): Promise<number | null> {
  const ranges = await withheldRanges(ctx, q, issuerId, tipo, start, end);
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
      const rows = await q
        .selectFrom('documents')
        .select('consecutive')
        .where('issuer_id', '=', issuerId)
        .where('tipo', '=', tipo)
        .where('consecutive', '>=', n)
        .where('consecutive', '<=', end)
        .orderBy('consecutive')
        .limit(USED_CHUNK)
        .execute();
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

export function createSequenceQueries(ctx: KyselyContext): SequenceStore {
  const { db, pg, b, tx } = ctx;
  return {
    async addSequence(issuerId, input: NewSequence) {
      const { from, to } = input;
      if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 1 || to > MAX_CONSECUTIVE || from > to) {
        throw new RangeError(`invalid sequence bounds ${from}…${to} (1 ≤ from ≤ to ≤ ${MAX_CONSECUTIVE})`);
      }
      if (input.expiresOn !== null && !/^\d{4}-\d{2}-\d{2}$/.test(input.expiresOn)) {
        throw new RangeError(`invalid expiry ${JSON.stringify(input.expiresOn)} (expected yyyy-MM-dd or null)`);
      }
      const row = await db
        .insertInto('sequences')
        .values({
          issuer_id: issuerId,
          tipo: input.tipo,
          first_number: from,
          last_number: to,
          next_number: from,
          expires_on: input.expiresOn,
          active: b(input.active ?? true),
          created_at: ctx.now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toSequence(row);
    },

    async listSequences(issuerId) {
      const rows = await db
        .selectFrom('sequences')
        .selectAll()
        .where('issuer_id', '=', issuerId)
        .orderBy('tipo')
        .orderBy('first_number')
        .orderBy('id')
        .execute();
      return rows.map(toSequence);
    },

    async setSequenceActive(id, active) {
      await db
        .updateTable('sequences')
        .set({ active: b(active) })
        .where('id', '=', id)
        .execute();
    },

    reserveAndInsert: (async (
      issuerId: number,
      tipo: EcfType,
      today: string,
      make: (encf: string, sequence: SequenceRecord) => NewDocument | Promise<NewDocument>,
      idem?: IdempotencyClaim,
    ): Promise<DocumentRecord | IdempotencyHit | null> => {
      return tx(
        async (q) => {
          let query = q
            .selectFrom('sequences')
            .selectAll()
            .where('issuer_id', '=', issuerId)
            .where('tipo', '=', tipo)
            .where('active', '=', b(true))
            .where((eb) => eb.or([eb('expires_on', 'is', null), eb('expires_on', '>=', today)]))
            .whereRef('next_number', '<=', 'last_number')
            .orderBy('first_number')
            .orderBy('id');
          // Rows are locked in this order by every locker, so concurrent reservations cannot deadlock.
          if (pg) query = query.forUpdate();
          const candidates = await query.execute();
          // The key after the sequence locks (every keyed request locks in this order), before any number is taken.
          if (idem) {
            const hit = await claimIdempotencyKey(q, issuerId, idem);
            if (hit) return hit;
          }
          for (const row of candidates) {
            const n = await firstFree(ctx, q, issuerId, tipo, num(row.next_number), num(row.last_number));
            if (n === null) continue;
            const encf = composeEncf(tipo, n);
            const doc = await make(encf, toSequence({ ...row, next_number: n + 1 }));
            await q
              .updateTable('sequences')
              .set({ next_number: n + 1 })
              .where('id', '=', row.id)
              .execute();
            const rec = await insertDocument(ctx, q, issuerId, tipo, encf, n, doc);
            if (idem) await bindIdempotencyKey(q, issuerId, idem.key, rec.id);
            return rec;
          }
          if (idem) await releaseIdempotencyKey(q, issuerId, idem.key);
          return null;
        },
        (rec) => (isIdempotencyHit(rec) ? Promise.resolve(true) : rec ? documentStored(ctx, rec) : Promise.resolve(false)),
      );
    }) as SequenceStore['reserveAndInsert'],

    insertWithEncf: (async (
      issuerId: number,
      tipo: EcfType,
      encf: string,
      today: string,
      doc: NewDocument,
      idem?: IdempotencyClaim,
    ): Promise<DocumentRecord | { refused: EncfRefusal } | IdempotencyHit> => {
      const parts = parseEncf(encf);
      if (!parts || parts.tipo !== tipo) return { refused: 'outside_sequence' as EncfRefusal };
      const n = parts.consecutive;
      try {
        return await tx(
          async (q): Promise<DocumentRecord | { refused: EncfRefusal } | IdempotencyHit> => {
            const seqs = await q
              .selectFrom('sequences')
              .selectAll()
              .where('issuer_id', '=', issuerId)
              .where('tipo', '=', tipo)
              .orderBy('first_number')
              .orderBy('id')
              .execute();
            if (seqs.length === 0) return { refused: 'no_sequence' };
            const containing = seqs.filter((s) => num(s.first_number) <= n && n <= num(s.last_number));
            if (containing.length === 0) return { refused: 'outside_sequence' };
            const usable = containing.find((s) => Boolean(s.active) && (s.expires_on === null || s.expires_on >= today));
            if (!usable) return { refused: containing.some((s) => Boolean(s.active)) ? 'expired' : 'inactive' };
            if (pg) await q.selectFrom('sequences').select('id').where('id', '=', usable.id).forUpdate().execute();
            // The key after the sequence lock (the order every keyed request uses), before the e-NCF is checked:
            // a retry of a stored request replays it instead of being refused as a duplicate e-NCF.
            if (idem) {
              const hit = await claimIdempotencyKey(q, issuerId, idem);
              if (hit) return hit;
            }
            const refused = async (why: EncfRefusal) => {
              if (idem) await releaseIdempotencyKey(q, issuerId, idem.key);
              return { refused: why };
            };
            const dup = await q.selectFrom('documents').select('id').where('issuer_id', '=', issuerId).where('encf', '=', encf).executeTakeFirst();
            if (dup) return refused('duplicate');
            if ((await withheldRanges(ctx, q, issuerId, tipo, n, n)).length > 0) return refused('voided');
            const rec = await insertDocument(ctx, q, issuerId, tipo, encf, n, doc);
            if (idem) await bindIdempotencyKey(q, issuerId, idem.key, rec.id);
            return rec;
          },
          (r) => (isIdempotencyHit(r) ? Promise.resolve(true) : 'refused' in r ? Promise.resolve(false) : documentStored(ctx, r)),
        );
      } catch (e) {
        if (isUniqueViolation(e)) return { refused: 'duplicate' };
        throw e;
      }
    }) as SequenceStore['insertWithEncf'],
  };
}
