/**
 * The ports the DIAN use cases run over: storage (../storage/types.ts), the company's signer, DIAN (the
 * SOAP client, or the in-process local DIAN behind the same client), the clock.
 */
import type { DianResponse } from '../../transport/index.js';
import type { Signer } from '../../sign/index.js';
import type { Clock } from '../../../shared/ports.js';
import type { CompanyRecord, CompanyStore, DocumentStore, ResolutionRecord, ResolutionStore } from '../storage/types.js';

/** What the use cases need of DIAN (a subset of DianClient). */
export interface DianGateway {
  sendBillSync(fileName: string, zip: Uint8Array): Promise<DianResponse>;
  getStatus(documentKey: string): Promise<DianResponse>;
  /**
   * Called before a company sends: the embedded local DIAN registers the company, its software and ranges
   * (the real DIAN knows them from habilitación). Absent against a real DIAN.
   */
  prepare?(company: CompanyRecord, resolutions: readonly ResolutionRecord[]): Promise<void> | void;
}

export interface DianUseCaseDeps {
  storage: CompanyStore & ResolutionStore & DocumentStore;
  /** The company's signing identity (its sealed certificate, opened). */
  signerFor(company: CompanyRecord): Promise<Signer>;
  /** DIAN as seen by one company (its certificate signs the WS-Security envelope). */
  dianFor(company: CompanyRecord): DianGateway;
  clock: Clock;
  /** How long a reservation in state `building` belongs to the request that made it (ms); default 120,000. */
  buildLeaseMs?: number;
}

/** An HTTP answer chosen by a use case: status and JSON body (the routes send it as is). */
export interface UseCaseAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}
