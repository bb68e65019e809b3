import { EcfError } from './ecf-error.js';

/** The XSD set is missing, unreadable, or does not match the pinned checksums. */
export class SchemaError extends EcfError {
  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, { code: options.code ?? 'schema_unavailable', cause: options.cause });
    this.name = 'SchemaError';
  }
}
