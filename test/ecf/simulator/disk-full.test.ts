/**
 * Issue 13, finding 9: the simulator's state file cannot be written (a full disk) → the process lives on,
 * the failure is reported, and the state is saved once writing works again. The failure is real: the
 * temporary file the simulator writes is a symlink to /dev/full, where every write fails with ENOSPC.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../../src/ecf/simulator/index.js';
import { xsdDir } from '../helpers/env.js';

const dir = mkdtempSync(join(tmpdir(), 'ecf-sim-full-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const until = async (ok: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('simulator: a full disk does not kill the process', () => {
  it('reports ENOSPC, keeps serving, retries and saves once the disk has room again', async () => {
    const state = join(dir, 'state');
    mkdirSync(state);
    const dataFile = join(state, 'sim.json');
    const tmp = `${dataFile}.${process.pid}.tmp`;
    symlinkSync('/dev/full', tmp);
    const failures: unknown[] = [];
    const sim = await startSimulator({
      xsdDir: xsdDir(),
      dataFile,
      processingDelayMs: 10,
      logger: { warn: (obj: { err?: unknown }) => void failures.push(obj.err) },
    });
    try {
      sim.addDirectoryEntry({
        nombre: 'Disco Lleno SRL',
        rnc: '131880681',
        urlRecepcion: 'https://a.example/fe/recepcion/api/ecf',
        urlAceptacion: null,
        urlOpcional: null,
      });
      await until(() => failures.length > 0);
      expect((failures[0] as NodeJS.ErrnoException).code).toBe('ENOSPC');
      expect(existsSync(dataFile)).toBe(false);
      // Still serving.
      const res = await fetch(`${sim.url}/_simulator/stats`);
      expect(res.status).toBe(200);
      // Room again: the pending change is saved by a later attempt, with no further change needed.
      unlinkSync(tmp);
      await until(() => existsSync(dataFile));
      expect(readFileSync(dataFile, 'utf8')).toContain('Disco Lleno SRL');
      expect(statSync(dataFile).mode & 0o777).toBe(0o600);
      // Full again at close: close() reports and returns instead of throwing.
      symlinkSync('/dev/full', tmp);
      sim.addDirectoryEntry({
        nombre: 'Otra SRL',
        rnc: '131880738',
        urlRecepcion: 'https://b.example/fe/recepcion/api/ecf',
        urlAceptacion: null,
        urlOpcional: null,
      });
    } finally {
      const before = failures.length;
      await sim.close();
      expect(failures.length).toBeGreaterThan(before);
    }
  });
});
