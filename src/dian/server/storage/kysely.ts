/**
 * The DIAN storage over Kysely, shared by the SQLite and PostgreSQL adapters (./open.ts): the kit's
 * transactions (BEGIN IMMEDIATE on SQLite; the unique key `(company_id, prefix, number)` serialises two
 * processes reserving one number on PostgreSQL), migrations and conflict errors.
 */
import type { Generated, Kysely } from 'kysely';
import type { DianKindId } from '../../index.js';
import type { Clock } from '../../../shared/ports.js';
import { StorageConflictError } from '../../../shared/server-kit/storage/errors.js';
import { type Dialect, runMigrations } from '../../../shared/server-kit/storage/migrations.js';
import { isUniqueViolation, runTransaction } from '../../../shared/server-kit/storage/transactions.js';
import { DIAN_MIGRATIONS } from './migrations.js';
import { type ContingencyDatabase, createContingencyKyselyStorage } from './contingency.js';
import { createDianEventStore } from './events.js';
import { createDianPayrollStore } from './payrolls.js';
import { createDianTestSetStore } from './test-set.js';
import type { CompanyRecord, DianStorage, DocumentPatch, DocumentRecord, DocumentState, ResolutionRecord, TokenRecord } from './types.js';

interface CompanyRow {
  id: Generated<number>;
  nit: string;
  profile: string;
  software_id: string;
  software_pin: string;
  provider_nit: string;
  provider_dv: string;
  environment: string;
  certificate: Uint8Array | null;
  /** Migration 5 (./test-set.ts). */
  test_set_id: string | null;
  created_at: number;
}
interface TokenRow {
  id: Generated<number>;
  company_id: number;
  hash: string;
  label: string | null;
  created_at: number;
  revoked_at: number | null;
}
interface ResolutionRow {
  id: Generated<number>;
  company_id: number;
  kind: string;
  prefix: string;
  first_number: number;
  last_number: number;
  technical_key: string | null;
  resolution_number: string;
  resolution_date: string;
  valid_from: string;
  valid_to: string;
  created_at: number;
}
interface DocumentRow {
  id: Generated<number>;
  company_id: number;
  kind: string;
  prefix: string;
  number: number;
  request_hash: string;
  state: string;
  document_key: string | null;
  signed_xml: string | null;
  zip: Uint8Array | null;
  zip_name: string | null;
  dian_answer: string | null;
  application_response: string | null;
  attached_document: string | null;
  response: string | null;
  created_at: number;
  updated_at: number;
}

/** The DIAN tables. */
export interface DianDatabase {
  dian_companies: CompanyRow;
  dian_tokens: TokenRow;
  dian_resolutions: ResolutionRow;
  dian_documents: DocumentRow;
}

export interface DianKyselyOptions {
  db: Kysely<DianDatabase>;
  dialect: Dialect;
  /** PostgreSQL schema created by migrate(). */
  schema?: string;
  destroy: () => Promise<void>;
  clock: Clock;
}

const bytes = (v: unknown): Uint8Array | null => (v == null ? null : new Uint8Array(v as Uint8Array));
const json = (v: string | null): unknown => (v == null ? null : JSON.parse(v));

function company(r: CompanyRow & { id: number }): CompanyRecord {
  return {
    id: Number(r.id),
    nit: r.nit,
    profile: JSON.parse(r.profile),
    softwareId: r.software_id,
    softwarePin: r.software_pin,
    providerNit: r.provider_nit,
    providerDv: r.provider_dv,
    environment: r.environment === '1' ? '1' : '2',
    certificate: bytes(r.certificate),
    testSetId: r.test_set_id ?? null,
    createdAt: Number(r.created_at),
  };
}

function resolution(r: ResolutionRow & { id: number }): ResolutionRecord {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    kind: r.kind as DianKindId,
    prefix: r.prefix,
    from: Number(r.first_number),
    to: Number(r.last_number),
    technicalKey: r.technical_key,
    resolutionNumber: r.resolution_number,
    resolutionDate: r.resolution_date,
    validFrom: r.valid_from,
    validTo: r.valid_to,
    createdAt: Number(r.created_at),
  };
}

function document(r: DocumentRow & { id: number }): DocumentRecord {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    kind: r.kind as DianKindId,
    prefix: r.prefix,
    number: Number(r.number),
    requestHash: r.request_hash,
    state: r.state as DocumentState,
    documentKey: r.document_key,
    signedXml: r.signed_xml,
    zip: bytes(r.zip),
    zipName: r.zip_name,
    dianAnswer: json(r.dian_answer),
    applicationResponse: r.application_response,
    attachedDocument: r.attached_document,
    response: json(r.response) as DocumentRecord['response'],
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/** The columns a patch sets, with `updated_at`. */
function documentSet(patch: DocumentPatch, updatedAt: number): Partial<Record<keyof DocumentRow, unknown>> {
  const blob = (v: Uint8Array | null | undefined) => (v == null ? null : Buffer.from(v.buffer, v.byteOffset, v.byteLength));
  const set: Partial<Record<keyof DocumentRow, unknown>> = { updated_at: updatedAt };
  if (patch.state !== undefined) set.state = patch.state;
  if (patch.documentKey !== undefined) set.document_key = patch.documentKey;
  if (patch.signedXml !== undefined) set.signed_xml = patch.signedXml;
  if (patch.zip !== undefined) set.zip = blob(patch.zip);
  if (patch.zipName !== undefined) set.zip_name = patch.zipName;
  if (patch.dianAnswer !== undefined) set.dian_answer = patch.dianAnswer === null ? null : JSON.stringify(patch.dianAnswer);
  if (patch.applicationResponse !== undefined) set.application_response = patch.applicationResponse;
  if (patch.attachedDocument !== undefined) set.attached_document = patch.attachedDocument;
  if (patch.response !== undefined) set.response = patch.response === null ? null : JSON.stringify(patch.response);
  return set;
}

/** A reserved number's row before it is built: state `building`, nothing of an earlier attempt kept. */
const FRESH_DOCUMENT = {
  state: 'building',
  document_key: null,
  signed_xml: null,
  zip: null,
  zip_name: null,
  dian_answer: null,
  application_response: null,
  attached_document: null,
  response: null,
} as const;

/** Builds the storage over a Kysely instance (a plain object of functions). */
export function createDianKyselyStorage(options: DianKyselyOptions): DianStorage {
  const { db, dialect } = options;
  const now = () => options.clock().getTime();
  const blob = (v: Uint8Array | null | undefined) => (v == null ? null : Buffer.from(v.buffer, v.byteOffset, v.byteLength));
  let closed = false;

  const companyWhere = async (q: Kysely<DianDatabase>, column: 'id' | 'nit', value: number | string) => {
    const row = await q
      .selectFrom('dian_companies')
      .selectAll()
      .where(column, '=', value as never)
      .executeTakeFirst();
    return row ? company(row as CompanyRow & { id: number }) : null;
  };

  return {
    ...createContingencyKyselyStorage(db as unknown as Kysely<ContingencyDatabase>, now),
    ...createDianEventStore(db as never, dialect, options.clock),
    ...createDianPayrollStore(db as never, dialect, options.clock),
    ...createDianTestSetStore(db as never, options.clock),
    async migrate() {
      await db.connection().execute((q) => runMigrations(q, dialect, DIAN_MIGRATIONS, { schema: options.schema, now }));
    },
    async close() {
      if (closed) return;
      closed = true;
      await options.destroy();
    },

    async createCompany(c) {
      try {
        const row = await db
          .insertInto('dian_companies')
          .values({
            nit: c.nit,
            profile: JSON.stringify(c.profile),
            software_id: c.softwareId,
            software_pin: c.softwarePin,
            provider_nit: c.providerNit,
            provider_dv: c.providerDv,
            environment: c.environment,
            certificate: blob(c.certificate),
            test_set_id: c.testSetId ?? null,
            created_at: now(),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return company(row as CompanyRow & { id: number });
      } catch (e) {
        if (isUniqueViolation(e)) throw new StorageConflictError(`A company with NIT ${c.nit} exists.`);
        throw e;
      }
    },
    getCompanyByNit: (nit) => companyWhere(db, 'nit', nit),
    getCompany: (id) => companyWhere(db, 'id', id),
    async listCompanies() {
      const rows = await db.selectFrom('dian_companies').selectAll().orderBy('id').execute();
      return rows.map((r) => company(r as CompanyRow & { id: number }));
    },
    async setCertificate(companyId, sealed) {
      await db
        .updateTable('dian_companies')
        .set({ certificate: blob(sealed) })
        .where('id', '=', companyId)
        .execute();
    },
    async addToken(companyId, tokenHash, label = null) {
      const row = await db
        .insertInto('dian_tokens')
        .values({ company_id: companyId, hash: tokenHash, label, created_at: now(), revoked_at: null })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { id: Number(row.id), companyId, label: row.label, createdAt: Number(row.created_at), revokedAt: null } satisfies TokenRecord;
    },
    async companyByTokenHash(tokenHash) {
      const row = await db
        .selectFrom('dian_tokens')
        .innerJoin('dian_companies', 'dian_companies.id', 'dian_tokens.company_id')
        .selectAll('dian_companies')
        .where('dian_tokens.hash', '=', tokenHash)
        .where('dian_tokens.revoked_at', 'is', null)
        .executeTakeFirst();
      return row ? company(row as CompanyRow & { id: number }) : null;
    },
    async revokeToken(companyId, tokenId) {
      const r = await db
        .updateTable('dian_tokens')
        .set({ revoked_at: now() })
        .where('id', '=', tokenId)
        .where('company_id', '=', companyId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async addResolution(companyId, r) {
      const row = await db
        .insertInto('dian_resolutions')
        .values({
          company_id: companyId,
          kind: r.kind,
          prefix: r.prefix,
          first_number: r.from,
          last_number: r.to,
          technical_key: r.technicalKey,
          resolution_number: r.resolutionNumber,
          resolution_date: r.resolutionDate,
          valid_from: r.validFrom,
          valid_to: r.validTo,
          created_at: now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return resolution(row as ResolutionRow & { id: number });
    },
    async listResolutions(companyId, kind) {
      let q = db.selectFrom('dian_resolutions').selectAll().where('company_id', '=', companyId);
      if (kind) q = q.where('kind', '=', kind);
      const rows = await q.orderBy('id').execute();
      return rows.map((r) => resolution(r as ResolutionRow & { id: number }));
    },

    async reserveDocument(input) {
      const attempt = () =>
        runTransaction(db, dialect, async (q) => {
          for (;;) {
            const existing = await q
              .selectFrom('dian_documents')
              .selectAll()
              .where('company_id', '=', input.companyId)
              .where('prefix', '=', input.prefix)
              .where('number', '=', input.number)
              .executeTakeFirst();
            const t = now();
            if (existing) {
              const doc = document(existing as DocumentRow & { id: number });
              if (doc.state !== 'rejected')
                return { outcome: doc.requestHash === input.requestHash ? ('same' as const) : ('different' as const), document: doc };
              // A number DIAN refused is free: the request (a corrected body, or the same one once the cause is
              // fixed) takes the row over.
              const row = await q
                .updateTable('dian_documents')
                .set({ ...FRESH_DOCUMENT, kind: input.kind, request_hash: input.requestHash, updated_at: t })
                .where('id', '=', doc.id)
                // Only while still rejected: on PostgreSQL a concurrent takeover that committed first leaves no row
                // here (READ COMMITTED re-checks the condition), and the loop reads the row again.
                .where('state', '=', 'rejected')
                .returningAll()
                .executeTakeFirst();
              if (!row) continue;
              return { outcome: 'reserved' as const, document: document(row as DocumentRow & { id: number }) };
            }
            const row = await q
              .insertInto('dian_documents')
              .values({
                company_id: input.companyId,
                kind: input.kind,
                prefix: input.prefix,
                number: input.number,
                request_hash: input.requestHash,
                ...FRESH_DOCUMENT,
                created_at: t,
                updated_at: t,
              })
              .returningAll()
              .executeTakeFirstOrThrow();
            return { outcome: 'reserved' as const, document: document(row as DocumentRow & { id: number }) };
          }
        });
      try {
        return await attempt();
      } catch (e) {
        // Another process inserted the same number between our read and our insert (PostgreSQL): read again.
        if (isUniqueViolation(e)) return attempt();
        throw e;
      }
    },
    async updateDocument(id, patch: DocumentPatch) {
      const row = await db
        .updateTable('dian_documents')
        .set(documentSet(patch, now()) as never)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return document(row as DocumentRow & { id: number });
    },
    async claimDocument(id, expected, patch) {
      const t = expected.updatedAt === undefined ? now() : Math.max(now(), expected.updatedAt + 1);
      let q = db
        .updateTable('dian_documents')
        .set(documentSet(patch, t) as never)
        .where('id', '=', id)
        .where('state', '=', expected.state);
      if (expected.updatedAt !== undefined) q = q.where('updated_at', '=', expected.updatedAt);
      const row = await q.returningAll().executeTakeFirst();
      return row ? document(row as DocumentRow & { id: number }) : null;
    },
    async releaseDocument(id) {
      await db.deleteFrom('dian_documents').where('id', '=', id).where('state', 'in', ['building', 'sending']).execute();
    },
    async getDocumentByNumber(companyId, prefix, number) {
      const row = await db
        .selectFrom('dian_documents')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('prefix', '=', prefix)
        .where('number', '=', number)
        .executeTakeFirst();
      return row ? document(row as DocumentRow & { id: number }) : null;
    },
    async getDocumentByKey(companyId, documentKey) {
      const row = await db
        .selectFrom('dian_documents')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('document_key', '=', documentKey)
        .executeTakeFirst();
      return row ? document(row as DocumentRow & { id: number }) : null;
    },
  };
}
