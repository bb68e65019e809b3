/**
 * The mail outbox port: accepted mails (the request once, one row per personalization), the sender's claims
 * under a lease, and the events of each message. Adapters: SQLite and PostgreSQL over Kysely (kysely.ts).
 */

/** The states of one message (one personalization of an accepted mail). */
export type MailState = 'queued' | 'sending' | 'sent' | 'failed';

/** What happened to a message: accepted, an attempt failed (with the SMTP reason), delivered, given up. */
export type MailEventType = 'queued' | 'attempt_failed' | 'sent' | 'failed';

/** One event of a message. `at` is epoch ms. */
export interface MailEvent {
  personalization: number;
  type: MailEventType;
  attempt: number;
  /** The SMTP server's answer or the failure's reason (`sent`, `attempt_failed`, `failed`); null for `queued`. */
  detail: string | null;
  at: number;
}

/** An accepted mail to store: the validated request (JSON), and per personalization its Message-ID. */
export interface NewMail {
  messageId: string;
  tenantId: string;
  /** The validated request, serialized once for all its personalizations. */
  requestJson: string;
  /** The RFC 5322 Message-ID of each personalization, in order. */
  headerMessageIds: string[];
  /** Epoch ms of acceptance (also when the first attempt is due). */
  at: number;
}

/** A message the sender claimed: everything needed to compose and send it. */
export interface ClaimedMail {
  /** Row id: `<messageId>.<personalization>`. */
  id: string;
  messageId: string;
  tenantId: string;
  personalization: number;
  headerMessageId: string;
  /** Attempts so far, this one included. */
  attempts: number;
  requestJson: string;
  acceptedAt: number;
}

/** One message's current state (for the events query). */
export interface MailMessageStatus {
  personalization: number;
  state: MailState;
  attempts: number;
}

/** The outbox. Every write is one transaction; the sender's writes are guarded by its lease. */
export interface MailStorage {
  /** Creates or updates the tables (idempotent; serialised across processes). */
  migrate(): Promise<void>;
  /** Stores an accepted mail: the request, a `queued` row and a `queued` event per personalization. */
  enqueue(mail: NewMail): Promise<void>;
  /**
   * Claims up to `limit` messages due at `now`: `queued` ones whose next attempt is due and `sending` ones whose
   * lease expired (their sender died). Each becomes `sending` for `owner` until `now + leaseMs`, attempts + 1.
   */
  claimDue(now: number, owner: string, leaseMs: number, limit: number): Promise<ClaimedMail[]>;
  /** `sending` → `sent` with a `sent` event; false when `owner` no longer holds the lease. */
  markSent(id: string, owner: string, at: number, detail: string): Promise<boolean>;
  /** `sending` → `queued` due at `nextAt`, with an `attempt_failed` event; false without the lease. */
  markRetry(id: string, owner: string, at: number, nextAt: number, reason: string): Promise<boolean>;
  /** `sending` → `failed` with an `attempt_failed` and a `failed` event; false without the lease. */
  markFailed(id: string, owner: string, at: number, reason: string): Promise<boolean>;
  /** The messages and events of the mail `messageId` of `tenantId`, in order; null when there is none. */
  events(messageId: string, tenantId: string): Promise<{ messages: MailMessageStatus[]; events: MailEvent[] } | null>;
  /** Releases the connection(s). */
  close(): Promise<void>;
}
