/** What every inbound service gets: the dependencies with their defaults resolved. */
import type { Clock, Logger, SchemaValidator } from '../../index.js';
import type { Offload } from '../offload/index.js';
import type { SignerProvider } from '../signers.js';
import type { SeedMac } from './seed-mac.js';
import type { InboundToken, Issuer, Storage } from '../storage/types.js';
import type { InboundTrust } from './trust.js';

/** The subset of the `Logger` port the inbound services use (a pino `Logger` fits). */
export type InboundLogger = Pick<Logger, 'info' | 'warn' | 'error'>;

export interface InboundContext {
  storage: Storage;
  signers: SignerProvider;
  schemas: SchemaValidator;
  /** Where XSD validation and signature verification run (off the event loop in the server). */
  offload: Offload;
  clock: Clock;
  tokenTtlMs: number;
  seedTtlMs: number;
  /** Issues and checks stateless seeds. */
  seedMac: SeedMac;
  requireAuth: boolean;
  maxBodyBytes: number;
  /** Which signer certificates we believe, and for whom they act. */
  trust: InboundTrust;
  /** Largest received e-CF / ACECF we store, in bytes after removing comments. */
  maxStoredBytes: number;
  /** Most e-CF one sender (RNCEmisor) may have recorded per 24 hours, across our issuers (0 = no limit). */
  senderQuota: number;
  log: InboundLogger;
}

/** The authenticated caller of reception / approval: its token, or null when authentication is off. */
export type Caller = InboundToken | null;

/**
 * Where a request arrived: the server root (`/fe/…`, `scope` '') or a tenant's prefix (`/t/{rnc}/fe/…`,
 * the URL base that issuer publishes in DGII's directory; `tenant` is that issuer).
 */
export interface Route {
  scope: string;
  tenant: Issuer | null;
}
