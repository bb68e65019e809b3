/**
 * Server startup: the runtime (./runtime.ts: storage, the authority or an in-process simulator, signers, the
 * worker, the offload pool) plus the HTTP app, served with @hono/node-server. `close()` stops them in reverse dependency order. Heavy steps
 * (XSD validation, signature verification, RFCE derivation, PDF rendering) run in a pool of child processes.
 */
import { waitForStop } from '../../shared/server-kit/shutdown.js';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { closeHttp } from '../../shared/server-kit/close-http.js';
import type { Logger } from 'pino';
import type { Clock } from '../index.js';
import { createApp } from './app/index.js';
import { DEFAULT_HTTP_LIMITS, type ServerConfig } from './config.js';
import { loadTrustAnchors, parseDelegates, type InboundTrust } from './inbound/trust.js';
import { createPdfCache, type OffloadPool, type OffloadPoolOptions } from './offload/index.js';
import { createLogger, createRuntime, SIMULATOR_CONTROL_TOKEN_FILE, type Runtime } from './runtime.js';

export { createLogger, SIMULATOR_CONTROL_TOKEN_FILE } from './runtime.js';

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

export interface StartOptions {
  logger?: Logger;
  clock?: Clock;
  /** Extra options of the offload pool (tests: `testTasks`); size, queue and budgets come from the config. */
  offloadPool?: Partial<OffloadPoolOptions>;
  /** Called with the pool once it exists (tests inspect its processes). */
  onOffloadPool?: (pool: OffloadPool) => void;
  /**
   * Another app served on the same listener (`npm start` with both products, src/start.ts): a request whose path
   * is one of `prefixes` or below one goes to its `fetch`, every other one to the e-CF app.
   */
  mount?: MountedApp;
}

/** An app sharing the e-CF server's listener under some path prefixes. */
export interface MountedApp {
  prefixes: readonly string[];
  fetch: (request: Request) => Response | Promise<Response>;
}

/** The fetch of the listener: `mount` for its prefixes, else `own`. */
function withMount<F extends (request: Request, ...rest: never[]) => unknown>(own: F, mount: MountedApp | undefined): F {
  if (!mount) return own;
  return ((request: Request, ...rest: never[]) => {
    const path = new URL(request.url).pathname;
    return mount.prefixes.some((p) => path === p || path.startsWith(`${p}/`)) ? mount.fetch(request) : own(request, ...rest);
  }) as F;
}

/**
 * Starts the whole server.
 * @example
 * const server = await startServer(loadConfig(process.env));
 * console.log(server.url); … await server.close();
 */
export async function startServer(config: ServerConfig, options: StartOptions = {}): Promise<RunningServer> {
  let runtime: Runtime | null = null;
  let server: ReturnType<typeof serve> | null = null;
  const logger = options.logger ?? createLogger(config.logLevel);

  // Stop order: no new work (worker), no new requests (HTTP), then what they used (authority client, simulator, storage).
  const shutdown = async () => {
    if (runtime?.worker) {
      try {
        await runtime.worker.stop();
      } catch (err) {
        logger.error({ err }, 'error while stopping the worker');
      }
    }
    if (server) {
      try {
        await closeHttp(server);
      } catch (err) {
        logger.error({ err }, 'error while stopping the HTTP server');
      }
    }
    await runtime?.close();
  };

  try {
    const rt = await createRuntime(config, {
      role: 'server',
      logger,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.offloadPool ? { offloadPool: options.offloadPool } : {}),
      ...(options.onOffloadPool ? { onOffloadPool: options.onOffloadPool } : {}),
    });
    runtime = rt;
    const { storage: store, transport, signers, schemas, offload, clock, receptor, worker } = rt;
    const a = config.authority;

    const inbound = config.inbound;
    const trust: InboundTrust = {
      mode: inbound.trust,
      anchors: inbound.trustCa ? loadTrustAnchors(inbound.trustCa) : [],
      delegates: inbound.delegates ? parseDelegates(readFileSync(inbound.delegates, 'utf8')) : {},
    };
    if (trust.mode === 'development')
      logger.warn('inbound services trust any certificate, self-signed included (ECF_INBOUND_TRUST=development): for development only');
    else if (trust.anchors.length === 0)
      logger.warn('inbound services: no ECF_INBOUND_TRUST_CA configured, every sender (seed login, e-CF, commercial approval) is refused');
    const app = createApp({
      storage: store,
      transport,
      signers,
      schemas,
      offload,
      pdfCache: createPdfCache(config.offload.pdfCacheBytes),
      clock,
      logger,
      certificateKey: rt.certificateKey,
      receptor: receptor!,
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
      const s = serve(
        {
          fetch: withMount(app.fetch, options.mount),
          port: config.port,
          hostname: config.host,
          serverOptions: {
            headersTimeout: http.headersTimeoutMs,
            requestTimeout: http.requestTimeoutMs,
            keepAliveTimeout: http.keepAliveTimeoutMs,
            // How often Node checks those two deadlines (its default, 30 s, would let them overrun by that much).
            connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(http.headersTimeoutMs / 4))),
          },
        },
        () => resolve(s),
      );
      (s as unknown as import('node:http').Server).maxConnections = http.maxConnections;
      s.once('error', reject);
    });
    worker?.start();

    const port = (server.address() as AddressInfo).port;
    const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
    const url = `http://${shownHost}:${port}`;
    const fresh = (await store.listIssuers()).length === 0;
    logger.info(
      { url, authority: a.kind, environment: config.environment, worker: config.worker, storage: config.databaseUrl ? 'postgres' : 'sqlite' },
      'ecf-kit server started',
    );

    let closing: Promise<void> | null = null;
    return {
      url,
      port,
      simulatorUrl: rt.simulator?.url ?? null,
      simulatorControlToken: rt.simulatorControlToken,
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
 * `src/ecf/server/start.ts` and `ecf serve`. Returns the exit code.
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
  `\nNo issuer yet. Create one, a token and its sequences with the admin commands (same data directory):\n` +
  `  ECF_DATA_DIR=${dataDir} ecf admin issuer add --help\n`;
