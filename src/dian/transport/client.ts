/**
 * The client of DIAN's `WcfDianCustomerServices` (dian-protocol.md §5): every operation of the table as a
 * method, each request a signed SOAP 1.2 envelope (./envelope.ts) posted over the kit's HTTP core (TLS ≥ 1.2,
 * deadline, retries only where safe), each answer read into its typed result (./answer.ts).
 *
 * Failures: a SOAP Fault from the sender side (security, a malformed request) is an `AuthorityError`
 * (`unauthorized` for WS-Security faults, `rejected` otherwise), never retried; a receiver-side fault, an HTML
 * error page or 5xx is a `TransportError` whose `outcomeUnknown` is true for an upload that may have been
 * processed: ask GetStatus (by CUFE/CUDE/CUNE) or GetStatusZip before sending it again.
 */
import { randomUUID } from 'node:crypto';
import { AuthorityError } from '../../shared/errors/authority-error.js';
import { TransportError } from '../../shared/errors/transport-error.js';
import { createHttpCore, type HttpCore, type HttpOptions, type HttpRequest, type HttpResponse } from '../../shared/http/core.js';
import type { Signer } from '../../shared/ports.js';
import { type DianAnswer, type DianFault, type DianResponse, readDianAnswer } from './answer.js';
import { envelopeIds, signDianEnvelope, unsignedDianEnvelope } from './envelope.js';
import { ACTION_PREFIX, DIAN_ENDPOINTS, DIAN_OPERATIONS, type DianOperation, type DianOperationParams } from './operations.js';

/** Options of {@link createDianClient}. */
export interface DianClientOptions extends HttpOptions {
  /** Signs the WS-Security header: the company's (or provider's) certificate and key. */
  signer: Signer;
  /** `2` habilitación (default) or `1` production; ignored when `endpoint` is given. */
  environment?: '1' | '2';
  /** Service URL (a local DIAN, a proxy). Default: DIAN's endpoint of `environment`. */
  endpoint?: string;
  /** Life of the `wsu:Timestamp` (Created → Expires). Default 5 minutes, as DIAN's own answers use. */
  timestampTtlMs?: number;
  /** Unique suffix of the envelope's ids. Default `randomUUID`. */
  newId?: () => string;
  /**
   * Largest answer read, in bytes; a longer one is not read and fails as a `bad_response` TransportError.
   * Default {@link DIAN_MAX_ANSWER_BYTES}.
   */
  maxAnswerBytes?: number;
}

/**
 * Default bound on an answer's size: 32 MB. DIAN's largest answers carry base64 zips of a few documents
 * (GetStatusZip, GetXmlByDocumentKey); without a bound, an endpoint (or whatever sits in between) answering
 * without end would be read into memory whole.
 */
export const DIAN_MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** How {@link DianClient.waitForStatus} polls while DIAN answers `98` (still processing). */
export interface PollOptions {
  /** First wait. Default 1,000 ms; each next wait is 1.6× longer, up to `maxIntervalMs`. */
  initialIntervalMs?: number;
  /** Longest single wait. Default 10,000 ms. */
  maxIntervalMs?: number;
  /** Give up after this long with the last `98` answer. Default 120,000 ms. */
  maxWaitMs?: number;
}

const SECURITY_FAULT = /InvalidSecurity|FailedAuthentication|SecurityTokenUnavailable|MessageExpired|InvalidSecurityToken|FailedCheck/i;

/** A client of DIAN's web service. Build it with {@link createDianClient}; `close()` frees its connections. */
export class DianClient {
  readonly endpoint: string;
  private readonly http: HttpCore;
  private readonly signer: Signer;
  private readonly ttl: number;
  private readonly newId: () => string;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(options: DianClientOptions) {
    this.endpoint = options.endpoint ?? DIAN_ENDPOINTS[options.environment ?? '2'];
    this.signer = options.signer;
    this.ttl = options.timestampTtlMs ?? 300_000;
    this.newId = options.newId ?? randomUUID;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.http = createHttpCore(options, {
      interpret: interpretFault,
      userAgent: 'ecf-kit (DIAN)',
      maxResponseBytes: options.maxAnswerBytes ?? DIAN_MAX_ANSWER_BYTES,
    });
  }

  /**
   * Calls any operation of the table with its request values; the typed result of its answer type.
   *
   * @throws AuthorityError for a sender-side SOAP Fault (`unauthorized` for WS-Security) or another 4xx
   * @throws TransportError for network failures, timeouts, 5xx, receiver faults and unreadable answers
   */
  async call<Op extends DianOperation>(operation: Op, params: DianOperationParams<Op>): Promise<DianAnswer<Op>> {
    const row = DIAN_OPERATIONS[operation];
    return this.http.retry(operation, async () => {
      const ids = envelopeIds(this.newId());
      const created = this.http.clock();
      const unsigned = unsignedDianEnvelope(operation, params, {
        to: this.endpoint,
        ids,
        created,
        expires: new Date(created.getTime() + this.ttl),
        certificate: this.signer.certificate,
      });
      const body = new TextEncoder().encode(await signDianEnvelope(unsigned, this.signer, ids));
      const req: HttpRequest = {
        method: 'POST',
        url: this.endpoint,
        headers: { 'Content-Type': `application/soap+xml; charset=utf-8; action="${ACTION_PREFIX}${operation}"` },
        body,
        idempotent: row.idempotent,
        what: operation,
      };
      const res = await this.http.send(req);
      const failure = this.http.failureFor(req, res);
      if (failure) throw failure;
      const read = readDianAnswer(operation, res.text);
      if (read.kind === 'result') return read.result;
      if (read.kind === 'fault') throw faultError(req, res, read.fault);
      throw new TransportError(`DIAN's answer to ${operation} cannot be read: ${read.reason}`, {
        code: 'bad_response',
        retryable: false,
        outcomeUnknown: !row.idempotent,
        status: res.status,
      });
    });
  }

  /** Sends one zipped document and waits for its verdict (synchronous reception). */
  sendBillSync(fileName: string, zip: Uint8Array): Promise<DianResponse> {
    return this.call('SendBillSync', { fileName, contentFile: base64(zip) });
  }

  /** Sends a zip for asynchronous processing; the answer's `zipKey` goes to {@link getStatusZip}. */
  sendBillAsync(fileName: string, zip: Uint8Array): Promise<DianAnswer<'SendBillAsync'>> {
    return this.call('SendBillAsync', { fileName, contentFile: base64(zip) });
  }

  /** Sends a zip of the habilitación test set `testSetId`; the answer's `zipKey` goes to {@link getStatusZip}. */
  sendTestSetAsync(fileName: string, zip: Uint8Array, testSetId: string): Promise<DianAnswer<'SendTestSetAsync'>> {
    return this.call('SendTestSetAsync', { fileName, contentFile: base64(zip), testSetId });
  }

  /** The verdict on a document by its CUFE / CUDE / CUNE. */
  getStatus(trackId: string): Promise<DianResponse> {
    return this.call('GetStatus', { trackId });
  }

  /** The verdicts of an asynchronous zip, one per document. */
  getStatusZip(zipKey: string): Promise<DianResponse[]> {
    return this.call('GetStatusZip', { trackId: zipKey });
  }

  /** The events registered on an invoice, by its CUFE. */
  getStatusEvent(cufe: string): Promise<DianResponse> {
    return this.call('GetStatusEvent', { trackId: cufe });
  }

  /** Sends a zipped event (ApplicationResponse 030–034). */
  sendEventUpdateStatus(zip: Uint8Array): Promise<DianResponse> {
    return this.call('SendEventUpdateStatus', { contentFile: base64(zip) });
  }

  /** Sends a zipped payroll document (102/103); the operation takes no file name. */
  sendNominaSync(zip: Uint8Array): Promise<DianResponse> {
    return this.call('SendNominaSync', { contentFile: base64(zip) });
  }

  /** The numbering ranges (with technical keys) DIAN holds for an issuer, provider and software. */
  getNumberingRange(accountCode: string, accountCodeT: string, softwareCode: string): Promise<DianAnswer<'GetNumberingRange'>> {
    return this.call('GetNumberingRange', { accountCode, accountCodeT, softwareCode });
  }

  /** The XML DIAN holds for a document key. */
  getXmlByDocumentKey(trackId: string): Promise<DianAnswer<'GetXmlByDocumentKey'>> {
    return this.call('GetXmlByDocumentKey', { trackId });
  }

  /** The notes that reference a document. */
  getReferenceNotes(trackId: string): Promise<DianResponse> {
    return this.call('GetReferenceNotes', { trackId });
  }

  /**
   * Queries GetStatus until DIAN stops answering `98` (processing), waiting longer each time; returns the
   * last answer (a `98` one when `maxWaitMs` runs out). `90` and `66` (not found) are returned, not thrown.
   */
  async waitForStatus(trackId: string, options: PollOptions = {}): Promise<DianResponse> {
    let interval = options.initialIntervalMs ?? 1_000;
    const maxInterval = options.maxIntervalMs ?? 10_000;
    let budget = options.maxWaitMs ?? 120_000;
    for (;;) {
      const answer = await this.getStatus(trackId);
      if (answer.statusCode !== '98' || budget <= 0) return answer;
      const wait = Math.min(interval, budget);
      await this.sleep(wait);
      budget -= wait;
      interval = Math.min(maxInterval, Math.ceil(interval * 1.6));
    }
  }

  /** Closes the connection pool (not a dispatcher passed in). */
  close(): Promise<void> {
    return this.http.close();
  }
}

/**
 * A client of DIAN's web service signing with `options.signer`.
 *
 * @example
 * const dian = createDianClient({ signer: p12Signer(readP12(p12, password)), environment: '2' });
 * const verdict = await dian.sendBillSync(names.zip, zip); //=> { isValid: true, statusCode: '00', … }
 */
export function createDianClient(options: DianClientOptions): DianClient {
  return new DianClient(options);
}

/** The core's hook: a SOAP Fault in an error answer (WCF answers faults with HTTP 500). */
function interpretFault(req: HttpRequest, res: HttpResponse): AuthorityError | TransportError | 'retryable' | undefined {
  const read = readDianAnswer(req.what as DianOperation, res.text);
  return read.kind === 'fault' ? faultError(req, res, read.fault) : undefined;
}

/** Sender faults are DIAN's refusal of this request; receiver faults are DIAN's own trouble (retryable). */
function faultError(req: HttpRequest, res: HttpResponse, fault: DianFault): AuthorityError | TransportError {
  const described = `${fault.code}${fault.subcode ? ` / ${fault.subcode}` : ''}: ${fault.reason || 'no reason given'}`;
  if (/Receiver$/.test(fault.code)) {
    return new TransportError(`DIAN failed processing ${req.what} (SOAP Fault ${described})`, {
      code: 'server_error',
      retryable: true,
      outcomeUnknown: !req.idempotent,
      status: res.status,
    });
  }
  const security = SECURITY_FAULT.test(fault.subcode ?? '') || SECURITY_FAULT.test(fault.reason);
  return new AuthorityError(`DIAN refused ${req.what} (SOAP Fault ${described})`, {
    code: security ? 'unauthorized' : 'rejected',
    status: res.status,
    mensajes: [{ codigo: fault.subcode, valor: fault.reason }],
    body: res.text,
  });
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
