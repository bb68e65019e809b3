/**
 * The composition root: builds, from a `ServerConfig`, what both the server (`startServer`) and a worker
 * process (`ecf worker`) run on: logger, clock, schema validator, storage, the authority (DGII, a URL, or an
 * in-process simulator), the certificate key, signers, the offload pool, the receiver client and the worker.
 * `close()` releases them in reverse dependency order.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { EcfError, type Clock, type SchemaValidator } from '../index.js';
import { createDgiiClient, createReceptorClient, type DgiiClient, type ReceptorClient } from '../dgii/index.js';
import { createSelfSignedIdentity } from '../sign/index.js';
import { startSimulator, type Simulator } from '../simulator/index.js';
import { assertXsdDir, createSchemaValidator } from '../xsd/index.js';
import type { ServerConfig } from './config.js';
import { LOG_SERIALIZERS, REDACT_PATHS } from '../../shared/server-kit/logging.js';
import { loadCertificateKey, type SecretKey } from './secrets.js';
import { createSignerProvider, type SignerProvider } from './signers.js';
import { ensurePrivateDir, openStorage } from './storage/open.js';
import type { Storage } from './storage/types.js';
import { createWorker, type Worker, type WorkerDeps } from './worker/index.js';
import { createOffloadPool, inlineOffload, poolOffload, type Offload, type OffloadPool, type OffloadPoolOptions } from './offload/index.js';

/** File in the data directory holding the in-process simulator's control token (mode 0600). */
export const SIMULATOR_CONTROL_TOKEN_FILE = 'simulator-control.token';

/** The server's pino logger: structured, with credentials redacted wherever they might appear. */
export function createLogger(level: ServerConfig['logLevel'], destination?: pino.DestinationStream, service = 'ecf-kit'): Logger {
  return pino(
    {
      level,
      base: { service },
      redact: { paths: [...REDACT_PATHS], censor: '[redacted]' },
      // Errors are logged as type, message, code, stack and causes only (never the requests they carry).
      serializers: LOG_SERIALIZERS,
    },
    destination ?? pino.destination(1),
  );
}

/** Worker options a separate worker process may tune (`ecf worker --concurrency …`). */
export type WorkerTuning = Partial<Pick<WorkerDeps, 'concurrency' | 'batchSize' | 'leaseMs' | 'pollIntervalMs' | 'owner'>>;

export interface RuntimeOptions {
  /**
   * `server` (default): everything `startServer` needs; the worker only when `config.worker`; an in-process
   * simulator when no authority is configured. `worker`: what a separate worker process needs (no offload
   * pool, no receiver client, no simulator: `config.authority` must name one), the worker always.
   */
  role?: 'server' | 'worker';
  logger?: Logger;
  clock?: Clock;
  /** The certificate key, when the caller loaded it already (otherwise loaded from `config`). */
  certificateKey?: SecretKey;
  /** Options of the worker process (role `worker`). */
  worker?: WorkerTuning;
  /** Extra options of the offload pool (tests: `testTasks`); size, queue and budgets come from the config. */
  offloadPool?: Partial<OffloadPoolOptions>;
  /** Called with the pool once it exists (tests inspect its processes). */
  onOffloadPool?: (pool: OffloadPool) => void;
}

export interface Runtime {
  config: ServerConfig;
  logger: Logger;
  clock: Clock;
  schemas: SchemaValidator;
  storage: Storage;
  /** The authority's client (DGII, a URL, or the in-process simulator). */
  transport: DgiiClient;
  /** The in-process simulator (server role without a configured authority), else null. */
  simulator: Simulator | null;
  /** Bearer token of the simulator's control API, also in `${dataDir}/simulator-control.token`; null without it. */
  simulatorControlToken: string | null;
  certificateKey: SecretKey;
  signers: SignerProvider;
  /** Where heavy steps run: the pool when configured (server role), else in-process. */
  offload: Offload;
  pool: OffloadPool | null;
  /** Client of other taxpayers' receiver services (server role), else null. */
  receptor: ReceptorClient | null;
  /** The background worker, not started; null when the server runs without it. */
  worker: Worker | null;
  /**
   * Stops the worker, then closes the authority client, the receiver client, the simulator, the offload pool
   * and the storage, in that order; errors are logged, not thrown. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * Builds the runtime; on failure releases what was built and rethrows.
 * @example
 * const rt = await createRuntime(loadConfig(process.env), { role: 'worker' });
 * rt.worker!.start(); … await rt.close();
 */
export async function createRuntime(config: ServerConfig, options: RuntimeOptions = {}): Promise<Runtime> {
  const role = options.role ?? 'server';
  // The worker never logs credentials; the redaction is a safety net for error objects that might carry them.
  const logger = options.logger ?? createLogger(config.logLevel, undefined, role === 'worker' ? 'ecf-kit-worker' : 'ecf-kit');
  const clock = options.clock ?? (() => new Date());
  let storage: Storage | null = null;
  let simulator: Simulator | null = null;
  let simulatorControlToken: string | null = null;
  let worker: Worker | null = null;
  let transport: DgiiClient | null = null;
  let receptor: ReceptorClient | null = null;
  let pool: OffloadPool | null = null;

  const release = async () => {
    const step = async (what: string, f: () => Promise<void>) => {
      try {
        await f();
      } catch (err) {
        logger.error({ err }, `error while stopping the ${what}`);
      }
    };
    if (worker) await step('worker', () => worker!.stop());
    if (transport) await step('authority client', () => transport!.close());
    if (receptor) await step('receiver client', () => receptor!.close());
    if (simulator) await step('simulator', () => simulator!.close());
    // After the HTTP server and the worker: nothing waits for the pool's processes any more.
    if (pool) await step('offload pool', () => pool!.close());
    if (storage) await step('storage', () => storage!.close());
  };

  try {
    assertXsdDir(config.xsdDir);
    const schemas = createSchemaValidator(config.xsdDir);

    const store = await openStorage({ dataDir: config.dataDir, ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}) });
    storage = store;

    const a = config.authority;
    if (a.kind === 'simulator') {
      if (role === 'worker')
        throw new EcfError('a worker process needs a configured authority (ECF_AUTHORITY); it cannot reach a simulator inside a server process', {
          code: 'worker_needs_authority',
        });
      // The control API changes verdicts and the directory: only holders of this process's token may use it.
      simulatorControlToken = randomBytes(24).toString('base64url');
      ensurePrivateDir(config.dataDir);
      const tokenFile = join(config.dataDir, SIMULATOR_CONTROL_TOKEN_FILE);
      writeFileSync(tokenFile, `${simulatorControlToken}\n`, { mode: 0o600 });
      chmodSync(tokenFile, 0o600);
      simulator = await startSimulator({
        xsdDir: config.xsdDir,
        dataFile: join(config.dataDir, 'simulator.json'),
        clock,
        logger,
        controlToken: simulatorControlToken,
      });
      transport = createDgiiClient({ environment: 'testecf', baseUrl: simulator.url, clock, logger });
      logger.info({ url: simulator.url }, 'in-process authority simulator started (TesteCF)');
    } else if (a.kind === 'dgii') {
      transport = createDgiiClient({ environment: a.environment, clock, logger });
    } else {
      transport = createDgiiClient({ environment: a.environment, baseUrl: a.baseUrl, clock, logger });
    }

    const key = options.certificateKey ?? loadCertificateKey({ env: config.env, dataDir: config.dataDir, production: config.production });
    let provider: { p12: Uint8Array; password: string } | undefined;
    if (config.providerP12) {
      provider = { p12: new Uint8Array(readFileSync(config.providerP12)), password: config.providerP12Password ?? '' };
    } else if (simulator) {
      // The simulator accepts any well-formed signature, so a throwaway provider certificate lets issuers in
      // provider mode work out of the box in development. It lives in memory only.
      const id = createSelfSignedIdentity({ commonName: 'ecf-kit development provider', now: clock() });
      provider = { p12: id.p12, password: id.password };
    }
    const signers = createSignerProvider({ key, ...(provider ? { provider } : {}), clock });

    let offload: Offload = inlineOffload(schemas);
    if (role === 'server' && config.offload.processes > 0) {
      pool = createOffloadPool({
        size: config.offload.processes,
        queueLimit: config.offload.queue,
        budgetMs: config.offload.requestBudgetMs,
        logger,
        ...options.offloadPool,
      });
      options.onOffloadPool?.(pool);
      offload = poolOffload(pool, {
        xsdDir: config.xsdDir,
        requestBudgetMs: config.offload.requestBudgetMs,
        backgroundBudgetMs: config.offload.workerBudgetMs,
      });
    }

    if (role === 'worker') {
      worker = createWorker({ storage: store, transport, signers, schemas, logger, clock, ...options.worker });
    } else if (config.worker) {
      worker = createWorker({ storage: store, transport, signers, schemas, offload, clock, logger });
    }

    if (role === 'server') {
      // Commercial approvals go to other taxpayers' receiver services: https and public addresses only, unless a
      // development configuration opts in (ECF_RECEIVER_ALLOW_HTTP, ECF_RECEIVER_ALLOW_ADDRESSES).
      receptor = createReceptorClient({ clock, timeoutMs: 15_000, retries: 1, logger, receivers: config.receivers });
      if (config.receivers.allowHttp || config.receivers.allowAddresses.length) {
        logger.warn({ receivers: config.receivers }, 'development receiver policy: http and/or non-public receiver addresses are allowed');
      }
    }

    let closing: Promise<void> | null = null;
    return {
      config,
      logger,
      clock,
      schemas,
      storage: store,
      transport,
      simulator,
      simulatorControlToken,
      certificateKey: key,
      signers,
      offload,
      pool,
      receptor,
      worker,
      close: () => (closing ??= release()),
    };
  } catch (e) {
    await release();
    throw e;
  }
}
