/**
 * The DGII environments (path segments): `testecf` (pre-certification), `certecf` (certification) and
 * `ecf` (production). One type and one list; the QR URL, the DGII client, the simulator, the server and
 * the CLI read them.
 */

/** A DGII environment: TesteCF (pre-certification), CerteCF (certification), eCF (production). */
export type DgiiEnvironment = 'testecf' | 'certecf' | 'ecf';

/**
 * The environments, as path segments: pre-certification, certification, production.
 *
 * @example
 * DGII_ENVIRONMENTS //=> ['testecf', 'certecf', 'ecf']
 */
export const DGII_ENVIRONMENTS: readonly DgiiEnvironment[] = ['testecf', 'certecf', 'ecf'];

/**
 * True for `testecf`, `certecf` and `ecf` (lower case, as the path segment is written).
 *
 * @example
 * isDgiiEnvironment('certecf') //=> true
 * isDgiiEnvironment('CerteCF') //=> false
 */
export function isDgiiEnvironment(value: unknown): value is DgiiEnvironment {
  return typeof value === 'string' && (DGII_ENVIRONMENTS as readonly string[]).includes(value);
}
