/**
 * The tables as Kysely sees them (both engines), and the row shapes queries return. Columns are named as in
 * migrations.ts; BIGINT columns come back as numbers (PostgreSQL: the pool's int8 parser; SQLite: natively).
 */
import type { Generated } from 'kysely';

/** A boolean column as the engine stores it (SQLite: 0/1; PostgreSQL: boolean). */
export type Bool = number | boolean;

export interface IssuersTable {
  id: Generated<number>;
  rnc: string;
  name: string;
  profile: string;
  signing_mode: string;
  certificate: Uint8Array | null;
  certificate_info: string | null;
  created_at: number;
}
export interface TokensTable {
  id: Generated<number>;
  issuer_id: number;
  hash: string;
  label: string | null;
  created_at: number;
  revoked_at: number | null;
}
export interface SequencesTable {
  id: Generated<number>;
  issuer_id: number;
  tipo: string;
  first_number: number;
  last_number: number;
  next_number: number;
  expires_on: string | null;
  active: Bool;
  created_at: number;
}
export interface DocumentsTable {
  id: Generated<number>;
  issuer_id: number;
  tipo: string;
  encf: string;
  consecutive: number;
  status: string;
  source: string;
  unsigned_xml: string;
  signed_xml: string | null;
  rfce_xml: string | null;
  summary: Bool;
  security_code: string | null;
  track_id: string | null;
  issued_at: string;
  issued_on: string;
  signed_at: string | null;
  total_amount: string;
  total_itbis: string;
  sequence_reusable: Bool | null;
  errors: string | null;
  authority_state: string | null;
  transmission: string;
  send_attempts: number;
  attempts: number;
  not_found_polls: Generated<number>;
  rnc_comprador: string | null;
  numero_factura_interna: string | null;
  next_attempt_at: number | null;
  lease_owner: string | null;
  lease_until: number | null;
  created_at: number;
  updated_at: number;
}
export interface SubmissionsTable {
  id: Generated<number>;
  document_id: number;
  kind: string;
  track_id: string | null;
  state: string | null;
  at: number;
}
export interface VoidBatchesTable {
  id: Generated<number>;
  issuer_id: number;
  lote: string;
  accepted: Bool | null;
  messages: string;
  created_at: number;
  updated_at: number;
}
export interface VoidRangesTable {
  id: Generated<number>;
  batch_id: number;
  issuer_id: number;
  tipo: string;
  first_number: number;
  last_number: number;
}

export interface ReceivedDocumentsTable {
  id: Generated<number>;
  issuer_id: number;
  emisor_rnc: string;
  emisor_name: string | null;
  encf: string;
  tipo: string;
  fecha_emision: string;
  issued_on: string;
  monto_total: string;
  total_itbis: string | null;
  xml: string;
  arecf_xml: string;
  estado: number;
  motivo: number | null;
  received_at: number;
  approval_estado: number | null;
  approval_motivo: string | null;
  approval_xml: string | null;
  approval_sent_at: number | null;
  approval_outcome: string | null;
  updated_at: number;
  sender_fingerprint: string | null;
}
export interface DocumentApprovalsTable {
  id: Generated<number>;
  document_id: number;
  estado: number;
  motivo: string | null;
  rnc_comprador: string;
  acecf_xml: string;
  received_at: number;
  signer_fingerprint: string | null;
}
export interface InboundSeedsTable {
  valor: string;
  scope: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
export interface InboundTokensTable {
  hash: string;
  scope: string;
  subject: string;
  created_at: number;
  expires_at: number;
  principals: string | null;
}

export interface IdempotencyKeysTable {
  issuer_id: number;
  idempotency_key: string;
  fingerprint: string;
  document_id: number | null;
  created_at: number;
}

export interface Database {
  issuers: IssuersTable;
  tokens: TokensTable;
  sequences: SequencesTable;
  documents: DocumentsTable;
  submissions: SubmissionsTable;
  void_batches: VoidBatchesTable;
  void_ranges: VoidRangesTable;
  received_documents: ReceivedDocumentsTable;
  document_approvals: DocumentApprovalsTable;
  inbound_seeds: InboundSeedsTable;
  inbound_tokens: InboundTokensTable;
  idempotency_keys: IdempotencyKeysTable;
}

export type Row<T> = { [K in keyof T]: T[K] extends Generated<infer U> ? U : T[K] };
export type IssuerRow = Row<IssuersTable>;
export type TokenRow = Row<TokensTable>;
export type SequenceRow = Row<SequencesTable>;
export type DocumentRow = Row<DocumentsTable>;
export type SubmissionRow = Row<SubmissionsTable>;
export type VoidBatchRow = Row<VoidBatchesTable>;
export type ReceivedRow = Row<ReceivedDocumentsTable>;
export type ApprovalRow = Row<DocumentApprovalsTable>;
