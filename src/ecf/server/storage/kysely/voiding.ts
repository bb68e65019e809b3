/**
 * VoidingStore over Kysely: voiding attempts (ANECF) and their ranges, and the check that a range holds no
 * issued document. `withheldRanges` is also what the reservation (sequences.ts) skips.
 */
import type { Kysely } from 'kysely';
import type { EcfType } from '../../../index.js';
import type { VoidBatch, VoidingStore } from '../types.js';
import { mergeRanges } from '../../../../shared/server-kit/ranges.js';
import { MAX_CONSECUTIVE, StorageNotFoundError, type KyselyContext } from './core.js';
import { boolOrNull, json, num } from './rows.js';
import type { Database, VoidBatchRow } from './schema.js';

/** Ranges that withhold consecutives (batch accepted or still pending), merged, overlapping [from, to]. */
export async function withheldRanges(ctx: KyselyContext, q: Kysely<Database>, issuerId: number, tipo: EcfType, from: number, to: number) {
  const rows = await q
    .selectFrom('void_ranges as r')
    .innerJoin('void_batches as vb', 'vb.id', 'r.batch_id')
    .select(['r.first_number', 'r.last_number'])
    .where('r.issuer_id', '=', issuerId)
    .where('r.tipo', '=', tipo)
    .where('r.last_number', '>=', from)
    .where('r.first_number', '<=', to)
    .where((eb) => eb.or([eb('vb.accepted', 'is', null), eb('vb.accepted', '=', ctx.b(true))]))
    .execute();
  return mergeRanges(rows.map((r) => ({ from: num(r.first_number), to: num(r.last_number) })));
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

export function createVoidingQueries(ctx: KyselyContext): VoidingStore {
  const { db, pg, b, tx } = ctx;
  return {
    async findIssuedInRanges(issuerId, ranges, limit) {
      let left = Math.max(0, Math.floor(limit));
      const found: string[] = [];
      const tipos = [...new Set(ranges.map((r) => r.tipo))].sort();
      for (const tipo of tipos) {
        const merged = mergeRanges(ranges.filter((r) => r.tipo === tipo));
        // A bounded OR of BETWEENs per statement: each one is an index range scan.
        for (let i = 0; i < merged.length && left > 0; i += 200) {
          const chunk = merged.slice(i, i + 200);
          const rows = await db
            .selectFrom('documents')
            .select('encf')
            .where('issuer_id', '=', issuerId)
            .where('tipo', '=', tipo)
            .where((eb) => eb.or(chunk.map((r) => eb.between('consecutive', r.from, r.to))))
            .orderBy('consecutive')
            .limit(left)
            .execute();
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
          await q
            .selectFrom('sequences')
            .select('id')
            .where('issuer_id', '=', issuerId)
            .where('tipo', 'in', tipos)
            .orderBy('tipo')
            .orderBy('first_number')
            .orderBy('id')
            .forUpdate()
            .execute();
        }
        const now = ctx.now();
        const batch = await q
          .insertInto('void_batches')
          .values({
            issuer_id: issuerId,
            lote,
            accepted: null,
            messages: '[]',
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        const rows = ranges.map((r) => ({
          batch_id: num(batch.id),
          issuer_id: issuerId,
          tipo: r.tipo,
          first_number: r.from,
          last_number: r.to,
        }));
        // Chunked: up to 10 types × 10,000 ranges, and engines cap bound parameters per statement.
        for (let i = 0; i < rows.length; i += 500)
          await q
            .insertInto('void_ranges')
            .values(rows.slice(i, i + 500))
            .execute();
        return (await voidBatchesWithRanges(q, [batch]))[0]!;
      });
    },

    async settleVoidBatch(id, accepted, messages) {
      return tx(async (q) => {
        const batch = await q
          .updateTable('void_batches')
          .set({ accepted: b(accepted), messages: JSON.stringify(messages), updated_at: ctx.now() })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst();
        if (!batch) throw new StorageNotFoundError(`void batch ${id} not found`);
        const [settled] = await voidBatchesWithRanges(q, [batch]);
        if (accepted) {
          // Pointers inside a voided range jump past it. Ranges in ascending order, so a pointer moved
          // to the start of the following range is carried on by it.
          const sorted = [...settled!.ranges].sort((a, c) => a.tipo.localeCompare(c.tipo) || a.from - c.from);
          for (const r of sorted) {
            await q
              .updateTable('sequences')
              .set({ next_number: r.to + 1 })
              .where('issuer_id', '=', settled!.issuerId)
              .where('tipo', '=', r.tipo)
              .where('next_number', '>=', r.from)
              .where('next_number', '<=', r.to)
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
}
