/** The e-CF side of the kernel's schema port: DGII's schema names and validation options. */
import type { SchemaValidator as KernelSchemaValidator } from '../shared/ports.js';

/** Names of the schemas in the official DGII set. */
export type SchemaId =
  | 'ECF-31'
  | 'ECF-32'
  | 'ECF-33'
  | 'ECF-34'
  | 'ECF-41'
  | 'ECF-43'
  | 'ECF-44'
  | 'ECF-45'
  | 'ECF-46'
  | 'ECF-47'
  | 'RFCE'
  | 'ARECF'
  | 'ACECF'
  | 'ANECF'
  | 'Semilla';

export interface SchemaValidateOptions {
  /**
   * Validate a type-32 below the RD$250,000 threshold, whose full e-CF is kept (not sent) and may hold up to
   * 10,000 lines: the same schema with only the `Item` / `Pagina` upper bounds relaxed to 10,000.
   */
  relaxed32?: boolean;
}

/** Validates XML against one schema of the official DGII set. */
export type SchemaValidator = KernelSchemaValidator<SchemaId, SchemaValidateOptions>;
