import { EcfError, isNamedEcfError } from './ecf-error.js';

/** The XSD set is missing, unreadable, or does not match the pinned checksums. */
export class SchemaError extends EcfError {
  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, { code: options.code ?? 'schema_unavailable', cause: options.cause });
    this.name = 'SchemaError';
  }
}

/**
 * True for a {@link SchemaError}, also one from another copy of the package (checks `name` and `code`).
 *
 * @example
 * try { assertXsdDir(dir) } catch (e) { if (isSchemaError(e)) e.code } //=> 'schema_unavailable'
 */
export function isSchemaError(e: unknown): e is SchemaError {
  return e instanceof SchemaError || isNamedEcfError(e, 'SchemaError');
}
