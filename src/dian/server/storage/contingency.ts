/**
 * The DIAN server's contingency and listing storage: the contingency windows the operator declares, the
 * deadline of each document issued without transmission, and the company's documents listed newest first
 * with a keyset cursor. Its own tables (migrations prefixed `contingency_`), spread into the Kysely storage
 * of ./kysely.ts.
 */
import type { Generated, Kysely } from 'kysely';
import type { DianKindId } from '../../index.js';
import type { Dialect, Migration } from '../../../shared/server-kit/storage/migrations.js';
import type { ContingencyStore, ContingencyWindowRecord, DocumentListStore, DocumentState } from './types.js';

function types(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return { id: pg ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT' };
}

/** The contingency migrations (appended to DIAN_MIGRATIONS). */
export const CONTINGENCY_MIGRATIONS: Migration[] = [
  {
    version: 2,
    name: 'contingency_windows: contingency windows, deadlines of pending documents, listing index',
    statements(dialect) {
      const t = types(dialect);
      return [
        `CREATE TABLE dian_contingency_windows (
          id ${t.id},
          company_id BIGINT NOT NULL REFERENCES dian_companies(id),
          starts_at BIGINT NOT NULL,
          ends_at BIGINT NOT NULL,
          created_at BIGINT NOT NULL,
          CHECK (starts_at <= ends_at)
        )`,
        `CREATE INDEX dian_contingency_windows_company ON dian_contingency_windows (company_id, starts_at)`,
        `CREATE TABLE dian_contingency_documents (
          document_id BIGINT PRIMARY KEY REFERENCES dian_documents(id),
          company_id BIGINT NOT NULL REFERENCES dian_companies(id),
          window_id BIGINT NOT NULL REFERENCES dian_contingency_windows(id),
          issued_at BIGINT NOT NULL,
          deadline_at BIGINT NOT NULL
        )`,
        `CREATE INDEX dian_documents_listing ON dian_documents (company_id, created_at, id)`,
      ];
    },
  },
];

interface WindowRow {
  id: Generated<number>;
  company_id: number;
  starts_at: number;
  ends_at: number;
  created_at: number;
}
interface DeadlineRow {
  document_id: number;
  company_id: number;
  window_id: number;
  issued_at: number;
  deadline_at: number;
}
interface ListedDocumentRow {
  id: number;
  company_id: number;
  kind: string;
  prefix: string;
  number: number;
  state: string;
  document_key: string | null;
  created_at: number;
  updated_at: number;
}

/** The tables this file reads and writes. */
export interface ContingencyDatabase {
  dian_contingency_windows: WindowRow;
  dian_contingency_documents: DeadlineRow;
  dian_documents: ListedDocumentRow;
}

function windowRecord(r: { id: number; company_id: number; starts_at: number; ends_at: number; created_at: number }): ContingencyWindowRecord {
  return { id: Number(r.id), companyId: Number(r.company_id), from: Number(r.starts_at), to: Number(r.ends_at), createdAt: Number(r.created_at) };
}

/** The contingency and listing stores over the DIAN database. */
export function createContingencyKyselyStorage(db: Kysely<ContingencyDatabase>, now: () => number): ContingencyStore & DocumentListStore {
  return {
    async addContingencyWindow(companyId, w) {
      const row = await db
        .insertInto('dian_contingency_windows')
        .values({ company_id: companyId, starts_at: w.from, ends_at: w.to, created_at: now() })
        .returningAll()
        .executeTakeFirstOrThrow();
      return windowRecord(row);
    },
    async contingencyWindowsAt(companyId, at) {
      const rows = await db
        .selectFrom('dian_contingency_windows')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('starts_at', '<=', at)
        .where('ends_at', '>=', at)
        .orderBy('starts_at')
        .orderBy('id')
        .execute();
      return rows.map(windowRecord);
    },
    async setContingencyDeadline(input) {
      await db.deleteFrom('dian_contingency_documents').where('document_id', '=', input.documentId).execute();
      await db
        .insertInto('dian_contingency_documents')
        .values({
          document_id: input.documentId,
          company_id: input.companyId,
          window_id: input.windowId,
          issued_at: input.issuedAt,
          deadline_at: input.deadlineAt,
        })
        .execute();
    },
    async listContingencyPending(companyId) {
      let q = db
        .selectFrom('dian_contingency_documents as c')
        .innerJoin('dian_documents as d', 'd.id', 'c.document_id')
        .select(['c.document_id', 'c.company_id', 'c.window_id', 'c.issued_at', 'c.deadline_at', 'd.kind', 'd.prefix', 'd.number', 'd.document_key'])
        .where('d.state', '=', 'contingency_pending');
      if (companyId !== undefined) q = q.where('c.company_id', '=', companyId);
      const rows = await q.orderBy('c.deadline_at').orderBy('c.document_id').execute();
      return rows.map((r) => ({
        documentId: Number(r.document_id),
        companyId: Number(r.company_id),
        kind: r.kind as DianKindId,
        prefix: r.prefix,
        number: Number(r.number),
        documentKey: r.document_key,
        windowId: Number(r.window_id),
        issuedAt: Number(r.issued_at),
        deadlineAt: Number(r.deadline_at),
      }));
    },
    async listDocuments(companyId, f) {
      let q = db
        .selectFrom('dian_documents')
        .select(['id', 'company_id', 'kind', 'prefix', 'number', 'state', 'document_key', 'created_at', 'updated_at'])
        .where('company_id', '=', companyId);
      if (f.kind !== undefined) q = q.where('kind', '=', f.kind);
      if (f.state !== undefined) q = q.where('state', '=', f.state);
      if (f.from !== undefined) q = q.where('created_at', '>=', f.from);
      if (f.to !== undefined) q = q.where('created_at', '<=', f.to);
      if (f.prefix !== undefined) q = q.where('prefix', '=', f.prefix);
      if (f.number !== undefined) q = q.where('number', '=', f.number);
      const before = f.before;
      if (before) {
        q = q.where((eb) => eb.or([eb('created_at', '<', before.createdAt), eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)])]));
      }
      const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).execute();
      return rows.map((r) => ({
        id: Number(r.id),
        kind: r.kind as DianKindId,
        prefix: r.prefix,
        number: Number(r.number),
        state: r.state as DocumentState,
        documentKey: r.document_key,
        createdAt: Number(r.created_at),
        updatedAt: Number(r.updated_at),
      }));
    },
  };
}
