/** What every simulator module shares: the running instance's state and settings, and one request. */
import type { AuthorityMessage } from '../dgii/types.js';
import type { Clock } from '../../shared/ports.js';
import type { SelfSignedIdentity } from '../../shared/xmldsig/self-signed.js';
import type { XsdSchemaValidator } from '../xsd/validator.js';
import type { FaultState } from './faults.js';
import type { Reply } from './respond.js';
import type { Store } from './store.js';
import type { ScenarioSettings } from './types.js';

export interface SimContext {
  clock: Clock;
  store: Store;
  schemas: XsdSchemaValidator;
  processingDelayMs: number;
  tokenTtlMs: number;
  faults: FaultState;
  scenarios: ScenarioSettings;
  rng: () => number;
  /** The simulator's own signing identity (its test issuer and receptor), created on first use. */
  identity(): SelfSignedIdentity;
  /** `http://HOST:PORT` once listening. */
  baseUrl(): string;
  /** Starts the processing timer of an e-CF in process. */
  schedule(trackId: string): void;
  /** Bearer token the control API (`/_simulator/*`) requires; undefined = open (a standalone simulator). */
  controlToken?: string;
}

/** One request, parsed once for the routes. */
export interface RouteInput {
  req: Request;
  url: URL;
  /** Environment segment, lower case (`testecf`, `certecf`, `ecf`); '' for paths without one. */
  env: string;
  /** Query parameters with lower-cased names (DGII's clients vary the casing). */
  query: Map<string, string>;
  json: boolean;
  body: Uint8Array;
}

export type RouteResult = Reply | Response;

/** A 4xx/5xx answer in DGII's error style: `{error, mensajes:[{codigo, valor}]}` plus route extras. */
export function errorReply(status: number, mensajes: AuthorityMessage[], extra: Record<string, unknown> = {}, xmlRoot = 'RespuestaError'): Reply {
  return {
    status,
    body: { ...extra, error: mensajes.map((m) => m.valor).join(' '), mensajes },
    xmlRoot,
    xmlItems: { mensajes: 'Mensaje' },
  };
}

/** A message without a DGII code. */
export function msg(valor: string, codigo: string | null = null): AuthorityMessage {
  return { codigo, valor };
}
