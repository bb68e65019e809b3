/**
 * The background worker: takes issued documents from `received` to a verdict of the authority.
 *
 * A loop claims due documents with a lease (`Storage.claimDue`), advances each one step by step and persists
 * every step under the lease (`updateDocument(…, owner)`; null = the lease was lost, another worker owns the
 * document now, so this one stops touching it). Several workers, in one process or many sharing one
 * PostgreSQL, never handle the same document at the same time.
 *
 * Per document, by `transmission` (see the state machine in docs/worker.md):
 * - `pending`: sign (once: the signed XML, its security code and FechaHoraFirma are kept for good), verify the
 *   signature, validate the signed XML against the XSD, derive and sign the RFCE for a 32 below the summary
 *   threshold; persist `sending` BEFORE the network call; send; record the track id (or the RFCE verdict).
 * - `sending`: an earlier send may or may not have reached the authority (crash, dropped connection): ask the
 *   authority first (track ids of the e-NCF, or the RFCE verdict) and adopt what it knows; resend only when it
 *   knows nothing. A document is never sent twice blindly.
 * - `sent`: poll the result with growing intervals until Aceptado / Aceptado Condicional / Rechazado.
 *
 * Three parts: the product-neutral lease loop (./lease-loop.ts: claim, lanes, pause, wake, backoff of failed
 * passes, shutdown), the e-CF steps (./ecf-steps.ts: the I/O of a pass) and the transition table
 * (./transitions.ts: state × outcome → patch, pure). This file wires them.
 */
import type { Clock, SchemaValidator } from '../../index.js';
import type { AuthorityTransport } from '../../dgii/index.js';
import type { DocumentRecord, Storage } from '../storage/types.js';
import { inlineOffload, type Offload } from '../offload/index.js';
import type { SignerProvider } from '../signers.js';
import { createLeaseLoop, defaultOwner, type LoopLogger } from '../../../shared/server-kit/lease-loop.js';
import { createEcfSteps } from './ecf-steps.js';
import { NOT_FOUND_MAX_MS, notFoundDelay, pollDelay, retryDelay, type PollSchedule, type RetrySchedule } from '../../../shared/server-kit/schedule.js';

export {
  pollDelay,
  retryDelay,
  notFoundDelay,
  DEFAULT_POLL,
  DEFAULT_RETRY,
  NOT_FOUND_MAX_MS,
  type PollSchedule,
  type RetrySchedule,
} from '../../../shared/server-kit/schedule.js';

/** The subset of a pino logger the worker uses (a pino `Logger` fits). */
export type WorkerLogger = LoopLogger;

export interface WorkerDeps {
  storage: Storage;
  transport: AuthorityTransport;
  signers: SignerProvider;
  schemas: SchemaValidator;
  /**
   * Where self-verification, XSD validation and RFCE derivation run (default: in-process). The server passes
   * its child-process pool so a large document never blocks the event loop; signing stays here (linear, and
   * the signer may be an HSM/KMS object that cannot leave the process).
   */
  offload?: Offload;
  clock?: Clock;
  /** Lease owner name; unique per worker (default: host, pid and a random suffix). */
  owner?: string;
  /**
   * How long a claim protects a document (default 120 s). Renewed on every step; must exceed the longest
   * authority call (timeout × attempts of the transport), or another worker may take the document over.
   */
  leaseMs?: number;
  /** Documents claimed per pass (default 32). */
  batchSize?: number;
  /** Pause of the loop when nothing was due (default 250 ms). */
  pollIntervalMs?: number;
  /** Documents of a batch handled at once (default 8). */
  concurrency?: number;
  /** Result polling intervals (default 0.5 s doubling to 5 min). */
  pollSchedule?: PollSchedule;
  /** Backoff after failures (default 1 s doubling to 5 min, jitter 50 %). */
  retry?: RetrySchedule;
  /** "No encontrado" answers tolerated for a track id we hold before asking the track ids again (default 3). */
  notFoundRetries?: number;
  /** Longest wait between those polls (default NOT_FOUND_MAX_MS, 30 s). */
  notFoundMaxMs?: number;
  /** Random source of the jitter (tests). */
  random?: () => number;
  logger?: WorkerLogger;
}

export interface Worker {
  /** Starts the loop (no-op when running). */
  start(): void;
  /** Stops the loop after the documents in hand are finished (their leases released). */
  stop(): Promise<void>;
  /** One pass: claims due documents and advances each of them; returns how many were handled. */
  runOnce(): Promise<number>;
  /** Ends the loop's pause now (e.g. right after a document was received). */
  wake(): void;
  /** The lease owner name. */
  readonly owner: string;
}

/**
 * @example
 * const worker = createWorker({ storage, transport: createDgiiClient({ environment: 'testecf' }), signers, schemas });
 * worker.start(); … await worker.stop();
 */
export function createWorker(deps: WorkerDeps): Worker {
  const { storage, transport, signers, schemas } = deps;
  const clock = deps.clock ?? (() => new Date());
  const now = () => clock().getTime();
  const owner = deps.owner ?? defaultOwner('worker');
  const leaseMs = deps.leaseMs ?? 120_000;
  const notFoundRetries = deps.notFoundRetries ?? 3;
  const notFoundMaxMs = deps.notFoundMaxMs ?? NOT_FOUND_MAX_MS;
  const random = deps.random ?? Math.random;

  const advance = createEcfSteps({
    storage,
    transport,
    signers,
    offload: deps.offload ?? inlineOffload(schemas),
    clock,
    owner,
    leaseMs,
    timing: () => ({
      now: now(),
      poll: (n) => pollDelay(n, deps.pollSchedule),
      backoff: (n) => retryDelay(n, deps.retry, random),
      notFoundDelay: (count) => notFoundDelay(count, deps.pollSchedule, notFoundMaxMs),
      notFoundRetries,
    }),
    ...(deps.logger ? { logger: deps.logger } : {}),
  });

  return createLeaseLoop<DocumentRecord>({
    claim: (at, who, lease, limit) => storage.claimDue(at, who, lease, limit),
    process: advance,
    owner,
    leaseMs,
    ...(deps.batchSize !== undefined ? { batchSize: deps.batchSize } : {}),
    ...(deps.pollIntervalMs !== undefined ? { pollIntervalMs: deps.pollIntervalMs } : {}),
    ...(deps.concurrency !== undefined ? { concurrency: deps.concurrency } : {}),
    now,
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
}
