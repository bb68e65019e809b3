/**
 * The one place where failures become HTTP answers. Every error body is the spec's envelope
 * `{status: 'error', message, document}` with a Spanish `message`; `document` is null, or an object with the
 * details (`errors`, `detailed_errors`, the record…). Unexpected errors become a 500 with a generic message:
 * the detail goes to the log, never to the client.
 */
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from 'pino';
import { isAuthorityError, isTransportError } from '../../index.js';
import { isOffloadError } from '../offload/index.js';
import { UNREADABLE_BODY_MESSAGE } from '../../../shared/server-kit/body.js';
import { ApiError, envelopeResponse, type ErrorDocument, type ErrorEnvelope } from '../../../shared/server-kit/envelope.js';
import { isStorageUnavailable } from '../../../shared/server-kit/storage/errors.js';
import { AUTHORITY_MESSAGES, authorityMessages } from '../use-cases/messages.js';
import { isUseCaseError, type UseCaseErrorKind } from '../use-cases/errors.js';

export { ApiError, formatBytes, tooLarge, type ErrorDocument, type ErrorEnvelope } from '../../../shared/server-kit/envelope.js';

export const MESSAGES = {
  unauthorized: 'Token de acceso ausente, inválido o revocado. Envíe el encabezado Authorization: Bearer <token>.',
  internal: 'Error interno del servicio. Intente nuevamente más tarde.',
  unsupportedMediaType: 'Tipo de contenido no soportado. Use application/json (JSON canónico) o application/xml / text/xml (XML sin firmar).',
  badRequest: 'Solicitud inválida.',
  unreadableBody: UNREADABLE_BODY_MESSAGE,
  ...AUTHORITY_MESSAGES,
  storageUnavailable: 'El servicio no puede acceder a su base de datos en este momento. Intente nuevamente en unos segundos.',
  overloaded: 'El servicio está procesando demasiados documentos en este momento. Intente nuevamente en unos segundos.',
} as const;

export function unauthorized(): ApiError {
  return new ApiError(401, MESSAGES.unauthorized, { headers: { 'WWW-Authenticate': 'Bearer realm="ecf-kit"' } });
}

export { authorityMessages };

/** HTTP status of each kind of use-case failure (`use-cases/errors.ts`). */
const USE_CASE_STATUS: Record<UseCaseErrorKind, ContentfulStatusCode> = { invalid: 422, not_found: 404, conflict: 409 };

/** Maps any thrown value to an envelope and status. */
export function toErrorEnvelope(err: unknown, logger?: Logger): { status: ContentfulStatusCode; body: ErrorEnvelope; headers: Record<string, string> } {
  const out = (status: ContentfulStatusCode, message: string, document: ErrorDocument = null, headers: Record<string, string> = {}) => ({
    status,
    body: { status: 'error' as const, message, document },
    headers,
  });
  if (err instanceof ApiError) return out(err.status, err.message, err.document, err.headers);
  if (isUseCaseError(err)) return out(USE_CASE_STATUS[err.kind], err.message, err.document);
  if (isTransportError(err)) {
    logger?.warn({ err: { name: err.name, code: err.code, message: err.message } }, 'authority transport failure');
    // Retryable (network, timeout, 5xx, 429): the authority is unavailable for now; otherwise its answer was unusable.
    return err.retryable
      ? out(503, MESSAGES.authorityUnavailable, { errors: [MESSAGES.authorityUnavailable] }, { 'Retry-After': '30' })
      : out(502, MESSAGES.authorityBadGateway, { errors: [MESSAGES.authorityBadGateway] });
  }
  if (isAuthorityError(err)) {
    logger?.warn({ err: { name: err.name, code: err.code, status: err.status, message: err.message } }, 'authority refused a query');
    const mensajes = err.mensajes.map((m) => ({ codigo: m.codigo, valor: m.valor }));
    return out(502, MESSAGES.authorityRefused, { errors: authorityMessages(mensajes), mensajes_autoridad: mensajes });
  }
  if (isStorageUnavailable(err)) {
    // The database restarts or the connection dropped: nothing was wrong with the request, try again shortly.
    logger?.warn({ err: { name: (err as Error).name, code: (err as { code?: unknown }).code, message: (err as Error).message } }, 'storage unavailable');
    return out(503, MESSAGES.storageUnavailable, { errors: [MESSAGES.storageUnavailable] }, { 'Retry-After': '2' });
  }
  if (isOffloadError(err)) {
    // The offload pool is full (or restarting / shutting down): a temporary refusal, never a backlog.
    const retry = String(err.retryAfterSeconds ?? 5);
    logger?.warn({ err: { name: err.name, code: err.code, message: err.message } }, 'offload pool refused a task');
    return out(503, MESSAGES.overloaded, { errors: [MESSAGES.overloaded] }, { 'Retry-After': retry });
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    if (status === 415) return out(415, MESSAGES.unsupportedMediaType);
    if (status === 401) return out(401, MESSAGES.unauthorized);
    if (status >= 500) {
      logger?.error({ err }, 'unexpected HTTP exception');
      return out(500, MESSAGES.internal);
    }
    return out(status, MESSAGES.badRequest);
  }
  logger?.error({ err }, 'unexpected error while handling a request');
  return out(500, MESSAGES.internal);
}

/** Builds the Response for an error (used by `onError` and by handlers that answer errors directly). */
export function errorResponse(err: unknown, logger?: Logger): Response {
  const { status, body, headers } = toErrorEnvelope(err, logger);
  return envelopeResponse(status, body, headers);
}
