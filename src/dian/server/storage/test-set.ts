/**
 * Habilitación's test-set mode in storage: the company's test set (`dian_companies.test_set_id`, the
 * `testSetId` of SendTestSetAsync; null outside the test set) and one row per document sent to a test set
 * (`dian_test_set_documents`): which set, DIAN's ZipKey once SendTestSetAsync answered (null while the send is
 * under way or its answer was lost), and DIAN's verdict once known. Kept apart from the documents' adapter
 * (./kysely.ts spreads it in) with its own migration entry (`test_set_…`, version 5).
 */
import type { Kysely } from 'kysely';
import type { Clock } from '../../../shared/ports.js';
import type { Dialect, Migration } from '../../../shared/server-kit/storage/migrations.js';

/**
 * Why `id` cannot be a test set id, or null. DIAN's are GUIDs as far as public clients show ([C]); the check is
 * lenient (letters, digits and hyphens, 1–100) so an unexpected form is DIAN's to refuse, not ours.
 */
export function testSetIdProblem(id: string): string | null {
  return /^[A-Za-z0-9-]{1,100}$/.test(id) ? null : `a test set id is 1 to 100 letters, digits or hyphens (DIAN's are GUIDs), got ${JSON.stringify(id)}`;
}

/** The verdict DIAN gave a document of a test set (what GetStatusZip or GetStatus said). */
export type TestSetVerdict = 'accepted' | 'rejected';

/** A document sent (or being sent) to a habilitación test set. */
export interface TestSetSendRecord {
  documentId: number;
  companyId: number;
  testSetId: string;
  /** DIAN's ZipKey (GetStatusZip's trackId); null while SendTestSetAsync is under way or when its answer was lost. */
  zipKey: string | null;
  /** Null until DIAN's verdict is known. */
  verdict: TestSetVerdict | null;
  sentAt: number;
  updatedAt: number;
}

/** Counts of one test set's documents, from what this service sent and stored. */
export interface TestSetProgress {
  testSetId: string;
  accepted: number;
  rejected: number;
  /** Sent, verdict not known yet. */
  pending: number;
}

export interface TestSetStore {
  /** Sets (or, with null, clears) the company's test set; false when there is no such company. */
  setCompanyTestSet(companyId: number, testSetId: string | null): Promise<boolean>;
  /** Records that the document is about to be sent to `testSetId` (replacing an earlier send of its row: ZipKey and verdict cleared). */
  startTestSetSend(input: { documentId: number; companyId: number; testSetId: string }): Promise<TestSetSendRecord>;
  setTestSetZipKey(documentId: number, zipKey: string): Promise<void>;
  setTestSetVerdict(documentId: number, verdict: TestSetVerdict): Promise<void>;
  /** Deletes the record of a send that never happened (DIAN unreachable, the upload refused). */
  forgetTestSetSend(documentId: number): Promise<void>;
  getTestSetSend(documentId: number): Promise<TestSetSendRecord | null>;
  /** The company's test sets with their counts, by test set id. */
  testSetProgress(companyId: number): Promise<TestSetProgress[]>;
}

interface TestSetRow {
  document_id: number;
  company_id: number;
  test_set_id: string;
  zip_key: string | null;
  verdict: string | null;
  sent_at: number;
  updated_at: number;
}

interface TestSetTables {
  dian_test_set_documents: TestSetRow;
  dian_companies: { id: number; test_set_id: string | null };
}

/** The company's test set column and the test-set documents table (version 5, named `test_set_…`). */
export const TEST_SET_MIGRATION: Migration = {
  version: 5,
  name: 'test_set_documents: the company test set id and the documents sent to a habilitación test set',
  statements(_dialect: Dialect) {
    return [
      `ALTER TABLE dian_companies ADD COLUMN test_set_id TEXT`,
      `CREATE TABLE dian_test_set_documents (
        document_id BIGINT PRIMARY KEY REFERENCES dian_documents(id),
        company_id BIGINT NOT NULL REFERENCES dian_companies(id),
        test_set_id TEXT NOT NULL,
        zip_key TEXT,
        verdict TEXT,
        sent_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      )`,
      `CREATE INDEX dian_test_set_documents_company ON dian_test_set_documents (company_id, test_set_id)`,
    ];
  },
};

function record(r: TestSetRow): TestSetSendRecord {
  return {
    documentId: Number(r.document_id),
    companyId: Number(r.company_id),
    testSetId: r.test_set_id,
    zipKey: r.zip_key,
    verdict: r.verdict === 'accepted' || r.verdict === 'rejected' ? r.verdict : null,
    sentAt: Number(r.sent_at),
    updatedAt: Number(r.updated_at),
  };
}

/** The test-set store over the DIAN storage's Kysely instance. */
export function createDianTestSetStore(anyDb: Kysely<unknown>, clock: Clock): TestSetStore {
  const db = anyDb as unknown as Kysely<TestSetTables>;
  const now = () => clock().getTime();
  return {
    async setCompanyTestSet(companyId, testSetId) {
      const r = await db.updateTable('dian_companies').set({ test_set_id: testSetId }).where('id', '=', companyId).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async startTestSetSend(input) {
      const t = now();
      const row = await db
        .insertInto('dian_test_set_documents')
        .values({
          document_id: input.documentId,
          company_id: input.companyId,
          test_set_id: input.testSetId,
          zip_key: null,
          verdict: null,
          sent_at: t,
          updated_at: t,
        })
        .onConflict((oc) => oc.column('document_id').doUpdateSet({ test_set_id: input.testSetId, zip_key: null, verdict: null, sent_at: t, updated_at: t }))
        .returningAll()
        .executeTakeFirstOrThrow();
      return record(row);
    },
    async setTestSetZipKey(documentId, zipKey) {
      await db.updateTable('dian_test_set_documents').set({ zip_key: zipKey, updated_at: now() }).where('document_id', '=', documentId).execute();
    },
    async setTestSetVerdict(documentId, verdict) {
      await db.updateTable('dian_test_set_documents').set({ verdict, updated_at: now() }).where('document_id', '=', documentId).execute();
    },
    async forgetTestSetSend(documentId) {
      await db.deleteFrom('dian_test_set_documents').where('document_id', '=', documentId).execute();
    },
    async getTestSetSend(documentId) {
      const row = await db.selectFrom('dian_test_set_documents').selectAll().where('document_id', '=', documentId).executeTakeFirst();
      return row ? record(row) : null;
    },
    async testSetProgress(companyId) {
      const rows = await db
        .selectFrom('dian_test_set_documents')
        .select(['test_set_id', 'verdict', (eb) => eb.fn.countAll<string | number>().as('n')])
        .where('company_id', '=', companyId)
        .groupBy(['test_set_id', 'verdict'])
        .orderBy('test_set_id')
        .execute();
      const sets = new Map<string, TestSetProgress>();
      for (const r of rows) {
        const set = sets.get(r.test_set_id) ?? { testSetId: r.test_set_id, accepted: 0, rejected: 0, pending: 0 };
        const n = Number(r.n);
        if (r.verdict === 'accepted') set.accepted += n;
        else if (r.verdict === 'rejected') set.rejected += n;
        else set.pending += n;
        sets.set(r.test_set_id, set);
      }
      return [...sets.values()];
    },
  };
}
