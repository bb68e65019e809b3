/**
 * The facho peer (Python, bench/peers/facho_driver.py) as one long-lived child process: it starts once (imports
 * and codelists outside every timing), then builds, signs and zips N invoices per `run(n)` and answers with its own
 * wall time. Its Python is FACHO_PYTHON, else ~/.cache/ecf-kit-bench/facho-venv/bin/python (docs/dian/performance.md
 * says how to set it up); when that is missing or facho does not start, `startFacho` says why instead.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface FachoPeer {
  /** facho's version and the Python running it. */
  version: string;
  /** Builds, signs and zips `n` invoices; resolves with facho's wall time for the `n`, in ms. */
  run(n: number): Promise<number>;
  /** Writes one signed invoice to `path`. */
  sample(path: string): Promise<void>;
  close(): void;
}

export const FACHO_PYTHON = process.env.FACHO_PYTHON ?? resolve(homedir(), '.cache/ecf-kit-bench/facho-venv/bin/python');
const DRIVER = resolve(dirname(fileURLToPath(import.meta.url)), 'facho_driver.py');

/** Starts the driver with the PKCS#12 at `p12Path`; `{ missing }` says why the peer cannot run. */
export async function startFacho(p12Path: string, password: string): Promise<FachoPeer | { missing: string }> {
  if (!existsSync(FACHO_PYTHON)) return { missing: `no Python at ${FACHO_PYTHON} (set FACHO_PYTHON)` };
  const child: ChildProcessWithoutNullStreams = spawn(FACHO_PYTHON, [DRIVER, p12Path, password], { stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const waiting: ((line: string | null) => void)[] = [];
  let buffered = '';
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    for (let i = buffered.indexOf('\n'); i >= 0; i = buffered.indexOf('\n')) {
      const line = buffered.slice(0, i);
      buffered = buffered.slice(i + 1);
      waiting.shift()?.(line);
    }
  });
  child.on('close', () => {
    for (const w of waiting.splice(0)) w(null);
  });
  child.on('error', () => {
    for (const w of waiting.splice(0)) w(null);
  });
  const next = () => new Promise<string | null>((r) => waiting.push(r));
  const ask = async (command: string) => {
    const answer = next();
    child.stdin.write(`${command}\n`);
    const line = await answer;
    if (line === null) throw new Error(`facho driver exited: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
    return line;
  };
  const ready = await next();
  if (!ready?.startsWith('ready ')) {
    child.kill();
    return { missing: `facho did not start: ${stderr.trim().split('\n').at(-1) || 'no output'}` };
  }
  const version = ready.slice('ready '.length);
  return {
    version,
    async run(n) {
      const line = await ask(`run ${n}`);
      const m = /^ms (\S+)$/.exec(line);
      if (!m) throw new Error(`facho driver answered ${line}`);
      return Number(m[1]);
    },
    async sample(path) {
      const line = await ask(`sample ${path}`);
      if (line !== 'ok') throw new Error(`facho driver answered ${line}`);
    },
    close() {
      child.stdin.end('quit\n');
    },
  };
}
