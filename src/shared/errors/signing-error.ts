import { EcfError, isNamedEcfError } from './ecf-error.js';

/** Stable codes of {@link SigningError}. */
export type SigningErrorCode = 'not_well_formed' | 'already_signed' | 'unsupported_xml' | 'wrong_root' | 'signer_failed';

/**
 * A document cannot be signed: it is not well-formed XML, already carries an XMLDSig
 * `Signature`, uses a construct the signing profile does not support (DOCTYPE,
 * processing instructions inside the document element), has the wrong root for the
 * operation, or the {@link Signer} itself failed.
 *
 * @example
 * try { await signXml('<ECF>', signer) } catch (e) { (e as SigningError).code } //=> 'not_well_formed'
 */
export class SigningError extends EcfError {
  declare readonly code: SigningErrorCode;
  constructor(message: string, options: { code: SigningErrorCode; cause?: unknown }) {
    super(message, { code: options.code, cause: options.cause });
    this.name = 'SigningError';
  }
}

/**
 * True for a {@link SigningError}, also one from another copy of the package (checks `name` and `code`).
 *
 * @example
 * try { await signXml('<ECF>', signer) } catch (e) { if (isSigningError(e)) e.code } //=> 'not_well_formed'
 */
export function isSigningError(e: unknown): e is SigningError {
  return e instanceof SigningError || isNamedEcfError(e, 'SigningError');
}
