import { EcfError, isNamedEcfError } from './ecf-error.js';

/** Stable codes of {@link TransportError}. */
export type TransportErrorCode =
  | 'network' // connection refused/reset/dropped, DNS, TLS handshake
  | 'timeout' // no complete answer within the configured time
  | 'server_error' // HTTP 5xx from the authority
  | 'rate_limited' // HTTP 429
  | 'bad_response'; // a 2xx body that cannot be understood

/**
 * The request to the authority (or a receiver) did not produce a definitive answer. `retryable`
 * says whether sending the same request again is safe and may succeed (network, timeout, 5xx, 429).
 * When `outcomeUnknown` is true the request may have been processed (the body was sent and the
 * connection failed before the answer): ask the authority what it holds for the document before sending it again.
 *
 * @example
 * try { await client.sendEcf(id, file) } catch (e) { if (e instanceof TransportError && e.retryable) … }
 */
export class TransportError extends EcfError {
  declare readonly code: TransportErrorCode;
  readonly retryable: boolean;
  readonly outcomeUnknown: boolean;
  readonly status: number | null;
  constructor(message: string, options: { code: TransportErrorCode; retryable: boolean; outcomeUnknown?: boolean; status?: number | null; cause?: unknown }) {
    super(message, { code: options.code, cause: options.cause });
    this.name = 'TransportError';
    this.retryable = options.retryable;
    this.outcomeUnknown = options.outcomeUnknown ?? false;
    this.status = options.status ?? null;
  }
}

/**
 * True for a {@link TransportError}, also one from another copy of the package (checks `name`, `code` and
 * `retryable`, not only `instanceof`).
 *
 * @example
 * try { await client.sendEcf(id, file) } catch (e) { if (isTransportError(e) && e.outcomeUnknown) … }
 */
export function isTransportError(e: unknown): e is TransportError {
  return e instanceof TransportError || (isNamedEcfError(e, 'TransportError') && typeof (e as { retryable?: unknown }).retryable === 'boolean');
}
