/**
 * The mail request of the documents service (`POST /utilities/mail/send`): its schema, exactly the fields the
 * service contract lists, and its validation into the contract's 422 body `{errors: [{message, field, help}]}`
 * with `field` paths such as `attachments.0.mime`. Every problem is reported (not the first one only): missing
 * fields, wrong types, bad formats and properties the schema does not know. Messages are Spanish.
 *
 * Pure: no I/O. Kernel material: no product words (the document codes in custom_args are opaque strings here).
 */
import { z } from 'zod';
import { formatWallClock } from '../time/fixed-offset.js';

/** Longest value of a custom argument (it travels as a header line; RFC 5322 allows 998 octets per line). */
const MAX_ARG_LENGTH = 900;
/** Attachments per request, and their decoded size together. */
export const MAX_ATTACHMENTS = 20;
export const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;

const text = (max = 1000) => z.string().min(1).max(max);
const email = z
  .string()
  .max(254)
  .regex(/^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.[^\s@<>()",;:\\[\]]+$/, { error: 'email' });
/** Standard base64 (the contract's attachment content), padding required. */
const base64 = z.string().regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, { error: 'base64' });
/** `type/subtype` with RFC 6838 characters, parameters not allowed. */
const mime = z
  .string()
  .max(127)
  .regex(/^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/, { error: 'mime' });
/** A file name without directories or control characters. */
const filename = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[^/\\\u0000-\u001f\u007f]+$/, { error: 'filename' })
  .refine((s) => s !== '.' && s !== '..', { error: 'filename' });
/** Custom argument names become `X-…` header names: letters, digits, `_` and `-` only. */
const argName = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'arg_name' });

const address = z.strictObject({ email, name: z.string().max(200).optional() });

const personalization = z.strictObject({
  custom_args: z.looseObject({ message_uuid: text(200), environment: z.enum(['1', '2']) }),
  to: z.array(address).min(1).max(50),
  dynamic_template_data: z.strictObject({
    subject: text(300),
    header: z.strictObject({ brand_name: text(200) }),
    body: z.strictObject({
      customer_name: text(300),
      document_type: text(200),
      document_number: text(100),
      alternative_text: z.string().max(2000).optional(),
      uuid: text(200),
    }),
    footer: z.strictObject({ year: text(10), brand_name: text(200), address: text(300), telephone: text(100) }),
  }),
});

/** The mail request's schema (zod): the contract's fields, nothing else. */
export const mailRequestSchema = z.strictObject({
  personalizations: z.array(personalization).min(1).max(50),
  from: z.strictObject({ email, name: z.string().max(200).optional() }),
  email_to_notify: z.array(z.strictObject({ name: text(200), email })).max(50),
  attachments: z
    .array(z.strictObject({ content: base64, mime, filename }))
    .max(MAX_ATTACHMENTS)
    .optional(),
});

/** A valid mail request. */
export type MailRequest = z.infer<typeof mailRequestSchema>;
/** One entry of the contract's 422 body. `help` is a link or null. */
export interface MailFieldError {
  message: string;
  field: string;
  help: string | null;
}
/** The contract's 422 body of the mail endpoint. */
export interface MailErrorBody {
  errors: MailFieldError[];
}

const TYPE_NAMES: Record<string, string> = {
  string: 'un texto',
  number: 'un número',
  boolean: 'un booleano',
  object: 'un objeto',
  array: 'una lista',
};

function received(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'una lista';
  return TYPE_NAMES[typeof input] ?? typeof input;
}

const FORMAT_MESSAGES: Record<string, string> = {
  email: 'debe ser una dirección de correo válida (usuario@dominio)',
  base64: 'debe estar codificado en base64 estándar',
  mime: 'debe ser un tipo MIME de la forma tipo/subtipo (por ejemplo application/pdf)',
  filename: 'debe ser un nombre de archivo sin directorios ni caracteres de control',
  arg_name: 'los nombres de custom_args solo admiten letras, dígitos, _ y -',
};

/** Spanish text of one zod issue, with the field path in it. */
function spanish(issue: z.core.$ZodIssue, field: string): string {
  const where = `'${field}'`;
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `El campo ${where} es obligatorio.`;
      return `El campo ${where} debe ser ${TYPE_NAMES[issue.expected] ?? issue.expected}; se recibió ${received(issue.input)}.`;
    case 'too_small':
      if (issue.origin === 'array') return `El campo ${where} debe tener al menos ${issue.minimum} elemento(s).`;
      return `El campo ${where} no puede estar vacío.`;
    case 'too_big':
      if (issue.origin === 'array') return `El campo ${where} admite como máximo ${issue.maximum} elementos.`;
      return `El campo ${where} admite como máximo ${issue.maximum} caracteres.`;
    case 'invalid_value':
      return `El campo ${where} debe ser uno de: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`;
    case 'invalid_format':
    case 'custom':
      return `El campo ${where} ${FORMAT_MESSAGES[issue.message] ?? 'no tiene un formato válido'}.`;
    default:
      return `El campo ${where} no es válido.`;
  }
}

const joinPath = (path: readonly PropertyKey[]) => path.map(String).join('.');

/** The contract's 422 entries of a zod error: one per problem, unknown properties one per property. */
export function mailErrors(issues: readonly z.core.$ZodIssue[]): MailFieldError[] {
  const out: MailFieldError[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const field = joinPath([...issue.path, key]);
        out.push({ field, message: `La propiedad '${field}' no está permitida.`, help: null });
      }
      continue;
    }
    const field = joinPath(issue.path);
    out.push({ field, message: spanish(issue, field), help: null });
  }
  return out;
}

/** Decoded size of a standard base64 string (already checked by the schema). */
function decodedLength(b64: string): number {
  const pad = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return (b64.length / 4) * 3 - pad;
}

/**
 * Validates a parsed JSON body against the mail request schema. `ok: false` carries the contract's 422 body
 * with every problem found.
 */
export function validateMailRequest(input: unknown): { ok: true; value: MailRequest } | { ok: false; body: MailErrorBody } {
  const parsed = mailRequestSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) return { ok: false, body: { errors: mailErrors(parsed.error.issues) } };
  const errors: MailFieldError[] = [];
  parsed.data.personalizations.forEach((p, i) => {
    for (const [key, value] of Object.entries(p.custom_args)) {
      const field = `personalizations.${i}.custom_args.${key}`;
      if (!argName.safeParse(key).success)
        errors.push({ field, message: `El campo '${field}' tiene un nombre no válido: ${FORMAT_MESSAGES.arg_name}.`, help: null });
      else if (typeof value !== 'string') errors.push({ field, message: `El campo '${field}' debe ser un texto; se recibió ${received(value)}.`, help: null });
      else if (value.length > MAX_ARG_LENGTH)
        errors.push({ field, message: `El campo '${field}' admite como máximo ${MAX_ARG_LENGTH} caracteres.`, help: null });
    }
  });
  const total = (parsed.data.attachments ?? []).reduce((n, a) => n + decodedLength(a.content), 0);
  if (total > MAX_ATTACHMENT_BYTES) {
    errors.push({ field: 'attachments', message: `Los adjuntos suman ${total} bytes; el máximo es ${MAX_ATTACHMENT_BYTES}.`, help: null });
  }
  if (errors.length > 0) return { ok: false, body: { errors } };
  return { ok: true, value: parsed.data };
}

/** The contract's 202 body of an accepted mail. */
export interface MailAcceptedBody {
  status: 202;
  message: string;
  message_id: string;
  /** When the mail was accepted, `YYYY-MM-DD HH:mm:ss` on Bogotá's wall clock (UTC−5, no daylight saving). */
  date: string;
}

/** Bogotá's offset from UTC in minutes (Colombia keeps UTC−5 all year). */
export const BOGOTA_OFFSET_MINUTES = -300;

/** The 202 body for the mail accepted as `messageId` at `at`. */
export function mailAcceptedBody(messageId: string, at: Date): MailAcceptedBody {
  return {
    status: 202,
    message: 'Correo aceptado y en cola de envío.',
    message_id: messageId,
    date: formatWallClock(at, BOGOTA_OFFSET_MINUTES, 'yyyy-MM-dd HH:mm:ss'),
  };
}
