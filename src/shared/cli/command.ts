/** A CLI command: thin, over the public SDK API. Returns the process exit code. */
import { EcfError } from '../errors/ecf-error.js';
export interface CliIo {
  stdout: (s: string | Uint8Array) => void;
  stderr: (s: string) => void;
  readFile: (path: string) => Promise<Uint8Array>;
  env: Record<string, string | undefined>;
}

export interface CliCommand {
  /** Space-separated command words, e.g. `build` or `xsd install`. */
  name: string;
  summary: string;
  usage: string;
  run(args: string[], io: CliIo): Promise<number>;
}

/** Minimal flag parser: `--key value`, `--flag` (boolean), positional args. */
export function parseFlags(args: string[], booleans: readonly string[] = []): { flags: Record<string, string | true>; positional: string[] } {
  const flags: Record<string, string | true> = {};
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) {
        flags[a.slice(2, eq)] = a.slice(eq + 1);
        continue;
      }
      const key = a.slice(2);
      if (booleans.includes(key) || i + 1 >= args.length || args[i + 1]!.startsWith('--')) flags[key] = true;
      else flags[key] = args[++i]!;
    } else positional.push(a);
  }
  return { flags, positional };
}

/** An optional flag's value: undefined when absent; `--name` given without a value (or empty) is a usage error. */
export function optionalFlag(flags: Record<string, string | true>, name: string): string | undefined {
  const v = flags[name];
  if (v === true || v === '') throw new UsageError(`--${name} needs a value`);
  return v;
}

/** An optional integer flag (decimal digits) from `min` to `max`; undefined when absent. */
export function intFlag(flags: Record<string, string | true>, name: string, min: number, max: number): number | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return Number(v);
}

export class UsageError extends EcfError {
  constructor(message: string) {
    super(message, { code: 'usage' });
    this.name = 'UsageError';
  }
}

export function requireFlag(flags: Record<string, string | true>, name: string): string {
  const v = flags[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`missing --${name}`);
  return v;
}
