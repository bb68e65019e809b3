import { DGII_ENVIRONMENTS, type DgiiEnvironment } from '../index.js';
import { UsageError } from '../../shared/cli/command.js';

/** Refuses flags a command does not know. */
export function rejectUnknownFlags(flags: Record<string, string | true>, known: readonly string[]): void {
  const unknown = Object.keys(flags).filter((k) => !known.includes(k));
  if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
}

/** One of `allowed`, or undefined when the flag is absent. */
export function choiceFlag<T extends string>(flags: Record<string, string | true>, name: string, allowed: readonly T[]): T | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** `--env` (default `ecf`, production), `--env-case`, `--path-case`: the timbre (QR) URL options. */
export function timbreFlags(flags: Record<string, string | true>): {
  environment: DgiiEnvironment;
  environmentCase?: 'lower' | 'mixed';
  pathCase?: 'pascal' | 'lower';
} {
  const environment = choiceFlag(flags, 'env', DGII_ENVIRONMENTS) ?? 'ecf';
  const environmentCase = choiceFlag(flags, 'env-case', ['lower', 'mixed'] as const);
  const pathCase = choiceFlag(flags, 'path-case', ['pascal', 'lower'] as const);
  return { environment, ...(environmentCase ? { environmentCase } : {}), ...(pathCase ? { pathCase } : {}) };
}

export const TIMBRE_FLAGS = ['env', 'env-case', 'path-case'] as const;
