/**
 * Child processes of the DIAN multi-process tests (./multiprocess.test.ts, test/dian/reliability/faults.test.ts) and
 * of bench/dian-server.ts: `node --import tsx <script>` started and awaited until it prints its ready line, stopped
 * with SIGTERM (SIGKILL after 15 s) or killed outright, and (with `ipc`) asked for its own CPU time and memory over
 * the IPC channel (./usage.ts answers in the child). Only processes started here are signalled, each by its own handle.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addCompany, addResolution, type DianStorage, type NewResolution } from '../../../../src/dian/server/index.js';
import { repoRoot } from '../../helpers/env.js';
import { EXAMPLE_NIT } from '../helpers.js';

export interface Child {
  child: ChildProcess;
  /** The words after the ready word of the child's ready line (URLs). */
  urls: string[];
  stderr: () => string;
}

export interface ChildOptions {
  /** Node flags before the script (`--expose-gc`, `--cpu-prof`, …). */
  nodeArgs?: string[];
  /** Open an IPC channel (for {@link childUsage}). */
  ipc?: boolean;
  /** Start deadline (default 45 s). */
  startTimeoutMs?: number;
}

/**
 * Runs `node --import tsx <script>` and resolves once it prints `<word> <url…>` on stdout. `script` is a file of this
 * folder, or a path from the repository root when it holds a `/`.
 */
export function startChild(script: string, word: string, env: Record<string, string | undefined>, options: ChildOptions = {}): Promise<Child> {
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), '--import', 'tsx', script.includes('/') ? join(repoRoot, script) : join(repoRoot, 'test/dian/server/concurrency', script)],
    {
      cwd: repoRoot,
      env: Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined)),
      stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr!.on('data', (c) => {
    err += String(c);
  });
  const timeoutMs = options.startTimeoutMs ?? 45_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not start in ${timeoutMs / 1000} s:\n${out}\n${err}`));
    }, timeoutMs);
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

/** SIGTERM, then SIGKILL after 15 s; resolves with the exit code. */
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

/** What a child reports of itself (./usage.ts). */
export interface ChildUsage {
  /** process.cpuUsage() of the child: user and system CPU time since it started, µs. */
  cpu: { user: number; system: number };
  /** performance.eventLoopUtilization() of the child since it started: ms the main thread ran and idled. */
  eventLoop: { idle: number; active: number };
  /** V8 heap used, MB, after a full GC when `gc` was asked and the child runs with --expose-gc (else as it is). */
  heapUsedMb: number;
  /** Whether a full GC ran before `heapUsedMb` was read. */
  gcForced: boolean;
  rssMb: number;
}

/** Asks a child started with `ipc: true` for its usage (`gc`: a full GC first, when it has --expose-gc). */
export function childUsage(p: Child, gc = false): Promise<ChildUsage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the child did not report its usage within 10 s')), 10_000);
    p.child.once('message', (m) => {
      clearTimeout(timer);
      resolve(m as ChildUsage);
    });
    p.child.send({ usage: true, gc });
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

/** The example company's context (examples/dian/context.json): what the multi-process setups register. */
export const EXAMPLE_CONTEXT = JSON.parse(readFileSync(join(repoRoot, 'examples/dian/context.json'), 'utf8'));

/** An invoice numbering range of the example company (a resolution without its kind). */
export type ExampleRange = Omit<NewResolution, 'kind'>;

/**
 * Migrates `storage`, adds the example company (sealed under `certificateKeyHex`) with `range` for invoices, closes
 * the storage and returns the company's token: the one-time setup the server processes then share.
 */
export async function addExampleCompany(storage: DianStorage, certificateKeyHex: string, range: ExampleRange): Promise<string> {
  try {
    await storage.migrate();
    const added = await addCompany(
      storage,
      {
        nit: EXAMPLE_NIT,
        profile: EXAMPLE_CONTEXT.company,
        softwareId: EXAMPLE_CONTEXT.software.id,
        softwarePin: EXAMPLE_CONTEXT.software.pin,
        providerNit: EXAMPLE_CONTEXT.software.provider_nit,
        providerDv: EXAMPLE_CONTEXT.software.provider_dv,
      },
      new Uint8Array(Buffer.from(certificateKeyHex, 'hex')),
    );
    await addResolution(storage, EXAMPLE_NIT, { kind: 'invoice', ...range });
    return added.token;
  } finally {
    await storage.close();
  }
}

/** `DIAN_SIM_SEED` for ./simulator-process.ts: what the real DIAN knows of the example company from habilitación. */
export function exampleSimulatorSeed(range: ExampleRange): string {
  const software = EXAMPLE_CONTEXT.software;
  return JSON.stringify({
    companies: [{ nit: EXAMPLE_NIT, name: EXAMPLE_CONTEXT.company.name, softwareId: software.id, pin: software.pin, providerNit: software.provider_nit }],
    ranges: [{ nit: EXAMPLE_NIT, softwareId: software.id, ...range, from: String(range.from), to: String(range.to) }],
  });
}
