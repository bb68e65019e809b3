/**
 * Validation results are values: every problem found is an `Issue` with a stable `code`,
 * a dotted `path` into the canonical JSON (`items.0.cantidad`), and a Spanish `message`.
 */
export type IssueCode =
  | 'required'
  | 'not_allowed'
  | 'unknown_field'
  | 'invalid_type'
  | 'pattern'
  | 'max_length'
  | 'min_length'
  | 'enum'
  | 'decimals'
  | 'range'
  | 'date'
  | 'too_many'
  | 'too_few'
  | 'rule'
  | 'totals'
  | 'xsd';

export interface Issue {
  code: IssueCode;
  /** Dotted path into the canonical JSON, e.g. `id_doc.tipo_ingresos`, `items.0.cantidad`; '' for the root. */
  path: string;
  /** Spanish message for API clients. */
  message: string;
  severity: 'error' | 'warning';
  /** Stable rule id (e.g. `ECF-REF-CODIGO`) for business rules. */
  ruleId?: string;
  params?: Record<string, unknown>;
}

/** The 422 body shape of the service: flat messages plus path → messages. */
export interface IssueReport {
  errors: string[];
  detailed_errors: Record<string, string[]>;
}

/** Groups issues into the service's `{errors, detailed_errors}` shape (errors only; warnings are left out). */
export function toIssueReport(issues: readonly Issue[]): IssueReport {
  const errors: string[] = [];
  // A Map, not `{}`: paths come from the input's own keys, and `constructor` or `__proto__` must not reach
  // Object.prototype. `fromEntries` defines own properties, whatever their names.
  const detailed = new Map<string, string[]>();
  for (const i of issues) {
    if (i.severity !== 'error') continue;
    const key = i.path === '' ? '_' : i.path;
    errors.push(i.path === '' ? i.message : `${i.path}: ${i.message}`);
    const list = detailed.get(key);
    if (list) list.push(i.message);
    else detailed.set(key, [i.message]);
  }
  return { errors, detailed_errors: Object.fromEntries(detailed) };
}
