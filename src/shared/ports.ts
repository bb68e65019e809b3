/** Ports: what the pure core needs from the outside world, passed in explicitly. */

/** Current instant. Injected so signing times and expiries are testable. */
export type Clock = () => Date;

/**
 * Structured logger, object first and message second (a pino `Logger` fits). Consumers name the subset they
 * call (`Pick<Logger, 'info' | 'warn'>`, optional members with `Partial`); secrets and document bodies are never
 * passed to it.
 */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

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

/** One XSD violation, located by element path (`/ECF/DetallesItems/Item[5]/IndicadorFacturacion`). */
export interface SchemaViolation {
  /** Element path of the offending node, when it can be located. */
  xpath: string | null;
  /** Engine message (English, as libxml2 writes it). */
  message: string;
  line: number | null;
  column: number | null;
}

export interface SchemaValidationResult {
  valid: boolean;
  violations: SchemaViolation[];
}

/** Validates XML against one schema of the official set. */
export interface SchemaValidator {
  validate(xml: string, schema: SchemaId, options?: SchemaValidateOptions): SchemaValidationResult;
}

export interface SchemaValidateOptions {
  /**
   * Validate a type-32 below the RD$250,000 threshold, whose full e-CF is kept (not sent) and may hold up to
   * 10,000 lines: the same schema with only the `Item` / `Pagina` upper bounds relaxed to 10,000.
   */
  relaxed32?: boolean;
}

/**
 * Produces XMLDSig signatures: RSASSA-PKCS1-v1_5 with SHA-256 over `data` (the canonical
 * `SignedInfo` bytes), plus the leaf certificate to publish in `KeyInfo`. The default
 * implementation is `p12Signer` (node:crypto with a key read from a .p12); an HSM or a cloud
 * KMS can implement the same two members.
 */
export interface Signer {
  /** Leaf certificate, DER encoded, base64 (no PEM armour, no line breaks). */
  readonly certificate: string;
  /** RSASSA-PKCS1-v1_5 SHA-256 signature of `data` (the implementation hashes `data` itself). */
  sign(data: Uint8Array): Uint8Array | Promise<Uint8Array>;
}
