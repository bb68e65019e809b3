/**
 * Issue 13, finding 11: a real DGII authority is production (no development key file, ECF_CERT_KEY required,
 * loopback unless HOST says otherwise); the data directory is created 0700 and the files in it are 0600; the
 * in-process simulator's control API answers only to the per-process token.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../../src/ecf/server/config.js';
import { startServer } from '../../../../src/ecf/server/main.js';
import { xsdDir } from '../../helpers/env.js';

const HEX_KEY = 'b'.repeat(64);
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const mode = (p: string) => statSync(p).mode & 0o777;

describe('a real authority is production', () => {
  it.each(['testecf', 'certecf', 'ecf'])('ECF_AUTHORITY=%s without NODE_ENV requires ECF_CERT_KEY', (authority) => {
    let error: unknown = null;
    try {
      loadConfig({ ECF_AUTHORITY: authority });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.join('\n')).toMatch(/requires ECF_CERT_KEY/);
    const c = loadConfig({ ECF_AUTHORITY: authority, ECF_CERT_KEY: HEX_KEY });
    expect(c.production).toBe(true);
    // Loopback unless HOST is set explicitly (a reverse proxy in front; HOST=0.0.0.0 for a container).
    expect(c.host).toBe('127.0.0.1');
    expect(loadConfig({ ECF_AUTHORITY: authority, ECF_CERT_KEY: HEX_KEY, HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });
});

describe('files and the control API of the embedded server', () => {
  it('creates the data directory 0700 and its files 0600; the control API needs the process token', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'ecf-perm-'));
    dirs.push(parent);
    const dataDir = join(parent, 'data');
    const server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        ECF_DATA_DIR: dataDir,
        ECF_XSD_DIR: xsdDir(),
        LOG_LEVEL: 'silent',
        ECF_WORKER: 'off',
      }),
    );
    try {
      expect(mode(dataDir)).toBe(0o700);
      for (const f of ['ecf.sqlite', 'ecf.sqlite-wal', 'ecf.sqlite-shm', 'certificate.key']) {
        expect(existsSync(join(dataDir, f)), f).toBe(true);
        expect(mode(join(dataDir, f)), f).toBe(0o600);
      }
      const stats = `${server.simulatorUrl}/_simulator/stats`;
      expect((await fetch(stats)).status).toBe(401);
      expect((await fetch(stats, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
      const token = server.simulatorControlToken!;
      expect(token.length).toBeGreaterThanOrEqual(32);
      const ok = await fetch(`${server.simulatorUrl}/_simulator/directory`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ nombre: 'Permisos SRL', rnc: '131880681', urlRecepcion: 'https://p.example/fe/recepcion/api/ecf' }),
      });
      expect(ok.status).toBe(200);
    } finally {
      await server.close();
    }
    expect(mode(join(dataDir, 'simulator.json'))).toBe(0o600);
  });
});
