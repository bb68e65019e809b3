import type { Issue } from '../../shared/issues.js';
import type { EcfType } from '../spec/model.js';

/** The clean canonical JSON (only values that passed the shape layer), as plain objects. */
// biome-ignore lint/suspicious/noExplicitAny: a canonical JSON document, already checked against the field table before this point
export type CleanDoc = Record<string, any>;

export interface RuleInput {
  tipo: EcfType;
  /** Values that passed the shape checks (invalid ones are absent). */
  doc: CleanDoc;
  /** Issue date `dd-MM-yyyy` when known (context or passthrough XML); rules that need it skip otherwise. */
  fechaEmision?: string;
}

/**
 * A business rule: stable id, the types it applies to, the DGII source it implements, and a check that
 * returns issues (never throws). Rules read `doc`, whose values are already well-formed.
 */
export interface Rule {
  id: string;
  appliesTo: 'all' | readonly EcfType[];
  /** DGII document and section, or the service spec section. */
  source: string;
  description: string;
  check(input: RuleInput): Issue[];
}

/**
 * Where a rule comes from (issue 15, "never stricter than DGII"):
 * - `dgii`: mirrors a documented DGII rejection (Formato e-CF, IT, a DGII rejection code);
 * - `spec`: a reading of the service spec (or of the Formato) that DGII is not known to enforce;
 * - `advice`: our own advice;
 * - `tolerance`: a tolerance question (DGII answers *Aceptado Condicional* or nothing).
 */
export type RuleOrigin = 'dgii' | 'spec' | 'advice' | 'tolerance';

/**
 * A row of the rule table: the rule and its classification. `severity` is the most a rule may report: a `warning`
 * row turns every issue of the rule into a warning (it travels with the 202 and `safeValidateEcf`'s `warnings`); an
 * `error` row keeps the rule's own issues (an error rule may still warn, e.g. within the IT §12 tolerance).
 */
export interface RuleRow {
  rule: Rule;
  origin: RuleOrigin;
  severity: 'error' | 'warning';
}

/** Helper for rules: an error issue with the rule id. */
export function ruleIssue(ruleId: string, path: string, message: string, code: Issue['code'] = 'rule', params?: Record<string, unknown>): Issue {
  return { code, path, message, severity: 'error', ruleId, ...(params ? { params } : {}) };
}

export function ruleWarning(ruleId: string, path: string, message: string, params?: Record<string, unknown>): Issue {
  return { code: 'rule', path, message, severity: 'warning', ruleId, ...(params ? { params } : {}) };
}
