/**
 * The DIAN server's storage ports: one small interface per kind of record (companies and their tokens,
 * numbering resolutions, documents). Adapters: Kysely on SQLite (embedded default) and PostgreSQL
 * (./kysely.ts); both pass one conformance suite (test/dian/server/storage).
 */
import type { DianCompany, DianKindId } from '../../index.js';
import type { EventStore } from './events.js';
import type { PayrollStore } from './payrolls.js';
import type { TestSetStore } from './test-set.js';

export type { EventStore, EventRecord, EventState, EventPatch, EventReservation } from './events.js';
export type { PayrollStore, PayrollRecord, PayrollState, PayrollPatch, PayrollReservation, PayrollSendMode } from './payrolls.js';
export type { TestSetStore, TestSetSendRecord, TestSetVerdict, TestSetProgress } from './test-set.js';

/** `1` production, `2` habilitación. */
export type DianEnvironmentCode = '1' | '2';

/** An issuing company: its NIT, its profile (the DianContext company part), the software and environment. */
export interface CompanyRecord {
  id: number;
  nit: string;
  profile: DianCompany;
  softwareId: string;
  softwarePin: string;
  providerNit: string;
  providerDv: string;
  environment: DianEnvironmentCode;
  /** The signing identity (.p12 and its password), sealed with the server's key; null until one is set. */
  certificate: Uint8Array | null;
  /** Habilitación's test set (SendTestSetAsync's `testSetId`): documents go to it instead of SendBillSync; null or absent outside it. */
  testSetId?: string | null;
  createdAt: number;
}

export interface NewCompany {
  nit: string;
  profile: DianCompany;
  softwareId: string;
  softwarePin: string;
  providerNit: string;
  providerDv: string;
  environment: DianEnvironmentCode;
  certificate?: Uint8Array | null;
  testSetId?: string | null;
}

export interface TokenRecord {
  id: number;
  companyId: number;
  label: string | null;
  createdAt: number;
  revokedAt: number | null;
}

/** A numbering resolution of one company for one document kind. */
export interface ResolutionRecord {
  id: number;
  companyId: number;
  kind: DianKindId;
  /** '' when the range has no prefix. */
  prefix: string;
  from: number;
  to: number;
  technicalKey: string | null;
  resolutionNumber: string;
  /** `yyyy-MM-dd`. */
  resolutionDate: string;
  validFrom: string;
  validTo: string;
  createdAt: number;
}

export type NewResolution = Omit<ResolutionRecord, 'id' | 'companyId' | 'createdAt'>;

/**
 * A document's life: `building` (number reserved, nothing sent), `sending` (signed and zipped, SendBillSync
 * under way or its answer lost), `accepted` (DIAN's verdict valid), `rejected` (DIAN refused it; the number
 * may be sent again, with the same body or another), `contingency_pending` (issued in contingency, signed and
 * stored, not transmitted yet), `test_set_pending` (sent to habilitación's test set with SendTestSetAsync, DIAN's
 * verdict not known yet: a retry asks GetStatusZip, or GetStatus when the ZipKey was lost; never sent again).
 * A number released because DIAN could not be reached leaves no row.
 */
export type DocumentState = 'building' | 'sending' | 'accepted' | 'rejected' | 'contingency_pending' | 'test_set_pending';

export interface DocumentRecord {
  id: number;
  companyId: number;
  kind: DianKindId;
  prefix: string;
  number: number;
  /** SHA-384 of the request body's canonical JSON: the idempotency check. */
  requestHash: string;
  state: DocumentState;
  /** CUFE / CUDE / CUDS. */
  documentKey: string | null;
  signedXml: string | null;
  zip: Uint8Array | null;
  zipName: string | null;
  /** DIAN's answer (the transport's DianResponse, JSON). */
  dianAnswer: unknown;
  /** DIAN's ApplicationResponse XML. */
  applicationResponse: string | null;
  attachedDocument: string | null;
  /** The HTTP answer given (status and body), returned again to a retry with the same body. */
  response: { status: number; body: unknown } | null;
  createdAt: number;
  updatedAt: number;
}

/** The outcome of reserving a number. */
export type Reservation =
  | { outcome: 'reserved'; document: DocumentRecord }
  /** The number is taken by a document with the same body. */
  | { outcome: 'same'; document: DocumentRecord }
  /** The number is taken by a document with another body. */
  | { outcome: 'different'; document: DocumentRecord };

export interface CompanyStore {
  createCompany(company: NewCompany): Promise<CompanyRecord>;
  getCompanyByNit(nit: string): Promise<CompanyRecord | null>;
  getCompany(id: number): Promise<CompanyRecord | null>;
  listCompanies(): Promise<CompanyRecord[]>;
  setCertificate(companyId: number, sealed: Uint8Array): Promise<void>;
  /** Stores the token's hash; the token itself is never stored. */
  addToken(companyId: number, tokenHash: string, label?: string | null): Promise<TokenRecord>;
  /** The company of an active (not revoked) token hash. */
  companyByTokenHash(tokenHash: string): Promise<CompanyRecord | null>;
  revokeToken(companyId: number, tokenId: number): Promise<boolean>;
}

export interface ResolutionStore {
  addResolution(companyId: number, resolution: NewResolution): Promise<ResolutionRecord>;
  listResolutions(companyId: number, kind?: DianKindId): Promise<ResolutionRecord[]>;
}

export interface DocumentPatch {
  state?: DocumentState;
  documentKey?: string | null;
  signedXml?: string | null;
  zip?: Uint8Array | null;
  zipName?: string | null;
  dianAnswer?: unknown;
  applicationResponse?: string | null;
  attachedDocument?: string | null;
  response?: { status: number; body: unknown } | null;
}

export interface DocumentStore {
  /**
   * In one transaction: when `prefix`+`number` is free for the company (or held by a document DIAN rejected,
   * which is taken over whatever its body), a row in state `building` is written and returned; else the
   * existing document says whether its body was the same.
   */
  reserveDocument(input: { companyId: number; kind: DianKindId; prefix: string; number: number; requestHash: string }): Promise<Reservation>;
  updateDocument(id: number, patch: DocumentPatch): Promise<DocumentRecord>;
  /**
   * Compare-and-set, for the transitions only one request may make (`contingency_pending` → `sending`, taking
   * over a stale or unconfirmed `building`/`sending` row): one conditional UPDATE applies `patch` only while the
   * row is still in `expected.state` (and, when given, still has `expected.updatedAt`); returns the updated row, or
   * null when another request changed it first. With `expected.updatedAt`, the row's `updatedAt` moves to at least
   * `expected.updatedAt + 1`, so a second claim on the same observed row fails even when the clock stands still.
   */
  claimDocument(id: number, expected: { state: DocumentState; updatedAt?: number }, patch: DocumentPatch): Promise<DocumentRecord | null>;
  /** Deletes a reservation that was never sent (DIAN unreachable, build failed): the number is free again. */
  releaseDocument(id: number): Promise<void>;
  getDocumentByNumber(companyId: number, prefix: string, number: number): Promise<DocumentRecord | null>;
  getDocumentByKey(companyId: number, documentKey: string): Promise<DocumentRecord | null>;
}

export interface StorageLifecycle {
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export type DianStorage = CompanyStore &
  ResolutionStore &
  DocumentStore &
  EventStore &
  PayrollStore &
  ContingencyStore &
  DocumentListStore &
  TestSetStore &
  StorageLifecycle;

// ---- contingency and listing (adapter: ./contingency.ts)

/** A period the operator declared DIAN (or the company's system) in contingency, epoch ms, both ends included. */
export interface ContingencyWindowRecord {
  id: number;
  companyId: number;
  from: number;
  to: number;
  createdAt: number;
}

/** A document issued in contingency and not transmitted yet, with its transmission deadline. */
export interface ContingencyPendingRecord {
  documentId: number;
  companyId: number;
  kind: DianKindId;
  prefix: string;
  number: number;
  documentKey: string | null;
  windowId: number;
  /** The document's issue instant (its `date` and `time` in Bogotá), epoch ms. */
  issuedAt: number;
  /** When it must have been transmitted, epoch ms. */
  deadlineAt: number;
}

export interface ContingencyStore {
  addContingencyWindow(companyId: number, window: { from: number; to: number }): Promise<ContingencyWindowRecord>;
  /** The company's windows containing `at` (epoch ms), oldest first. */
  contingencyWindowsAt(companyId: number, at: number): Promise<ContingencyWindowRecord[]>;
  /** Records the deadline of a document stored as `contingency_pending` (replacing an earlier one). */
  setContingencyDeadline(input: { documentId: number; companyId: number; windowId: number; issuedAt: number; deadlineAt: number }): Promise<void>;
  /** Documents still `contingency_pending` (of one company, or of all), earliest deadline first. */
  listContingencyPending(companyId?: number): Promise<ContingencyPendingRecord[]>;
}

/** Filters of the document listing; every one optional. `from`/`to` bound `createdAt` (epoch ms, included). */
export interface DocumentListFilter {
  kind?: DianKindId;
  state?: DocumentState;
  from?: number;
  to?: number;
  prefix?: string;
  number?: number;
  /** Keyset: only documents before this (createdAt, id) in newest-first order. */
  before?: { createdAt: number; id: number };
  limit: number;
}

/** One row of the listing (no XML or zip). */
export type DocumentListItem = Pick<DocumentRecord, 'id' | 'kind' | 'prefix' | 'number' | 'state' | 'documentKey' | 'createdAt' | 'updatedAt'>;

export interface DocumentListStore {
  /** The company's documents, newest first (createdAt, then id, descending). */
  listDocuments(companyId: number, filter: DocumentListFilter): Promise<DocumentListItem[]>;
}
