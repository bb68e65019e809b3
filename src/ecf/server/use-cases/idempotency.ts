/**
 * `Idempotency-Key` on issue requests (issue 16): a client that did not get an answer (timeout, dropped
 * connection) sends the same request again with the same key and gets the same document instead of a second
 * e-NCF. Semantics follow draft-ietf-httpapi-idempotency-key-header and common practice (Stripe):
 * - the same key with the same request (tipo, content type, body bytes) → the same 202 and document record,
 *   marked `Idempotent-Replayed: true`; no second number is consumed;
 * - the same key with another request → 422 (the key was reused for a different payload);
 * - keys are per issuer, honoured for IDEMPOTENCY_RETENTION_MS after first use, then forgotten (purged).
 * The key is stored in the transaction that reserves the e-NCF and inserts the document (storage), so a number
 * is never consumed without its key, and a failed request (422) stores no key: a retry is validated again.
 * Concurrent requests with one key wait for each other in the database; none sees a half-done first one, so
 * the draft's 409 ("still in flight") does not arise here.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../../index.js';
import { statusInfo } from '../statuses.js';
import type { IdempotencyStore } from '../storage/types.js';
import { UseCaseError } from './errors.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** The answer header of a replay (as Stripe sends it). */
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a key is honoured: 24 hours. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** Expired keys are purged at most this often (on keyed requests). */
export const IDEMPOTENCY_PURGE_EVERY_MS = 10 * 60 * 1000;

/** A request's key and fingerprint. */
export interface IdempotentRequest {
  key: string;
  fingerprint: string;
}

const KEY_RE = /^[\x20-\x7e]+$/;

/** A 422 about the header, shaped like every 422 of the issue route (the spec's rejected `document`). */
function keyRefusal(message: string, reason: string): UseCaseError {
  const s = statusInfo('rejected_validation');
  return new UseCaseError('invalid', message, {
    status_code: s.status_code,
    status: s.status,
    status_description: s.description,
    errors: [`${IDEMPOTENCY_HEADER}: ${reason}`],
    detailed_errors: { [IDEMPOTENCY_HEADER]: [reason] },
  });
}

function invalidKey(reason: string): UseCaseError {
  return keyRefusal('Encabezado Idempotency-Key inválido: no se emitió ningún documento.', reason);
}

/**
 * The key of the header value, or undefined without the header. Opaque: 1 to 255 printable ASCII characters
 * (space through `~`), compared exactly. A structured-field string (`"…"`, as the IETF draft writes it) is
 * unquoted first, so `"abc"` and `abc` are the same key.
 */
export function parseIdempotencyKey(raw: string | undefined | null): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  let key = raw.trim();
  if (key.length >= 2 && key.startsWith('"') && key.endsWith('"')) {
    const inner = key.slice(1, -1);
    if (!/^(?:[^"\\]|\\["\\])*$/.test(inner)) throw invalidKey('la cadena entre comillas está mal formada.');
    key = inner.replace(/\\(["\\])/g, '$1');
  }
  if (key.length === 0) throw invalidKey(`no puede estar vacío; envíe de 1 a ${MAX_IDEMPOTENCY_KEY_LENGTH} caracteres ASCII imprimibles.`);
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw invalidKey(`admite como máximo ${MAX_IDEMPOTENCY_KEY_LENGTH} caracteres; se recibieron ${key.length}.`);
  }
  if (!KEY_RE.test(key)) throw invalidKey('solo admite caracteres ASCII imprimibles (espacio a ~), sin acentos ni caracteres de control.');
  return key;
}

/** SHA-256 (hex) of the request: tipo, media type (lower case, without parameters) and the body bytes. */
export function requestFingerprint(tipo: string, contentType: string, body: Uint8Array): string {
  const media = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return createHash('sha256').update(`${tipo}\n${media}\n`).update(body).digest('hex');
}

/** The 422 of a key reused with another request. */
export function keyReused(key: string): UseCaseError {
  const reason =
    `La clave ${JSON.stringify(key)} ya se usó en las últimas 24 horas con otra solicitud (otro tipo, Content-Type o cuerpo). ` +
    'Para reintentar, envíe exactamente la misma solicitud; para un documento nuevo, use una clave nueva.';
  return keyRefusal('La clave Idempotency-Key ya se usó con una solicitud diferente: no se emitió ningún documento.', reason);
}

/** Purges expired keys at most once per IDEMPOTENCY_PURGE_EVERY_MS of the injected clock; errors go to `onError`. */
export function createIdempotencyPurge(
  storage: Pick<IdempotencyStore, 'purgeIdempotencyKeys'>,
  clock: Clock,
  onError: (err: unknown) => void,
): () => Promise<void> {
  let last = Number.NEGATIVE_INFINITY;
  return async () => {
    const now = clock().getTime();
    if (now - last < IDEMPOTENCY_PURGE_EVERY_MS) return;
    last = now;
    try {
      await storage.purgeIdempotencyKeys(now - IDEMPOTENCY_RETENTION_MS);
    } catch (err) {
      onError(err);
    }
  };
}
