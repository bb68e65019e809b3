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

export interface ValidateOptions {
  /** Issue date (`dd-MM-yyyy`) the document will carry; enables date rules such as the credit-note 30-day rule. */
  fechaEmision?: string;
}

export type SafeValidateResult = { success: true; data: CleanDoc; warnings: Issue[] } | { success: false; issues: Issue[]; warnings: Issue[] };

/** Array fields whose upper bound is a business rule (limits that depend on the amount), not the XSD. */
const RULE_CAPPED = new Set(['items[]']);

/**
 * Validates canonical JSON for e-CF type `tipo` without throwing.
 * @example
 * safeValidateEcf('31', doc) //=> { success: false, issues: [{ code: 'required', path: 'comprador.rnc', … }] }
 */
export function safeValidateEcf(tipo: string, json: unknown, options: ValidateOptions = {}): SafeValidateResult {
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

/** Validates and returns the clean document, or throws `EcfValidationError` with every issue. */
export function validateEcf(tipo: string, json: unknown, options: ValidateOptions = {}): CleanDoc {
  const r = safeValidateEcf(tipo, json, options);
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
