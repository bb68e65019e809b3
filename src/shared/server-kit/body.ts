/** Request bodies: media type selection and reading under a size limit (checked before and while reading). */
import { ApiError, tooLarge } from './envelope.js';

/** Body size limits in bytes, and the slowest body accepted. */
export interface BodyLimits {
  /** Largest JSON request body. */
  jsonBytes: number;
  /** Largest XML request body. */
  xmlBytes: number;
  /**
   * Minimum average body rate, bytes per second, once `bodyGraceMs` have passed (default 1,024; 0 = off): a
   * body arriving slower is answered 408 and its connection closed, so slow senders cannot hold connections.
   */
  minBytesPerSecond?: number;
  /** Time a body may take before the minimum rate applies (default 10 s). */
  bodyGraceMs?: number;
}

/** The slowest body accepted: on average `bytesPerSecond` once `graceMs` have passed since reading began. */
export interface BodyRate {
  bytesPerSecond: number;
  graceMs: number;
}

export const DEFAULT_BODY_RATE: BodyRate = { bytesPerSecond: 1024, graceMs: 10_000 };

/** Spanish reason of the 408 for a body slower than the minimum rate. */
export const TOO_SLOW_MESSAGE = 'El cuerpo de la solicitud llega demasiado lento; la conexión se cerró. Reintente con una conexión más rápida.';

/** Spanish reason of the 400 for a body the client broke off or framed wrongly. */
export const UNREADABLE_BODY_MESSAGE = 'No se pudo leer el cuerpo de la solicitud: la conexión se interrumpió o su formato es inválido.';

const rates = new WeakMap<Request, BodyRate>();

/** Sets the minimum body rate `readLimited` applies to this request (the app does it for every request). */
export function setBodyRate(req: Request, rate: BodyRate): void {
  rates.set(req, rate);
}

/** The body rate of `limits` (its defaults where unset). */
export function bodyRateOf(limits: Partial<BodyLimits>): BodyRate {
  return { bytesPerSecond: limits.minBytesPerSecond ?? DEFAULT_BODY_RATE.bytesPerSecond, graceMs: limits.bodyGraceMs ?? DEFAULT_BODY_RATE.graceMs };
}

const TIMED_OUT = Symbol('timed out');

export type BodyKind = 'json' | 'xml';

const KINDS: Record<string, BodyKind> = {
  'application/json': 'json',
  'application/xml': 'xml',
  'text/xml': 'xml',
};

/**
 * The body kind from `Content-Type`: `application/json`, `application/xml` or `text/xml`, with an optional
 * `charset` that must be UTF-8. Anything else (or no header) → 415, with `unsupported` as the message (the
 * service says which media types it takes and what for).
 */
export function bodyKind(contentType: string | undefined, unsupported: string): BodyKind {
  if (!contentType) throw new ApiError(415, unsupported);
  const [essence, ...params] = contentType.split(';').map((p) => p.trim());
  const kind = KINDS[essence!.toLowerCase()];
  if (!kind) throw new ApiError(415, unsupported);
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    if (p.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const charset = p
      .slice(eq + 1)
      .trim()
      .replace(/^"|"$/g, '')
      .toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') {
      throw new ApiError(415, `Codificación no soportada (${charset}): el cuerpo debe estar en UTF-8.`);
    }
  }
  return kind;
}

/**
 * Reads the whole body, refusing more than `limit` bytes (by Content-Length first, then while streaming) with
 * the error `tooBig` makes (default: the envelope's 413), and a body slower than the request's minimum rate (see
 * `setBodyRate`; default DEFAULT_BODY_RATE) with a 408 that closes the connection.
 */
export async function readLimited(req: Request, limit: number, tooBig: (limit: number) => Error = tooLarge): Promise<Uint8Array> {
  const declared = req.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) throw tooBig(limit);
  if (!req.body) return new Uint8Array(0);
  const rate = rates.get(req) ?? DEFAULT_BODY_RATE;
  const started = Date.now();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      const read = reader.read();
      if (rate.bytesPerSecond > 0) {
        // Behind schedule once more time has passed than the grace plus what `total` bytes allow at the rate.
        const wait = started + rate.graceMs + (total * 1000) / rate.bytesPerSecond - Date.now();
        let timer: NodeJS.Timeout | undefined;
        const outcome = await Promise.race([
          read,
          new Promise<typeof TIMED_OUT>((resolve) => {
            timer = setTimeout(() => resolve(TIMED_OUT), Math.max(0, wait));
          }),
        ]).finally(() => clearTimeout(timer));
        if (outcome === TIMED_OUT) {
          read.catch(() => undefined);
          await reader.cancel().catch(() => {});
          throw new ApiError(408, TOO_SLOW_MESSAGE, { headers: { connection: 'close' } });
        }
        next = outcome;
      } else {
        next = await read;
      }
    } catch (e) {
      if (e instanceof ApiError) throw e;
      // The client went away or broke the framing mid-body (Node reports ECONNRESET "aborted"): the request's
      // fault, not the server's (nor the storage's); the HTTP server has already answered it.
      throw new ApiError(400, UNREADABLE_BODY_MESSAGE);
    }
    const { done, value } = next;
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw tooBig(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** UTF-8 text of a body (a leading BOM is dropped); invalid UTF-8 → `null`. */
export function utf8Text(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Deepest JSON nesting accepted; deeper input is refused before parsing. */
export const MAX_JSON_DEPTH = 64;

/**
 * True when `text`, read as JSON, opens more than `max` arrays/objects at once. A linear scan that allocates
 * nothing: it runs before `JSON.parse`, which would otherwise spend seconds and hundreds of MB on a body of
 * millions of `[`, and leave a value that recursive code (null stripping, validation) cannot walk.
 */
export function jsonDepthExceeds(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Spanish reason for a body refused by `jsonDepthExceeds`. */
export const TOO_DEEP_MESSAGE = `El JSON excede la profundidad máxima de anidamiento (${MAX_JSON_DEPTH} niveles).`;
