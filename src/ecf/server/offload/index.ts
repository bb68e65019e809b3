/**
 * The server's heavy steps behind one interface: in-process (`inlineOffload`, the SDK defaults and what tests
 * get unless they ask for more) or in the pool's child processes (`poolOffload`, what `startServer` uses).
 * Callers always await, so a step never blocks the event loop when the pool is in use.
 */
import type { DgiiEnvironment } from '../../index.js';
import type { SchemaId, SchemaValidateOptions, SchemaValidationResult, SchemaValidator } from '../../index.js';
import { deriveRfceXml } from '../../index.js';
import { verifyXml, type VerifyResult } from '../../sign/index.js';
import type { OffloadPool, Priority } from './pool.js';

export { createOffloadPool, isOffloadError, OffloadError, type OffloadErrorCode, type OffloadPool, type OffloadPoolOptions } from './pool.js';
export { createPdfCache, type PdfCache } from './pdf-cache.js';

export type PdfEnvironment = DgiiEnvironment;

/** `request`: a step an HTTP caller waits for (short budget, served first); `background`: the worker's. */
export type Lane = Priority;

export interface Offload {
  validate(xml: string, schema: SchemaId, options?: SchemaValidateOptions, lane?: Lane): Promise<SchemaValidationResult>;
  verify(xml: string, lane?: Lane): Promise<VerifyResult>;
  deriveRfce(signedXml: string, lane?: Lane): Promise<string>;
  renderPdf(signedXml: string, environment: PdfEnvironment, lane?: Lane): Promise<Uint8Array>;
}

/** Runs every step on the calling thread (the behaviour before the pool; libraries and unit tests). */
export function inlineOffload(schemas: SchemaValidator): Offload {
  return {
    validate: async (xml, schema, options) => schemas.validate(xml, schema, options),
    verify: async (xml) => verifyXml(xml),
    deriveRfce: async (signedXml) => deriveRfceXml(signedXml),
    renderPdf: async (signedXml, environment) => {
      const { renderPdf } = await import('../../pdf/index.js');
      return renderPdf(signedXml, { environment });
    },
  };
}

export interface PoolOffloadOptions {
  /** XSD directory the children load their validator from (the server's `ECF_XSD_DIR`). */
  xsdDir: string;
  /** Budget of `request` steps (default 20 s). */
  requestBudgetMs?: number;
  /** Budget of `background` (worker) steps (default 120 s). */
  backgroundBudgetMs?: number;
}

/** Runs every step in the pool's child processes. */
export function poolOffload(pool: OffloadPool, options: PoolOffloadOptions): Offload {
  const budget = (lane: Lane) => (lane === 'background' ? (options.backgroundBudgetMs ?? 120_000) : (options.requestBudgetMs ?? 20_000));
  const opts = (lane: Lane = 'request') => ({ priority: lane, budgetMs: budget(lane) });
  return {
    validate: (xml, schema, schemaOptions, lane) =>
      pool.run('xsd', { xsdDir: options.xsdDir, xml, schema, ...(schemaOptions ? { options: schemaOptions } : {}) }, opts(lane)),
    verify: (xml, lane) => pool.run('verify', { xml }, opts(lane)),
    deriveRfce: (signedXml, lane) => pool.run('rfce', { signedXml }, opts(lane)),
    renderPdf: async (signedXml, environment, lane) => {
      // Our own accepted document, not hostile input: served first but with the worker's longer budget
      // (a 10,000-line PDF takes 5–25 s on a loaded 2-core machine).
      const out = await pool.run('pdf', { signedXml, environment }, { priority: lane ?? 'request', budgetMs: budget('background') });
      // Structured clone hands back a Uint8Array; keep the type exact for callers that check it.
      return out instanceof Uint8Array ? out : new Uint8Array(out as ArrayLike<number>);
    },
  };
}
