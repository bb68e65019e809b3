/**
 * The mail use cases a documents server mounts: accept a request into the durable outbox (202 or 422 in the
 * contract's shapes), list a mail's events, and the background sender (the kit's lease loop) that delivers
 * one message per personalization, retrying with exponential backoff.
 *
 * Delivery is at least once, never silently lost, and a duplicate is confined to one narrow window: a row is
 * `sending` only under a lease; a sender that dies leaves it to be claimed again once the lease expires, and
 * the retry carries the same Message-ID (fixed at acceptance). SMTP has no idempotency, so a crash between the
 * server's "250 OK" and our commit of `sent` sends the message again (same Message-ID; receivers that dedupe
 * on it show it once); a row committed `sent` is never sent again. See docs/mail.md.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Clock, Logger } from '../ports.js';
import { systemClock } from '../server-kit/clock.js';
import { createLeaseLoop, defaultOwner, errorSummary } from '../server-kit/lease-loop.js';
import { composeMail, createMailRenderer, mailMessageId, type MailRenderer } from './compose.js';
import { BOGOTA_OFFSET_MINUTES, type MailAcceptedBody, type MailErrorBody, type MailRequest, mailAcceptedBody, validateMailRequest } from './request.js';
import type { ClaimedMail, MailEventType, MailState, MailStorage } from './storage/types.js';
import { createEmlTransport, createSmtpTransport, type MailTransport } from './transport.js';
import { formatWallClock } from '../time/fixed-offset.js';

/** Retry policy: attempt n (1-based) that fails waits `min(maxMs, baseMs · 2^(n−1))`; after `maxAttempts` the message fails. */
export interface MailRetryPolicy {
  baseMs: number;
  maxMs: number;
  maxAttempts: number;
}

/** Default: 30 s, 1 min, 2 min … capped at 1 h, 10 attempts (about 4½ hours in all). */
export const DEFAULT_MAIL_RETRY: MailRetryPolicy = { baseMs: 30_000, maxMs: 3_600_000, maxAttempts: 10 };

export interface MailServiceOptions {
  storage: MailStorage;
  transport: MailTransport;
  /** Source of acceptance times and due times; default the system clock. */
  clock?: Clock;
  logger?: Logger;
  retry?: Partial<MailRetryPolicy>;
  /** How long a claimed message is protected from other senders (ms); default 300,000 (far above a send's 60 s timeout). */
  leaseMs?: number;
  /** Pause of the sender when nothing was due (ms); default 1,000. */
  pollIntervalMs?: number;
  /** Message-ID domain; default the sender address's domain. */
  messageIdDomain?: string;
  /** New mail ids; default random UUIDs. */
  newId?: () => string;
  renderer?: MailRenderer;
  /** Lease owner name of this sender; default unique per process. */
  owner?: string;
}

/** The answer of {@link MailService.accept}: the contract's 202 or 422 body. */
export type MailAcceptResult = { ok: true; status: 202; body: MailAcceptedBody } | { ok: false; status: 422; body: MailErrorBody };

/** The events of one accepted mail (the query by `message_id`); dates on Bogotá's wall clock like the 202. */
export interface MailEventsBody {
  message_id: string;
  messages: { personalization: number; state: MailState; attempts: number }[];
  events: { personalization: number; type: MailEventType; attempt: number; detail: string | null; date: string }[];
}

export interface MailService {
  /** Validates `request` (a parsed JSON body) and stores it in the outbox for `tenantId`. */
  accept(request: unknown, tenantId: string): Promise<MailAcceptResult>;
  /** The messages and events of `messageId`, or null when `tenantId` has no such mail. */
  events(messageId: string, tenantId: string): Promise<MailEventsBody | null>;
  /** Starts the background sender (logs where mail goes). */
  start(): void;
  /** Stops the sender after the messages in hand, then closes the transport (final: start a new service to resume). */
  stop(): Promise<void>;
  /** One sender pass (tests, tools): claims due messages and attempts each; returns how many. */
  runOnce(): Promise<number>;
}

const formatDate = (ms: number) => formatWallClock(new Date(ms), BOGOTA_OFFSET_MINUTES, 'yyyy-MM-dd HH:mm:ss');

export function createMailService(options: MailServiceOptions): MailService {
  const { storage, transport, logger } = options;
  const clock = options.clock ?? systemClock;
  const now = () => clock().getTime();
  const retry: MailRetryPolicy = { ...DEFAULT_MAIL_RETRY, ...options.retry };
  const newId = options.newId ?? randomUUID;
  const renderer = options.renderer ?? createMailRenderer();

  async function deliver(job: ClaimedMail): Promise<void> {
    const log = { messageId: job.messageId, personalization: job.personalization, attempt: job.attempts };
    let outcome: Awaited<ReturnType<MailTransport['send']>>;
    try {
      const request = JSON.parse(job.requestJson) as MailRequest;
      const mail = composeMail(request, job.personalization, { messageId: job.headerMessageId, date: new Date(job.acceptedAt) }, renderer);
      outcome = await transport.send(mail);
    } catch (e) {
      outcome = { ok: false, reason: `compose: ${(e as Error).message}`.slice(0, 1000), permanent: true };
    }
    const at = now();
    try {
      let held: boolean;
      if (outcome.ok) {
        held = await storage.markSent(job.id, loop.owner, at, outcome.response);
        logger?.info(log, 'mail sent');
      } else if (outcome.permanent || job.attempts >= retry.maxAttempts) {
        held = await storage.markFailed(job.id, loop.owner, at, outcome.reason);
        logger?.warn({ ...log, reason: outcome.reason }, 'mail failed');
      } else {
        const wait = Math.min(retry.maxMs, retry.baseMs * 2 ** (job.attempts - 1));
        held = await storage.markRetry(job.id, loop.owner, at, at + wait, outcome.reason);
        logger?.info({ ...log, reason: outcome.reason, retryInMs: wait }, 'mail attempt failed');
      }
      if (!held) logger?.warn(log, 'mail lease lost before the outcome was recorded');
    } catch (e) {
      // The outcome could not be recorded (storage down): the lease expires and the message is attempted again.
      logger?.error({ ...log, err: errorSummary(e) }, 'mail outcome not recorded');
    }
  }

  const loop = createLeaseLoop<ClaimedMail>({
    claim: (t, owner, leaseMs, limit) => storage.claimDue(t, owner, leaseMs, limit),
    process: deliver,
    owner: options.owner ?? defaultOwner('mail'),
    leaseMs: options.leaseMs ?? 300_000,
    pollIntervalMs: options.pollIntervalMs ?? 1_000,
    batchSize: 16,
    concurrency: 4,
    now,
    logger,
  });

  return {
    async accept(input, tenantId) {
      const checked = validateMailRequest(input);
      if (!checked.ok) return { ok: false, status: 422, body: checked.body };
      const request = checked.value;
      const messageId = newId();
      const at = clock();
      const domain = options.messageIdDomain ?? request.from.email.slice(request.from.email.lastIndexOf('@') + 1).toLowerCase();
      await storage.enqueue({
        messageId,
        tenantId,
        requestJson: JSON.stringify(request),
        headerMessageIds: request.personalizations.map((_, i) => mailMessageId(messageId, i, domain)),
        at: at.getTime(),
      });
      loop.wake();
      return { ok: true, status: 202, body: mailAcceptedBody(messageId, at) };
    },

    async events(messageId, tenantId) {
      const found = await storage.events(messageId, tenantId);
      if (!found) return null;
      return {
        message_id: messageId,
        messages: found.messages,
        events: found.events.map((e) => ({ personalization: e.personalization, type: e.type, attempt: e.attempt, detail: e.detail, date: formatDate(e.at) })),
      };
    },

    start() {
      logger?.info({ transport: transport.description }, `mail sender started: mail goes to ${transport.description}`);
      loop.start();
    },

    async stop() {
      await loop.stop();
      await transport.close();
    },

    runOnce: () => loop.runOnce(),
  };
}

/** The configured transport: SMTP when `smtpUrl` is set, else `.eml` files in `<dataDir>/mail`. */
export function createMailTransport(options: { smtpUrl?: string; dataDir: string; attemptTimeoutMs?: number }): MailTransport {
  if (options.smtpUrl) return createSmtpTransport({ url: options.smtpUrl, attemptTimeoutMs: options.attemptTimeoutMs });
  return createEmlTransport(join(options.dataDir, 'mail'));
}
