/**
 * The inbound services other issuers (and DGII) call on our server, per the emisor–receptor standard
 * (DT pp. 52–57, §2.12): seed, certificate validation (bearer token), e-CF reception answering a signed
 * ARECF, and commercial approvals of the e-CF we issued.
 *
 * Paths are case-insensitive (DT p. 52), served at the root (`/fe/…`) and under a per-tenant prefix
 * (`/t/{rnc}/fe/…`, the URL base each of our issuers publishes in DGII's directory). Under a prefix the RNC
 * must be one of our issuers, and it must be the receiver of what arrives there.
 *
 * Mount it in front of the app: `(req) => inbound(req).then((r) => r ?? app.fetch(req))`.
 */
import { randomBytes } from 'node:crypto';
import { readLimited } from '../app/body.js';
import { ApiError } from '../app/errors.js';
import type { Clock, SchemaValidator } from '../../index.js';
import type { SignerProvider } from '../signers.js';
import type { Storage } from '../storage/types.js';
import { createSeedService } from './auth.js';
import { createSeedMac } from './seed-mac.js';
import type { InboundContext, InboundLogger, Route } from './context.js';
import { receiveApproval } from './approval.js';
import { receiveEcf } from './reception.js';
import { inlineOffload, isOffloadError, type Offload } from '../offload/index.js';
import { failure, formatOf } from './respond.js';
import { NO_TRUST, type InboundTrust } from './trust.js';

export type { InboundLogger } from './context.js';
export {
  certificateIdentifiers,
  checkSigner,
  DEVELOPMENT_TRUST,
  loadTrustAnchors,
  normalizeIdentifier,
  NO_TRUST,
  parseDelegates,
  type InboundTrust,
  type InboundTrustMode,
  type SignerIdentity,
} from './trust.js';
export { NOT_RECEIVED_TYPES, RECEIVED_TYPES } from './reception.js';
export { readXmlUpload, type XmlUpload } from './multipart.js';
export { seedKeyFrom } from './seed-mac.js';

export interface InboundDeps {
  storage: Storage;
  signers: SignerProvider;
  schemas: SchemaValidator;
  /** Where XSD validation and signature verification run (default: in-process, `inlineOffload(schemas)`). */
  offload?: Offload;
  clock?: Clock;
  /** Lifetime of the bearer tokens we issue (default 1 hour, as DGII's). */
  tokenTtlMs?: number;
  /** How long a seed may be signed and returned (default 5 minutes). */
  seedTtlMs?: number;
  /**
   * Key(s) of the seed MAC (the first signs, all verify): pass `seedKeyFrom(certificateKey)` so that every
   * process sharing the database accepts the others' seeds. Default: a random key for this handler only.
   */
  seedKey?: Uint8Array | readonly Uint8Array[];
  /** Require `Authorization: Bearer` (a token from validacioncertificado) on reception and approval (default true). */
  requireAuth?: boolean;
  /** Largest request body accepted (default 12 MB); larger → 413. */
  maxBodyBytes?: number;
  /**
   * Which signer certificates (of seeds, delivered e-CF and ACECF) we believe (default {@link NO_TRUST}:
   * nobody). {@link DEVELOPMENT_TRUST} takes any certificate, self-signed included, for who it says: only for
   * the in-process simulator and tests.
   */
  trust?: InboundTrust;
  /** Largest received e-CF or ACECF stored, in bytes after removing comments (default {@link DEFAULT_MAX_STORED_BYTES}). */
  maxStoredBytes?: number;
  /** Most e-CF recorded per sender (RNCEmisor) per 24 hours, across our issuers (default {@link DEFAULT_SENDER_QUOTA}; 0 = no limit). */
  senderQuota?: number;
  logger?: InboundLogger;
}

/** Answers an inbound request, or null when the path is not an inbound service (let the app handle it). */
export type InboundHandler = (req: Request) => Promise<Response | null>;

export const DEFAULT_INBOUND_BODY_BYTES = 12 * 1024 * 1024;

/**
 * Largest received document stored (8 MB after removing comments): well above a real e-CF (a 1,000-line 31
 * with every optional field filled is a few MB), far below what a padded one could reach.
 */
export const DEFAULT_MAX_STORED_BYTES = 8 * 1024 * 1024;

/** Documents one sender may have recorded per 24 hours, across our issuers. */
export const DEFAULT_SENDER_QUOTA = 10_000;

/**
 * Largest signed seed accepted by `validacioncertificado`, the one service that reads a body without a
 * token: a signed seed with its certificate is a few KB, and anyone may call it, so it must not make the
 * server parse, schema-validate and verify megabytes of XML.
 */
export const SEED_MAX_BODY_BYTES = 64 * 1024;

/**
 * Largest ACECF accepted by `aprobacioncomercial`. By the ACECF XSD's maxima (11 elements, values of at most
 * 250 characters) an ACECF is under 4 KB; with its Signature and certificate (whose text the pre-scan caps
 * at 16 KB) and the multipart framing, 64 KB is ample. Anything larger is not an ACECF.
 */
export const ACECF_MAX_BODY_BYTES = 64 * 1024;

type Service = 'semilla' | 'validacioncertificado' | 'recepcion' | 'aprobacioncomercial';

/** The inbound services by path below `/fe/` (and `/t/{rnc}/fe/`), with their method. */
export const INBOUND_SERVICES: Readonly<Record<string, { service: Service; method: 'GET' | 'POST' }>> = {
  'autenticacion/api/semilla': { service: 'semilla', method: 'GET' },
  'autenticacion/api/validacioncertificado': { service: 'validacioncertificado', method: 'POST' },
  'recepcion/api/ecf': { service: 'recepcion', method: 'POST' },
  'aprobacioncomercial/api/ecf': { service: 'aprobacioncomercial', method: 'POST' },
};

const PATH = /^(?:\/t\/([^/]+))?\/fe\/([a-z]+\/api\/[a-z]+)\/?$/;
const RNC = /^(?:\d{9}|\d{11})$/;

/** The service and tenant prefix of an inbound path, or null when the path is not one. */
export function matchInboundPath(pathname: string): { service: Service; method: 'GET' | 'POST'; rnc: string | null } | null {
  const m = PATH.exec(pathname.toLowerCase());
  if (!m) return null;
  const entry = INBOUND_SERVICES[m[2]!];
  return entry ? { ...entry, rnc: m[1] ?? null } : null;
}

class TooLarge extends Error {}

const NO_LOG: InboundLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * @example
 * const inbound = createInboundHandler({ storage, signers, schemas: createSchemaValidator(xsdDir) });
 * const fetch = async (req: Request) => (await inbound(req)) ?? app.fetch(req);
 */
export function createInboundHandler(deps: InboundDeps): InboundHandler {
  const seedTtlMs = deps.seedTtlMs ?? 300_000;
  const seedKeys = deps.seedKey === undefined ? [randomBytes(32)] : deps.seedKey instanceof Uint8Array ? [deps.seedKey] : [...deps.seedKey];
  const ctx: InboundContext = {
    storage: deps.storage,
    signers: deps.signers,
    schemas: deps.schemas,
    offload: deps.offload ?? inlineOffload(deps.schemas),
    clock: deps.clock ?? (() => new Date()),
    tokenTtlMs: deps.tokenTtlMs ?? 3_600_000,
    seedTtlMs,
    seedMac: createSeedMac(seedKeys, seedTtlMs),
    requireAuth: deps.requireAuth ?? true,
    maxBodyBytes: deps.maxBodyBytes ?? DEFAULT_INBOUND_BODY_BYTES,
    trust: deps.trust ?? NO_TRUST,
    maxStoredBytes: deps.maxStoredBytes ?? DEFAULT_MAX_STORED_BYTES,
    senderQuota: deps.senderQuota ?? DEFAULT_SENDER_QUOTA,
    log: deps.logger ?? NO_LOG,
  };
  const seeds = createSeedService(ctx);

  return async (req) => {
    let pathname: string;
    try {
      pathname = new URL(req.url, 'http://localhost').pathname;
    } catch {
      return null;
    }
    const match = matchInboundPath(pathname);
    if (!match) return null;
    const format = formatOf(req);
    try {
      if (req.method !== match.method) {
        return failure(405, [`Método ${req.method} no permitido; use ${match.method}.`], format, { allow: match.method });
      }
      let route: Route = { scope: '', tenant: null };
      if (match.rnc !== null) {
        const tenant = RNC.test(match.rnc) ? await ctx.storage.getIssuerByRnc(match.rnc) : null;
        if (!tenant) return failure(404, [`El RNC ${match.rnc} no corresponde a ningún receptor de este servicio.`], format);
        route = { scope: tenant.rnc, tenant };
      }
      if (match.service === 'semilla') return await seeds.issueSeed(route);

      const needsToken = ctx.requireAuth && (match.service === 'recepcion' || match.service === 'aprobacioncomercial');
      const caller = needsToken ? await seeds.authenticate(req, route) : null;
      if (needsToken && !caller) {
        return failure(
          401,
          [
            'No autorizado: el token de autenticación no existe, no es válido o ha expirado. Obténgalo con /fe/autenticacion/api/semilla y /fe/autenticacion/api/validacioncertificado.',
          ],
          format,
          { 'www-authenticate': 'Bearer' },
        );
      }
      let body: Uint8Array;
      const limit =
        match.service === 'validacioncertificado'
          ? Math.min(SEED_MAX_BODY_BYTES, ctx.maxBodyBytes)
          : match.service === 'aprobacioncomercial'
            ? Math.min(ACECF_MAX_BODY_BYTES, ctx.maxBodyBytes)
            : ctx.maxBodyBytes;
      try {
        body = await readLimited(req, limit, () => new TooLarge());
      } catch (e) {
        if (e instanceof TooLarge) return failure(413, [`El cuerpo de la solicitud excede el límite de ${limit} bytes.`], format);
        // A body slower than the minimum rate: 408, and the connection is closed.
        if (e instanceof ApiError && e.status === 408) return failure(408, [e.message], format, e.headers);
        return failure(400, ['No se pudo leer el cuerpo de la solicitud.'], format);
      }
      switch (match.service) {
        case 'validacioncertificado':
          return await seeds.validateCertificate(req, route, body);
        case 'recepcion':
          return await receiveEcf(ctx, req, route, body, caller);
        case 'aprobacioncomercial':
          return await receiveApproval(ctx, req, route, body, caller);
      }
    } catch (err) {
      if (isOffloadError(err)) {
        // Validation or verification ran past its time budget (the process was killed): refuse the document.
        if (err.code === 'timeout') {
          ctx.log.warn({ path: pathname }, 'inbound: validation exceeded its time budget');
          return failure(
            400,
            ['El documento no pudo validarse dentro del tiempo permitido; no se emite acuse de recibo. Revise su tamaño y contenido.'],
            format,
          );
        }
        // The pool is full or shutting down: a temporary refusal.
        return failure(503, ['El receptor está procesando demasiados documentos en este momento; intente de nuevo en unos segundos.'], format, {
          'retry-after': String(err.retryAfterSeconds),
        });
      }
      // Bad input is answered above with 4xx; this is our failure (storage down, a bug).
      ctx.log.error({ err, path: pathname }, 'inbound service failed');
      return failure(500, ['Error interno del receptor; intente de nuevo más tarde.'], format);
    }
  };
}
