/** Request bodies: media type selection and reading under a size limit (checked before and while reading). */
import { ApiError, MESSAGES, tooLarge } from './errors.js';

/** Body size limits in bytes. */
export interface BodyLimits {
  /** JSON requests (canonical e-CF). Default 12 MB: a 10,000-line type 32 is about 2 MB. */
  jsonBytes: number;
  /** XML requests (passthrough). Default 12 MB: a 10,000-line type 32 is 3–4 MB. */
  xmlBytes: number;
}

export const DEFAULT_LIMITS: BodyLimits = { jsonBytes: 12 * 1024 * 1024, xmlBytes: 12 * 1024 * 1024 };

export type BodyKind = 'json' | 'xml';

const KINDS: Record<string, BodyKind> = {
  'application/json': 'json',
  'application/xml': 'xml',
  'text/xml': 'xml',
};

/**
 * The body kind from `Content-Type`: `application/json`, `application/xml` or `text/xml`, with an optional
 * `charset` that must be UTF-8. Anything else (or no header) → 415.
 */
export function bodyKind(contentType: string | undefined): BodyKind {
  if (!contentType) throw new ApiError(415, MESSAGES.unsupportedMediaType);
  const [essence, ...params] = contentType.split(';').map((p) => p.trim());
  const kind = KINDS[essence!.toLowerCase()];
  if (!kind) throw new ApiError(415, MESSAGES.unsupportedMediaType);
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    if (p.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const charset = p.slice(eq + 1).trim().replace(/^"|"$/g, '').toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') {
      throw new ApiError(415, `Codificación no soportada (${charset}): el cuerpo debe estar en UTF-8.`);
    }
  }
  return kind;
}

/**
 * Reads the whole body, refusing more than `limit` bytes (by Content-Length first, then while streaming) with
 * the error `tooBig` makes (default: the API's 413).
 */
export async function readLimited(req: Request, limit: number, tooBig: (limit: number) => Error = tooLarge): Promise<Uint8Array> {
  const declared = req.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) throw tooBig(limit);
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
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
