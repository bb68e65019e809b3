/**
 * The server's Storage port. Two adapters implement it (SQLite, embedded default; PostgreSQL, shared by
 * several processes) and one conformance suite (test/server/storage/contract.ts) runs against both.
 * Times are epoch milliseconds; calendar dates are ISO `yyyy-MM-dd` strings (Dominican calendar).
 */
import type { EcfType } from '../../index.js';

export type SigningMode = 'own' | 'provider';

export interface Issuer {
  id: number;
  rnc: string;
  name: string;
  /** Emisor profile (IssuerProfile JSON: razon_social, direccion, …). */
  profile: Record<string, unknown>;
  signingMode: SigningMode;
  /** Encrypted .p12 (AES-256-GCM envelope, opaque to storage) or null. */
  certificate: Uint8Array | null;
  /** Certificate metadata kept in clear for `GET /certificate` (subject, serial, notAfter ms…). */
  certificateInfo: Record<string, unknown> | null;
  createdAt: number;
}

export interface NewIssuer {
  rnc: string;
  name: string;
  profile: Record<string, unknown>;
  signingMode: SigningMode;
}

export interface TokenRecord {
  id: number;
  issuerId: number;
  /** SHA-256 hex of the token; the token itself is never stored. */
  hash: string;
  label: string | null;
  createdAt: number;
  revokedAt: number | null;
}

export interface SequenceRecord {
  id: number;
  issuerId: number;
  tipo: EcfType;
  /** First and last consecutive (1 … 9,999,999,999). */
  from: number;
  to: number;
  /** Next consecutive the reservation will try. */
  next: number;
  /** `yyyy-MM-dd`, last valid day, or null (no expiry: types 32 and 34 in TesteCF). */
  expiresOn: string | null;
  active: boolean;
  createdAt: number;
}

export interface NewSequence {
  tipo: EcfType;
  from: number;
  to: number;
  expiresOn: string | null;
  active?: boolean;
}

/** Internal statuses of an issued e-CF (spec "States and transitions"). */
export type DocumentStatus =
  | 'received'
  | 'rejected_validation'
  | 'in_process_authority'
  | 'accepted_authority'
  | 'rejected_authority'
  | 'system_error';

/**
 * Where the transmission of a document stands, for crash safety:
 * - `pending`: never handed to the authority;
 * - `sending`: a send began and its outcome is not known (crash, timeout, dropped connection): before
 *   any resend, ask the authority for the e-NCF's track ids (or the RFCE verdict);
 * - `sent`: the authority acknowledged it (track id, or synchronous RFCE verdict).
 */
export type TransmissionState = 'pending' | 'sending' | 'sent';

export interface DocumentRecord {
  id: number;
  issuerId: number;
  tipo: EcfType;
  encf: string;
  status: DocumentStatus;
  /** `json` or `xml` (passthrough). */
  source: 'json' | 'xml';
  /** Unsigned e-CF XML, built at reception (JSON) or as sent (passthrough). */
  unsignedXml: string;
  /** Signed e-CF, kept once signed (also for 32 sent as RFCE). */
  signedXml: string | null;
  /** Signed RFCE, when the 32 travels as a summary. */
  rfceXml: string | null;
  /** True when the document travels as an RFCE (32 below RD$250,000). */
  summary: boolean;
  securityCode: string | null;
  trackId: string | null;
  /** `dd-MM-yyyy`. */
  issuedAt: string;
  /** `dd-MM-yyyy HH:mm:ss` (FechaHoraFirma), once signed. */
  signedAt: string | null;
  /** Decimal strings with 2 places. */
  totalAmount: string;
  totalItbis: string;
  sequenceReusable: boolean | null;
  /** Rejection reasons (Spanish) or null. */
  errors: string[] | null;
  /** Authority state text of the last answer (e.g. `Aceptado Condicional`). */
  authorityState: string | null;
  transmission: TransmissionState;
  /** Number of transmission attempts begun (a resend only after track ids showed none). */
  sendAttempts: number;
  /** Number of polls / retries done, for growing intervals. */
  attempts: number;
  /** When the worker should next look at it (ms), or null when terminal. */
  nextAttemptAt: number | null;
  leaseOwner: string | null;
  leaseUntil: number | null;
  createdAt: number;
  updatedAt: number;
}

/** What the server supplies to insert a document once its e-NCF is known. */
export interface NewDocument {
  source: 'json' | 'xml';
  unsignedXml: string;
  summary: boolean;
  issuedAt: string;
  totalAmount: string;
  totalItbis: string;
  /** Defaults to now: due immediately. */
  nextAttemptAt?: number;
}

/** Fields the worker may change. `undefined` = unchanged. */
export type DocumentPatch = Partial<Pick<DocumentRecord,
  'status' | 'signedXml' | 'rfceXml' | 'securityCode' | 'trackId' | 'signedAt' | 'sequenceReusable' | 'errors'
  | 'authorityState' | 'transmission' | 'sendAttempts' | 'attempts' | 'nextAttemptAt' | 'leaseOwner' | 'leaseUntil'>>;

/** One hand-over to the authority (track-ids history as this server saw it). */
export interface SubmissionRecord {
  id: number;
  documentId: number;
  kind: 'ecf' | 'rfce';
  trackId: string | null;
  state: string | null;
  at: number;
}

export interface DocumentFilter {
  status?: DocumentStatus;
  tipo?: EcfType;
  /** Inclusive `yyyy-MM-dd` bounds on the issue date. */
  issuedFrom?: string;
  issuedTo?: string;
  /** Return documents with id < cursor (newest first). */
  cursor?: number;
  limit: number;
}

/** Why an explicit e-NCF (passthrough) cannot be used. */
export type EncfRefusal = 'no_sequence' | 'outside_sequence' | 'expired' | 'inactive' | 'duplicate' | 'voided';

/** A voiding attempt (ANECF) and its ranges. `accepted` null while the outcome is unknown. */
export interface VoidBatch {
  id: number;
  issuerId: number;
  lote: string;
  accepted: boolean | null;
  messages: string[];
  ranges: { tipo: EcfType; from: number; to: number }[];
  createdAt: number;
  updatedAt: number;
}

export interface Storage {
  /** Creates or upgrades the schema; safe to call from several processes at once. */
  migrate(): Promise<void>;
  close(): Promise<void>;

  createIssuer(input: NewIssuer): Promise<Issuer>;
  getIssuer(id: number): Promise<Issuer | null>;
  getIssuerByRnc(rnc: string): Promise<Issuer | null>;
  listIssuers(): Promise<Issuer[]>;
  updateIssuer(id: number, patch: Partial<Pick<Issuer, 'name' | 'profile' | 'signingMode' | 'certificate' | 'certificateInfo'>>): Promise<Issuer>;

  addToken(issuerId: number, hash: string, label?: string | null): Promise<TokenRecord>;
  /** The live (not revoked) token with that hash, and its issuer. */
  findToken(hash: string): Promise<{ token: TokenRecord; issuer: Issuer } | null>;
  revokeToken(id: number): Promise<boolean>;
  listTokens(issuerId: number): Promise<TokenRecord[]>;

  addSequence(issuerId: number, input: NewSequence): Promise<SequenceRecord>;
  listSequences(issuerId: number): Promise<SequenceRecord[]>;
  setSequenceActive(id: number, active: boolean): Promise<void>;

  /**
   * Atomically takes the next free consecutive of an active, unexpired (on `today`) sequence of the type,
   * skipping consecutives already used (e.g. by passthrough) and those in voided or pending-void ranges,
   * and inserts the document built by `make` in the same transaction. If `make` throws, nothing is
   * consumed and the error propagates. Returns null when no sequence has a free number.
   * `make` runs inside the transaction: it must not call this storage (on SQLite that waits forever on
   * the connection the transaction holds) and should be quick (it holds the sequence lock).
   */
  reserveAndInsert(issuerId: number, tipo: EcfType, today: string,
    make: (encf: string, sequence: SequenceRecord) => NewDocument | Promise<NewDocument>): Promise<DocumentRecord | null>;

  /**
   * Inserts a document with a caller-given e-NCF (passthrough) after checking, in one transaction, that it
   * lies in an active unexpired sequence of the issuer, is unused and not voided or pending void.
   */
  insertWithEncf(issuerId: number, tipo: EcfType, encf: string, today: string, doc: NewDocument): Promise<DocumentRecord | { refused: EncfRefusal }>;

  getDocument(id: number): Promise<DocumentRecord | null>;
  getDocumentByEncf(issuerId: number, encf: string): Promise<DocumentRecord | null>;
  listDocuments(issuerId: number, filter: DocumentFilter): Promise<DocumentRecord[]>;
  /**
   * Applies `patch`. With `leaseOwner`, only while that owner still holds the lease (returns null
   * otherwise), so a worker that lost its lease cannot overwrite another's progress.
   */
  updateDocument(id: number, patch: DocumentPatch, leaseOwner?: string): Promise<DocumentRecord | null>;
  /**
   * Leases up to `limit` documents whose `nextAttemptAt` ≤ now and whose lease is free or expired,
   * setting `leaseOwner`/`leaseUntil`. Safe across processes (no document leased twice at once).
   */
  claimDue(now: number, owner: string, leaseMs: number, limit: number): Promise<DocumentRecord[]>;

  addSubmission(documentId: number, kind: 'ecf' | 'rfce', trackId: string | null, state: string | null): Promise<SubmissionRecord>;
  listSubmissions(documentId: number): Promise<SubmissionRecord[]>;

  /**
   * e-NCFs of this issuer's documents (any status) whose consecutive lies in one of `ranges` of its type,
   * ascending per type, at most `limit`. Voiding refuses such ranges (a transmitted e-CF is reversed with
   * a credit note, not voided); checking number by number would not scale to 10,000-number ranges.
   */
  findIssuedInRanges(issuerId: number, ranges: { tipo: EcfType; from: number; to: number }[], limit: number): Promise<string[]>;

  /** Records a voiding attempt with `accepted` null; its consecutives are withheld from reservation at once. */
  createVoidBatch(issuerId: number, lote: string, ranges: { tipo: EcfType; from: number; to: number }[]): Promise<VoidBatch>;
  /**
   * Settles an attempt: accepted → its consecutives are never handed out (pointers jump past ranges they
   * cover); rejected → they become available again.
   */
  settleVoidBatch(id: number, accepted: boolean, messages: string[]): Promise<VoidBatch>;
  listVoidBatches(issuerId: number, limit: number): Promise<VoidBatch[]>;
}
