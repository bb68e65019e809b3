/**
 * What the route modules beyond issuing and document queries (voiding, certificate, directory, received
 * documents) get from `createApp`: the dependencies with defaults resolved, the route registration helper
 * (OpenAPI registry + handler in one step) and the authority identity of an issuer.
 */
import type { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Logger } from 'pino';
import type { Clock } from '../../index.js';
import type { AuthorityIdentity } from '../../dgii/index.js';
import type { Issuer } from '../storage/types.js';
import { bodyKind, jsonDepthExceeds, readLimited, TOO_DEEP_MESSAGE, utf8Text, type BodyLimits } from './body.js';
import { detailedReport } from '../use-cases/errors.js';
import { ApiError } from './errors.js';
import type { AppDeps, AppEnv } from './deps.js';

export type Handler = (c: Context<AppEnv>) => Response | Promise<Response>;
export type RouteDeclaration = { method: string; path: string; getRoutingPath(): string } & Parameters<
  OpenAPIHono<AppEnv>['openAPIRegistry']['registerPath']
>[0];

export interface RouteContext {
  deps: AppDeps;
  clock: Clock;
  logger: Logger;
  limits: BodyLimits;
  /** Registers the route in the OpenAPI document and attaches its handler. */
  add(route: RouteDeclaration, handler: Handler): void;
  /** The identity the transport authenticates as (the issuer's RNC and signer); 409 without a usable certificate. */
  identity(issuer: Issuer): Promise<AuthorityIdentity>;
}

/** Zod issues → `{errors, detailed_errors}` with the schemas' Spanish messages, keyed by field path. */
export function issuesReport(issues: readonly z.core.$ZodIssue[], prefix = ''): { errors: string[]; detailed_errors: Record<string, string[]> } {
  const detailed: Record<string, string[]> = {};
  for (const i of issues) {
    const path = [prefix, ...i.path.map(String)].filter((p) => p !== '').join('.') || '_';
    (detailed[path] ??= []).push(i.message);
  }
  return detailedReport(detailed);
}

export { detailedReport };

/** A 422 whose `document` is `{errors, detailed_errors}`. */
export function invalid(message: string, detailed: Record<string, string[]>): ApiError {
  return new ApiError(422, message, { document: detailedReport(detailed) });
}

/**
 * Reads a JSON request body under `limit` bytes: `Content-Type` must be `application/json` (415 otherwise),
 * the text UTF-8 and JSON (422 with `message` otherwise).
 */
export async function readJsonBody(req: Request, limit: number, message: string): Promise<unknown> {
  const contentType = req.headers.get('content-type') ?? '';
  if (contentType.split(';')[0]!.trim().toLowerCase() !== 'application/json') {
    throw new ApiError(415, 'Tipo de contenido no soportado: envíe application/json.');
  }
  bodyKind(contentType); // a charset other than UTF-8 → 415
  const text = utf8Text(await readLimited(req, limit));
  if (text === null) throw new ApiError(422, message, { document: { errors: ['El cuerpo no es texto UTF-8 válido.'] } });
  if (jsonDepthExceeds(text)) throw new ApiError(422, message, { document: { errors: [TOO_DEEP_MESSAGE] } });
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(422, message, { document: { errors: ['El cuerpo no es un JSON válido.'] } });
  }
}
