/**
 * What the HTTP app is built from (`createApp(deps)`) and what its handlers see on the context. In a file of
 * its own so the route modules can name these types without importing the app that registers them.
 */
import type { Logger } from 'pino';
import type { Clock, DgiiEnvironment, SchemaValidator } from '../../index.js';
import type { AuthorityTransport, ReceptorClient } from '../../dgii/index.js';
import type { InboundDeps } from '../inbound/index.js';
import type { Offload, PdfCache } from '../offload/index.js';
import type { SignerProvider } from '../signers.js';
import type { DocumentRecord, Issuer, Storage } from '../storage/types.js';
import type { BodyLimits } from './body.js';

/** DGII environment of the documents this server issues (QR / timbre URL in the PDF). */
export type AuthorityEnvironment = DgiiEnvironment;

export interface AppDeps {
  storage: Storage;
  transport: AuthorityTransport;
  signers: SignerProvider;
  schemas: SchemaValidator;
  clock?: Clock;
  environment: AuthorityEnvironment;
  /** Body size limits (defaults: 12 MB JSON, 12 MB XML). */
  limits?: Partial<BodyLimits>;
  logger?: Logger;
  /** Called after a document was received (202), e.g. to wake an in-process worker. */
  onReceived?: (record: DocumentRecord) => void;
  /** Key that seals uploaded certificates (`loadCertificateKey`); without it `POST /certificate` answers 503. */
  certificateKey?: Uint8Array | null;
  /** Client for other taxpayers' receiver services (commercial approvals); default: one made on first use. */
  receptor?: ReceptorClient;
  /**
   * Where heavy steps run (passthrough and inbound XSD validation, signature verification, PDF rendering);
   * default: in-process (`inlineOffload`). `startServer` passes its child-process pool (`poolOffload`).
   */
  offload?: Offload;
  /** Rendered PDFs of accepted documents (default: an in-memory LRU of 64 MB, `createPdfCache`). */
  pdfCache?: PdfCache;
  /** Lifetime of cached directory answers (default 5 minutes). */
  directoryTtlMs?: number;
  /**
   * Inbound services other issuers call (`/fe/autenticacion`, `/fe/recepcion/api/ecf`,
   * `/fe/aprobacioncomercial/api/ecf`, also under `/t/{rnc}`), served by the same handler. Default on, with
   * bearer authentication required and no sender trusted unless `trust` says whom (see `InboundTrust`);
   * `false` turns them off.
   */
  inbound?: Pick<InboundDeps, 'requireAuth' | 'tokenTtlMs' | 'trust' | 'maxStoredBytes' | 'senderQuota'> | false;
}

export type AppEnv = { Variables: { issuer: Issuer } };
