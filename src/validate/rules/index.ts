import type { Rule } from '../rule.js';

/** Every business rule, in the order they run. */
export const RULES: readonly Rule[] = [];
