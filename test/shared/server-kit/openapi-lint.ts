/**
 * A real OpenAPI linter for the servers' documents: Redocly's `lintFromString` with its `recommended` ruleset.
 * `off` names rules a product turns off on purpose (each one documented in the product's docs, with why).
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';

export interface LintProblem {
  severity: string;
  ruleId: string;
  message: string;
  pointer: string;
}

/** The problems Redocly's recommended ruleset finds in `doc`, with the rules in `off` turned off. */
export async function lintOpenApi(doc: unknown, off: readonly string[] = []): Promise<LintProblem[]> {
  const config = await createConfig({ extends: ['recommended'], rules: Object.fromEntries(off.map((r) => [r, 'off'])) });
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: '/openapi.json', config });
  return problems.map((p) => ({ severity: p.severity, ruleId: p.ruleId, message: p.message, pointer: p.location[0]?.pointer ?? '' }));
}
