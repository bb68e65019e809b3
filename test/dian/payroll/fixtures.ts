/** The payroll examples (examples/dian/payroll-*.json) and the example context, for the payroll tests. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { PayrollContext, PayrollKindId, PayrollRequest } from '../../../src/dian/index.js';
import { EXAMPLES_DIR } from '../helpers/examples.js';

/** Every payroll example: name, kind, request. */
export const PAYROLL_EXAMPLES: [string, PayrollKindId, PayrollRequest][] = [
  ['payroll-min', 'payroll'],
  ['payroll-max', 'payroll'],
  ['payroll-adjustment-replace', 'payroll-adjustment'],
  ['payroll-adjustment-delete', 'payroll-adjustment'],
].map(([name, kind]) => [name!, kind as PayrollKindId, JSON.parse(readFileSync(resolve(EXAMPLES_DIR, `${name}.json`), 'utf8')) as PayrollRequest]);

/** A fixed clock (never read by the examples, which carry their generation date and time). */
export const NOW = new Date('2026-04-01T13:30:00Z');

/** examples/dian/context.json with the fixed clock. */
export const PAYROLL_CONTEXT: PayrollContext = {
  ...(JSON.parse(readFileSync(resolve(EXAMPLES_DIR, 'context.json'), 'utf8')) as PayrollContext),
  now: () => NOW,
};

/** A deep copy of an example's request. */
export const example = (name: string): PayrollRequest => structuredClone(PAYROLL_EXAMPLES.find(([n]) => n === name)![2]);
