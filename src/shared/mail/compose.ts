/**
 * From a valid mail request to the message of one personalization: subject, HTML and text parts rendered from
 * `dynamic_template_data` by LiquidJS (HTML escaped, text not), `custom_args` as `X-…` headers (names derived
 * from the argument names, values stripped of line breaks and control characters, so no header can be
 * injected), the request's attachments, and a Message-ID fixed when the mail was accepted.
 *
 * Pure: no I/O (templates are strings, the date comes in as a value). Kernel material: no product words.
 */
import { Liquid, type Template } from 'liquidjs';
import type { MailRequest } from './request.js';

/** An attachment of a composed message; `content` is standard base64. */
export interface ComposedAttachment {
  filename: string;
  contentType: string;
  content: string;
}

/** One message ready for a transport (SMTP or a file), whatever the transport. */
export interface ComposedMail {
  /** RFC 5322 Message-ID with its angle brackets; the same on every attempt. */
  messageId: string;
  /** The Date header: when the mail was accepted. */
  date: Date;
  from: { email: string; name?: string };
  to: { email: string; name?: string }[];
  subject: string;
  html: string;
  text: string;
  /** Extra headers (`X-…`), already sanitized. */
  headers: Record<string, string>;
  attachments: ComposedAttachment[];
}

/** The three templates of a mail; Liquid syntax, variables are `dynamic_template_data`'s members. */
export interface MailTemplates {
  subject: string;
  html: string;
  text: string;
}

/** The default templates: a plain, inline-styled layout of the contract's header, body and footer. */
export const DEFAULT_MAIL_TEMPLATES: MailTemplates = {
  subject: '{{ subject }}',
  html: `<!DOCTYPE html>
<html lang="es"><head><meta charset="utf-8"><title>{{ subject }}</title></head>
<body style="font-family: Arial, sans-serif; color: #222; max-width: 640px; margin: 0 auto;">
<h1 style="font-size: 20px;">{{ header.brand_name }}</h1>
<p>Estimado(a) {{ body.customer_name }}:</p>
<p>Le enviamos el documento {{ body.document_type }} número <strong>{{ body.document_number }}</strong>.</p>
{% if body.alternative_text %}<p>{{ body.alternative_text }}</p>
{% endif %}<p style="font-size: 12px;">Código único: {{ body.uuid }}</p>
<hr>
<p style="font-size: 12px; color: #666;">© {{ footer.year }} {{ footer.brand_name }} · {{ footer.address }} · {{ footer.telephone }}</p>
</body></html>
`,
  text: `{{ header.brand_name }}

Estimado(a) {{ body.customer_name }}:

Le enviamos el documento {{ body.document_type }} número {{ body.document_number }}.
{% if body.alternative_text %}
{{ body.alternative_text }}
{% endif %}
Código único: {{ body.uuid }}

--
© {{ footer.year }} {{ footer.brand_name }} · {{ footer.address }} · {{ footer.telephone }}
`,
};

/** Renders the subject, HTML and text of a personalization's `dynamic_template_data`. */
export interface MailRenderer {
  render(data: MailRequest['personalizations'][number]['dynamic_template_data']): { subject: string; html: string; text: string };
}

/**
 * A renderer over `templates` (default {@link DEFAULT_MAIL_TEMPLATES}), parsed once. LiquidJS evaluates no
 * JavaScript, so templates could come from operators; the HTML engine escapes every output, the text and
 * subject engines escape nothing (they are not HTML).
 */
export function createMailRenderer(templates: MailTemplates = DEFAULT_MAIL_TEMPLATES): MailRenderer {
  const html = new Liquid({ outputEscape: 'escape', strictFilters: true, ownPropertyOnly: true });
  const plain = new Liquid({ strictFilters: true, ownPropertyOnly: true });
  const parsed: Record<keyof MailTemplates, Template[]> = {
    subject: plain.parse(templates.subject),
    html: html.parse(templates.html),
    text: plain.parse(templates.text),
  };
  return {
    render(data) {
      return {
        subject: oneLine(plain.renderSync(parsed.subject, data)),
        html: html.renderSync(parsed.html, data),
        text: plain.renderSync(parsed.text, data),
      };
    },
  };
}

/** Collapses line breaks and control characters (header injection) and trims. */
export function oneLine(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

/** `message_uuid` → `X-Message-Uuid`: the header name of a custom argument. */
export function argHeaderName(name: string): string {
  const words = name.split(/[_-]+/).filter(Boolean);
  return `X-${words.map((w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase()).join('-')}`;
}

/** The header of every custom argument of a personalization (non-string values are refused by validation). */
export function argHeaders(args: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(key)) continue;
    out[argHeaderName(key)] = oneLine(value).slice(0, 900);
  }
  return out;
}

/** The Message-ID of personalization `index` of the accepted mail `messageId`, at `domain`. */
export function mailMessageId(messageId: string, index: number, domain: string): string {
  return `<${messageId}.${index}@${domain}>`;
}

/** The message of personalization `index` of `request`. */
export function composeMail(
  request: MailRequest,
  index: number,
  meta: { messageId: string; date: Date },
  renderer: MailRenderer = defaultRenderer(),
): ComposedMail {
  const p = request.personalizations[index];
  if (!p) throw new RangeError(`personalization ${index} does not exist`);
  const { subject, html, text } = renderer.render(p.dynamic_template_data);
  return {
    messageId: meta.messageId,
    date: meta.date,
    from: { email: request.from.email, ...(request.from.name ? { name: oneLine(request.from.name) } : {}) },
    to: p.to.map((a) => ({ email: a.email, ...(a.name ? { name: oneLine(a.name) } : {}) })),
    subject,
    html,
    text,
    headers: argHeaders(p.custom_args),
    attachments: (request.attachments ?? []).map((a) => ({ filename: a.filename, contentType: a.mime, content: a.content })),
  };
}

let shared: MailRenderer | undefined;
function defaultRenderer(): MailRenderer {
  shared ??= createMailRenderer();
  return shared;
}
