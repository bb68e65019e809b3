/**
 * Generic HTTP core: one attempt over undici with a deadline (connection to last body byte), TLS 1.2 as
 * the minimum version, the mapping of failures onto `TransportError` / `AuthorityError`, retries with
 * exponential backoff and full jitter, and answers read up to a bound. It knows no product: what an
 * authority's refusal says (its messages, a track id, a SOAP fault…) is read by an
 * {@link AnswerInterpreter} the product passes in (each product has its own next to its client).
 *
 * Imports no product code (only the error classes, the ports and undici): it moves to
 * `src/shared/http/` with the kernel.
 *
 * Crash safety rule: a request that is not idempotent (an upload) is retried automatically only
 * when it certainly was not processed (the connection was refused or never established, HTTP 503,
 * 408 or 429). When the body may have reached the server (a timeout or a dropped connection after
 * sending, HTTP 500/502/504) the error says `outcomeUnknown: true` and nothing is resent: the
 * caller asks the authority what became of the request first.
 */
import { Agent, fetch, type buildConnector, type Dispatcher } from 'undici';
import { AuthorityError, type AuthorityErrorCode, type AuthorityMessage } from '../errors/authority-error.js';
import { isTransportError, TransportError } from '../errors/transport-error.js';
import type { Clock, Logger } from '../ports.js';

/** Optional logger (the kit's `Logger` port, debug and warn only). Tokens and document bodies are never logged. */
export type HttpLogger = Partial<Pick<Logger, 'debug' | 'warn'>>;

/** Timing, retry and plumbing options of a client built on the core (public: clients extend them). */
export interface HttpOptions {
  /** Current instant; token expiry and `Retry-After` dates are judged with it. Default: system clock. */
  clock?: Clock;
  /** Deadline of one request, connection to last body byte. Default 30,000 ms. */
  timeoutMs?: number;
  /** Automatic retries after the first attempt, for retryable failures only. Default 3. */
  retries?: number;
  /** Base of the exponential backoff. Default 250 ms. */
  backoffMs?: number;
  /** Upper bound of one backoff delay. Default 5,000 ms. */
  maxBackoffMs?: number;
  /** Longest `Retry-After` honoured (HTTP 429 and 503); longer waits are cut to this. Default 30,000 ms. */
  maxRetryAfterMs?: number;
  /** Random source of the jitter, in [0, 1). Default `Math.random`. */
  random?: () => number;
  /** How to wait between attempts. Default `setTimeout`. */
  sleep?: (ms: number) => Promise<void>;
  logger?: HttpLogger;
  /**
   * undici dispatcher to send through (custom CA, proxy). Default: an own `Agent` with TLS 1.2 as
   * the minimum version (authorities refuse older handshakes), closed by `close()`.
   */
  dispatcher?: Dispatcher;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  /** False for uploads: see the crash-safety rule above. */
  idempotent: boolean;
  /** What the request is, for messages and logs (`reception`, `seed`…). */
  what: string;
}

export interface HttpResponse {
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  text: string;
}

const DEFAULTS = { timeoutMs: 30_000, retries: 3, backoffMs: 250, maxBackoffMs: 5_000, maxRetryAfterMs: 30_000 };

/** Failure codes after which the request never left this machine (or never reached the server). */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** TLS and certificate failures: the handshake failed, so nothing was sent, and retrying will not help. */
const TLS_FATAL = /^(ERR_TLS_|ERR_SSL_|ERR_OSSL|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|EPROTO$|HOSTNAME_MISMATCH)/;
/** Codes retried automatically; `bad_response` is retryable by the caller but not resent blindly. */
const AUTO_RETRY = new Set(['network', 'timeout', 'server_error', 'rate_limited']);

class Deadline extends Error {}

/**
 * What the product makes of an answer the core does not accept as is (any status outside 2xx), consulted
 * before the core's own mapping:
 * - an `AuthorityError` / `TransportError`: that error is the failure;
 * - `'retryable'`: a transient refusal said in the body; the core fails with a retryable `server_error`
 *   (`outcomeUnknown` for an upload);
 * - `undefined` ("not mine"): the core's default mapping applies (408/429/5xx transport failures, other 4xx
 *   an `AuthorityError` without messages, anything else `bad_response`).
 */
export type AnswerInterpreter = (req: HttpRequest, res: HttpResponse) => AuthorityError | TransportError | 'retryable' | undefined;

/** A connection refused by an address guard in the connector (nothing was sent; never retried). */
export interface AddressGuardRefusal {
  /** `code` of the guard's error somewhere in the cause chain. */
  code: string;
  /** Who refused, for the message (`receiver address guard`). */
  label: string;
}

/** Transport settings that are not part of the public options (the product's hook, a guard). */
export interface HttpInternals {
  /** The product's reading of refusals and odd answers. Default: none (the core's mapping only). */
  interpret?: AnswerInterpreter;
  /** Errors of a connect-time address guard, reported as non-retryable `network` failures. */
  addressGuard?: AddressGuardRefusal;
  /** `User-Agent` sent unless the request sets one. Default `ecf-kit`. */
  userAgent?: string;
  /** Connector of the own Agent (address guard). Ignored when a dispatcher is passed. */
  connector?: buildConnector.connector;
  /** Follow redirects of idempotent requests. Default true; uploads never follow them. */
  followRedirects?: boolean;
  /** Largest answer read, in bytes; a longer one fails as `bad_response`. Default: unbounded. */
  maxResponseBytes?: number;
}

class TooLarge extends Error {}

/** One HTTP connection pool plus the retry policy. Build it with {@link createHttpCore}. */
export class HttpCore {
  readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly logger: HttpLogger | undefined;
  private readonly dispatcher: Dispatcher;
  private readonly ownDispatcher: Agent | null;
  private readonly followRedirects: boolean;
  private readonly maxResponseBytes: number;
  private readonly interpret: AnswerInterpreter | undefined;
  private readonly addressGuard: AddressGuardRefusal | undefined;
  private readonly userAgent: string;
  /** `Retry-After` of a 429 or 503, by error. */
  private readonly retryAfter = new WeakMap<Error, number>();
  /** Errors that already went through a retry loop (nested loops must not multiply attempts). */
  private readonly exhausted = new WeakSet<Error>();

  constructor(options: HttpOptions = {}, internals: HttpInternals = {}) {
    this.followRedirects = internals.followRedirects ?? true;
    this.maxResponseBytes = internals.maxResponseBytes ?? Infinity;
    this.interpret = internals.interpret;
    this.addressGuard = internals.addressGuard;
    this.userAgent = internals.userAgent ?? 'ecf-kit';
    this.clock = options.clock ?? (() => new Date());
    this.timeoutMs = positive(options.timeoutMs, DEFAULTS.timeoutMs, 'timeoutMs');
    this.retries = Math.floor(nonNegative(options.retries, DEFAULTS.retries, 'retries'));
    this.backoffMs = nonNegative(options.backoffMs, DEFAULTS.backoffMs, 'backoffMs');
    this.maxBackoffMs = nonNegative(options.maxBackoffMs, DEFAULTS.maxBackoffMs, 'maxBackoffMs');
    this.maxRetryAfterMs = nonNegative(options.maxRetryAfterMs, DEFAULTS.maxRetryAfterMs, 'maxRetryAfterMs');
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.logger = options.logger;
    if (options.dispatcher) {
      this.dispatcher = options.dispatcher;
      this.ownDispatcher = null;
    } else {
      this.ownDispatcher = new Agent({ connect: internals.connector ?? { minVersion: 'TLSv1.2', timeout: Math.min(10_000, this.timeoutMs) } });
      this.dispatcher = this.ownDispatcher;
    }
  }

  /** One attempt. Throws `TransportError` `network` / `timeout`; any HTTP status is returned. */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const controller = new AbortController();
    const deadline = new Deadline(`no answer within ${this.timeoutMs} ms`);
    const timer = setTimeout(() => controller.abort(deadline), this.timeoutMs);
    const started = performance.now();
    try {
      const res = await fetch(req.url, {
        method: req.method,
        headers: { 'User-Agent': this.userAgent, ...req.headers },
        body: req.body,
        signal: controller.signal,
        dispatcher: this.dispatcher,
        // An upload must not be replayed as a GET by a redirect; a 3xx is reported instead.
        redirect: req.idempotent && this.followRedirects ? 'follow' : 'manual',
      });
      const text = await this.readText(res, controller);
      this.logger?.debug?.(
        { what: req.what, method: req.method, url: stripQuery(req.url), status: res.status, ms: Math.round(performance.now() - started) },
        'authority request',
      );
      return { status: res.status, contentType: res.headers.get('content-type'), retryAfter: res.headers.get('retry-after'), text };
    } catch (e) {
      if (e instanceof TooLarge) {
        throw new TransportError(`The answer to ${req.what} exceeds ${this.maxResponseBytes} bytes; it was not read`, {
          code: 'bad_response',
          retryable: false,
          outcomeUnknown: !req.idempotent,
        });
      }
      throw this.networkError(req, e, controller.signal.aborted && controller.signal.reason === deadline);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The body as UTF-8 text, at most `maxResponseBytes` (then the request is aborted and TooLarge thrown). */
  private async readText(res: Awaited<ReturnType<typeof fetch>>, controller: AbortController): Promise<string> {
    if (this.maxResponseBytes === Infinity || !res.body) return res.text();
    const declared = Number(res.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > this.maxResponseBytes) {
      controller.abort(new TooLarge());
      throw new TooLarge();
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > this.maxResponseBytes) {
        controller.abort(new TooLarge());
        throw new TooLarge();
      }
      chunks.push(value);
    }
    return new TextDecoder().decode(Buffer.concat(chunks));
  }

  /**
   * The error an HTTP status stands for, or `null` for 2xx. 401 is the caller's business (token
   * renewal) and maps to `unauthorized` here.
   */
  failureFor(req: HttpRequest, res: HttpResponse): TransportError | AuthorityError | null {
    const { status } = res;
    if (status >= 200 && status < 300) return null;
    const where = `${req.what} (HTTP ${status})`;
    const interpreted = this.interpret?.(req, res);
    if (interpreted === 'retryable') {
      return new TransportError(`Transient refusal from the authority: ${where}${snippet(res.text)}`, {
        code: 'server_error',
        retryable: true,
        outcomeUnknown: !req.idempotent,
        status,
      });
    }
    if (interpreted) return interpreted;
    if (status === 408) {
      return new TransportError(`The authority timed out reading the request: ${where}`, { code: 'timeout', retryable: true, status });
    }
    if (status === 429) {
      const error = new TransportError(`Rate limited by the authority: ${where}`, { code: 'rate_limited', retryable: true, status });
      const wait = parseRetryAfter(res.retryAfter, this.clock);
      if (wait !== null) this.retryAfter.set(error, wait);
      return error;
    }
    if (status >= 500) {
      // 503: the service refused before processing. 500/502/504: it may have processed the upload.
      const unknown = !req.idempotent && status !== 503;
      const error = new TransportError(`Server error from the authority: ${where}${snippet(res.text)}`, {
        code: 'server_error',
        retryable: true,
        outcomeUnknown: unknown,
        status,
      });
      const wait = status === 503 ? parseRetryAfter(res.retryAfter, this.clock) : null;
      if (wait !== null) this.retryAfter.set(error, wait);
      return error;
    }
    if (status >= 400) return authorityRefusal(req, res, [], null);
    return new TransportError(`Unexpected HTTP ${status} from the authority: ${where}`, { code: 'bad_response', retryable: false, status });
  }

  /**
   * Runs `attempt` until it succeeds, throws a failure that is not retried automatically, or the
   * retries are used up. Retried: network/timeout/5xx/429 failures that are `retryable` and not
   * `outcomeUnknown`. Never retried: `AuthorityError`, `bad_response`, anything else.
   */
  async retry<T>(what: string, attempt: () => Promise<T>): Promise<T> {
    for (let n = 0; ; n++) {
      try {
        return await attempt();
      } catch (e) {
        const retry = isTransportError(e) && e.retryable && !e.outcomeUnknown && AUTO_RETRY.has(e.code) && !this.exhausted.has(e) && n < this.retries;
        if (!retry) {
          if (e instanceof Error) this.exhausted.add(e);
          throw e;
        }
        const delay = this.delayFor(e, n);
        this.logger?.warn?.({ what, attempt: n + 1, code: e.code, status: e.status, delayMs: Math.round(delay) }, 'authority request failed; retrying');
        await this.sleep(delay);
      }
    }
  }

  /** Closes the connection pool this instance created (not a dispatcher passed in). */
  async close(): Promise<void> {
    await this.ownDispatcher?.close();
  }

  private delayFor(error: TransportError, attempt: number): number {
    const retryAfter = this.retryAfter.get(error);
    if (retryAfter !== undefined) return Math.min(retryAfter, this.maxRetryAfterMs);
    // Full jitter (AWS architecture blog): uniform in [0, min(cap, base · 2^attempt)).
    return this.random() * Math.min(this.maxBackoffMs, this.backoffMs * 2 ** attempt);
  }

  private networkError(req: HttpRequest, e: unknown, timedOut: boolean): TransportError {
    if (timedOut) {
      return new TransportError(`No answer from the authority within ${this.timeoutMs} ms: ${req.what}`, {
        code: 'timeout',
        retryable: true,
        outcomeUnknown: !req.idempotent,
        cause: e,
      });
    }
    const codes = errorCodes(e);
    const guard = this.addressGuard;
    if (guard && codes.includes(guard.code)) {
      const reason = refusalReason(e, guard.code);
      return new TransportError(`Connection refused by the ${guard.label}${reason ? ` (${reason})` : ''}: ${req.what}`, {
        code: 'network',
        retryable: false,
        cause: e,
      });
    }
    if (codes.some((c) => TLS_FATAL.test(c))) {
      return new TransportError(`TLS connection to the authority failed (${codes.join(', ')}): ${req.what}`, { code: 'network', retryable: false, cause: e });
    }
    const notSent = codes.length > 0 && codes.every((c) => NOT_SENT.has(c));
    const detail = codes.length ? codes.join(', ') : e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e);
    return new TransportError(`Network failure talking to the authority (${detail}): ${req.what}`, {
      code: 'network',
      retryable: true,
      outcomeUnknown: !req.idempotent && !notSent,
      cause: e,
    });
  }
}

/**
 * Creates an HTTP core: a connection pool (own undici `Agent` with TLS ≥ 1.2 unless a dispatcher is passed),
 * the deadline and retry policy of `options`, and the product's hook and guard of `internals`.
 *
 * @throws RangeError for a negative or non-finite timing option
 * @example
 * const http = createHttpCore({ timeoutMs: 10_000 }, { interpret: (req, res) => undefined });
 * const res = await http.retry('status query', async () => {
 *   const req = { method: 'GET', url: 'https://example.org/status', headers: {}, idempotent: true, what: 'status query' } as const;
 *   const answer = await http.send(req);
 *   const failure = http.failureFor(req, answer);
 *   if (failure) throw failure;
 *   return answer;
 * });
 */
export function createHttpCore(options: HttpOptions = {}, internals: HttpInternals = {}): HttpCore {
  return new HttpCore(options, internals);
}

/**
 * The `AuthorityError` for a definitive refusal (4xx other than 408/429): 401/403 `unauthorized`, 404
 * `not_found`, others `rejected`; the authority's messages (already read by the product) are listed in
 * the message.
 *
 * @example
 * authorityRefusal({ what: 'status query' } as HttpRequest, { status: 404, text: '' } as HttpResponse, [], null).code //=> 'not_found'
 */
export function authorityRefusal(req: HttpRequest, res: HttpResponse, mensajes: AuthorityMessage[], trackId: string | null): AuthorityError {
  const code: AuthorityErrorCode = res.status === 401 || res.status === 403 ? 'unauthorized' : res.status === 404 ? 'not_found' : 'rejected';
  const reasons = mensajes.map((m) => (m.codigo ? `${m.codigo}: ${m.valor}` : m.valor)).join('; ');
  return new AuthorityError(`The authority refused ${req.what} (HTTP ${res.status})${reasons ? `: ${reasons}` : ''}`, {
    code,
    status: res.status,
    mensajes,
    trackId,
    body: res.text,
  });
}

/**
 * `Retry-After` in ms: delta seconds or an HTTP date; `null` when absent or unreadable.
 *
 * @example
 * parseRetryAfter('2', () => new Date()) //=> 2000
 */
export function parseRetryAfter(value: string | null, clock: Clock): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - clock().getTime());
}

/** Every `code` in an error's cause chain (undici wraps system errors; happy eyeballs aggregates them). */
function errorCodes(e: unknown, depth = 0): string[] {
  if (!e || typeof e !== 'object' || depth > 5) return [];
  const out: string[] = [];
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') out.push(code);
  const errors = (e as { errors?: unknown }).errors;
  if (Array.isArray(errors)) for (const inner of errors) out.push(...errorCodes(inner, depth + 1));
  out.push(...errorCodes((e as { cause?: unknown }).cause, depth + 1));
  return [...new Set(out)];
}

/** Message of the guard's error (`code`) in a cause chain. */
function refusalReason(e: unknown, code: string, depth = 0): string | null {
  if (!e || typeof e !== 'object' || depth > 5) return null;
  if ((e as { code?: unknown }).code === code) return (e as Error).message;
  const errors = (e as { errors?: unknown }).errors;
  if (Array.isArray(errors))
    for (const inner of errors) {
      const r = refusalReason(inner, code, depth + 1);
      if (r) return r;
    }
  return refusalReason((e as { cause?: unknown }).cause, code, depth + 1);
}

function stripQuery(url: string): string {
  const i = url.indexOf('?');
  return i < 0 ? url : url.slice(0, i);
}

function snippet(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim().slice(0, 200);
  return t ? `: ${t}` : '';
}

function positive(v: number | undefined, fallback: number, name: string): number {
  if (v === undefined) return fallback;
  if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`${name} must be a positive number`);
  return v;
}

function nonNegative(v: number | undefined, fallback: number, name: string): number {
  if (v === undefined) return fallback;
  if (!(Number.isFinite(v) && v >= 0)) throw new RangeError(`${name} must be a non-negative number`);
  return v;
}
