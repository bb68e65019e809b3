/**
 * The server's Storage port. Two adapters implement it (SQLite, embedded default; PostgreSQL, shared by
 * several processes) and one conformance suite (test/ecf/server/storage/contract.ts) runs against both.
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
export type DocumentStatus = 'received' | 'rejected_validation' | 'in_process_authority' | 'accepted_authority' | 'rejected_authority' | 'system_error';

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
  /**
   * "No encontrado" answers in a row for the track id we hold (the worker asks the track ids again after a
   * few). Stored, so a restarted worker continues the count instead of starting over.
   */
  notFoundPolls: number;
  /** RNCComprador (buyer's RNC or cédula) of the e-CF, or null when it has none; a list filter. */
  rncComprador: string | null;
  /** NumeroFacturaInterna (the issuer's own invoice number) of the e-CF, or null; a list filter. */
  numeroFacturaInterna: string | null;
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
  /** The e-CF's RNCComprador and NumeroFacturaInterna, stored for the list filters (default null). */
  rncComprador?: string | null;
  numeroFacturaInterna?: string | null;
}

/** Fields the worker may change. `undefined` = unchanged. */
export type DocumentPatch = Partial<
  Pick<
    DocumentRecord,
    | 'status'
    | 'signedXml'
    | 'rfceXml'
    | 'securityCode'
    | 'trackId'
    | 'signedAt'
    | 'sequenceReusable'
    | 'errors'
    | 'authorityState'
    | 'transmission'
    | 'sendAttempts'
    | 'attempts'
    | 'notFoundPolls'
    | 'nextAttemptAt'
    | 'leaseOwner'
    | 'leaseUntil'
  >
>;

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
  /** Exact RNCComprador / NumeroFacturaInterna. */
  rncComprador?: string;
  numeroFacturaInterna?: string;
  /** Return documents with id < cursor (newest first). */
  cursor?: number;
  limit: number;
}

/**
 * An `Idempotency-Key` sent with an issue request: claimed in the transaction that reserves the e-NCF and
 * inserts the document, so the key and the document are stored together or not at all.
 */
export interface IdempotencyClaim {
  key: string;
  /** SHA-256 (hex) of the request: tipo, content type and body bytes. */
  fingerprint: string;
  /** When this request uses the key (epoch ms, the caller's clock): stored as the key's creation instant. */
  at: number;
  /** Keys created before this instant (epoch ms, same clock) are expired: replaced by the new request, never replayed. */
  notBefore: number;
}

/** The key was already used (and not expired): the document it created, and whether this request is the same. */
export interface IdempotencyHit {
  replayOf: DocumentRecord;
  /** False when the earlier request with this key had another fingerprint (tipo, content type or body). */
  sameRequest: boolean;
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

// ---------------------------------------------------------------------------------------------------------
// Ports, one per kind of record. A consumer names the ones it uses; `Storage` is all of them (one adapter
// object implements every port, and the conformance suite tests it whole).

/** Schema and connection lifetime. */
export interface StorageLifecycle {
  /** Creates or upgrades the schema; safe to call from several processes at once. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/** Issuers (tenants) and the API tokens that authenticate them. */
export interface IssuerStore {
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
}

/**
 * Authorised e-NCF ranges and the reservation of their numbers. `reserveAndInsert` and `insertWithEncf`
 * belong here although they insert a document: what they guard is the sequence's invariant (each number of a
 * range used once, none from a voided, expired or inactive range), under the lock of the sequence rows; the
 * document is inserted in the same transaction so a number and its document exist together or not at all.
 */
export interface SequenceStore {
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
  reserveAndInsert(
    issuerId: number,
    tipo: EcfType,
    today: string,
    make: (encf: string, sequence: SequenceRecord) => NewDocument | Promise<NewDocument>,
  ): Promise<DocumentRecord | null>;
  /**
   * The same, claiming an idempotency key in the transaction (after the sequence rows are locked, before a
   * number is taken): when the key is already held (unexpired), nothing is reserved nor inserted and the
   * document it created is returned as an `IdempotencyHit`. Concurrent claims of one key wait for each other
   * (across processes): one inserts, the others get the hit. A null result stores no key.
   */
  reserveAndInsert(
    issuerId: number,
    tipo: EcfType,
    today: string,
    make: (encf: string, sequence: SequenceRecord) => NewDocument | Promise<NewDocument>,
    idempotency: IdempotencyClaim | undefined,
  ): Promise<DocumentRecord | IdempotencyHit | null>;

  /**
   * Inserts a document with a caller-given e-NCF (passthrough) after checking, in one transaction, that it
   * lies in an active unexpired sequence of the issuer, is unused and not voided or pending void.
   */
  insertWithEncf(issuerId: number, tipo: EcfType, encf: string, today: string, doc: NewDocument): Promise<DocumentRecord | { refused: EncfRefusal }>;
  /** The same, claiming an idempotency key in the transaction (see `reserveAndInsert`); a refusal stores no key. */
  insertWithEncf(
    issuerId: number,
    tipo: EcfType,
    encf: string,
    today: string,
    doc: NewDocument,
    idempotency: IdempotencyClaim | undefined,
  ): Promise<DocumentRecord | { refused: EncfRefusal } | IdempotencyHit>;
}

/** Idempotency keys of issue requests, outside the issuing transaction: the early lookup and the purge. */
export interface IdempotencyStore {
  /** The unexpired key (created at or after `notBefore`) and the document it created, or null. */
  findIdempotencyKey(issuerId: number, key: string, notBefore: number): Promise<{ fingerprint: string; document: DocumentRecord } | null>;
  /** Deletes keys created before `before` (epoch ms); returns how many went. */
  purgeIdempotencyKeys(before: number): Promise<number>;
}

/**
 * The documents we issue: records, the worker's leases, hand-overs to the authority (submissions) and the
 * commercial approvals buyers sent us about them.
 */
export interface DocumentStore {
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
   * Records a buyer's commercial approval of one of our documents, once per (document, rncComprador) in one
   * statement (also under concurrent requests, across processes): when that buyer's decision is already
   * recorded nothing is written and the earlier one is returned with `created: false`.
   */
  addDocumentApproval(documentId: number, approval: NewDocumentApproval): Promise<ApprovalRecording>;
  /** Approvals received for one of our documents, oldest first (one per buyer). */
  getDocumentApprovals(documentId: number): Promise<DocumentApproval[]>;
}

/**
 * Voiding attempts (ANECF) and their ranges. `findIssuedInRanges` reads documents but answers the voiding
 * question (which numbers of these ranges were issued, so cannot be voided), so it sits with voiding.
 */
export interface VoidingStore {
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

/** Everything: what the adapters implement and the composition root hands out. */
export interface Storage extends StorageLifecycle, IssuerStore, SequenceStore, DocumentStore, VoidingStore, InboundStore, IdempotencyStore {}

// ---------------------------------------------------------------------------------------------------------
// Inbound services (emisor–receptor standard): e-CF other issuers sent us, commercial approvals of the
// e-CF we issued, and the seed/token authentication other issuers use to call us.

/** ARECF Estado we answered: 0 = e-CF recibido, 1 = no recibido. */
export type ReceiptState = 0 | 1;
/** CodigoMotivoNoRecibido: 1 especificación, 2 firma digital, 3 envío duplicado, 4 RNC Comprador no corresponde. */
export type ReceiptReason = 1 | 2 | 3 | 4;
/** Commercial approval Estado: 1 = aceptado, 2 = rechazado. */
export type ApprovalState = 1 | 2;

/**
 * An e-CF another issuer sent to one of our issuers (`issuerId` = the receiving tenant). Amounts and dates
 * are kept as written in the XML.
 */
export interface ReceivedDocument {
  id: number;
  issuerId: number;
  emisorRnc: string;
  /** RazonSocialEmisor, when present. */
  emisorName: string | null;
  encf: string;
  tipo: EcfType;
  /** FechaEmision, `dd-MM-yyyy`. */
  fechaEmision: string;
  /** MontoTotal / TotalITBIS as written (decimal strings). */
  montoTotal: string;
  totalItbis: string | null;
  /** The signed e-CF as received, without comments (the signature still verifies: C14N ignores them). */
  xml: string;
  /** The signed ARECF we answered. */
  arecfXml: string;
  estado: ReceiptState;
  motivo: ReceiptReason | null;
  receivedAt: number;
  /** SHA-256 (hex) of the verified certificate that signed the e-CF; null for rows recorded before it was kept. */
  senderFingerprint: string | null;
  /** Our commercial approval of it (set later by the client): Estado, reason (when 2), signed ACECF, when sent, and the delivery outcome. */
  approvalEstado: ApprovalState | null;
  approvalMotivo: string | null;
  approvalXml: string | null;
  approvalSentAt: number | null;
  approvalOutcome: Record<string, unknown> | null;
  updatedAt: number;
}

export interface NewReceivedDocument {
  emisorRnc: string;
  emisorName: string | null;
  encf: string;
  tipo: EcfType;
  fechaEmision: string;
  montoTotal: string;
  totalItbis: string | null;
  xml: string;
  arecfXml: string;
  estado: ReceiptState;
  motivo: ReceiptReason | null;
  receivedAt: number;
  senderFingerprint?: string | null;
}

export interface ReceivedDocumentFilter {
  emisorRnc?: string;
  tipo?: EcfType;
  encf?: string;
  /** Inclusive `yyyy-MM-dd` bounds on FechaEmision. */
  from?: string;
  to?: string;
  /** Return documents with id < cursor (newest first). */
  cursor?: number;
  limit: number;
}

/** Approval fields of a received document; `undefined` = unchanged, `null` clears. */
export type ReceivedApprovalPatch = Partial<Pick<ReceivedDocument, 'approvalEstado' | 'approvalMotivo' | 'approvalXml' | 'approvalSentAt' | 'approvalOutcome'>>;

/** A commercial approval (ACECF) another issuer, as buyer, sent about a document we issued. */
export interface DocumentApproval {
  id: number;
  documentId: number;
  estado: ApprovalState;
  /** DetalleMotivoRechazo (Estado 2). */
  motivo: string | null;
  rncComprador: string;
  /** The signed ACECF as received, without comments. */
  acecfXml: string;
  receivedAt: number;
  /** SHA-256 (hex) of the verified certificate that signed the ACECF (null: recorded before it was kept). */
  signerFingerprint: string | null;
}

export interface NewDocumentApproval {
  estado: ApprovalState;
  motivo: string | null;
  rncComprador: string;
  acecfXml: string;
  receivedAt: number;
  signerFingerprint?: string | null;
}

/** Outcome of recording a commercial approval: the stored one, and whether this call created it. */
export interface ApprovalRecording {
  approval: DocumentApproval;
  /** False when the buyer's decision on that document was already recorded (`approval` is that earlier one). */
  created: boolean;
}

/**
 * A bearer token we issued to another party after it signed one of our seeds. `scope` is '' for the
 * server root or the tenant RNC of the `/t/{rnc}` prefix the seed was validated under.
 */
export interface InboundToken {
  /** SHA-256 hex of the token. */
  hash: string;
  scope: string;
  /** Subject of the certificate that signed the seed. */
  subject: string;
  /**
   * RNCs the token may act for (the seed signer's identifiers and the RNCs it is a configured delegate of):
   * it delivers only e-CF whose RNCEmisor, and approvals whose RNCComprador, is one of them. Absent = none.
   */
  principals?: string[];
  createdAt: number;
  expiresAt: number;
}

/** e-CF other issuers sent to ours, the per-sender quota count, and the seed/token authentication of callers. */
export interface InboundStore {
  /**
   * Records an accepted e-CF for the receiving issuer in one statement; returns null, recording nothing,
   * when (issuer, emisorRnc, encf) is already recorded (a duplicate, also under concurrent deliveries).
   */
  addReceivedDocument(issuerId: number, doc: NewReceivedDocument): Promise<ReceivedDocument | null>;
  /** The received document with that e-NCF (from that emisor; without it, the most recently received one). */
  getReceivedDocument(issuerId: number, encf: string, emisorRnc?: string): Promise<ReceivedDocument | null>;
  listReceivedDocuments(issuerId: number, filter: ReceivedDocumentFilter): Promise<ReceivedDocument[]>;
  /** How many documents from `emisorRnc` were recorded (for any of our issuers) at or after `since` (the per-sender quota). */
  countReceivedFromSender(emisorRnc: string, since: number): Promise<number>;
  /**
   * Sets approval fields. With `onlyIfUnapproved`, applies only while `approvalEstado` is still null (one
   * approval per document even under concurrent requests). Returns null when nothing was updated.
   */
  updateReceivedApproval(id: number, patch: ReceivedApprovalPatch, options?: { onlyIfUnapproved?: boolean }): Promise<ReceivedDocument | null>;

  /**
   * Records the use of a stateless seed (its MAC already checked) until it expires: true for the first use,
   * false when it was used already (of concurrent calls, across processes, exactly one gets true).
   */
  useInboundSeed(seed: { valor: string; scope: string; createdAt: number; expiresAt: number; usedAt: number }): Promise<boolean>;
  addInboundToken(token: InboundToken): Promise<void>;
  /** The token with that hash, when it has not expired at `now`. */
  findInboundToken(hash: string, now: number): Promise<InboundToken | null>;
  /** Deletes seeds and tokens expired before `now`; returns how many rows went. */
  pruneInboundAuth(now: number): Promise<number>;
}

/**
 * What the inbound services used before the split into ports.
 * @deprecated Name the ports used instead (`InboundStore`, `DocumentStore`).
 */
export type InboundStorage = InboundStore & Pick<DocumentStore, 'addDocumentApproval' | 'getDocumentApprovals'>;
