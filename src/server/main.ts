/**
 * Server startup: wires storage, the authority (DGII or an in-process simulator), signers, the worker and the
 * HTTP app, and serves it with @hono/node-server. `close()` stops them in reverse dependency order. Heavy steps
 * (XSD validation, signature verification, RFCE derivation, PDF rendering) run in a pool of child processes.
 */
import { waitForStop } from './shutdown.js';
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import pino, { type Logger } from 'pino';
import type { Clock } from '../index.js';
import { createDgiiClient, createReceptorClient, type DgiiClient, type ReceptorClient } from '../dgii/index.js';
import { createSelfSignedIdentity } from '../sign/index.js';
import { startSimulator, type Simulator } from '../simulator/index.js';
import { assertXsdDir, createSchemaValidator } from '../xsd/index.js';
import { createApp } from './app/index.js';
import { DEFAULT_HTTP_LIMITS, type ServerConfig } from './config.js';
import { LOG_SERIALIZERS, REDACT_PATHS } from './logging.js';
import { loadTrustAnchors, parseDelegates, type InboundTrust } from './inbound/trust.js';
import { loadCertificateKey } from './secrets.js';
import { createSignerProvider } from './signers.js';
import { ensurePrivateDir, openStorage } from './storage/open.js';
import type { Storage } from './storage/types.js';
import { createWorker, type Worker } from './worker/index.js';
import { createOffloadPool, createPdfCache, inlineOffload, poolOffload, type Offload, type OffloadPool, type OffloadPoolOptions } from './offload/index.js';

export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:8080` (no trailing slash). */
  url: string;
  port: number;
  /** URL of the in-process simulator, or null when talking to DGII or an external URL. */
  simulatorUrl: string | null;
  /**
   * Bearer token of the in-process simulator's control API (`/_simulator/*`), random per process; also
   * written to `${ECF_DATA_DIR}/simulator-control.token` (0600) for local tools of the same user. Null without it.
   */
  simulatorControlToken: string | null;
  /** True when storage held no issuer at start (a fresh data directory). */
  fresh: boolean;
  /** Stops the worker, the HTTP server, the authority client, the simulator, the offload pool and the storage, in that order. Idempotent. */
  close(): Promise<void>;
}

/** File in the data directory holding the in-process simulator's control token (mode 0600). */
export const SIMULATOR_CONTROL_TOKEN_FILE = 'simulator-control.token';

export interface StartOptions {
  logger?: Logger;
  clock?: Clock;
  /** Extra options of the offload pool (tests: `testTasks`); size, queue and budgets come from the config. */
  offloadPool?: Partial<OffloadPoolOptions>;
  /** Called with the pool once it exists (tests inspect its processes). */
  onOffloadPool?: (pool: OffloadPool) => void;
}

/** The server's pino logger: structured, with credentials redacted wherever they might appear. */
export function createLogger(level: ServerConfig['logLevel'], destination?: pino.DestinationStream): Logger {
  return pino({
    level,
    base: { service: 'ecf-kit' },
    redact: { paths: [...REDACT_PATHS], censor: '[redacted]' },
    // Errors are logged as type, message, code, stack and causes only (never the requests they carry).
    serializers: LOG_SERIALIZERS,
  }, destination ?? pino.destination(1));
}

function closeHttp(server: ReturnType<typeof serve>): Promise<void> {
  return new Promise((resolve) => {
    const s = server as unknown as import('node:http').Server;
    const force = setTimeout(() => s.closeAllConnections?.(), 5_000);
    force.unref();
    s.close(() => {
      clearTimeout(force);
      resolve();
    });
    s.closeIdleConnections?.();
  });
}

/**
 * Starts the whole server.
 * @example
 * const server = await startServer(loadConfig(process.env));
 * console.log(server.url); … await server.close();
 */
export async function startServer(config: ServerConfig, options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? (() => new Date());
  let storage: Storage | null = null;
  let simulator: Simulator | null = null;
  let simulatorControlToken: string | null = null;
  let worker: Worker | null = null;
  let server: ReturnType<typeof serve> | null = null;
  let transport: DgiiClient | null = null;
  let receptor: ReceptorClient | null = null;
  let pool: OffloadPool | null = null;

  // Stop order: no new work (worker), no new requests (HTTP), then what they used (authority client, simulator, storage).
  const shutdown = async () => {
    const step = async (what: string, f: () => Promise<void>) => {
      try {
        await f();
      } catch (err) {
        logger.error({ err }, `error while stopping the ${what}`);
      }
    };
    if (worker) await step('worker', () => worker!.stop());
    if (server) await step('HTTP server', () => closeHttp(server!));
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
      // The control API changes verdicts and the directory: only holders of this process's token may use it.
      simulatorControlToken = randomBytes(24).toString('base64url');
      ensurePrivateDir(config.dataDir);
      const tokenFile = join(config.dataDir, SIMULATOR_CONTROL_TOKEN_FILE);
      writeFileSync(tokenFile, `${simulatorControlToken}\n`, { mode: 0o600 });
      chmodSync(tokenFile, 0o600);
      simulator = await startSimulator({
        xsdDir: config.xsdDir, dataFile: join(config.dataDir, 'simulator.json'), clock, logger, controlToken: simulatorControlToken,
      });
      transport = createDgiiClient({ environment: 'testecf', baseUrl: simulator.url, clock, logger });
      logger.info({ url: simulator.url }, 'in-process authority simulator started (TesteCF)');
    } else if (a.kind === 'dgii') {
      transport = createDgiiClient({ environment: a.environment, clock, logger });
    } else {
      transport = createDgiiClient({ environment: a.environment, baseUrl: a.baseUrl, clock, logger });
    }

    const key = loadCertificateKey({ env: config.env, dataDir: config.dataDir, production: config.production });
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
    if (config.offload.processes > 0) {
      pool = createOffloadPool({ size: config.offload.processes, queueLimit: config.offload.queue, budgetMs: config.offload.requestBudgetMs, logger, ...options.offloadPool });
      options.onOffloadPool?.(pool);
      offload = poolOffload(pool, { xsdDir: config.xsdDir, requestBudgetMs: config.offload.requestBudgetMs, backgroundBudgetMs: config.offload.workerBudgetMs });
    }

    if (config.worker) worker = createWorker({ storage: store, transport, signers, schemas, offload, clock, logger });

    // Commercial approvals go to other taxpayers' receiver services: https and public addresses only, unless a
    // development configuration opts in (ECF_RECEIVER_ALLOW_HTTP, ECF_RECEIVER_ALLOW_ADDRESSES).
    receptor = createReceptorClient({ clock, timeoutMs: 15_000, retries: 1, logger, receivers: config.receivers });
    if (config.receivers.allowHttp || config.receivers.allowAddresses.length) {
      logger.warn({ receivers: config.receivers }, 'development receiver policy: http and/or non-public receiver addresses are allowed');
    }
    const inbound = config.inbound;
    const trust: InboundTrust = {
      mode: inbound.trust,
      anchors: inbound.trustCa ? loadTrustAnchors(inbound.trustCa) : [],
      delegates: inbound.delegates ? parseDelegates(readFileSync(inbound.delegates, 'utf8')) : {},
    };
    if (trust.mode === 'development') logger.warn('inbound services trust any certificate, self-signed included (ECF_INBOUND_TRUST=development): for development only');
    else if (trust.anchors.length === 0) logger.warn('inbound services: no ECF_INBOUND_TRUST_CA configured, every sender (seed login, e-CF, commercial approval) is refused');
    const app = createApp({
      storage: store, transport, signers, schemas, offload, pdfCache: createPdfCache(config.offload.pdfCacheBytes), clock, logger, certificateKey: key, receptor,
      inbound: { trust, maxStoredBytes: inbound.maxStoredBytes, senderQuota: inbound.senderQuota },
      environment: config.environment,
      limits: config.limits,
      onReceived: () => worker?.wake(),
    });

    // Slow clients must not hold connections (issue 13, finding 6): a deadline for the headers and for the whole
    // request (Node answers 408 and closes), a short keep-alive, a cap on open connections (further ones are
    // closed as they arrive), and the minimum body rate of the body reader (app/body.ts). A buffering reverse
    // proxy in front remains the real defence against many slow clients (docs/server.md).
    const http = config.http ?? DEFAULT_HTTP_LIMITS;
    server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const s = serve({
        fetch: app.fetch, port: config.port, hostname: config.host,
        serverOptions: {
          headersTimeout: http.headersTimeoutMs,
          requestTimeout: http.requestTimeoutMs,
          keepAliveTimeout: http.keepAliveTimeoutMs,
          // How often Node checks those two deadlines (its default, 30 s, would let them overrun by that much).
          connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(http.headersTimeoutMs / 4))),
        },
      }, () => resolve(s));
      (s as unknown as import('node:http').Server).maxConnections = http.maxConnections;
      s.once('error', reject);
    });
    worker?.start();

    const port = (server.address() as AddressInfo).port;
    const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
    const url = `http://${shownHost}:${port}`;
    const fresh = (await store.listIssuers()).length === 0;
    logger.info({ url, authority: a.kind, environment: config.environment, worker: config.worker, storage: config.databaseUrl ? 'postgres' : 'sqlite' }, 'ecf-kit server started');

    let closing: Promise<void> | null = null;
    return {
      url,
      port,
      simulatorUrl: simulator?.url ?? null,
      simulatorControlToken,
      fresh,
      close: () => (closing ??= shutdown().then(() => logger.info('ecf-kit server stopped'))),
    };
  } catch (e) {
    await shutdown();
    throw e;
  }
}

/**
 * Runs the server until SIGINT/SIGTERM (or `signal` aborts), printing where it listens; shared by
 * `src/server/start.ts` and `ecf serve`. Returns the exit code.
 */
export async function runServer(
  config: ServerConfig,
  io: { stdout: (s: string) => void; stderr: (s: string) => void },
  signal?: AbortSignal,
  options: StartOptions = {},
): Promise<number> {
  const server = await startServer(config, options);
  io.stdout(`ecf-kit server listening on ${server.url}\n`);
  io.stdout(`  API docs:  ${server.url}/api/v1/docs\n`);
  if (server.simulatorUrl) {
    io.stdout(`  authority: in-process simulator (TesteCF) at ${server.simulatorUrl}\n`);
    io.stdout(`  control:   ${server.simulatorUrl}/_simulator/* with the bearer token in ${join(config.dataDir, SIMULATOR_CONTROL_TOKEN_FILE)}\n`);
  }
  if (server.fresh && server.simulatorUrl) io.stdout(FRESH_HINT(config.dataDir));
  await waitForStop(io, signal, 'shutting down');
  await server.close();
  return 0;
}

/** Printed when the data directory has no issuer yet (simulator mode). */
export const FRESH_HINT = (dataDir: string) =>
  `\nNo issuer yet. Create one, a token and its sequences with the admin commands (same data directory):\n`
  + `  ECF_DATA_DIR=${dataDir} ecf admin issuer add --help\n`;
