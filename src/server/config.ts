/**
 * Server configuration from environment variables. `loadConfig` validates every value and reports all
 * problems at once (English, for operators); it reads no files, so it is cheap to call from tests and CLIs.
 *
 * | Variable | Default | Meaning |
 * |---|---|---|
 * | `PORT` | 8080 | HTTP port (0 = any free port) |
 * | `HOST` | 0.0.0.0 | Interface to listen on |
 * | `ECF_DATA_DIR` | ./data | SQLite file, simulator state, development certificate key |
 * | `DATABASE_URL` | (SQLite) | `postgres://…` to use PostgreSQL |
 * | `ECF_XSD_DIR` | `${ECF_DATA_DIR}/xsd` | Official DGII XSD set (`ecf xsd install`) |
 * | `ECF_AUTHORITY` | (in-process simulator) | `testecf`, `certecf`, `ecf`, or an http(s) URL of a DGII-compatible service |
 * | `ECF_ENVIRONMENT` | from ECF_AUTHORITY, else testecf | Environment of the QR/timbre URLs when ECF_AUTHORITY is a URL |
 * | `ECF_CERT_KEY` | dev: generated | 32-byte key that encrypts uploaded certificates (required in production) |
 * | `ECF_PROVIDER_P12`, `ECF_PROVIDER_P12_PASSWORD` | none | Provider certificate for issuers that delegate signing |
 * | `ECF_WORKER` | on | `off` to run the HTTP app without the in-process worker |
 * | `ECF_MAX_JSON_BYTES`, `ECF_MAX_XML_BYTES` | 12MB | Body limits (bytes, or with a `KB`/`MB` suffix) |
 * | `ECF_INBOUND_TRUST` | `development` with the in-process simulator, else `ca` | Which signer certificates the inbound services believe: `ca` (issued by ECF_INBOUND_TRUST_CA) or `development` (any, self-signed included; refused with a DGII authority or in production) |
 * | `ECF_INBOUND_TRUST_CA` | none | PEM file, or directory of .pem/.crt/.cer files, of the accredited CAs (and intermediates) senders' certificates must be issued by; none in `ca` mode = every sender refused |
 * | `ECF_INBOUND_DELEGATES` | none | JSON file `{"RNC": ["cédula/RNC or SHA-256 fingerprint", …]}`: certificates that may sign e-CF / approvals for an RNC besides its own |
 * | `ECF_INBOUND_MAX_STORED_BYTES` | 8MB | Largest received e-CF stored (after removing comments); larger → ARECF motivo 1 |
 * | `ECF_INBOUND_SENDER_QUOTA` | 10000 | e-CF recorded per sender (RNCEmisor) per 24 h across our issuers; more → 429 (0 = no limit) |
 * | `LOG_LEVEL` | info | pino level (`silent` to disable) |
 * | `NODE_ENV` | | `production` requires ECF_CERT_KEY and ECF_AUTHORITY |
 */
import { resolve } from 'node:path';
import { DEFAULT_LIMITS, type BodyLimits } from './app/body.js';
import { parseKey } from './secrets.js';

export type AuthorityEnvironment = 'testecf' | 'certecf' | 'ecf';

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
  /** Inbound services: trust of senders' certificates, storage caps. Files are read by the server, not here. */
  inbound: InboundConfig;
  logLevel: LogLevel;
  /** The `ECF_CERT_KEY*` variables, for the certificate key loader (nothing else of the environment is kept). */
  env: Readonly<Record<string, string | undefined>>;
}

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
const ENVIRONMENTS: readonly AuthorityEnvironment[] = ['testecf', 'certecf', 'ecf'];

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`invalid server configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
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
  const production = get('NODE_ENV') === 'production';

  let port = 8080;
  const rawPort = get('PORT');
  if (rawPort !== undefined) {
    port = /^\d{1,5}$/.test(rawPort) ? Number(rawPort) : NaN;
    if (!(port >= 0 && port <= 65535)) {
      problems.push(`PORT must be an integer from 0 to 65535 (got "${rawPort}")`);
      port = 8080;
    }
  }
  const host = get('HOST') ?? '0.0.0.0';
  const dataDir = resolve(get('ECF_DATA_DIR') ?? './data');

  const databaseUrl = get('DATABASE_URL') ?? null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL (leave it unset for the embedded SQLite database)');
  }
  const xsdDir = resolve(get('ECF_XSD_DIR') ?? resolve(dataDir, 'xsd'));

  const rawEnvironment = get('ECF_ENVIRONMENT');
  let declaredEnvironment: AuthorityEnvironment | undefined;
  if (rawEnvironment !== undefined) {
    if ((ENVIRONMENTS as readonly string[]).includes(rawEnvironment)) declaredEnvironment = rawEnvironment as AuthorityEnvironment;
    else problems.push(`ECF_ENVIRONMENT must be testecf, certecf or ecf (got "${rawEnvironment}")`);
  }

  let authority: AuthorityConfig = { kind: 'simulator' };
  const rawAuthority = get('ECF_AUTHORITY');
  if (rawAuthority === undefined || rawAuthority === 'simulator') {
    if (production) problems.push('NODE_ENV=production requires ECF_AUTHORITY (testecf, certecf, ecf or a URL): the in-process simulator is for development');
    if (declaredEnvironment && declaredEnvironment !== 'testecf') problems.push(`ECF_ENVIRONMENT=${declaredEnvironment} needs ECF_AUTHORITY: the in-process simulator plays testecf`);
  } else if ((ENVIRONMENTS as readonly string[]).includes(rawAuthority)) {
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
    problems.push('NODE_ENV=production requires ECF_CERT_KEY (64 hex characters or base64 of 32 bytes, e.g. `openssl rand -hex 32`)');
  }

  const providerP12 = get('ECF_PROVIDER_P12') ?? null;
  const providerP12Password = env.ECF_PROVIDER_P12_PASSWORD ?? null;
  if (providerP12 !== null && providerP12Password === null) problems.push('ECF_PROVIDER_P12 is set but ECF_PROVIDER_P12_PASSWORD is not');
  if (providerP12 === null && providerP12Password !== null) problems.push('ECF_PROVIDER_P12_PASSWORD is set but ECF_PROVIDER_P12 is not');

  const worker = flag('ECF_WORKER', env.ECF_WORKER, true, problems);
  const limits: BodyLimits = {
    jsonBytes: bytes('ECF_MAX_JSON_BYTES', env.ECF_MAX_JSON_BYTES, DEFAULT_LIMITS.jsonBytes, problems),
    xmlBytes: bytes('ECF_MAX_XML_BYTES', env.ECF_MAX_XML_BYTES, DEFAULT_LIMITS.xmlBytes, problems),
  };

  const rawTrust = get('ECF_INBOUND_TRUST');
  let trust: InboundConfig['trust'] = authority.kind === 'simulator' && !production ? 'development' : 'ca';
  if (rawTrust !== undefined) {
    if (rawTrust === 'ca' || rawTrust === 'development') trust = rawTrust;
    else problems.push(`ECF_INBOUND_TRUST must be ca or development (got "${rawTrust}")`);
  }
  if (trust === 'development' && (authority.kind === 'dgii' || production)) {
    problems.push('ECF_INBOUND_TRUST=development accepts self-signed certificates in anyone\'s name: not with a DGII authority or NODE_ENV=production (use ca with ECF_INBOUND_TRUST_CA)');
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
    port, host, dataDir, databaseUrl, xsdDir, authority, environment,
    providerP12: providerP12 === null ? null : resolve(providerP12),
    providerP12Password, production, worker, limits, inbound, logLevel,
    env: Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('ECF_CERT_KEY'))),
  };
}
