/**
 * `ecf dian admin contingency add` on a data directory: the window is stored (the storage answers for an
 * instant inside it and not outside), printed as JSON; bad instants and unknown companies exit 1, a missing
 * flag is a usage error.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dianAdminCommands } from '../../../../src/dian/cli/admin.js';
import { openDianStorage } from '../../../../src/dian/server/index.js';
import { UsageError } from '../../../../src/shared/cli/command.js';
import { fakeIo } from '../../../ecf/helpers/cli.js';

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'dian-admin-contingency-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function admin(argv: string[]) {
  const cmd = dianAdminCommands.find((c) => c.name === `dian admin ${argv[0]} ${argv[1]}`)!;
  const f = fakeIo({}, {}, { disk: true });
  const code = await cmd.run([...argv.slice(2), '--data-dir', dataDir], f.io);
  return { code, out: f.out(), err: f.err() };
}

describe('ecf dian admin contingency add', () => {
  it('stores a window for the company and prints it', async () => {
    const c = await admin(['company', 'add', '--nit', '901458732', '--profile', 'examples/dian/context.json', '--software-id', 'sw', '--pin', '1']);
    expect(c.code, c.err).toBe(0);
    const r = await admin(['contingency', 'add', '--nit', '901458732', '--from', '2025-03-14T08:00:00-05:00', '--to', '2025-03-14T12:30:00-05:00']);
    expect(r.code, r.err).toBe(0);
    const json = JSON.parse(r.out) as { company: { nit: string }; contingency_window: { id: number; from: string; to: string } };
    expect(json.company.nit).toBe('901458732');
    expect(json.contingency_window).toMatchObject({ from: '2025-03-14T13:00:00.000Z', to: '2025-03-14T17:30:00.000Z' });
    const storage = await openDianStorage({ dataDir });
    try {
      const company = (await storage.getCompanyByNit('901458732'))!;
      expect((await storage.contingencyWindowsAt(company.id, Date.parse('2025-03-14T17:30:00Z'))).map((w) => w.id)).toEqual([json.contingency_window.id]);
      expect(await storage.contingencyWindowsAt(company.id, Date.parse('2025-03-14T17:30:01Z'))).toEqual([]);
      expect(await storage.contingencyWindowsAt(company.id, Date.parse('2025-03-14T12:59:59Z'))).toEqual([]);
    } finally {
      await storage.close();
    }
  });

  it('refuses instants without an offset, a window ending before it starts and an unknown company (exit 1)', async () => {
    const local = await admin(['contingency', 'add', '--nit', '901458732', '--from', '2025-03-14T08:00:00', '--to', '2025-03-14T12:00:00Z']);
    expect(local.code).toBe(1);
    expect(local.err).toMatch(/offset/);
    const backwards = await admin(['contingency', 'add', '--nit', '901458732', '--from', '2025-03-14T12:00:00Z', '--to', '2025-03-14T08:00:00Z']);
    expect(backwards.code).toBe(1);
    expect(backwards.err).toMatch(/end after it starts/);
    const unknown = await admin(['contingency', 'add', '--nit', '123456789', '--from', '2025-03-14T08:00:00Z', '--to', '2025-03-14T09:00:00Z']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/unknown company/);
    await expect(admin(['contingency', 'add', '--nit', '901458732', '--from', '2025-03-14T08:00:00Z'])).rejects.toBeInstanceOf(UsageError);
  });
});
