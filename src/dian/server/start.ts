/**
 * `startDianServer`: the DIAN service in one process: storage (SQLite in `dataDir` or PostgreSQL), the
 * companies' sealed identities, the hono app on @hono/node-server and DIAN: by default (`authority:
 * 'embedded'`) a local DIAN in process (ecf-kit/dian/simulator, state in `${dataDir}/dian-simulator`), to which
 * every company is registered with its software and ranges before it sends; or a DIAN endpoint URL.
 * Not yet part of `npm start` (the e-CF main): serving both products from one process is the next step.
 */
import { join, resolve } from 'node:path';
import { serve } from '@hono/node-server';
import pino from 'pino';
import { createDianClient, DIAN_ENDPOINTS, type DianClient } from '../transport/index.js';
import { daysToExpiry } from '../sign/index.js';
import { startDianSimulator, type DianSimCompany, type DianSimulator } from '../simulator/index.js';
import type { Clock, Logger, Signer } from '../../shared/ports.js';
import { LOG_SERIALIZERS, REDACT_PATHS } from '../../shared/server-kit/logging.js';
import { systemClock } from '../../shared/server-kit/clock.js';
import { closeHttp } from '../../shared/server-kit/close-http.js';
import { createDianApp } from './app/index.js';
import { companyIdentities, loadDianCertificateKey } from './certificates.js';
import { CERTIFICATE_EXPIRY_WARNING_DAYS } from './admin.js';
import { openDianStorage } from './storage/open.js';
import { createMailService, createMailTransport, createPostgresMailStorage, createSqliteMailStorage, type MailService } from '../../shared/mail/index.js';
import { mailNotices } from './mail-notices.js';
import type { EventUseCaseDeps } from './use-cases/events.js';
import type { CompanyRecord, DianStorage, ResolutionRecord } from './storage/types.js';
import type { DianGateway, DianUseCaseDeps } from './use-cases/ports.js';
import type { ContingencyPendingRecord } from './storage/types.js';
import { contingencyNearDeadline } from './use-cases/contingency.js';

export interface DianServerOptions {
  dataDir: string;
  /** postgres:// URL; default SQLite `${dataDir}/dian.sqlite`. */
  databaseUrl?: string;
  /** PostgreSQL schema of the DIAN tables (default `dian`). */
  schema?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** `embedded` (default): the local DIAN in process; or DIAN's service URL (`…/WcfDianCustomerServices.svc`). */
  authority?: 'embedded' | { endpoint: string };
  /** DIAN XSDs for the local DIAN; default DIAN_XSD_DIR, else ../shared/dian-xsd. */
  xsdDir?: string;
  /** One clock for the service, its signatures and the local DIAN. Default: the system clock. */
  clock?: Clock;
  /**
   * The sealing key of companies' identities (a `SecretKey` also carries previous keys); default DIAN_CERT_KEY
   * with DIAN_CERT_KEY_PREVIOUS, else the data directory's development key — refused in production.
   */
  certificateKey?: Uint8Array;
  /**
   * Production: DIAN_CERT_KEY is required (no development key file is written). Default: `NODE_ENV=production`,
   * or `authority` one of DIAN's own endpoints (habilitación or production: real companies' certificates).
   */
  production?: boolean;
  env?: Record<string, string | undefined>;
  /** Client deadline per DIAN call (ms); default 60,000. */
  dianTimeoutMs?: number;
  /** Retries of idempotent DIAN queries (GetStatus); default 2. */
  dianRetries?: number;
  /** The `send: true` hook of documents (default: the mail service's outbox, to the request's `customer.email`). */
  notifyCustomer?: DianUseCaseDeps['notifyCustomer'];
  /** The `send: true` hook of events (default: the mail service's, to the sending company and a receiver known here). */
  notifyEventParties?: EventUseCaseDeps['notifyEventParties'];
  /**
   * The mail service (`/utilities/mail/…` and `send: true`): on by default, its outbox in `${dataDir}/mail.sqlite`
   * or the PostgreSQL schema; `false` turns it off (no mail routes; `send: true` queues nothing).
   */
  mail?: boolean;
  /** SMTP for the mail sender (nodemailer URL); default SMTP_URL, else `.eml` files in `${dataDir}/mail`. */
  smtpUrl?: string;
  /** The sender address of `send: true` mails; default MAIL_FROM, else the company's profile e-mail. */
  mailFrom?: string;
  /** Default: pino on stdout (level LOG_LEVEL, default info), with the kit's redaction and error serializers. */
  logger?: Logger;
  /**
   * How often contingency documents near their deadline, and companies' certificates expiring within 30 days or
   * expired, are logged (ms; also once at start, the certificate check beside the start); default 3,600,000.
   */
  contingencyWatchMs?: number;
  /** False: no HTTP listener of its own (another server serves `app.fetch`, as `npm start` with both products); default true. */
  listen?: boolean;
  /** How a test-set document's verdict is polled with GetStatusZip (default 3 calls after 0.5, 1 and 2 s). */
  testSetPolling?: DianUseCaseDeps['testSetPolling'];
  /** The wait between GetStatusZip polls (default a timer); tests inject theirs. */
  sleep?: DianUseCaseDeps['sleep'];
}

/** The service's default logger: pino at `level` with the kit's redaction and error serializers, on `destination` (stdout). */
export function createDianLogger(level: string, destination: pino.DestinationStream = pino.destination(1)): Logger {
  return pino(
    { level, base: { service: 'ecf-kit-dian' }, redact: { paths: [...REDACT_PATHS], censor: '[redacted]' }, serializers: LOG_SERIALIZERS },
    destination,
  );
}

export interface DianServer {
  url: string;
  port: number;
  app: ReturnType<typeof createDianApp>;
  storage: DianStorage;
  /** The local DIAN, when embedded. */
  simulator: DianSimulator | null;
  /** Logs a warning per contingency document within 24 h of its deadline (what the interval timer runs); returns them. */
  checkContingencyDeadlines(): Promise<ContingencyPendingRecord[]>;
  /**
   * Logs a warning per company whose certificate expires within 30 days or has expired, and an error per company
   * whose identity cannot be opened (wrong key, altered); the interval timer runs it with the contingency check.
   */
  checkCertificateExpiry(): Promise<CertificateExpiry[]>;
  /** The mail service, unless `mail: false`. */
  mail: MailService | null;
  close(): Promise<void>;
}

/** A company's certificate that expires within 30 days or has expired (`daysToExpiry` < 0). */
export interface CertificateExpiry {
  companyId: number;
  nit: string;
  subject: string;
  notAfter: string;
  daysToExpiry: number;
  expired: boolean;
}

/** True when `options` say production (see {@link DianServerOptions.production}). */
export function isDianProduction(options: Pick<DianServerOptions, 'production' | 'authority' | 'env'>): boolean {
  if (options.production !== undefined) return options.production;
  const env = options.env ?? process.env;
  const authority = options.authority;
  const real = typeof authority === 'object' && (Object.values(DIAN_ENDPOINTS) as string[]).includes(authority.endpoint.replace(/\/+$/, ''));
  return env.NODE_ENV === 'production' || real;
}

export async function startDianServer(options: DianServerOptions): Promise<DianServer> {
  const env = options.env ?? process.env;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createDianLogger(env.LOG_LEVEL || 'info');
  const dataDir = resolve(options.dataDir);
  const storage = await openDianStorage({ dataDir, databaseUrl: options.databaseUrl, schema: options.schema, clock });
  let key: Uint8Array;
  try {
    key = options.certificateKey ?? loadDianCertificateKey({ dataDir, env, production: isDianProduction(options) });
  } catch (e) {
    await storage.close();
    throw e;
  }
  const identities = companyIdentities(key);
  const signerFor = identities.signerFor;
  const authority = options.authority ?? 'embedded';
  let simulator: DianSimulator | null = null;
  if (authority === 'embedded') {
    const xsdDir = options.xsdDir ?? (env.DIAN_XSD_DIR ? resolve(env.DIAN_XSD_DIR) : resolve('../shared/dian-xsd'));
    simulator = await startDianSimulator({ xsdDir, clock, dataDir: resolve(dataDir, 'dian-simulator') });
    for (const company of await storage.listCompanies()) registerWithSimulator(simulator, company, await storage.listResolutions(company.id));
  }
  const endpoint = simulator ? simulator.url : (authority as { endpoint: string }).endpoint;
  // One client per company and signer: a replaced identity (a new signer) gets a new client from the next
  // request on; the old one may still carry a request, so it is closed with the server.
  const clients = new Map<number, { signer: Signer; client: DianClient }>();
  const retired: DianClient[] = [];
  const clientOf = async (company: CompanyRecord): Promise<DianClient> => {
    const signer = await signerFor(company);
    const hit = clients.get(company.id);
    if (hit?.signer === signer) return hit.client;
    if (hit) retired.push(hit.client);
    const client = createDianClient({
      signer,
      endpoint,
      environment: company.environment,
      clock,
      timeoutMs: options.dianTimeoutMs ?? 60_000,
      retries: options.dianRetries ?? 2,
    });
    clients.set(company.id, { signer, client });
    return client;
  };
  const dianFor = (company: CompanyRecord): DianGateway => ({
    sendBillSync: async (fileName, zip) => (await clientOf(company)).sendBillSync(fileName, zip),
    getStatus: async (documentKey) => (await clientOf(company)).getStatus(documentKey),
    sendEventUpdateStatus: async (zip) => (await clientOf(company)).sendEventUpdateStatus(zip),
    sendNominaSync: async (zip) => (await clientOf(company)).sendNominaSync(zip),
    sendTestSetAsync: async (fileName, zip, testSetId) => (await clientOf(company)).sendTestSetAsync(fileName, zip, testSetId),
    getStatusZip: async (zipKey) => (await clientOf(company)).getStatusZip(zipKey),
    ...(simulator
      ? {
          prepare: (co: CompanyRecord, resolutions: readonly ResolutionRecord[], habilitation?: { testSetId?: string }) =>
            registerWithSimulator(simulator!, co, resolutions, habilitation?.testSetId),
        }
      : {}),
  });
  let mail: MailService | null = null;
  let closeMail = async () => {};
  if (options.mail !== false) {
    const mailStorage = options.databaseUrl
      ? createPostgresMailStorage({ connectionString: options.databaseUrl, schema: options.schema ?? 'dian', clock })
      : createSqliteMailStorage({ file: join(dataDir, 'mail.sqlite'), private: true, clock });
    await mailStorage.migrate();
    const smtpUrl = options.smtpUrl ?? (env.SMTP_URL || undefined);
    mail = createMailService({ storage: mailStorage, transport: createMailTransport({ smtpUrl, dataDir }), clock, logger });
    mail.start();
    const started = mail;
    closeMail = async () => {
      await started.stop();
      await mailStorage.close();
    };
  }
  const notices = mail ? mailNotices({ mail, storage, logger, clock, from: options.mailFrom ?? (env.MAIL_FROM || undefined) }) : null;
  const notifyCustomer = options.notifyCustomer ?? notices?.notifyCustomer;
  const notifyEventParties = options.notifyEventParties ?? notices?.notifyEventParties;
  const app = createDianApp({
    storage,
    signerFor,
    dianFor,
    clock,
    ...(notifyCustomer ? { notifyCustomer } : {}),
    ...(notifyEventParties ? { notifyEventParties } : {}),
    ...(mail ? { mail } : {}),
    ...(options.testSetPolling ? { testSetPolling: options.testSetPolling } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
    onError: (err) => logger.error({ err }, 'unexpected error'),
  });
  const host = options.host ?? '127.0.0.1';
  const server =
    options.listen === false
      ? null
      : await new Promise<ReturnType<typeof serve>>((ok) => {
          const s = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: host }, () => ok(s));
        });
  const address = server?.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  logger.info(
    {
      url: server ? `http://${host}:${port}` : 'mounted in another server',
      storage: options.databaseUrl ? 'postgres' : 'sqlite',
      dian: simulator ? `embedded local DIAN ${simulator.url}` : endpoint,
    },
    'DIAN service listening',
  );
  const checkContingencyDeadlines = async () => {
    const now = clock();
    const near = await contingencyNearDeadline(storage, now);
    for (const p of near) {
      logger.warn(
        {
          companyId: p.companyId,
          number: `${p.prefix}${p.number}`,
          deadline: new Date(p.deadlineAt).toISOString(),
          hoursLeft: Math.floor((p.deadlineAt - now.getTime()) / 360_000) / 10,
        },
        'contingency document not transmitted, near or past its deadline',
      );
    }
    return near;
  };
  const checkCertificateExpiry = async () => {
    const found: CertificateExpiry[] = [];
    for (const company of await storage.listCompanies()) {
      if (!company.certificate) continue;
      let info: Awaited<ReturnType<typeof identities.infoOf>>;
      try {
        info = await identities.infoOf(company);
      } catch (err) {
        logger.error({ companyId: company.id, nit: company.nit, err }, 'company signing identity cannot be opened');
        continue;
      }
      const days = daysToExpiry({ info }, clock);
      if (days >= CERTIFICATE_EXPIRY_WARNING_DAYS) continue;
      const expired = clock().getTime() > info.notAfter.getTime();
      const e: CertificateExpiry = {
        companyId: company.id,
        nit: company.nit,
        subject: info.subject.text,
        notAfter: info.notAfter.toISOString(),
        daysToExpiry: days,
        expired,
      };
      found.push(e);
      logger.warn(
        e,
        expired
          ? 'company certificate expired: DIAN rejects what it signs; upload a renewed .p12 (ecf dian admin certificate add)'
          : 'company certificate expires soon: upload a renewed .p12 before then (ecf dian admin certificate add)',
      );
    }
    return found;
  };
  const watchFailed = (what: string) => (err: unknown) => logger.error({ err }, `${what} check failed`);
  // The certificate check opens every company's identity (a PKCS#12 decryption each, 12–78 ms, then cached for
  // signing): it runs beside the service rather than delaying its start, one run at a time.
  let certificateRun: Promise<void> | null = null;
  const certificateCheck = () => {
    certificateRun ??= checkCertificateExpiry()
      .then(() => undefined, watchFailed('certificate expiry'))
      .finally(() => {
        certificateRun = null;
      });
    return certificateRun;
  };
  await checkContingencyDeadlines().catch(watchFailed('contingency deadline'));
  void certificateCheck();
  const watch = setInterval(() => {
    void checkContingencyDeadlines().catch(watchFailed('contingency deadline'));
    void certificateCheck();
  }, options.contingencyWatchMs ?? 3_600_000);
  watch.unref();
  return {
    url: `http://${host}:${port}`,
    port,
    app,
    storage,
    simulator,
    checkContingencyDeadlines,
    checkCertificateExpiry,
    mail,
    async close() {
      clearInterval(watch);
      await certificateRun;
      if (server) await closeHttp(server);
      await closeMail();
      for (const c of [...clients.values()].map((e) => e.client).concat(retired)) await c.close();
      await simulator?.close();
      await storage.close();
    },
  };
}

/** What the local DIAN knows of a company (from habilitación, for the real DIAN): its software, PIN, provider, test set. */
export function simulatorCompany(company: CompanyRecord): DianSimCompany {
  return {
    nit: company.nit,
    name: company.profile.name,
    softwareId: company.softwareId,
    pin: company.softwarePin,
    providerNit: company.providerNit,
    ...(company.testSetId ? { testSetId: company.testSetId } : {}),
  };
}

/**
 * Registers a company, its software and its ranges with the local DIAN (replacing what it had); `testSetId` (a
 * payroll sent to its own habilitación test set) replaces the company's test set, as DIAN knows it from habilitación.
 */
function registerWithSimulator(sim: DianSimulator, company: CompanyRecord, resolutions: readonly ResolutionRecord[], testSetId?: string): void {
  sim.addCompany({ ...simulatorCompany(company), ...(testSetId ? { testSetId } : {}) });
  for (const r of resolutions) {
    sim.addRange({
      nit: company.nit,
      softwareId: company.softwareId,
      prefix: r.prefix,
      from: String(r.from),
      to: String(r.to),
      technicalKey: r.technicalKey ?? '',
      resolutionNumber: r.resolutionNumber,
      resolutionDate: r.resolutionDate,
      validFrom: r.validFrom,
      validTo: r.validTo,
    });
  }
}
