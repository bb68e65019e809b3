/**
 * The mail a documents service sends when a client asks for it (`send: true`): a mail request (the same shape
 * `POST /utilities/mail/send` takes) addressed to the recipients, with the service's files (a PDF, a zip…) as
 * attachments. It knows nothing of any tax authority: the caller gives the template data and the files.
 *
 * Pure: no I/O.
 */
import type { MailRequest } from './request.js';

/** A file to attach: its name, MIME type and bytes. */
export interface MailFile {
  filename: string;
  mime: string;
  content: Uint8Array;
}

/** What {@link documentMailRequest} needs. */
export interface DocumentMailInput {
  from: { email: string; name?: string };
  to: { email: string; name?: string }[];
  /** The template data of the contract (`dynamic_template_data`): subject, header, body, footer. */
  template: MailRequest['personalizations'][number]['dynamic_template_data'];
  /** `message_uuid` (the document's unique code) and `environment` (`1` production, `2` tests), plus any others. */
  customArgs: { message_uuid: string; environment: '1' | '2' } & Record<string, string>;
  files: readonly MailFile[];
  /** Parties interested in the document's later state (`email_to_notify`); default none. */
  notify?: { name: string; email: string }[];
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 (with padding) of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += `${ALPHABET[n >> 18]!}${ALPHABET[(n >> 12) & 63]!}==`;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += `${ALPHABET[n >> 18]!}${ALPHABET[(n >> 12) & 63]!}${ALPHABET[(n >> 6) & 63]!}=`;
  }
  return out;
}

/** One personalization to every recipient in `to`, the files as attachments, ready for `MailService.accept`. */
export function documentMailRequest(input: DocumentMailInput): MailRequest {
  return {
    personalizations: [{ custom_args: { ...input.customArgs }, to: input.to.map((a) => ({ ...a })), dynamic_template_data: input.template }],
    from: { ...input.from },
    email_to_notify: (input.notify ?? []).map((n) => ({ ...n })),
    attachments: input.files.map((f) => ({ content: toBase64(f.content), mime: f.mime, filename: f.filename })),
  };
}
