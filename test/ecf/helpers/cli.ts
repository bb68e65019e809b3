import { readFileSync } from 'node:fs';
import type { CliIo } from '../../../src/shared/cli/command.js';

/**
 * A CliIo for tests: records stdout/stderr, serves `files` from memory (and, with `disk`, anything else
 * from the filesystem).
 */
export function fakeIo(files: Record<string, string | Uint8Array> = {}, env: Record<string, string | undefined> = {}, options: { disk?: boolean } = {}) {
  const out: Uint8Array[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (s) => {
      out.push(typeof s === 'string' ? new TextEncoder().encode(s) : s);
    },
    stderr: (s) => {
      err.push(s);
    },
    readFile: async (p) => {
      const f = files[p];
      if (f !== undefined) return typeof f === 'string' ? new TextEncoder().encode(f) : f;
      if (options.disk) return new Uint8Array(readFileSync(p));
      throw new Error(`ENOENT: ${p}`);
    },
    env,
  };
  return { io, out: () => Buffer.concat(out).toString('utf8'), outBytes: () => Buffer.concat(out), err: () => err.join('') };
}
