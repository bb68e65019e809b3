/**
 * How a composed message leaves: SMTP through nodemailer (`SMTP_URL`), or, on embedded defaults without SMTP,
 * an `.eml` file per message in a directory. Both build the MIME message with nodemailer, so the file is
 * byte for byte what SMTP would have carried.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { ComposedMail } from './compose.js';

/** The outcome of one delivery attempt. `permanent` failures (SMTP 5xx) are not retried. */
export type SendOutcome = { ok: true; response: string } | { ok: false; reason: string; permanent: boolean };

/** The transport port of the mail sender. */
export interface MailTransport {
  /** What the transport is, for the start-up log (never credentials). */
  readonly description: string;
  send(mail: ComposedMail): Promise<SendOutcome>;
  close(): Promise<void>;
}

/** nodemailer's message options of a composed message. */
function nodemailerMessage(mail: ComposedMail) {
  return {
    messageId: mail.messageId,
    date: mail.date,
    from: mail.from.name ? { name: mail.from.name, address: mail.from.email } : mail.from.email,
    to: mail.to.map((a) => (a.name ? { name: a.name, address: a.email } : a.email)),
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    headers: mail.headers,
    attachments: mail.attachments.map((a) => ({ filename: a.filename, content: a.content, encoding: 'base64', contentType: a.contentType })),
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** The reason of a failed SMTP attempt: the server's code and answer, or the connection error. */
function smtpReason(e: unknown): { reason: string; permanent: boolean } {
  const err = e as { responseCode?: number; response?: string; code?: string; message?: string };
  const code = typeof err.responseCode === 'number' ? err.responseCode : undefined;
  const text = (err.response ?? err.message ?? String(e)).replace(/\s+/g, ' ').trim();
  const reason = code !== undefined ? `SMTP ${code}: ${text}` : `${err.code ?? 'error'}: ${text}`;
  return { reason: reason.slice(0, 1000), permanent: code !== undefined && code >= 500 && code < 600 };
}

/** Options of {@link createSmtpTransport}. */
export interface SmtpTransportOptions {
  /** `smtp://user:pass@host:587` or `smtps://…:465` (nodemailer's connection URL). */
  url: string;
  /** Longest time one attempt may take before it is abandoned as failed (ms); default 60,000. Keep it well under the sender's lease. */
  attemptTimeoutMs?: number;
  /** Connections kept open to the server; default 4 (the sender's concurrency). */
  maxConnections?: number;
}

/**
 * SMTP delivery through nodemailer, over a small pool of reused connections (a new connection per message
 * cost about 100 ms against a local server, a pooled send a few ms: docs/mail.md). Each message still
 * succeeds or fails on its own.
 */
export function createSmtpTransport(options: SmtpTransportOptions): MailTransport {
  const timeout = options.attemptTimeoutMs ?? 60_000;
  const transporter = nodemailer.createTransport({
    url: options.url,
    pool: true,
    maxConnections: options.maxConnections ?? 4,
    maxMessages: 100,
    connectionTimeout: Math.min(timeout, 30_000),
    greetingTimeout: Math.min(timeout, 30_000),
    socketTimeout: timeout,
  });
  let host = 'smtp';
  try {
    const u = new URL(options.url);
    host = `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ''}`;
  } catch {
    // an URL nodemailer accepts but WHATWG does not: describe it without details
  }
  return {
    description: `SMTP ${host}`,
    async send(mail) {
      try {
        const info = await transporter.sendMail({ ...nodemailerMessage(mail), signal: AbortSignal.timeout(timeout) });
        return { ok: true, response: String(info.response ?? 'sent').slice(0, 1000) };
      } catch (e) {
        return { ok: false, ...smtpReason(e) };
      }
    },
    async close() {
      transporter.close();
    },
  };
}

/**
 * Writes each message as `<dir>/<Message-ID local part>.eml` (written beside, then renamed, so a reader never
 * sees half a file; a retry after a crash overwrites the same name). For development and embedded defaults.
 */
export function createEmlTransport(dir: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    description: `.eml files in ${dir}`,
    async send(mail) {
      try {
        const info = await transporter.sendMail(nodemailerMessage(mail));
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const name = `${mail.messageId.replace(/^<|>$/g, '').replace(/[^A-Za-z0-9._-]/g, '_')}.eml`;
        const file = join(dir, name);
        writeFileSync(`${file}.tmp`, info.message as Buffer, { mode: 0o600 });
        renameSync(`${file}.tmp`, file);
        return { ok: true, response: `written ${name}` };
      } catch (e) {
        return { ok: false, reason: `eml: ${(e as Error).message}`.slice(0, 1000), permanent: false };
      }
    },
    async close() {},
  };
}
