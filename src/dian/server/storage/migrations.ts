/**
 * The DIAN server's versioned schema, for both engines, applied by the kit's runner
 * (src/shared/server-kit/storage/migrations.ts). The DIAN tables live in their own database (SQLite
 * `dian.sqlite`) or PostgreSQL schema (default `dian`): the runner's `schema_migrations` table is per database,
 * so the two products never share one.
 *
 * Conventions (as the e-CF server's): times epoch ms (BIGINT), dates ISO text, JSON as text, bytes BLOB/BYTEA.
 */
import type { Dialect, Migration } from '../../../shared/server-kit/storage/migrations.js';
import { CONTINGENCY_MIGRATIONS } from './contingency.js';
import { DIAN_EVENT_ATTACHED_MIGRATION, DIAN_EVENT_MIGRATION } from './events.js';
import { DIAN_PAYROLL_MIGRATION } from './payrolls.js';
import { TEST_SET_MIGRATION } from './test-set.js';

function types(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return { id: pg ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT', blob: pg ? 'BYTEA' : 'BLOB' };
}

export const DIAN_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'dian: companies, tokens, resolutions, documents',
    statements(dialect) {
      const t = types(dialect);
      return [
        `CREATE TABLE dian_companies (
          id ${t.id},
          nit TEXT NOT NULL UNIQUE,
          profile TEXT NOT NULL,
          software_id TEXT NOT NULL,
          software_pin TEXT NOT NULL,
          provider_nit TEXT NOT NULL,
          provider_dv TEXT NOT NULL,
          environment TEXT NOT NULL,
          certificate ${t.blob},
          created_at BIGINT NOT NULL
        )`,
        `CREATE TABLE dian_tokens (
          id ${t.id},
          company_id BIGINT NOT NULL REFERENCES dian_companies(id),
          hash TEXT NOT NULL UNIQUE,
          label TEXT,
          created_at BIGINT NOT NULL,
          revoked_at BIGINT
        )`,
        `CREATE TABLE dian_resolutions (
          id ${t.id},
          company_id BIGINT NOT NULL REFERENCES dian_companies(id),
          kind TEXT NOT NULL,
          prefix TEXT NOT NULL,
          first_number BIGINT NOT NULL,
          last_number BIGINT NOT NULL,
          technical_key TEXT,
          resolution_number TEXT NOT NULL,
          resolution_date TEXT NOT NULL,
          valid_from TEXT NOT NULL,
          valid_to TEXT NOT NULL,
          created_at BIGINT NOT NULL,
          CHECK (first_number >= 0 AND first_number <= last_number)
        )`,
        `CREATE INDEX dian_resolutions_company_kind ON dian_resolutions (company_id, kind, prefix)`,
        `CREATE TABLE dian_documents (
          id ${t.id},
          company_id BIGINT NOT NULL REFERENCES dian_companies(id),
          kind TEXT NOT NULL,
          prefix TEXT NOT NULL,
          number BIGINT NOT NULL,
          request_hash TEXT NOT NULL,
          state TEXT NOT NULL,
          document_key TEXT,
          signed_xml TEXT,
          zip ${t.blob},
          zip_name TEXT,
          dian_answer TEXT,
          application_response TEXT,
          attached_document TEXT,
          response TEXT,
          created_at BIGINT NOT NULL,
          updated_at BIGINT NOT NULL,
          UNIQUE (company_id, prefix, number)
        )`,
        `CREATE INDEX dian_documents_key ON dian_documents (company_id, document_key)`,
      ];
    },
  },
  ...CONTINGENCY_MIGRATIONS,
  DIAN_EVENT_MIGRATION,
  DIAN_PAYROLL_MIGRATION,
  TEST_SET_MIGRATION,
  DIAN_EVENT_ATTACHED_MIGRATION,
];
