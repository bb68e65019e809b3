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
import { readLimited } from '../app/body.js';
import type { Clock, SchemaValidator } from '../../index.js';
import type { SignerProvider } from '../signers.js';
import type { Storage } from '../storage/types.js';
import { createSeedService } from './auth.js';
import type { InboundContext, InboundLogger, Route } from './context.js';
import { receiveApproval } from './approval.js';
import { receiveEcf } from './reception.js';
import { failure, formatOf } from './respond.js';

export type { InboundLogger } from './context.js';
export { NOT_RECEIVED_TYPES, RECEIVED_TYPES } from './reception.js';
export { readXmlUpload, type XmlUpload } from './multipart.js';

export interface InboundDeps {
  storage: Storage;
  signers: SignerProvider;
  schemas: SchemaValidator;
  clock?: Clock;
  /** Lifetime of the bearer tokens we issue (default 1 hour, as DGII's). */
  tokenTtlMs?: number;
  /** How long a seed may be signed and returned (default 5 minutes). */
  seedTtlMs?: number;
  /** Require `Authorization: Bearer` (a token from validacioncertificado) on reception and approval (default true). */
  requireAuth?: boolean;
  /** Largest request body accepted (default 12 MB); larger → 413. */
  maxBodyBytes?: number;
  logger?: InboundLogger;
}

/** Answers an inbound request, or null when the path is not an inbound service (let the app handle it). */
export type InboundHandler = (req: Request) => Promise<Response | null>;

export const DEFAULT_INBOUND_BODY_BYTES = 12 * 1024 * 1024;

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
  const ctx: InboundContext = {
    storage: deps.storage,
    signers: deps.signers,
    schemas: deps.schemas,
    clock: deps.clock ?? (() => new Date()),
    tokenTtlMs: deps.tokenTtlMs ?? 3_600_000,
    seedTtlMs: deps.seedTtlMs ?? 300_000,
    requireAuth: deps.requireAuth ?? true,
    maxBodyBytes: deps.maxBodyBytes ?? DEFAULT_INBOUND_BODY_BYTES,
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
      if (needsToken && !(await seeds.authorized(req, route))) {
        return failure(401, ['No autorizado: el token de autenticación no existe, no es válido o ha expirado. Obténgalo con /fe/autenticacion/api/semilla y /fe/autenticacion/api/validacioncertificado.'],
          format, { 'www-authenticate': 'Bearer' });
      }
      let body: Uint8Array;
      const limit =
        match.service === 'validacioncertificado' ? Math.min(SEED_MAX_BODY_BYTES, ctx.maxBodyBytes)
          : match.service === 'aprobacioncomercial' ? Math.min(ACECF_MAX_BODY_BYTES, ctx.maxBodyBytes)
            : ctx.maxBodyBytes;
      try {
        body = await readLimited(req, limit, () => new TooLarge());
      } catch (e) {
        if (e instanceof TooLarge) return failure(413, [`El cuerpo de la solicitud excede el límite de ${limit} bytes.`], format);
        return failure(400, ['No se pudo leer el cuerpo de la solicitud.'], format);
      }
      switch (match.service) {
        case 'validacioncertificado': return await seeds.validateCertificate(req, route, body);
        case 'recepcion': return await receiveEcf(ctx, req, route, body);
        case 'aprobacioncomercial': return await receiveApproval(ctx, req, route, body);
      }
    } catch (err) {
      // Bad input is answered above with 4xx; this is our failure (storage down, a bug).
      ctx.log.error({ err, path: pathname }, 'inbound service failed');
      return failure(500, ['Error interno del receptor; intente de nuevo más tarde.'], format);
    }
  };
}
