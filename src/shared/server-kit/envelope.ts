/**
 * The error envelope of the HTTP services: `{status: 'error', message, document}` with a Spanish `message` and
 * `document` null or an object with details, and the error that carries one from a handler to the answer.
 */
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { EcfError } from '../errors/ecf-error.js';

/** Details of an error envelope (`document` member). */
export type ErrorDocument = Record<string, unknown> | null;

export interface ErrorEnvelope {
  status: 'error';
  message: string;
  document: ErrorDocument;
}

/** An expected failure with its HTTP status and Spanish message. Throw it from any handler or middleware. */
export class ApiError extends EcfError {
  readonly status: ContentfulStatusCode;
  readonly document: ErrorDocument;
  readonly headers: Record<string, string>;
  constructor(status: ContentfulStatusCode, message: string, options: { document?: ErrorDocument; headers?: Record<string, string> } = {}) {
    super(message, { code: 'api_error' });
    this.name = 'ApiError';
    this.status = status;
    this.document = options.document ?? null;
    this.headers = options.headers ?? {};
  }
}

/** Human size for messages: `12 MB`. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KB`;
  return `${n} bytes`;
}

export function tooLarge(limit: number): ApiError {
  return new ApiError(413, `El cuerpo de la solicitud excede el límite de ${formatBytes(limit)} (${limit} bytes).`);
}

/** The JSON Response carrying an error envelope, with any extra headers (`Retry-After`, `WWW-Authenticate`…). */
export function envelopeResponse(status: ContentfulStatusCode, body: ErrorEnvelope, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}
