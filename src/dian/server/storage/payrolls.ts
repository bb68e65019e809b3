/**
 * The payrolls' storage (individual payroll 102 and adjustment notes 103 sent through `/service/payrolls…`): one
 * row per company and payroll number (prefix + consecutive, across both kinds), its request hash (idempotency),
 * state, how it was sent (SendNominaSync, or SendTestSetAsync with the test set and DIAN's ZipKey), CUNE, the signed
 * XML, its zip, DIAN's last answer and the HTTP answer given. Kept apart from the documents' adapter (./kysely.ts
 * spreads it in) with its own migration (version 4).
 */
import type { Generated, Kysely } from 'kysely';
import type { Clock } from '../../../shared/ports.js';
import type { Dialect, Migration } from '../../../shared/server-kit/storage/migrations.js';
import { isUniqueViolation, runTransaction } from '../../../shared/server-kit/storage/transactions.js';

/**
 * `building` (number reserved), `sending` (signed; SendNominaSync under way, or its answer lost), `pending` (a test
 * set uploaded with SendTestSetAsync, DIAN's verdict not read yet), `accepted`, `rejected` (the number is free again).
 */
export type PayrollState = 'building' | 'sending' | 'pending' | 'accepted' | 'rejected';

/** `sync`: SendNominaSync; `test_set`: SendTestSetAsync (habilitación), verdict by GetStatusZip. */
export type PayrollSendMode = 'sync' | 'test_set';

export interface PayrollRecord {
  id: number;
  companyId: number;
  /** `payroll` (102) or `payroll-adjustment` (103). */
  kind: string;
  prefix: string;
  consecutive: number;
  requestHash: string;
  state: PayrollState;
  sendMode: PayrollSendMode;
  testSetId: string | null;
  /** The CUNE (known once built). */
  cune: string | null;
  /** DIAN's ZipKey of a test-set upload. */
  zipKey: string | null;
  signedXml: string | null;
  /** The XML's file name inside the zip (`nie…xml`). */
  xmlFileName: string | null;
  zip: Uint8Array | null;
  /** For a 103: the row of the payroll it adjusts, when this service holds it. */
  predecessorId: number | null;
  /** DIAN's last `DianResponse` on the payroll (the transport's reading). */
  dianAnswer: unknown;
  /** When DIAN's status was last read (epoch ms). */
  dianAnsweredAt: number | null;
  response: { status: number; body: unknown } | null;
  createdAt: number;
  updatedAt: number;
}

export type PayrollReservation =
  | { outcome: 'reserved'; payroll: PayrollRecord }
  | { outcome: 'same'; payroll: PayrollRecord }
  | { outcome: 'different'; payroll: PayrollRecord };

export interface PayrollPatch {
  state?: PayrollState;
  cune?: string | null;
  zipKey?: string | null;
  signedXml?: string | null;
  xmlFileName?: string | null;
  zip?: Uint8Array | null;
  predecessorId?: number | null;
  dianAnswer?: unknown;
  dianAnsweredAt?: number | null;
  response?: { status: number; body: unknown } | null;
}

export interface PayrollStore {
  /** In one transaction: a free number (or one DIAN refused) becomes a `building` row; else the row there and whether its body was the same. */
  reservePayroll(input: {
    companyId: number;
    kind: string;
    prefix: string;
    consecutive: number;
    requestHash: string;
    sendMode: PayrollSendMode;
    testSetId: string | null;
  }): Promise<PayrollReservation>;
  updatePayroll(id: number, patch: PayrollPatch): Promise<PayrollRecord>;
  /** Compare-and-set on the payroll's state (and `updatedAt`), as the documents' `claimDocument`: the updated row, or null when another request changed it first. */
  claimPayroll(id: number, expected: { state: PayrollState; updatedAt?: number }, patch: PayrollPatch): Promise<PayrollRecord | null>;
  /** Deletes a reservation never sent (DIAN unreachable): the number is free again. */
  releasePayroll(id: number): Promise<void>;
  /** A company's payroll by row id (another company's: null). */
  getPayroll(companyId: number, id: number): Promise<PayrollRecord | null>;
  getPayrollByCune(companyId: number, cune: string): Promise<PayrollRecord | null>;
}

interface PayrollRow {
  id: Generated<number>;
  company_id: number;
  kind: string;
  prefix: string;
  consecutive: number;
  request_hash: string;
  state: string;
  send_mode: string;
  test_set_id: string | null;
  cune: string | null;
  zip_key: string | null;
  signed_xml: string | null;
  xml_file_name: string | null;
  zip: Uint8Array | null;
  predecessor_id: number | null;
  dian_answer: string | null;
  dian_answered_at: number | null;
  response: string | null;
  created_at: number;
  updated_at: number;
}

export interface DianPayrollTables {
  dian_payrolls: PayrollRow;
}

/** The payrolls table (version 4). */
export const DIAN_PAYROLL_MIGRATION: Migration = {
  version: 4,
  name: 'payrolls: dian_payrolls (payroll 102 and adjustments 103 per company and number)',
  statements(dialect: Dialect) {
    const pg = dialect === 'postgres';
    return [
      `CREATE TABLE dian_payrolls (
        id ${pg ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT'},
        company_id BIGINT NOT NULL REFERENCES dian_companies(id),
        kind TEXT NOT NULL,
        prefix TEXT NOT NULL,
        consecutive BIGINT NOT NULL,
        request_hash TEXT NOT NULL,
        state TEXT NOT NULL,
        send_mode TEXT NOT NULL,
        test_set_id TEXT,
        cune TEXT,
        zip_key TEXT,
        signed_xml TEXT,
        xml_file_name TEXT,
        zip ${pg ? 'BYTEA' : 'BLOB'},
        predecessor_id BIGINT,
        dian_answer TEXT,
        dian_answered_at BIGINT,
        response TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (company_id, prefix, consecutive)
      )`,
      `CREATE INDEX dian_payrolls_cune ON dian_payrolls (company_id, cune)`,
    ];
  },
};

function record(r: PayrollRow & { id: number }): PayrollRecord {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    kind: r.kind,
    prefix: r.prefix,
    consecutive: Number(r.consecutive),
    requestHash: r.request_hash,
    state: r.state as PayrollState,
    sendMode: r.send_mode as PayrollSendMode,
    testSetId: r.test_set_id,
    cune: r.cune,
    zipKey: r.zip_key,
    signedXml: r.signed_xml,
    xmlFileName: r.xml_file_name,
    zip: r.zip == null ? null : new Uint8Array(r.zip),
    predecessorId: r.predecessor_id == null ? null : Number(r.predecessor_id),
    dianAnswer: r.dian_answer == null ? null : JSON.parse(r.dian_answer),
    dianAnsweredAt: r.dian_answered_at == null ? null : Number(r.dian_answered_at),
    response: r.response == null ? null : JSON.parse(r.response),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/** The columns a payroll patch sets, with `updated_at`. */
function payrollSet(patch: PayrollPatch, updatedAt: number): Record<string, unknown> {
  const set: Record<string, unknown> = { updated_at: updatedAt };
  const columns: [keyof PayrollPatch, string][] = [
    ['state', 'state'],
    ['cune', 'cune'],
    ['zipKey', 'zip_key'],
    ['signedXml', 'signed_xml'],
    ['xmlFileName', 'xml_file_name'],
    ['predecessorId', 'predecessor_id'],
    ['dianAnsweredAt', 'dian_answered_at'],
  ];
  for (const [k, column] of columns) if (patch[k] !== undefined) set[column] = patch[k];
  if (patch.zip !== undefined) set.zip = patch.zip == null ? null : Buffer.from(patch.zip.buffer, patch.zip.byteOffset, patch.zip.byteLength);
  if (patch.dianAnswer !== undefined) set.dian_answer = patch.dianAnswer === null ? null : JSON.stringify(patch.dianAnswer);
  if (patch.response !== undefined) set.response = patch.response === null ? null : JSON.stringify(patch.response);
  return set;
}

/** The payroll store over the DIAN storage's Kysely instance. */
export function createDianPayrollStore(anyDb: Kysely<unknown>, dialect: Dialect, clock: Clock): PayrollStore {
  const db = anyDb as unknown as Kysely<DianPayrollTables>;
  const now = () => clock().getTime();
  const fresh = {
    state: 'building',
    cune: null,
    zip_key: null,
    signed_xml: null,
    xml_file_name: null,
    zip: null,
    predecessor_id: null,
    dian_answer: null,
    dian_answered_at: null,
    response: null,
  } as const;
  return {
    async reservePayroll(input) {
      const attempt = () =>
        runTransaction(db, dialect, async (q) => {
          for (;;) {
            const existing = await q
              .selectFrom('dian_payrolls')
              .selectAll()
              .where('company_id', '=', input.companyId)
              .where('prefix', '=', input.prefix)
              .where('consecutive', '=', input.consecutive)
              .executeTakeFirst();
            const t = now();
            const given = { kind: input.kind, request_hash: input.requestHash, send_mode: input.sendMode, test_set_id: input.testSetId };
            if (existing) {
              const p = record(existing as PayrollRow & { id: number });
              if (p.state !== 'rejected') return { outcome: p.requestHash === input.requestHash ? ('same' as const) : ('different' as const), payroll: p };
              const row = await q
                .updateTable('dian_payrolls')
                .set({ ...fresh, ...given, updated_at: t })
                .where('id', '=', p.id)
                // Only while still rejected (a concurrent takeover committed first: read the row again).
                .where('state', '=', 'rejected')
                .returningAll()
                .executeTakeFirst();
              if (!row) continue;
              return { outcome: 'reserved' as const, payroll: record(row as PayrollRow & { id: number }) };
            }
            const row = await q
              .insertInto('dian_payrolls')
              .values({ ...fresh, ...given, company_id: input.companyId, prefix: input.prefix, consecutive: input.consecutive, created_at: t, updated_at: t })
              .returningAll()
              .executeTakeFirstOrThrow();
            return { outcome: 'reserved' as const, payroll: record(row as PayrollRow & { id: number }) };
          }
        });
      try {
        return await attempt();
      } catch (e) {
        if (isUniqueViolation(e)) return attempt();
        throw e;
      }
    },
    async updatePayroll(id, patch) {
      const row = await db
        .updateTable('dian_payrolls')
        .set(payrollSet(patch, now()) as never)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return record(row as PayrollRow & { id: number });
    },
    async claimPayroll(id, expected, patch) {
      const t = expected.updatedAt === undefined ? now() : Math.max(now(), expected.updatedAt + 1);
      let q = db
        .updateTable('dian_payrolls')
        .set(payrollSet(patch, t) as never)
        .where('id', '=', id)
        .where('state', '=', expected.state);
      if (expected.updatedAt !== undefined) q = q.where('updated_at', '=', expected.updatedAt);
      const row = await q.returningAll().executeTakeFirst();
      return row ? record(row as PayrollRow & { id: number }) : null;
    },
    async releasePayroll(id) {
      await db.deleteFrom('dian_payrolls').where('id', '=', id).where('state', 'in', ['building', 'sending']).execute();
    },
    async getPayroll(companyId, id) {
      const row = await db.selectFrom('dian_payrolls').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
      return row ? record(row as PayrollRow & { id: number }) : null;
    },
    async getPayrollByCune(companyId, cune) {
      const row = await db.selectFrom('dian_payrolls').selectAll().where('company_id', '=', companyId).where('cune', '=', cune).executeTakeFirst();
      return row ? record(row as PayrollRow & { id: number }) : null;
    },
  };
}
