/**
 * `validateEcf` / `safeValidateEcf`: shape and formats from the field table (layer 1), then every business
 * rule that applies to the type (layers 2 and 3). All issues are collected; nothing stops at the first.
 */
import { EcfValidationError } from '../../shared/errors/validation-error.js';
import type { Issue } from '../../shared/issues.js';
import { isEcfType, type EcfType } from '../spec/model.js';
import { checkShape } from './shape.js';
import { RULES } from './rules/index.js';
import type { CleanDoc } from './rule.js';
import type { EcfDocument } from '../spec/ecf-types.gen.js';

export interface ValidateOptions {
  /** Issue date (`dd-MM-yyyy`) the document will carry; enables date rules such as the credit-note 30-day rule. */
  fechaEmision?: string;
}

/** `data` is the clean document: `EcfDocument<T>` from the typed `safeValidateEcf`, a plain record from the untyped entry. */
export type SafeValidateResult<D = CleanDoc> = { success: true; data: D; warnings: Issue[] } | { success: false; issues: Issue[]; warnings: Issue[] };

/** Array fields whose upper bound is a business rule (limits that depend on the amount), not the XSD. */
const RULE_CAPPED = new Set(['items[]']);

/**
 * Validates a typed document of e-CF type `tipo` without throwing. The type `EcfDocument<T>` catches unknown
 * fields, fields another type has, a wrong type code and wrong value kinds at compile time; the run-time checks
 * (formats, lengths, totals, per-type rules) are the source of truth. For JSON from outside (a request body, a
 * file), use `safeValidateEcfJson`.
 * @example
 * safeValidateEcf('31', doc) //=> { success: false, issues: [{ code: 'rule', path: 'totales.monto_total', … }] }
 */
export function safeValidateEcf<T extends EcfType>(tipo: T, doc: EcfDocument<T>, options: ValidateOptions = {}): SafeValidateResult<EcfDocument<T>> {
  return safeValidateEcfJson(tipo, doc, options) as SafeValidateResult<EcfDocument<T>>;
}

/**
 * Validates untyped input (untrusted JSON: a request body, a parsed file) as canonical JSON of e-CF type `tipo`,
 * without throwing. The same checks as `safeValidateEcf`; an unknown `tipo` is an `enum` issue at path `tipo`.
 * @example
 * safeValidateEcfJson('31', JSON.parse(body)) //=> { success: false, issues: [{ code: 'required', path: 'comprador.rnc', … }] }
 */
export function safeValidateEcfJson(tipo: string, json: unknown, options: ValidateOptions = {}): SafeValidateResult {
  if (!isEcfType(tipo)) {
    const issue: Issue = {
      code: 'enum',
      path: 'tipo',
      message: `Tipo de e-CF inválido: "${String(tipo)}". Tipos válidos: 31, 32, 33, 34, 41, 43, 44, 45, 46, 47.`,
      severity: 'error',
    };
    return { success: false, issues: [issue], warnings: [] };
  }
  const { issues, clean } = checkShape(tipo, json, { uncappedArrays: RULE_CAPPED });
  const all = [...issues];
  for (const { rule, severity } of RULES) {
    if (rule.appliesTo !== 'all' && !rule.appliesTo.includes(tipo as EcfType)) continue;
    // A loop, not push(...): a rule over 10,000 lines can return more issues than a call may take arguments.
    // A warning row (spec reading, advice, tolerance) never refuses: its issues travel as warnings.
    for (const issue of rule.check({ tipo, doc: clean, fechaEmision: options.fechaEmision }))
      all.push(severity === 'warning' && issue.severity === 'error' ? { ...issue, severity: 'warning' } : issue);
  }
  const errors = all.filter((i) => i.severity === 'error');
  const warnings = all.filter((i) => i.severity === 'warning');
  return errors.length ? { success: false, issues: dedupe(errors), warnings } : { success: true, data: clean, warnings };
}

/** Validates a typed document and returns the clean document, or throws `EcfValidationError` with every issue. */
export function validateEcf<T extends EcfType>(tipo: T, doc: EcfDocument<T>, options: ValidateOptions = {}): EcfDocument<T> {
  return validateEcfJson(tipo, doc, options);
}

/**
 * Validates untyped input (untrusted JSON) for e-CF type `tipo` and returns it as the typed document (parse
 * style), or throws `EcfValidationError` with every issue.
 */
export function validateEcfJson<T extends EcfType>(tipo: T, json: unknown, options?: ValidateOptions): EcfDocument<T>;
export function validateEcfJson(tipo: string, json: unknown, options?: ValidateOptions): CleanDoc;
export function validateEcfJson(tipo: string, json: unknown, options: ValidateOptions = {}): CleanDoc {
  const r = safeValidateEcfJson(tipo, json, options);
  if (!r.success) throw new EcfValidationError(r.issues);
  return r.data;
}

function dedupe(issues: Issue[]): Issue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const k = `${i.path}\u0000${i.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
