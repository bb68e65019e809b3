import type { Issue } from '../issues.js';
import { EcfError, isNamedEcfError } from './ecf-error.js';

/** Thrown by `validateEcf` / `buildEcfXml` when a document has errors; `.issues` holds all of them. */
export class EcfValidationError extends EcfError {
  readonly issues: Issue[];
  constructor(issues: Issue[]) {
    const first = issues[0];
    super(`Document has ${issues.length} validation issue(s)${first ? `; first: ${first.path || '(root)'}: ${first.message}` : ''}`, {
      code: 'validation_failed',
    });
    this.name = 'EcfValidationError';
    this.issues = issues;
  }
}

/**
 * True for an {@link EcfValidationError}, also one from another copy of the package (checks `name`, `code`
 * and `issues`).
 *
 * @example
 * try { buildEcfXml(doc) } catch (e) { if (isEcfValidationError(e)) e.issues.length }
 */
export function isEcfValidationError(e: unknown): e is EcfValidationError {
  return e instanceof EcfValidationError || (isNamedEcfError(e, 'EcfValidationError') && Array.isArray((e as { issues?: unknown }).issues));
}
