/**
 * `npm start`: both products from one process and one port. `ECF_PRODUCTS` (default `ecf,dian`) switches either
 * off. With both, the e-CF server (src/ecf/server, configured as `ecf serve`: PORT, HOST, ECF_DATA_DIR, …) owns the
 * listener and the DIAN service (src/dian/server, no listener of its own) answers under its prefixes; with one,
 * that one listens alone. The DIAN service keeps its own database (`DIAN_DATA_DIR`, default the e-CF data
 * directory: `dian.sqlite` beside the e-CF one; or DATABASE_URL, schema `dian`) and the local DIAN in process.
 */
import { resolve } from 'node:path';
import { type DianServer, startDianServer } from './dian/server/index.js';
import { loadConfig, type RunningServer, startServer } from './ecf/server/index.js';
import { waitForStop } from './shared/server-kit/shutdown.js';

/** The paths of the Colombian service (dian-service.md): documents, events, utilities (mail). */
export const DIAN_PREFIXES = ['/service', '/v1', '/utilities'] as const;

export type Product = 'ecf' | 'dian';

/** `ECF_PRODUCTS` → the products to serve; throws on an unknown name or an empty list. */
export function parseProducts(value: string | undefined): ReadonlySet<Product> {
  const names = (value ?? 'ecf,dian')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => n !== 'ecf' && n !== 'dian');
  if (unknown.length || names.length === 0) throw new Error(`ECF_PRODUCTS lists ecf and/or dian separated by commas, got ${JSON.stringify(value)}`);
  return new Set(names as Product[]);
}

export interface RunningProducts {
  url: string;
  ecf: RunningServer | null;
  dian: DianServer | null;
  close(): Promise<void>;
}

/** Starts the products `env` asks for on one port. */
export async function startProducts(env: Record<string, string | undefined>): Promise<RunningProducts> {
  const products = parseProducts(env.ECF_PRODUCTS);
  const withEcf = products.has('ecf');
  const config = withEcf ? loadConfig(env) : null;
  let dian: DianServer | null = null;
  if (products.has('dian')) {
    dian = await startDianServer({
      dataDir: resolve(env.DIAN_DATA_DIR || config?.dataDir || env.ECF_DATA_DIR || './data'),
      ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
      env,
      listen: !withEcf,
      port: Number(env.PORT ?? 8080),
      host: env.HOST || '127.0.0.1',
    });
  }
  let ecf: RunningServer | null = null;
  if (config) {
    try {
      ecf = await startServer(config, dian ? { mount: { prefixes: DIAN_PREFIXES, fetch: (r) => dian!.app.fetch(r) } } : {});
    } catch (e) {
      await dian?.close();
      throw e;
    }
  }
  return {
    url: ecf?.url ?? dian!.url,
    ecf,
    dian,
    async close() {
      await ecf?.close();
      await dian?.close();
    },
  };
}

/** Runs until SIGINT/SIGTERM; the exit code. */
export async function runProducts(env: Record<string, string | undefined>, io: { stdout: (s: string) => void; stderr: (s: string) => void }): Promise<number> {
  const running = await startProducts(env);
  io.stdout(`ecf-kit listening on ${running.url}\n`);
  if (running.ecf) io.stdout(`  e-CF (República Dominicana): ${running.url}/api/v1/docs\n`);
  if (running.dian) io.stdout(`  DIAN (Colombia): ${running.url}/service/openapi.json\n`);
  await waitForStop(io, undefined, 'shutting down');
  await running.close();
  return 0;
}
