/**
 * Request bodies of the e-CF API: its default limits and its 415 message over the kit's body tools
 * (`shared/server-kit/body.ts`: media type selection, reading under a size limit and a minimum rate, UTF-8,
 * JSON depth), which are re-exported here.
 */
import { bodyKind as bodyKindOf, DEFAULT_BODY_RATE, type BodyKind, type BodyLimits } from '../../../shared/server-kit/body.js';
import { MESSAGES } from './errors.js';

export {
  DEFAULT_BODY_RATE,
  TOO_SLOW_MESSAGE,
  setBodyRate,
  bodyRateOf,
  readLimited,
  utf8Text,
  MAX_JSON_DEPTH,
  jsonDepthExceeds,
  TOO_DEEP_MESSAGE,
  type BodyLimits,
  type BodyRate,
  type BodyKind,
} from '../../../shared/server-kit/body.js';

/**
 * Body limits of the e-CF API. JSON requests (canonical e-CF): 12 MB, a 10,000-line type 32 is about 2 MB.
 * XML requests (passthrough): 12 MB, a 10,000-line type 32 is 3–4 MB. A canonical e-CF nests about 5 levels,
 * far below MAX_JSON_DEPTH.
 */
export const DEFAULT_LIMITS: BodyLimits = {
  jsonBytes: 12 * 1024 * 1024,
  xmlBytes: 12 * 1024 * 1024,
  minBytesPerSecond: DEFAULT_BODY_RATE.bytesPerSecond,
  bodyGraceMs: DEFAULT_BODY_RATE.graceMs,
};

/**
 * The body kind from `Content-Type`: `application/json` (canonical JSON), `application/xml` or `text/xml`
 * (unsigned XML), with an optional `charset` that must be UTF-8. Anything else (or no header) → 415.
 */
export function bodyKind(contentType: string | undefined): BodyKind {
  return bodyKindOf(contentType, MESSAGES.unsupportedMediaType);
}
