import { EcfError, isNamedEcfError } from './ecf-error.js';

/** One message from the authority, normalised (authorities send objects, bare strings or HTML pages). */
export interface AuthorityMessage {
  codigo: string | null;
  valor: string;
}

/** Stable codes of {@link AuthorityError}. */
export type AuthorityErrorCode =
  | 'rejected' // a definitive 4xx answer (bad request, validation, not delegated…)
  | 'unauthorized' // 401/403 even after renewing the token once
  | 'not_found'; // 404 for the resource asked

/**
 * The authority answered, and the answer is a definitive refusal: never retried automatically.
 * `mensajes` holds the authority's reasons normalised to `{codigo, valor}`; `body` the raw answer,
 * truncated to 2,000 characters.
 *
 * @example
 * try { await client.sendEcf(id, file) } catch (e) { if (e instanceof AuthorityError) e.mensajes }
 * //=> [{ codigo: '3243', valor: 'La longitud del nombre del archivo no es válida' }]
 */
export class AuthorityError extends EcfError {
  declare readonly code: AuthorityErrorCode;
  readonly status: number;
  readonly mensajes: AuthorityMessage[];
  readonly trackId: string | null;
  readonly body: string;
  readonly retryable = false;
  constructor(
    message: string,
    options: { code: AuthorityErrorCode; status: number; mensajes?: AuthorityMessage[]; trackId?: string | null; body?: string; cause?: unknown },
  ) {
    super(message, { code: options.code, cause: options.cause });
    this.name = 'AuthorityError';
    this.status = options.status;
    this.mensajes = options.mensajes ?? [];
    this.trackId = options.trackId ?? null;
    this.body = (options.body ?? '').slice(0, 2000);
  }
}

/**
 * True for an {@link AuthorityError}, also one from another copy of the package (checks `name`, `code` and
 * `mensajes`, not only `instanceof`).
 *
 * @example
 * try { await client.sendEcf(id, file) } catch (e) { if (isAuthorityError(e)) e.mensajes }
 */
export function isAuthorityError(e: unknown): e is AuthorityError {
  return e instanceof AuthorityError || (isNamedEcfError(e, 'AuthorityError') && Array.isArray((e as { mensajes?: unknown }).mensajes));
}
