/**
 * `ecf-kit/server`: the reference server as a library. `createApp` is the HTTP app alone (bring your own
 * storage, transport, signers); `createRuntime` builds storage, authority, signers, offload pool and worker from
 * a `ServerConfig` (`loadConfig(env)`); `startServer` adds the HTTP app and serves it.
 */
export {
  createInboundHandler,
  DEVELOPMENT_TRUST,
  NO_TRUST,
  loadTrustAnchors,
  parseDelegates,
  checkSigner,
  normalizeIdentifier,
  type InboundDeps,
  type InboundTrust,
  type InboundTrustMode,
  type SignerIdentity,
} from './inbound/index.js';
export { createApp, DEFAULT_LIMITS, ApiError, toErrorEnvelope } from './app/index.js';
export type { App, AppDeps, AppEnv, AuthorityEnvironment, BodyLimits } from './app/index.js';
export { startServer, runServer, createLogger, type MountedApp } from './main.js';
export type { RunningServer, StartOptions } from './main.js';
export { createRuntime } from './runtime.js';
export type { Runtime, RuntimeOptions, WorkerTuning } from './runtime.js';
export { openApiDocument } from './app/index.js';
// What the CLI (`ecf serve`, `ecf worker`, `ecf admin`) uses: it reaches the server through this entry only.
export { waitForStop } from '../../shared/server-kit/shutdown.js';
export { openStorage } from './storage/open.js';
export { loadCertificateKey } from './secrets.js';
export { prepareCertificate, reencryptCertificates } from './certificates.js';
export { generateToken, hashToken } from '../../shared/server-kit/tokens.js';
export { loadConfig, ConfigError } from './config.js';
export type { ServerConfig, AuthorityConfig, InboundConfig, LogLevel } from './config.js';
export { STATUSES, STATUS_NAMES, statusInfo } from './statuses.js';
export type { StatusInfo } from './statuses.js';
// Storage records and ports (embedders bring their own storage or read records from `openStorage`).
export type {
  Storage,
  StorageLifecycle,
  IssuerStore,
  SequenceStore,
  DocumentStore,
  VoidingStore,
  InboundStore,
  InboundStorage,
  SigningMode,
  Issuer,
  NewIssuer,
  TokenRecord,
  SequenceRecord,
  NewSequence,
  EncfRefusal,
  DocumentStatus,
  TransmissionState,
  DocumentRecord,
  NewDocument,
  DocumentPatch,
  SubmissionRecord,
  DocumentFilter,
  VoidBatch,
  ReceiptState,
  ReceiptReason,
  ApprovalState,
  ReceivedDocument,
  NewReceivedDocument,
  ReceivedDocumentFilter,
  ReceivedApprovalPatch,
  DocumentApproval,
  NewDocumentApproval,
  ApprovalRecording,
  InboundToken,
} from './storage/types.js';
export type { SignerProvider } from './signers.js';
