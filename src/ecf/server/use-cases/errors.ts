/**
 * The failures a use case reports to its caller, independent of HTTP: a kind (what went wrong, in the
 * caller's terms), a Spanish message for the API client and optional details. The HTTP layer maps the kind
 * to a status (`app/errors.ts`: invalid → 422, not_found → 404, conflict → 409); another front end (a CLI,
 * a queue consumer) can map it its own way.
 */
import { EcfError } from '../../index.js';

export type UseCaseErrorKind = 'invalid' | 'not_found' | 'conflict';

export class UseCaseError extends EcfError {
  readonly kind: UseCaseErrorKind;
  /** Details for the client (`document` of the error envelope), or null. */
  readonly document: Record<string, unknown> | null;
  constructor(kind: UseCaseErrorKind, message: string, document: Record<string, unknown> | null = null) {
    super(message, { code: `use_case_${kind}` });
    this.name = 'UseCaseError';
    this.kind = kind;
    this.document = document;
  }
}

export function isUseCaseError(e: unknown): e is UseCaseError {
  return e instanceof UseCaseError;
}

/** `{field: [messages]}` → `{errors: ['field: message', …], detailed_errors}`. */
export function detailedReport(detailed: Record<string, string[]>): { errors: string[]; detailed_errors: Record<string, string[]> } {
  return { errors: Object.entries(detailed).flatMap(([k, v]) => v.map((m) => (k === '_' ? m : `${k}: ${m}`))), detailed_errors: detailed };
}

/** An `invalid` failure whose details are `{errors, detailed_errors}`. */
export function invalidRequest(message: string, detailed: Record<string, string[]>): UseCaseError {
  return new UseCaseError('invalid', message, detailedReport(detailed));
}

/** A failure whose details are `{errors: [...]}`. */
export function withErrors(kind: UseCaseErrorKind, message: string, errors: string[]): UseCaseError {
  return new UseCaseError(kind, message, { errors });
}
