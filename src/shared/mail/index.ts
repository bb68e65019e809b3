/**
 * The mail subsystem of the servers (kernel material, no product words): request schema and contract bodies,
 * rendering, the durable outbox on SQLite/PostgreSQL, SMTP or `.eml` transports, the sender. See docs/mail.md.
 */

/** The mail request schema, its validation into the 422 body, the 202 body. */
export {
  mailRequestSchema,
  validateMailRequest,
  mailAcceptedBody,
  type MailRequest,
  type MailErrorBody,
  type MailFieldError,
  type MailAcceptedBody,
} from './request.js';
/** Rendering and composing one personalization's message. */
export { composeMail, createMailRenderer, DEFAULT_MAIL_TEMPLATES, type ComposedMail, type MailTemplates, type MailRenderer } from './compose.js';
/** The mail request of a document e-mail (files as attachments). */
export { documentMailRequest, toBase64, type DocumentMailInput, type MailFile } from './document-mail.js';
/** The use cases: accept, events, the background sender; the configured transport. */
export {
  createMailService,
  createMailTransport,
  DEFAULT_MAIL_RETRY,
  type MailService,
  type MailServiceOptions,
  type MailAcceptResult,
  type MailEventsBody,
} from './service.js';
/** Transports: SMTP (nodemailer) and `.eml` files. */
export { createSmtpTransport, createEmlTransport, type MailTransport, type SendOutcome } from './transport.js';
/** The outbox port and its adapters. */
export { createSqliteMailStorage, createPostgresMailStorage } from './storage/kysely.js';
/** The outbox port's types. */
export type { MailStorage, MailEvent, MailEventType, MailState, ClaimedMail, NewMail } from './storage/types.js';
