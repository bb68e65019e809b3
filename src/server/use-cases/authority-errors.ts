/**
 * Recognising the transport's failures inside use cases. Checked by name, not instanceof: the transport may
 * come from another copy of the package (as `isEcfError` does).
 */
import { authorityMessages } from './messages.js';

/** An `AuthorityError` that carries the authority's messages (a definitive refusal, HTTP 4xx). */
export function isAuthorityRefusal(e: unknown): e is Error & { mensajes: { codigo: string | null; valor: string }[]; status?: number } {
  return e instanceof Error && e.name === 'AuthorityError' && Array.isArray((e as { mensajes?: unknown }).mensajes);
}

/** A `TransportError` (network, timeout, 5xx, 429, unreadable answer). */
export function isTransportFailure(e: unknown): e is Error & { code?: string; retryable?: boolean; outcomeUnknown?: boolean; status?: number | null } {
  return e instanceof Error && e.name === 'TransportError';
}

/** The authority's messages of a refusal as flat strings (`codigo: valor`). */
export function authorityMessagesOf(e: { mensajes: { codigo: string | null; valor: string }[] }): string[] {
  return authorityMessages(e.mensajes);
}
