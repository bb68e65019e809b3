/**
 * Server configuration from environment variables. `loadConfig` validates every value and reports all
 * problems at once (English, for operators); it reads no files, so it is cheap to call from tests and CLIs.
 *
 * | Variable | Default | Meaning |
 * |---|---|---|
 * | `PORT` | 8080 | HTTP port (0 = any free port) |
 * | `HOST` | 0.0.0.0; 127.0.0.1 in production | Interface to listen on |
 * | `ECF_DATA_DIR` | ./data | SQLite file, simulator state, development certificate key |
 * | `DATABASE_URL` | (SQLite) | `postgres://…` to use PostgreSQL |
 * | `ECF_XSD_DIR` | `${ECF_DATA_DIR}/xsd` | Official DGII XSD set (`ecf xsd install`) |
 * | `ECF_AUTHORITY` | (in-process simulator) | `testecf`, `certecf`, `ecf`, or an http(s) URL of a DGII-compatible service |
 * | `ECF_ENVIRONMENT` | from ECF_AUTHORITY, else testecf | Environment of the QR/timbre URLs when ECF_AUTHORITY is a URL |
 * | `ECF_CERT_KEY` | dev: generated | 32-byte key that encrypts uploaded certificates (required in production) |
 * | `ECF_PROVIDER_P12`, `ECF_PROVIDER_P12_PASSWORD` | none | Provider certificate for issuers that delegate signing |
 * | `ECF_WORKER` | on | `off` to run the HTTP app without the in-process worker |
 * | `ECF_MAX_JSON_BYTES`, `ECF_MAX_XML_BYTES` | 12MB | Body limits (bytes, or with a `KB`/`MB` suffix) |
 * | `ECF_HEADERS_TIMEOUT_MS` | 20000 | Time a client has to send the request headers |
 * | `ECF_REQUEST_TIMEOUT_MS` | 120000 | Time a client has to send the whole request (headers and body) |
 * | `ECF_KEEP_ALIVE_TIMEOUT_MS` | 5000 | Idle time of a kept-alive connection between requests |
 * | `ECF_MAX_CONNECTIONS` | 512 | Open connections at once; further ones are closed at once |
 * | `ECF_MIN_BODY_RATE` | 1024 | Slowest average body (bytes/s) after `ECF_BODY_GRACE_MS` (10000); slower → 408; 0 = off |
 * | `ECF_OFFLOAD_PROCESSES` | 2 | Child processes for heavy steps (XSD, signature verification, RFCE, PDF); `0` runs them in-process |
 * | `ECF_OFFLOAD_QUEUE` | 64 | Heavy steps waiting for a process beyond which requests get 503 + Retry-After |
 * | `ECF_OFFLOAD_REQUEST_MS` | 20000 | Time budget of a heavy step a request waits for (then the process is killed) |
 * | `ECF_OFFLOAD_WORKER_MS` | 120000 | Time budget of a heavy step of the worker |
 * | `ECF_PDF_CACHE_BYTES` | 64MB | In-memory cache of rendered PDFs (bytes, or with a `KB`/`MB` suffix) |
 * | `ECF_RECEIVER_ALLOW_HTTP` | off | `on` lets commercial approvals go to http:// receiver URLs (development only) |
 * | `ECF_RECEIVER_ALLOW_ADDRESSES` | none | CIDR ranges (comma-separated, or `loopback`) of non-public receiver addresses allowed (development only) |
 * | `ECF_INBOUND_TRUST` | `development` with the in-process simulator, else `ca` | Which signer certificates the inbound services believe: `ca` (issued by ECF_INBOUND_TRUST_CA) or `development` (any, self-signed included; refused with a DGII authority or in production) |
 * | `ECF_INBOUND_TRUST_CA` | none | PEM file, or directory of .pem/.crt/.cer files, of the accredited CAs (and intermediates) senders' certificates must be issued by; none in `ca` mode = every sender refused |
 * | `ECF_INBOUND_DELEGATES` | none | JSON file `{"RNC": ["cédula/RNC or SHA-256 fingerprint", …]}`: certificates that may sign e-CF / approvals for an RNC besides its own |
 * | `ECF_INBOUND_MAX_STORED_BYTES` | 8MB | Largest received e-CF stored (after removing comments); larger → ARECF motivo 1 |
 * | `ECF_INBOUND_SENDER_QUOTA` | 10000 | e-CF recorded per sender (RNCEmisor) per 24 h across our issuers; more → 429 (0 = no limit) |
 * | `LOG_LEVEL` | info | pino level (`silent` to disable) |
 * | `NODE_ENV` | | `production` requires ECF_CERT_KEY and ECF_AUTHORITY |
 *
 * Production: `NODE_ENV=production`, or `ECF_AUTHORITY` naming a real DGII environment (testecf, certecf, ecf)
 * whatever NODE_ENV says. Production requires ECF_CERT_KEY (no development key file) and listens on
 * 127.0.0.1 unless HOST is set (put a reverse proxy in front; set HOST=0.0.0.0 in a container).
 */
import { EcfError } from '../index.js';
import { resolve } from 'node:path';
import { DEFAULT_LIMITS, type BodyLimits } from './app/body.js';
import { parseKey } from './secrets.js';
import { isDgiiEnvironment, type DgiiEnvironment } from '../index.js';
import { checkAllowAddresses, LOOPBACK_RANGES } from '../dgii/index.js';

export type AuthorityEnvironment = DgiiEnvironment;

/** Where the server sends documents. */
export type AuthorityConfig =
  /** A simulator started in this process (development default). */
  | { kind: 'simulator' }
  /** DGII itself, in one of its environments. */
  | { kind: 'dgii'; environment: AuthorityEnvironment }
  /** Any DGII-compatible base URL (e.g. a simulator in another process). */
  | { kind: 'url'; baseUrl: string; environment: AuthorityEnvironment };

export interface ServerConfig {
  port: number;
  host: string;
  /** Absolute path. */
  dataDir: string;
  databaseUrl: string | null;
  /** Absolute path. */
  xsdDir: string;
  authority: AuthorityConfig;
  /** Environment of issued documents (QR / timbre URL in PDFs). */
  environment: AuthorityEnvironment;
  providerP12: string | null;
  providerP12Password: string | null;
  production: boolean;
  /** Run the worker in this process. */
  worker: boolean;
  limits: BodyLimits;
  /** Connection limits of the HTTP server (slow clients, descriptor exhaustion). */
  http: HttpLimits;
  /** Child-process pool of the heavy steps (see src/ecf/server/offload). `processes` 0 = in-process. */
  offload: { processes: number; queue: number; requestBudgetMs: number; workerBudgetMs: number; pdfCacheBytes: number };
  /**
   * What the receiver client may reach (issue 13, finding 5). Default https and public addresses only; the
   * development opt-ins are refused with NODE_ENV=production or a real DGII authority.
   */
  receivers: { allowHttp: boolean; allowAddresses: string[] };
  /** Inbound services: trust of senders' certificates, storage caps. Files are read by the server, not here. */
  inbound: InboundConfig;
  logLevel: LogLevel;
  /** The `ECF_CERT_KEY*` variables, for the certificate key loader (nothing else of the environment is kept). */
  env: Readonly<Record<string, string | undefined>>;
}

export interface HttpLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = { headersTimeoutMs: 20_000, requestTimeoutMs: 120_000, keepAliveTimeoutMs: 5_000, maxConnections: 512 };

export interface InboundConfig {
  trust: 'ca' | 'development';
  /** Absolute path (file or directory) of the trust anchors, or null. */
  trustCa: string | null;
  /** Absolute path of the delegates JSON file, or null. */
  delegates: string | null;
  maxStoredBytes: number;
  senderQuota: number;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export class ConfigError extends EcfError {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`invalid server configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`, { code: 'invalid_config' });
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

function bytes(name: string, raw: string | undefined, fallback: number, problems: string[]): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const m = /^\s*(\d+)\s*(b|kb|k|mb|m)?\s*$/i.exec(raw);
  const unit = m?.[2]?.toLowerCase();
  const n = m ? Number(m[1]) * (unit?.startsWith('m') ? 1024 * 1024 : unit?.startsWith('k') ? 1024 : 1) : NaN;
  if (!Number.isSafeInteger(n) || n < 1024) {
    problems.push(`${name} must be a size of at least 1024 bytes, like 12MB, 512KB or 1048576 (got "${raw}")`);
    return fallback;
  }
  return n;
}

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number, problems: string[]): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
    return fallback;
  }
  return n;
}

function flag(name: string, raw: string | undefined, fallback: boolean, problems: string[]): boolean {
  if (raw === undefined || raw.trim() === '') return fallback;
  const v = raw.trim().toLowerCase();
  if (['on', 'true', '1', 'yes'].includes(v)) return true;
  if (['off', 'false', '0', 'no'].includes(v)) return false;
  problems.push(`${name} must be on or off (got "${raw}")`);
  return fallback;
}

/** Reads and validates the server configuration; throws ConfigError listing every problem. */
export function loadConfig(env: Record<string, string | undefined>): ServerConfig {
  const problems: string[] = [];
  const get = (k: string): string | undefined => {
    const v = env[k];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const rawAuthorityName = get('ECF_AUTHORITY');
  // A real DGII environment is production whatever NODE_ENV says (issue 13, finding 11).
  const realAuthority = rawAuthorityName !== undefined && isDgiiEnvironment(rawAuthorityName);
  const nodeProduction = get('NODE_ENV') === 'production';
  const production = nodeProduction || realAuthority;
  const why = nodeProduction ? 'NODE_ENV=production' : `ECF_AUTHORITY=${rawAuthorityName} (a real DGII environment)`;

  let port = 8080;
  const rawPort = get('PORT');
  if (rawPort !== undefined) {
    port = /^\d{1,5}$/.test(rawPort) ? Number(rawPort) : NaN;
    if (!(port >= 0 && port <= 65535)) {
      problems.push(`PORT must be an integer from 0 to 65535 (got "${rawPort}")`);
      port = 8080;
    }
  }
  const host = get('HOST') ?? (production ? '127.0.0.1' : '0.0.0.0');
  const dataDir = resolve(get('ECF_DATA_DIR') ?? './data');

  const databaseUrl = get('DATABASE_URL') ?? null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL (leave it unset for the embedded SQLite database)');
  }
  const xsdDir = resolve(get('ECF_XSD_DIR') ?? resolve(dataDir, 'xsd'));

  const rawEnvironment = get('ECF_ENVIRONMENT');
  let declaredEnvironment: AuthorityEnvironment | undefined;
  if (rawEnvironment !== undefined) {
    if (isDgiiEnvironment(rawEnvironment)) declaredEnvironment = rawEnvironment as AuthorityEnvironment;
    else problems.push(`ECF_ENVIRONMENT must be testecf, certecf or ecf (got "${rawEnvironment}")`);
  }

  let authority: AuthorityConfig = { kind: 'simulator' };
  const rawAuthority = get('ECF_AUTHORITY');
  if (rawAuthority === undefined || rawAuthority === 'simulator') {
    if (production) problems.push('NODE_ENV=production requires ECF_AUTHORITY (testecf, certecf, ecf or a URL): the in-process simulator is for development');
    if (declaredEnvironment && declaredEnvironment !== 'testecf')
      problems.push(`ECF_ENVIRONMENT=${declaredEnvironment} needs ECF_AUTHORITY: the in-process simulator plays testecf`);
  } else if (isDgiiEnvironment(rawAuthority)) {
    authority = { kind: 'dgii', environment: rawAuthority as AuthorityEnvironment };
    if (declaredEnvironment && declaredEnvironment !== rawAuthority) {
      problems.push(`ECF_ENVIRONMENT=${declaredEnvironment} contradicts ECF_AUTHORITY=${rawAuthority}; leave ECF_ENVIRONMENT unset`);
    }
  } else {
    let url: URL | null = null;
    try {
      url = new URL(rawAuthority);
    } catch {
      url = null;
    }
    if (url && (url.protocol === 'http:' || url.protocol === 'https:')) {
      authority = { kind: 'url', baseUrl: rawAuthority.replace(/\/+$/, ''), environment: declaredEnvironment ?? 'testecf' };
    } else {
      problems.push(`ECF_AUTHORITY must be testecf, certecf, ecf or an http(s) URL, or unset for the in-process simulator (got "${rawAuthority}")`);
    }
  }
  const environment: AuthorityEnvironment = authority.kind === 'simulator' ? 'testecf' : authority.environment;

  const certKey = get('ECF_CERT_KEY');
  if (certKey !== undefined) {
    try {
      parseKey(certKey);
    } catch (e) {
      problems.push((e as Error).message);
    }
  } else if (production) {
    problems.push(
      `${why} requires ECF_CERT_KEY (64 hex characters or base64 of 32 bytes, e.g. \`openssl rand -hex 32\`): no development key file is written for a real authority`,
    );
  }

  const providerP12 = get('ECF_PROVIDER_P12') ?? null;
  const providerP12Password = env.ECF_PROVIDER_P12_PASSWORD ?? null;
  if (providerP12 !== null && providerP12Password === null) problems.push('ECF_PROVIDER_P12 is set but ECF_PROVIDER_P12_PASSWORD is not');
  if (providerP12 === null && providerP12Password !== null) problems.push('ECF_PROVIDER_P12_PASSWORD is set but ECF_PROVIDER_P12 is not');

  const worker = flag('ECF_WORKER', env.ECF_WORKER, true, problems);
  const limits: BodyLimits = {
    jsonBytes: bytes('ECF_MAX_JSON_BYTES', env.ECF_MAX_JSON_BYTES, DEFAULT_LIMITS.jsonBytes, problems),
    xmlBytes: bytes('ECF_MAX_XML_BYTES', env.ECF_MAX_XML_BYTES, DEFAULT_LIMITS.xmlBytes, problems),
    minBytesPerSecond: integer('ECF_MIN_BODY_RATE', env.ECF_MIN_BODY_RATE, DEFAULT_LIMITS.minBytesPerSecond!, 0, 1024 * 1024 * 1024, problems),
    bodyGraceMs: integer('ECF_BODY_GRACE_MS', env.ECF_BODY_GRACE_MS, DEFAULT_LIMITS.bodyGraceMs!, 0, 3_600_000, problems),
  };
  const http: HttpLimits = {
    headersTimeoutMs: integer('ECF_HEADERS_TIMEOUT_MS', env.ECF_HEADERS_TIMEOUT_MS, DEFAULT_HTTP_LIMITS.headersTimeoutMs, 100, 3_600_000, problems),
    requestTimeoutMs: integer('ECF_REQUEST_TIMEOUT_MS', env.ECF_REQUEST_TIMEOUT_MS, DEFAULT_HTTP_LIMITS.requestTimeoutMs, 100, 3_600_000, problems),
    keepAliveTimeoutMs: integer('ECF_KEEP_ALIVE_TIMEOUT_MS', env.ECF_KEEP_ALIVE_TIMEOUT_MS, DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs, 100, 3_600_000, problems),
    maxConnections: integer('ECF_MAX_CONNECTIONS', env.ECF_MAX_CONNECTIONS, DEFAULT_HTTP_LIMITS.maxConnections, 1, 1_000_000, problems),
  };
  if (http.headersTimeoutMs > http.requestTimeoutMs) {
    problems.push(`ECF_HEADERS_TIMEOUT_MS (${http.headersTimeoutMs}) must not exceed ECF_REQUEST_TIMEOUT_MS (${http.requestTimeoutMs})`);
  }

  const offload = {
    processes: integer('ECF_OFFLOAD_PROCESSES', env.ECF_OFFLOAD_PROCESSES, 2, 0, 64, problems),
    queue: integer('ECF_OFFLOAD_QUEUE', env.ECF_OFFLOAD_QUEUE, 64, 0, 100_000, problems),
    requestBudgetMs: integer('ECF_OFFLOAD_REQUEST_MS', env.ECF_OFFLOAD_REQUEST_MS, 20_000, 100, 3_600_000, problems),
    workerBudgetMs: integer('ECF_OFFLOAD_WORKER_MS', env.ECF_OFFLOAD_WORKER_MS, 120_000, 100, 3_600_000, problems),
    pdfCacheBytes: bytes('ECF_PDF_CACHE_BYTES', env.ECF_PDF_CACHE_BYTES, 64 * 1024 * 1024, problems),
  };

  const allowHttp = flag('ECF_RECEIVER_ALLOW_HTTP', env.ECF_RECEIVER_ALLOW_HTTP, false, problems);
  let allowAddresses: string[] = [];
  const rawAllow = get('ECF_RECEIVER_ALLOW_ADDRESSES');
  if (rawAllow !== undefined) {
    allowAddresses = rawAllow
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)
      .flatMap((x) => (x.toLowerCase() === 'loopback' ? [...LOOPBACK_RANGES] : [x]));
    try {
      checkAllowAddresses(allowAddresses);
    } catch (e) {
      problems.push(`ECF_RECEIVER_ALLOW_ADDRESSES must be comma-separated CIDR ranges or "loopback": ${(e as Error).message}`);
      allowAddresses = [];
    }
  }
  if ((allowHttp || allowAddresses.length > 0) && (production || authority.kind === 'dgii')) {
    problems.push(
      'ECF_RECEIVER_ALLOW_HTTP and ECF_RECEIVER_ALLOW_ADDRESSES are for development: they are refused with NODE_ENV=production or a DGII authority (receivers are reached over https at public addresses only)',
    );
  }

  const rawTrust = get('ECF_INBOUND_TRUST');
  let trust: InboundConfig['trust'] = authority.kind === 'simulator' && !production ? 'development' : 'ca';
  if (rawTrust !== undefined) {
    if (rawTrust === 'ca' || rawTrust === 'development') trust = rawTrust;
    else problems.push(`ECF_INBOUND_TRUST must be ca or development (got "${rawTrust}")`);
  }
  if (trust === 'development' && (authority.kind === 'dgii' || production)) {
    problems.push(
      "ECF_INBOUND_TRUST=development accepts self-signed certificates in anyone's name: not with a DGII authority or NODE_ENV=production (use ca with ECF_INBOUND_TRUST_CA)",
    );
  }
  const trustCa = get('ECF_INBOUND_TRUST_CA');
  const delegates = get('ECF_INBOUND_DELEGATES');
  let senderQuota = 10_000;
  const rawQuota = get('ECF_INBOUND_SENDER_QUOTA');
  if (rawQuota !== undefined) {
    senderQuota = /^\d{1,9}$/.test(rawQuota) ? Number(rawQuota) : NaN;
    if (!Number.isSafeInteger(senderQuota)) {
      problems.push(`ECF_INBOUND_SENDER_QUOTA must be a whole number of documents per 24 hours, 0 for no limit (got "${rawQuota}")`);
      senderQuota = 10_000;
    }
  }
  const inbound: InboundConfig = {
    trust,
    trustCa: trustCa === undefined ? null : resolve(trustCa),
    delegates: delegates === undefined ? null : resolve(delegates),
    maxStoredBytes: bytes('ECF_INBOUND_MAX_STORED_BYTES', env.ECF_INBOUND_MAX_STORED_BYTES, 8 * 1024 * 1024, problems),
    senderQuota,
  };

  let logLevel: LogLevel = 'info';
  const rawLevel = get('LOG_LEVEL');
  if (rawLevel !== undefined) {
    if ((LOG_LEVELS as readonly string[]).includes(rawLevel.toLowerCase())) logLevel = rawLevel.toLowerCase() as LogLevel;
    else problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${rawLevel}")`);
  }

  if (problems.length) throw new ConfigError(problems);
  return {
    port,
    host,
    dataDir,
    databaseUrl,
    xsdDir,
    authority,
    environment,
    providerP12: providerP12 === null ? null : resolve(providerP12),
    providerP12Password,
    production,
    worker,
    limits,
    http,
    offload,
    logLevel,
    receivers: { allowHttp, allowAddresses },
    inbound,
    env: Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('ECF_CERT_KEY'))),
  };
}
