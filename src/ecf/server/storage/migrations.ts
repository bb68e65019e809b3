/**
 * The e-CF server's versioned schema migrations, for both adapters. The kit's runner
 * (src/shared/server-kit/storage/migrations.ts) applies the missing ones in order, records each in
 * `schema_migrations` and serialises concurrent callers across processes.
 *
 * Conventions: times are epoch milliseconds (BIGINT), calendar dates ISO text, JSON as text, binary as
 * BLOB/BYTEA, booleans INTEGER 0/1 on SQLite and BOOLEAN on PostgreSQL. Columns `from`/`to` are
 * reserved words, hence `first_number`/`last_number`.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect, Migration } from '../../../shared/server-kit/storage/migrations.js';
import { listedFieldsOfXml } from './document-fields.js';

export type { Dialect, Migration };

/** Types that differ between the two engines. */
function types(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return {
    id: pg ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT',
    bool: pg ? 'BOOLEAN' : 'INTEGER',
    blob: pg ? 'BYTEA' : 'BLOB',
    true: pg ? 'TRUE' : '1',
  };
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    statements(dialect) {
      const t = types(dialect);
      return [
        `CREATE TABLE issuers (
          id ${t.id},
          rnc TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL,
          profile TEXT NOT NULL,
          signing_mode TEXT NOT NULL,
          certificate ${t.blob},
          certificate_info TEXT,
          created_at BIGINT NOT NULL
        )`,
        `CREATE TABLE tokens (
          id ${t.id},
          issuer_id BIGINT NOT NULL REFERENCES issuers(id),
          hash TEXT NOT NULL UNIQUE,
          label TEXT,
          created_at BIGINT NOT NULL,
          revoked_at BIGINT
        )`,
        `CREATE INDEX tokens_issuer ON tokens (issuer_id, id)`,
        `CREATE TABLE sequences (
          id ${t.id},
          issuer_id BIGINT NOT NULL REFERENCES issuers(id),
          tipo TEXT NOT NULL,
          first_number BIGINT NOT NULL,
          last_number BIGINT NOT NULL,
          next_number BIGINT NOT NULL,
          expires_on TEXT,
          active ${t.bool} NOT NULL DEFAULT ${t.true},
          created_at BIGINT NOT NULL,
          CHECK (first_number >= 1 AND last_number <= 9999999999 AND first_number <= last_number)
        )`,
        `CREATE INDEX sequences_issuer_tipo ON sequences (issuer_id, tipo, first_number)`,
        `CREATE TABLE documents (
          id ${t.id},
          issuer_id BIGINT NOT NULL REFERENCES issuers(id),
          tipo TEXT NOT NULL,
          encf TEXT NOT NULL,
          consecutive BIGINT NOT NULL,
          status TEXT NOT NULL,
          source TEXT NOT NULL,
          unsigned_xml TEXT NOT NULL,
          signed_xml TEXT,
          rfce_xml TEXT,
          summary ${t.bool} NOT NULL,
          security_code TEXT,
          track_id TEXT,
          issued_at TEXT NOT NULL,
          issued_on TEXT NOT NULL,
          signed_at TEXT,
          total_amount TEXT NOT NULL,
          total_itbis TEXT NOT NULL,
          sequence_reusable ${t.bool},
          errors TEXT,
          authority_state TEXT,
          transmission TEXT NOT NULL,
          send_attempts INTEGER NOT NULL DEFAULT 0,
          attempts INTEGER NOT NULL DEFAULT 0,
          next_attempt_at BIGINT,
          lease_owner TEXT,
          lease_until BIGINT,
          created_at BIGINT NOT NULL,
          updated_at BIGINT NOT NULL,
          UNIQUE (issuer_id, encf)
        )`,
        // Reservation skips used consecutives by range scans on this index.
        `CREATE INDEX documents_consecutive ON documents (issuer_id, tipo, consecutive)`,
        // claimDue: only documents that still need work carry a next_attempt_at.
        `CREATE INDEX documents_due ON documents (next_attempt_at, id) WHERE next_attempt_at IS NOT NULL`,
        // Listing, newest first, optionally by status.
        `CREATE INDEX documents_issuer_list ON documents (issuer_id, id)`,
        `CREATE INDEX documents_issuer_status ON documents (issuer_id, status, id)`,
        `CREATE TABLE submissions (
          id ${t.id},
          document_id BIGINT NOT NULL REFERENCES documents(id),
          kind TEXT NOT NULL,
          track_id TEXT,
          state TEXT,
          at BIGINT NOT NULL
        )`,
        `CREATE INDEX submissions_document ON submissions (document_id, id)`,
        `CREATE TABLE void_batches (
          id ${t.id},
          issuer_id BIGINT NOT NULL REFERENCES issuers(id),
          lote TEXT NOT NULL,
          accepted ${t.bool},
          messages TEXT NOT NULL,
          created_at BIGINT NOT NULL,
          updated_at BIGINT NOT NULL
        )`,
        `CREATE INDEX void_batches_issuer ON void_batches (issuer_id, id)`,
        `CREATE TABLE void_ranges (
          id ${t.id},
          batch_id BIGINT NOT NULL REFERENCES void_batches(id),
          issuer_id BIGINT NOT NULL REFERENCES issuers(id),
          tipo TEXT NOT NULL,
          first_number BIGINT NOT NULL,
          last_number BIGINT NOT NULL
        )`,
        `CREATE INDEX void_ranges_lookup ON void_ranges (issuer_id, tipo, first_number)`,
        `CREATE INDEX void_ranges_batch ON void_ranges (batch_id)`,
      ];
    },
  },
  {
    version: 2,
    name: 'inbound services: received documents, approvals of our documents, seed authentication',
    statements(dialect) {
      const t = types(dialect);
      return [
        // An e-CF another issuer sent to one of ours. The unique key makes duplicate detection a single
        // INSERT … ON CONFLICT DO NOTHING, also between processes.
        `CREATE TABLE received_documents (
          id ${t.id},
          issuer_id BIGINT NOT NULL REFERENCES issuers(id),
          emisor_rnc TEXT NOT NULL,
          emisor_name TEXT,
          encf TEXT NOT NULL,
          tipo TEXT NOT NULL,
          fecha_emision TEXT NOT NULL,
          issued_on TEXT NOT NULL,
          monto_total TEXT NOT NULL,
          total_itbis TEXT,
          xml TEXT NOT NULL,
          arecf_xml TEXT NOT NULL,
          estado INTEGER NOT NULL,
          motivo INTEGER,
          received_at BIGINT NOT NULL,
          approval_estado INTEGER,
          approval_motivo TEXT,
          approval_xml TEXT,
          approval_sent_at BIGINT,
          approval_outcome TEXT,
          updated_at BIGINT NOT NULL,
          UNIQUE (issuer_id, emisor_rnc, encf)
        )`,
        `CREATE INDEX received_documents_list ON received_documents (issuer_id, id)`,
        `CREATE INDEX received_documents_encf ON received_documents (issuer_id, encf, id)`,
        `CREATE TABLE document_approvals (
          id ${t.id},
          document_id BIGINT NOT NULL REFERENCES documents(id),
          estado INTEGER NOT NULL,
          motivo TEXT,
          rnc_comprador TEXT NOT NULL,
          acecf_xml TEXT NOT NULL,
          received_at BIGINT NOT NULL
        )`,
        `CREATE INDEX document_approvals_document ON document_approvals (document_id, id)`,
        `CREATE TABLE inbound_seeds (
          valor TEXT PRIMARY KEY,
          scope TEXT NOT NULL,
          created_at BIGINT NOT NULL,
          expires_at BIGINT NOT NULL,
          used_at BIGINT
        )`,
        `CREATE INDEX inbound_seeds_expiry ON inbound_seeds (expires_at)`,
        `CREATE TABLE inbound_tokens (
          hash TEXT PRIMARY KEY,
          scope TEXT NOT NULL,
          subject TEXT NOT NULL,
          created_at BIGINT NOT NULL,
          expires_at BIGINT NOT NULL
        )`,
        `CREATE INDEX inbound_tokens_expiry ON inbound_tokens (expires_at)`,
      ];
    },
  },
  {
    version: 3,
    name: 'inbound trust: one approval per document and buyer, sender identities, token principals',
    statements() {
      return [
        // One commercial approval per (document, buyer): the first valid decision is final. Earlier repeats go.
        `DELETE FROM document_approvals WHERE id NOT IN (SELECT MIN(id) FROM document_approvals GROUP BY document_id, rnc_comprador)`,
        `CREATE UNIQUE INDEX document_approvals_buyer ON document_approvals (document_id, rnc_comprador)`,
        // SHA-256 of the certificate that signed the ACECF / the delivered e-CF.
        `ALTER TABLE document_approvals ADD COLUMN signer_fingerprint TEXT`,
        `ALTER TABLE received_documents ADD COLUMN sender_fingerprint TEXT`,
        // The per-sender quota counts a sender's recent deliveries.
        `CREATE INDEX received_documents_sender ON received_documents (emisor_rnc, received_at)`,
        // JSON array of the RNCs an inbound token may act for (NULL: issued before, acts for nobody).
        `ALTER TABLE inbound_tokens ADD COLUMN principals TEXT`,
      ];
    },
  },
  {
    version: 4,
    name: 'worker: "No encontrado" answers in a row, stored per document',
    statements() {
      // Kept in memory before, so a restarted worker started the count over (issue 13, finding 13).
      return ['ALTER TABLE documents ADD COLUMN not_found_polls INTEGER NOT NULL DEFAULT 0'];
    },
  },
  {
    version: 5,
    name: 'idempotency keys of POST /documents (issue 16)',
    statements() {
      return [
        // One row per (issuer, key), written in the transaction that reserves the e-NCF and inserts the
        // document, so a number is never consumed without its key nor a key kept without its document.
        // fingerprint: SHA-256 hex of tipo, content type and body bytes.
        `CREATE TABLE idempotency_keys (
          issuer_id BIGINT NOT NULL REFERENCES issuers(id),
          idempotency_key TEXT NOT NULL,
          fingerprint TEXT NOT NULL,
          document_id BIGINT REFERENCES documents(id),
          created_at BIGINT NOT NULL,
          PRIMARY KEY (issuer_id, idempotency_key)
        )`,
        // The purge deletes by age.
        `CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at)`,
      ];
    },
  },
  {
    version: 6,
    name: 'document list filters: buyer RNC and internal invoice number (issue 16)',
    statements() {
      return [
        `ALTER TABLE documents ADD COLUMN rnc_comprador TEXT`,
        `ALTER TABLE documents ADD COLUMN numero_factura_interna TEXT`,
        `CREATE INDEX documents_issuer_buyer ON documents (issuer_id, rnc_comprador, id)`,
        `CREATE INDEX documents_issuer_internal ON documents (issuer_id, numero_factura_interna, id)`,
      ];
    },
    // Existing documents: read both values from their stored unsigned XML, in the migration's transaction.
    run: backfillListedFields,
  },
];

/** Documents read per round of the backfill. */
const BACKFILL_CHUNK = 500;

// biome-ignore lint/suspicious/noExplicitAny: runs on the migration's untyped connection
async function backfillListedFields(db: Kysely<any>): Promise<void> {
  let after = 0;
  for (;;) {
    const rows = await sql<{ id: number | string; unsigned_xml: string }>`
      SELECT id, unsigned_xml FROM documents WHERE id > ${after} ORDER BY id LIMIT ${BACKFILL_CHUNK}`.execute(db);
    if (rows.rows.length === 0) return;
    for (const r of rows.rows) {
      const f = listedFieldsOfXml(r.unsigned_xml);
      if (f.rncComprador !== null || f.numeroFacturaInterna !== null) {
        await sql`UPDATE documents SET rnc_comprador = ${f.rncComprador}, numero_factura_interna = ${f.numeroFacturaInterna} WHERE id = ${r.id}`.execute(db);
      }
    }
    after = Number(rows.rows[rows.rows.length - 1]!.id);
  }
}
