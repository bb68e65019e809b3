/**
 * The local DIAN's options, seed records and persisted state. The state is plain JSON (it is written to
 * `dataDir/state.json`); every record is what the control API takes or what a verdict left behind.
 */

/** A company and the software it sends with, as DIAN registers them for habilitación. */
export interface DianSimCompany {
  /** The issuer's NIT, without check digit. */
  nit: string;
  /** Its name (only for the CLI's printout and the control API). */
  name?: string;
  /** `sts:SoftwareID` of the software the company sends with. */
  softwareId: string;
  /** The software PIN (CUDE, CUDS, event CUDE and `SoftwareSecurityCode` are hashed with it). */
  pin: string;
  /** The habilitación test set of this company and software (SendTestSetAsync's `testSetId`). */
  testSetId?: string;
  /** The provider's NIT (GetNumberingRange's `accountCodeT`); default: the company's own. */
  providerNit?: string;
}

/** A numbering range DIAN authorised (what GetNumberingRange hands out). */
export interface DianSimRange {
  nit: string;
  softwareId: string;
  prefix: string;
  /** First and last number, decimal text. */
  from: string;
  to: string;
  /** ClTec: the CUFE of an invoice in this range is hashed with it. */
  technicalKey: string;
  resolutionNumber: string;
  /** `yyyy-MM-dd`. */
  resolutionDate: string;
  validFrom: string;
  validTo: string;
}

/** A forced rule finding for a document number (the scenario wins over the real checks: it is added to them). */
export interface DianSimScenario {
  /** The document number (`SETP990000007`) or event number. */
  number: string;
  rule: string;
  kind: 'Rechazo' | 'Notificación';
  text: string;
}

/** What injected faults do, per SOAP request (never on the control API). Rates add up to at most 1. */
export interface DianSimFaults {
  latencyMs?: number;
  jitterMs?: number;
  /** Close the connection before reading the request: nothing was processed. */
  dropBeforeRate?: number;
  /** A SOAP Receiver fault with HTTP 500, before processing. */
  http500Rate?: number;
  /** An HTML 503 page, before processing. */
  http503Rate?: number;
  /** Process the request, then close the connection without answering: the outcome is unknown to the client. */
  dropAfterRate?: number;
  /** Only these operations are disturbed (default: all). */
  operations?: string[];
  /** Stop injecting failures after this many. */
  limit?: number;
}

/** `off`; `503`: every SOAP call gets an HTML 503 page; `hang`: no answer until the client gives up. */
export type DianSimOutage = 'off' | '503' | 'hang';

/** DIAN's verdict on one document or event, as stored and answered. */
export interface DianSimVerdict {
  isValid: boolean;
  statusCode: string;
  statusDescription: string;
  statusMessage: string;
  /** `Regla: X, Rechazo: …` / `Regla: X, Notificación: …` strings. */
  messages: string[];
  /** DIAN's signed ApplicationResponse (XML text), when the document could be read. */
  applicationResponse: string | null;
  /** The CUFE / CUDE / CUDS / CUNE / event CUDE. */
  documentKey: string | null;
  fileName: string | null;
}

/** An accepted event on a document. */
export interface DianSimEvent {
  code: string;
  cude: string;
  number: string;
  senderNit: string;
  /** ISO instant. */
  receivedAt: string;
}

/** A document DIAN holds (accepted or rejected), by its key. */
export interface DianSimDocument {
  key: string;
  kind: 'document' | 'event' | 'payroll';
  number: string;
  /** Issuer (or event sender) NIT. */
  nit: string;
  /** The buyer's NIT, for the event roles. */
  customerNit: string | null;
  /** The signed XML as received. */
  xml: string;
  verdict: DianSimVerdict;
  receivedAt: string;
  /** Accepted events (documents only). */
  events: DianSimEvent[];
  /** Keys of accepted notes that reference this document. */
  notes: string[];
}

/** An asynchronous upload and, once processed, its verdicts. */
export interface DianSimZip {
  zipKey: string;
  testSetId: string | null;
  receivedAt: string;
  /** Files waiting for processing (emptied when processed). */
  pending: { fileName: string; xml: string }[];
  /** One verdict per document, once processed. */
  verdicts: DianSimVerdict[] | null;
}

/** Counts of a habilitación test set. */
export interface DianSimTestSet {
  accepted: number;
  rejected: number;
}

/** Counters for `GET /control/stats` and `stats()`. */
export interface DianSimStats {
  requests: Record<string, number>;
  refused: { security: number; expired: number; badRequest: number };
  documents: { accepted: number; rejected: number; duplicates: number };
  events: { accepted: number; rejected: number };
  faults: { latency: number; dropBefore: number; http500: number; http503: number; dropAfter: number };
  outage: number;
}

/** Everything that survives a restart. */
export interface DianSimState {
  version: 1;
  companies: DianSimCompany[];
  ranges: DianSimRange[];
  scenarios: DianSimScenario[];
  documents: Record<string, DianSimDocument>;
  /** `nit|number` of accepted documents → key (a number is accepted once). */
  accepted: Record<string, string>;
  zips: Record<string, DianSimZip>;
  testSets: Record<string, DianSimTestSet>;
  /** Last `cbc:ID` of DIAN's ApplicationResponses. */
  responseCounter: number;
  /**
   * How many times a document or event carrying this declared key (`cbc:UUID`) was received and read, accepted,
   * rejected or refused as a duplicate alike: the count a test checks to prove a client never sent a document twice.
   */
  received: Record<string, number>;
  stats: DianSimStats;
}

/** Options of `startDianSimulator`. */
export interface DianSimulatorOptions {
  /** The DIAN XSD directory (`maindoc/`, `common/`, `payroll/`). */
  xsdDir: string;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Where the state is kept (`state.json`, written atomically); in memory only when absent. */
  dataDir?: string;
  /** How long an asynchronous zip stays `98` (processing). Default 200 ms. */
  processingDelayMs?: number;
  faults?: DianSimFaults;
  /** Seed of the fault injection's generator. Default: random. */
  seed?: number;
  /** The simulator's clock: timestamp checks, dates of its answers, the rules' `today`. Default: system clock. */
  clock?: () => Date;
  /** Tolerance on the request's `wsu:Timestamp` (Created in the future, Expires in the past). Default 60,000 ms. */
  timestampSkewMs?: number;
  /** Companies, ranges and scenarios to seed at start (added to what `dataDir` holds). */
  companies?: DianSimCompany[];
  ranges?: DianSimRange[];
}

/** A running local DIAN. */
export interface DianSimulator {
  /** The service URL, ending `/WcfDianCustomerServices.svc`: the client's `endpoint`. */
  url: string;
  /** The control API's base URL (`…/control`). */
  controlUrl: string;
  port: number;
  /** Seeds (or replaces, by NIT and software id) a company. */
  addCompany(company: DianSimCompany): void;
  /** Seeds (or replaces, by NIT, software id and prefix) a numbering range. */
  addRange(range: DianSimRange): void;
  setScenarios(scenarios: DianSimScenario[]): void;
  setFaults(faults: DianSimFaults): void;
  /** With `forMs`, an outage window: back to `off` on its own after that many milliseconds. */
  setOutage(mode: DianSimOutage, forMs?: number): void;
  /** Sets how long an asynchronous zip stays `98`; zips still in process are rescheduled from now with the new delay. */
  setProcessingDelay(ms: number): void;
  stats(): DianSimStats;
  /** The habilitación test sets' counts (accepted, rejected), by test set id: `GET /control/test-sets`. */
  testSets(): Record<string, DianSimTestSet>;
  /** Per declared key (CUFE/CUDE), how many times a document or event carrying it was received: `GET /control/received`. */
  received(): Record<string, number>;
  /** Stops listening, answers nothing more, writes the state. */
  close(): Promise<void>;
}
