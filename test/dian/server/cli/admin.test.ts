/**
 * `ecf dian admin company add | token add | resolution add` on a data directory, then `startDianServer` on
 * the same directory: the token printed issues an invoice against the local DIAN seeded at start.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dianAdminCommands } from '../../../../src/dian/cli/admin.js';
import { startDianServer } from '../../../../src/dian/server/index.js';
import { UsageError } from '../../../../src/shared/cli/command.js';
import { fakeIo } from '../../../ecf/helpers/cli.js';
import { dianXsdDir } from '../../helpers/env.js';
import { example, NOW, QUIET } from '../helpers.js';

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'dian-admin-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs `ecf dian admin <noun> <verb> …` on the test's data directory. */
async function admin(argv: string[]) {
  const cmd = dianAdminCommands.find((c) => c.name === `dian admin ${argv[0]} ${argv[1]}`)!;
  const f = fakeIo({}, {}, { disk: true });
  const code = await cmd.run([...argv.slice(2), '--data-dir', dataDir], f.io);
  return { code, out: f.out(), err: f.err() };
}

describe('ecf dian admin', () => {
  let token = '';

  it('adds a company from a context file and prints its token once', async () => {
    const r = await admin([
      'company',
      'add',
      '--nit',
      '901458732',
      '--profile',
      'examples/dian/context.json',
      '--software-id',
      '00000000-0000-4000-8000-000000000000',
      '--pin',
      '12345',
      '--provider-nit',
      '901458732',
      '--provider-dv',
      '8',
    ]);
    expect(r.code, r.err).toBe(0);
    const json = JSON.parse(r.out) as { company: { nit: string; name: string; environment: string }; token: string };
    expect(json.company).toMatchObject({ nit: '901458732', name: 'Ferretería Ejemplo Andina S.A.S.', environment: '2' });
    expect(json.token).toMatch(/^dian_[A-Za-z0-9_-]{43}$/);
    token = json.token;
  });

  it('refuses a second company with the same NIT and an unknown company (exit 1)', async () => {
    const dup = await admin(['company', 'add', '--nit', '901458732', '--profile', 'examples/dian/context.json', '--software-id', 'x', '--pin', '1']);
    expect(dup.code).toBe(1);
    expect(dup.err).toMatch(/901458732/);
    const unknown = await admin(['token', 'add', '--nit', '123456789']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/unknown company/);
  });

  it('adds tokens and resolutions; bad flags are usage errors', async () => {
    const t = await admin(['token', 'add', '--nit', '901458732', '--label', 'ci']);
    expect(t.code).toBe(0);
    expect(JSON.parse(t.out).token).not.toBe(token);
    const r = await admin([
      'resolution',
      'add',
      '--nit',
      '901458732',
      '--kind',
      'invoice',
      '--prefix',
      'SETP',
      '--from',
      '990000000',
      '--to',
      '995000000',
      '--technical-key',
      'clave-tecnica-de-ejemplo-no-valida',
      '--resolution-number',
      '18760000001',
      '--valid-from',
      '2025-01-01',
      '--valid-to',
      '2026-12-31',
    ]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).resolution).toMatchObject({ kind: 'invoice', prefix: 'SETP', from: 990000000, to: 995000000 });
    const badKind = await admin([
      'resolution',
      'add',
      '--nit',
      '901458732',
      '--kind',
      'nope',
      '--from',
      '1',
      '--to',
      '2',
      '--resolution-number',
      '1',
      '--valid-from',
      '2025-01-01',
      '--valid-to',
      '2026-12-31',
    ]);
    expect(badKind.code).toBe(1);
    await expect(admin(['resolution', 'add', '--nit', '901458732', '--kind', 'invoice', '--from', 'x'])).rejects.toBeInstanceOf(UsageError);
  });

  it('startDianServer on that directory issues with the printed token', async () => {
    const server = await startDianServer({ dataDir, xsdDir: dianXsdDir(), clock: () => NOW, env: {}, logger: QUIET });
    try {
      const r = await fetch(`${server.url}/service/invoice`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(example('invoice')),
      });
      const json = (await r.json()) as { document: { statusCode: number } };
      expect(r.status, JSON.stringify(json)).toBe(200);
      expect(json.document.statusCode).toBe(6);
    } finally {
      await server.close();
    }
  });

  it('without --data-dir works where npm start keeps the DIAN service: DIAN_DATA_DIR, else ECF_DATA_DIR', async () => {
    const cmd = dianAdminCommands.find((c) => c.name === 'dian admin token add')!;
    const other = mkdtempSync(join(tmpdir(), 'dian-admin-other-'));
    try {
      const viaEcf = fakeIo({}, { ECF_DATA_DIR: dataDir }, { disk: true });
      expect(await cmd.run(['--nit', '901458732'], viaEcf.io), viaEcf.err()).toBe(0);
      const viaDian = fakeIo({}, { DIAN_DATA_DIR: other, ECF_DATA_DIR: dataDir }, { disk: true });
      expect(await cmd.run(['--nit', '901458732'], viaDian.io)).toBe(1); // the company lives in dataDir, not in DIAN_DATA_DIR
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
