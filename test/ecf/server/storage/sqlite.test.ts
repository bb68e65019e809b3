import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStorage } from '../../../../src/ecf/server/storage/open.js';
import { createSqliteStorage } from '../../../../src/ecf/server/storage/sqlite.js';
import { repoRoot } from '../../helpers/env.js';
import { openSqliteConnection } from '../../../../src/shared/server-kit/storage/sqlite.js';
import { expectClockStamps, newDoc, runStorageContract } from './contract.js';
import { checkBackfill, checkCrashInsideClaim, runIdempotencyContract } from './idempotency-contract.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ecf-sqlite-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

runStorageContract('sqlite (file)', async () => {
  const dir = tempDir();
  const storage = createSqliteStorage({ file: join(dir, 'ecf.sqlite') });
  await storage.migrate();
  return { storage, cleanup: () => storage.close() };
});

runStorageContract('sqlite (:memory:)', async () => {
  const storage = createSqliteStorage({ file: ':memory:' });
  await storage.migrate();
  return { storage, cleanup: () => storage.close() };
});

runIdempotencyContract('sqlite (file)', async (clock) => {
  const storage = createSqliteStorage({ file: join(tempDir(), 'ecf.sqlite'), clock });
  await storage.migrate();
  return { storage, cleanup: () => storage.close() };
});

/** Runs the reserve fixture in a separate Node process; resolves with the e-NCFs it got. */
function reserveInChild(file: string, rnc: string, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'test/ecf/server/storage/fixtures/reserve-child.ts'), file, rnc, String(count)], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      err += c;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`child exited ${code}: ${err}`));
      else resolve(JSON.parse(out) as string[]);
    });
  });
}

describe('sqlite adapter specifics', () => {
  it('stamps every write with the injected clock', async () => {
    const at = Date.UTC(2031, 0, 2, 3, 4, 5);
    const s = createSqliteStorage({ file: ':memory:', clock: () => new Date(at) });
    await s.migrate();
    try {
      await expectClockStamps(s, at);
    } finally {
      await s.close();
    }
  });

  it('two processes reserving on one file get distinct numbers without gaps', async () => {
    const dir = tempDir();
    const file = join(dir, 'ecf.sqlite');
    const s = createSqliteStorage({ file });
    await s.migrate();
    const issuer = await s.createIssuer({ rnc: '131880738', name: 'X', profile: {}, signingMode: 'provider' });
    await s.addSequence(issuer.id, { tipo: '31', from: 1, to: 1000, expiresOn: null });
    // Both children also migrate concurrently with each other.
    const [a, b] = await Promise.all([reserveInChild(file, '131880738', 80), reserveInChild(file, '131880738', 80)]);
    const numbers = [...a, ...b].map((e) => Number(e.slice(3))).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: 160 }, (_, k) => k + 1));
    expect((await s.listSequences(issuer.id))[0]!.next).toBe(161);
    await s.close();
  });

  it('instances opened on one file in one process share a connection and do not deadlock', async () => {
    const file = join(tempDir(), 'ecf.sqlite');
    const s1 = createSqliteStorage({ file });
    const s2 = createSqliteStorage({ file });
    await Promise.all([s1.migrate(), s2.migrate()]);
    const issuer = await s1.createIssuer({ rnc: '101672919', name: 'X', profile: {}, signingMode: 'provider' });
    await s1.addSequence(issuer.id, { tipo: '32', from: 1, to: 100, expiresOn: null });
    const slowMake = async () => {
      await new Promise((r) => setTimeout(r, 2));
      return newDoc();
    };
    const docs = await Promise.all(Array.from({ length: 40 }, (_, k) => (k % 2 ? s1 : s2).reserveAndInsert(issuer.id, '32', '2026-04-01', slowMake)));
    expect(new Set(docs.map((d) => d!.encf)).size).toBe(40);
    await s1.close();
    // The other instance keeps working after one closes.
    expect((await s2.reserveAndInsert(issuer.id, '32', '2026-04-01', () => newDoc()))!.encf).toBe('E320000000041');
    await s2.close();
  });

  it('migration 6 fills rnc_comprador and numero_factura_interna of existing documents from their XML', async () => {
    const file = join(tempDir(), 'ecf.sqlite');
    const conn = openSqliteConnection({ file });
    await checkBackfill(conn.db, 'sqlite', conn.release, async () => createSqliteStorage({ file }));
  });

  it('a process killed inside a keyed reservation leaves neither the key nor the number', async () => {
    const file = join(tempDir(), 'ecf.sqlite');
    const s = createSqliteStorage({ file });
    await s.migrate();
    try {
      const issuer = await s.createIssuer({ rnc: '131880738', name: 'X', profile: {}, signingMode: 'provider' });
      await s.addSequence(issuer.id, { tipo: '31', from: 1, to: 100, expiresOn: null });
      await checkCrashInsideClaim(s, issuer.id, ['sqlite', file, '131880738']);
    } finally {
      await s.close();
    }
  });

  it('openStorage creates the data directory and a migrated database file', async () => {
    const dataDir = join(tempDir(), 'nested', 'data');
    const s = await openStorage({ dataDir });
    expect(existsSync(join(dataDir, 'ecf.sqlite'))).toBe(true);
    const issuer = await s.createIssuer({ rnc: '101672919', name: 'X', profile: {}, signingMode: 'own' });
    await s.close();
    const again = await openStorage({ dataDir });
    expect((await again.getIssuerByRnc('101672919'))?.id).toBe(issuer.id);
    await again.close();
  });
});
