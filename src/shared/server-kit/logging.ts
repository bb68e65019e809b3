/**
 * Logging policy shared by the server (`createLogger`) and `ecf worker`: which fields are redacted and how
 * errors are serialized. Two layers, because redaction paths only reach the shapes someone thought of:
 *
 * - `REDACT_PATHS`: credentials under their usual names, at the top level and one level down
 *   (`authorization`, `token`, `password`, keys, cookies, the database URL…), replaced by `[redacted]`.
 * - `LOG_SERIALIZERS.err`: an error is logged as its type, name, message, code, status, stack and causes,
 *   nothing else. pino's default serializer copies every enumerable property of an error, so an error
 *   that carries the request it failed on (headers with a bearer token, a body with a signed document, a
 *   form with a certificate password) would otherwise land in the log whole.
 */

export const REDACT_PATHS: readonly string[] = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  '*.authorization',
  '*.headers.authorization',
  'cookie',
  'headers.cookie',
  '*.cookie',
  '*.headers.cookie',
  'token',
  '*.token',
  'password',
  '*.password',
  'secret',
  '*.secret',
  'p12',
  '*.p12',
  'providerP12Password',
  '*.providerP12Password',
  'certificateKey',
  '*.certificateKey',
  'ECF_CERT_KEY',
  '*.ECF_CERT_KEY',
  'ECF_CERT_KEY_PREVIOUS',
  '*.ECF_CERT_KEY_PREVIOUS',
  'DIAN_CERT_KEY',
  '*.DIAN_CERT_KEY',
  'DIAN_CERT_KEY_PREVIOUS',
  '*.DIAN_CERT_KEY_PREVIOUS',
  'ECF_PROVIDER_P12_PASSWORD',
  '*.ECF_PROVIDER_P12_PASSWORD',
  'DATABASE_URL',
  '*.DATABASE_URL',
  'databaseUrl',
  '*.databaseUrl',
];

const MAX_CAUSES = 3;

/**
 * A log-safe view of a thrown value. Errors keep their type, name, message, primitive `code`/`status`,
 * stack, `cause` (3 deep) and AggregateError `errors`; plain objects (the `{name, code, message}`
 * summaries the code logs) keep their primitive members only. Nested objects (requests, responses,
 * headers, bodies, configs) are dropped.
 */
export function safeError(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  const primitive = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  if (!(value instanceof Error)) {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([, v]) => primitive(v)));
  }
  const e = value as Error & { code?: unknown; status?: unknown; errors?: unknown };
  const out: Record<string, unknown> = { type: e.constructor?.name ?? 'Error', name: e.name, message: e.message };
  if (primitive(e.code) && e.code !== undefined) out.code = e.code;
  if (typeof e.status === 'number') out.status = e.status;
  if (e.stack) out.stack = e.stack;
  if (e.cause !== undefined && depth < MAX_CAUSES) out.cause = safeError(e.cause, depth + 1);
  if (Array.isArray(e.errors) && depth < MAX_CAUSES) out.errors = e.errors.slice(0, 10).map((x) => safeError(x, depth + 1));
  return out;
}

/** pino `serializers`: errors under `err` or `error` go through {@link safeError}. */
export const LOG_SERIALIZERS = { err: (v: unknown) => safeError(v), error: (v: unknown) => safeError(v) };
