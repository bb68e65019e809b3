/**
 * The ports the DIAN use cases run over: storage (../storage/types.ts), the company's signer, DIAN (the
 * SOAP client, or the in-process local DIAN behind the same client), the clock.
 */
import type { DianResponse, DianUploadResponse } from '../../transport/index.js';
import type { Signer } from '../../sign/index.js';
import type { Clock } from '../../../shared/ports.js';
import type { CompanyRecord, CompanyStore, DocumentRecord, DocumentStore, ResolutionRecord, ResolutionStore, TestSetStore } from '../storage/types.js';

/** What the use cases need of DIAN (a subset of DianClient). */
export interface DianGateway {
  sendBillSync(fileName: string, zip: Uint8Array): Promise<DianResponse>;
  getStatus(documentKey: string): Promise<DianResponse>;
  /** SendEventUpdateStatus: a zipped, signed event (ApplicationResponse 030–034). */
  sendEventUpdateStatus?(zip: Uint8Array): Promise<DianResponse>;
  /** SendNominaSync: a zipped, signed payroll document (102/103). */
  sendNominaSync?(zip: Uint8Array): Promise<DianResponse>;
  /** SendTestSetAsync: a zipped document for habilitación's test set `testSetId`; the answer's `zipKey` goes to getStatusZip. */
  sendTestSetAsync?(fileName: string, zip: Uint8Array, testSetId: string): Promise<DianUploadResponse>;
  /** GetStatusZip: the verdicts of an asynchronous zip, one per document (`98` while DIAN is still processing). */
  getStatusZip?(zipKey: string): Promise<DianResponse[]>;
  /**
   * Called before a company sends: the embedded local DIAN registers the company, its software and ranges
   * (the real DIAN knows them from habilitación). Absent against a real DIAN.
   */
  prepare?(company: CompanyRecord, resolutions: readonly ResolutionRecord[], habilitation?: { testSetId?: string }): Promise<void> | void;
}

export interface DianUseCaseDeps {
  storage: CompanyStore & ResolutionStore & DocumentStore & TestSetStore;
  /** The company's signing identity (its sealed certificate, opened). */
  signerFor(company: CompanyRecord): Promise<Signer>;
  /** DIAN as seen by one company (its certificate signs the WS-Security envelope). */
  dianFor(company: CompanyRecord): DianGateway;
  clock: Clock;
  /**
   * `send: true` on an accepted document: e-mail the customer the PDF and the zipped AttachedDocument
   * (startDianServer wires the mail service's outbox by default: ../mail-notices.ts). Called after
   * the document is stored as accepted, so a failure here never loses the issued document (a retry gets the
   * stored answer).
   */
  notifyCustomer?(input: CustomerNotice): Promise<void>;
  /** How long a document being built or sent belongs to the request doing it (ms; a retry meanwhile gets 409); default 120,000. */
  buildLeaseMs?: number;
  /** How a test-set document's verdict is polled with GetStatusZip (./test-set.ts); default DEFAULT_TEST_SET_POLLING. */
  testSetPolling?: TestSetPolling;
  /** Waits between GetStatusZip polls (ms); default a timer. Tests inject their own. */
  sleep?: (ms: number) => Promise<void>;
}

/** Bounded polling of GetStatusZip: `attempts` calls, the first after `firstDelayMs`, each next wait `factor`× longer. */
export interface TestSetPolling {
  attempts: number;
  firstDelayMs: number;
  factor: number;
}

/** An HTTP answer chosen by a use case: status and JSON body (the routes send it as is). */
export interface UseCaseAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** What the customer e-mail of `send: true` carries. */
export interface CustomerNotice {
  company: CompanyRecord;
  document: DocumentRecord;
  /** The request's `customer.email` (several addresses separated by `;`). */
  to: string | null;
  pdf: Uint8Array | null;
  /** The signed AttachedDocument XML. */
  attachedDocument: string;
}
