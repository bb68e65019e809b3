import type { Issue } from '../issues.js';
import { EcfError } from './ecf-error.js';

/** Thrown by `validateEcf` / `buildEcfXml` when a document has errors; `.issues` holds all of them. */
export class EcfValidationError extends EcfError {
  readonly issues: Issue[];
  constructor(issues: Issue[]) {
    const first = issues[0];
    super(
      `Document has ${issues.length} validation issue(s)${first ? `; first: ${first.path || '(root)'}: ${first.message}` : ''}`,
      { code: 'validation_failed' },
    );
    this.name = 'EcfValidationError';
    this.issues = issues;
  }
}
