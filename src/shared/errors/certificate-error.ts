import { EcfError, isNamedEcfError } from './ecf-error.js';

/** Stable codes of {@link CertificateError}. */
export type CertificateErrorCode =
  | 'invalid_file'
  | 'wrong_password'
  | 'no_private_key'
  | 'no_certificate'
  | 'unsupported_key'
  | 'several_keys'
  | 'expired'
  | 'not_yet_valid';

/**
 * The signing certificate (.p12 / .pfx) cannot be used: unreadable file, wrong password,
 * no private key, no certificate for the key, a non-RSA key, or outside its validity period.
 * The message says how to fix it.
 *
 * @example
 * try { readP12(bytes, 'oops') } catch (e) { if (e instanceof CertificateError) e.code } //=> 'wrong_password'
 */
export class CertificateError extends EcfError {
  declare readonly code: CertificateErrorCode;
  constructor(message: string, options: { code: CertificateErrorCode; cause?: unknown }) {
    super(message, { code: options.code, cause: options.cause });
    this.name = 'CertificateError';
  }
}

/**
 * True for a {@link CertificateError}, also one from another copy of the package (checks `name` and `code`).
 *
 * @example
 * try { readP12(bytes, 'oops') } catch (e) { if (isCertificateError(e)) e.code } //=> 'wrong_password'
 */
export function isCertificateError(e: unknown): e is CertificateError {
  return e instanceof CertificateError || isNamedEcfError(e, 'CertificateError');
}
