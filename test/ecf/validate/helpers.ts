/** Assertions shared by the validation tests. */
import { expect } from 'vitest';
import type { Issue } from '../../../src/shared/issues.js';
import type { EcfType } from '../../../src/ecf/spec/model.js';
import { safeValidateEcfJson, type SafeValidateResult } from '../../../src/ecf/validate/index.js';
import { BASE_FECHA_EMISION } from '../helpers/docs.js';

type Json = Record<string, any>;

/** Validates with the base issue date; pass `null` for an unknown issue date. */
export function validate(tipo: EcfType, doc: Json, fechaEmision: string | null = BASE_FECHA_EMISION): SafeValidateResult {
  return safeValidateEcfJson(tipo, doc, fechaEmision === null ? {} : { fechaEmision });
}

export function errorsOf(r: SafeValidateResult): Issue[] {
  return r.success ? [] : r.issues;
}

const SPANISH = /\b(el|la|los|las|de|del|no|se|en|un|una|por|debe|campo|tipo|fecha|formato|requerido|esperaba|permitido|admite)\b/i;
const ENGLISH = /\b(the|must|should|required|allowed|expected|field|not)\b/;

/** Spanish text: Spanish function words present, no English ones. */
export function expectSpanish(message: string): void {
  expect(message, `no parece español: ${message}`).toMatch(SPANISH);
  expect(message, `contiene inglés: ${message}`).not.toMatch(ENGLISH);
}

/** The error at `path` with `code` (fails listing every error when absent). */
export function expectError(r: SafeValidateResult, path: string, code: Issue['code'], keyword?: RegExp, ruleId?: string): Issue {
  const errs = errorsOf(r);
  const hit = errs.find((i) => i.path === path && i.code === code && (ruleId === undefined || i.ruleId === ruleId));
  expect(hit, `se esperaba ${code} en ${path}${ruleId ? ` (${ruleId})` : ''}; errores: ${JSON.stringify(errs, null, 1)}`).toBeDefined();
  expectSpanish(hit!.message);
  if (keyword) expect(hit!.message).toMatch(keyword);
  return hit!;
}

export function expectValid(r: SafeValidateResult): void {
  expect(errorsOf(r), JSON.stringify(errorsOf(r), null, 1)).toEqual([]);
}

export function expectWarning(r: SafeValidateResult, path: string, ruleId?: string): Issue {
  const hit = r.warnings.find((w) => w.path === path && (ruleId === undefined || w.ruleId === ruleId));
  expect(hit, `se esperaba advertencia en ${path}; advertencias: ${JSON.stringify(r.warnings, null, 1)}`).toBeDefined();
  expectSpanish(hit!.message);
  return hit!;
}
