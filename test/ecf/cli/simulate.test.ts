import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/shared/cli/command.js';
import { runSimulate, simulateCommand } from '../../../src/ecf/cli/simulate.js';
import { fakeIo } from '../helpers/cli.js';
import { repoRoot, xsdDir } from '../helpers/env.js';

const dir = mkdtempSync(join(tmpdir(), 'ecf-simulate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function until<T>(fn: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const v = fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('ecf simulate', () => {
  it('prints the URL, serves the protocol, and closes (saving its state) when stopped', async () => {
    const data = join(dir, 'state.json');
    const { io, out } = fakeIo({}, { ECF_XSD_DIR: xsdDir() });
    const stop = new AbortController();
    const done = runSimulate(['--port', '0', '--delay', '5', '--data', data, '--seed', '3'], io, stop.signal);
    const url = await until(() => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out())?.[1], 'the URL');
    const seed = await fetch(`${url}/testecf/autenticacion/api/autenticacion/semilla`);
    expect(seed.status).toBe(200);
    expect(await seed.text()).toContain('<SemillaModel');
    stop.abort();
    expect(await done).toBe(0);
    expect(out()).toContain('DGII simulator stopped.');
    expect(existsSync(data)).toBe(true);
    await expect(fetch(`${url}/testecf/autenticacion/api/autenticacion/semilla`)).rejects.toThrow();
  });

  it('usage errors: no XSD directory, a bad port, unknown options', async () => {
    const stop = new AbortController().signal;
    await expect(runSimulate([], fakeIo({}, {}).io, stop)).rejects.toThrow(/--xsd/);
    await expect(runSimulate(['--port', '70000', '--xsd', xsdDir()], fakeIo().io, stop)).rejects.toThrow(UsageError);
    await expect(runSimulate(['--puerto', '1', '--xsd', xsdDir()], fakeIo().io, stop)).rejects.toThrow(/unknown option/);
    expect(simulateCommand.name).toBe('simulate');
  });

  it('the command runs until SIGTERM, then exits 0', async () => {
    const script = [
      "import { simulateCommand } from './src/ecf/cli/simulate.ts';",
      'const io = { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s), readFile: async () => new Uint8Array(), env: process.env };',
      'process.exitCode = await simulateCommand.run(process.argv.slice(1), io);',
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, '--', '--port', '0'], {
      cwd: repoRoot,
      env: { ...process.env, ECF_XSD_DIR: xsdDir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await until(() => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1], `the URL (stderr: ${stderr})`);
      expect(
        (await fetch(`${url}/api/estatusservicios/verificarestado?ambiente=1`, { headers: { authorization: 'Apikey x', accept: 'application/json' } })).status,
      ).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stdout).toContain('DGII simulator stopped.');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
