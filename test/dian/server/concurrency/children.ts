/**
 * Child processes of the DIAN multi-process tests (./multiprocess.test.ts, test/dian/reliability/faults.test.ts):
 * `node --import tsx <script>` started until it prints its ready line, stopped with SIGTERM (SIGKILL after 15 s) or
 * killed outright. Only processes started here are signalled, each by its own handle.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../helpers/env.js';

export interface Child {
  child: ChildProcess;
  urls: string[];
  stderr: () => string;
}

/**
 * Runs `node --import tsx <script>` and resolves once it prints `<word> <url…>` on stdout. `script` is a file of this
 * folder, or a path from the repository root when it holds a `/`.
 */
export function startChild(script: string, word: string, env: Record<string, string>): Promise<Child> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', script.includes('/') ? join(repoRoot, script) : join(repoRoot, 'test/dian/server/concurrency', script)],
    {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr!.on('data', (c) => {
    err += String(c);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not start in 45 s:\n${out}\n${err}`));
    }, 45_000);
    child.stdout!.on('data', (c) => {
      out += String(c);
      const m = new RegExp(`^${word} (.+)$`, 'm').exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, urls: m[1]!.trim().split(' '), stderr: () => err });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before starting:\n${out}\n${err}`));
    });
  });
}

export function stopChild(p: Child): Promise<number | null> {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null) return resolve(p.child.exitCode);
    const force = setTimeout(() => p.child.kill('SIGKILL'), 15_000);
    p.child.once('exit', (code) => {
      clearTimeout(force);
      resolve(code);
    });
    p.child.kill('SIGTERM');
  });
}

/** SIGKILL, as a crash: resolves once the process is gone. */
export function killChild(p: Child): Promise<void> {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve();
    p.child.once('exit', () => resolve());
    p.child.kill('SIGKILL');
  });
}
