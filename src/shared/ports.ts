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

/**
 * Validates XML against one schema of a product's official set. `Id` names the product's schemas and `Options`
 * are its validation options (each product defines both; see `src/ecf/ports.ts`).
 */
export interface SchemaValidator<Id extends string = string, Options extends object = object> {
  validate(xml: string, schema: Id, options?: Options): SchemaValidationResult;
}

/**
 * Produces XMLDSig signatures: RSASSA-PKCS1-v1_5 with SHA-256 over `data` (the canonical
 * `SignedInfo` bytes), plus the leaf certificate to publish in `KeyInfo`. The default
 * implementation is `p12Signer` (node:crypto with a key read from a .p12); an HSM or a cloud
 * KMS can implement the same two members (and `chain` when it knows the issuers).
 */
export interface Signer {
  /** Leaf certificate, DER encoded, base64 (no PEM armour, no line breaks). */
  readonly certificate: string;
  /** The leaf's issuers in chain order (intermediate first, root last), DER base64; absent or empty when unknown. */
  readonly chain?: readonly string[];
  /** RSASSA-PKCS1-v1_5 SHA-256 signature of `data` (the implementation hashes `data` itself). */
  sign(data: Uint8Array): Uint8Array | Promise<Uint8Array>;
}
