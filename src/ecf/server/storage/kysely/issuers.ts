/** IssuerStore over Kysely: issuers (tenants) and their API tokens. */
import type { Kysely } from 'kysely';
import type { Issuer, IssuerStore, NewIssuer } from '../types.js';
import { isUniqueViolation, StorageConflictError, StorageNotFoundError, type KyselyContext } from './core.js';
import { num, toIssuer, toToken } from './rows.js';
import type { Database, IssuerRow } from './schema.js';

async function issuerById(q: Kysely<Database>, id: number): Promise<Issuer | null> {
  const r = await q.selectFrom('issuers').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? toIssuer(r) : null;
}

export function createIssuerQueries(ctx: KyselyContext): IssuerStore {
  const { db } = ctx;
  return {
    async createIssuer(input: NewIssuer) {
      try {
        const row = await db
          .insertInto('issuers')
          .values({
            rnc: input.rnc,
            name: input.name,
            profile: JSON.stringify(input.profile ?? {}),
            signing_mode: input.signingMode,
            certificate: null,
            certificate_info: null,
            created_at: ctx.now(),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
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
      if (patch.certificate !== undefined) set.certificate = ctx.blob(patch.certificate);
      if (patch.certificateInfo !== undefined) set.certificate_info = patch.certificateInfo === null ? null : JSON.stringify(patch.certificateInfo);
      if (Object.keys(set).length > 0) await db.updateTable('issuers').set(set).where('id', '=', id).execute();
      const issuer = await issuerById(db, id);
      if (!issuer) throw new StorageNotFoundError(`issuer ${id} not found`);
      return issuer;
    },

    async addToken(issuerId, hash, label = null) {
      try {
        const row = await db
          .insertInto('tokens')
          .values({
            issuer_id: issuerId,
            hash,
            label: label ?? null,
            created_at: ctx.now(),
            revoked_at: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
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
      const r = await db.updateTable('tokens').set({ revoked_at: ctx.now() }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async listTokens(issuerId) {
      return (await db.selectFrom('tokens').selectAll().where('issuer_id', '=', issuerId).orderBy('id').execute()).map(toToken);
    },
  };
}
