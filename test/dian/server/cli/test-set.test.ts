/**
 * The test-set admin commands on a data directory: `company add --test-set-id`, `company set --test-set-id |
 * --no-test-set` (stored, printed), `test-set status`; bad ids and unknown companies exit 1, wrong flag
 * combinations are usage errors.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dianAdminCommands } from '../../../../src/dian/cli/admin.js';
import { dianTestSetCommands } from '../../../../src/dian/cli/test-set.js';
import { openDianStorage } from '../../../../src/dian/server/index.js';
import { UsageError } from '../../../../src/shared/cli/command.js';
import { fakeIo } from '../../../ecf/helpers/cli.js';

const TEST_SET = '11111111-2222-4333-8444-555555555555';
let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'dian-admin-test-set-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function admin(argv: string[]) {
  const name = `dian admin ${argv[0]} ${argv[1]}`;
  const cmd = [...dianAdminCommands, ...dianTestSetCommands].find((c) => c.name === name)!;
  const f = fakeIo({}, {}, { disk: true });
  const code = await cmd.run([...argv.slice(2), '--data-dir', dataDir], f.io);
  return { code, out: f.out(), err: f.err() };
}

async function storedTestSet(nit: string): Promise<string | null | undefined> {
  const storage = await openDianStorage({ dataDir });
  try {
    return (await storage.getCompanyByNit(nit))?.testSetId;
  } finally {
    await storage.close();
  }
}

describe('ecf dian admin: the test set', () => {
  it('company add --test-set-id stores it; company set switches it off and on; test-set status prints the counts', async () => {
    const add = ['company', 'add', '--nit', '901458732', '--profile', 'examples/dian/context.json', '--software-id', 'sw', '--pin', '1'];
    const c = await admin([...add, '--test-set-id', TEST_SET]);
    expect(c.code, c.err).toBe(0);
    expect((JSON.parse(c.out) as { company: { test_set_id: string } }).company.test_set_id).toBe(TEST_SET);
    expect(await storedTestSet('901458732')).toBe(TEST_SET);

    const off = await admin(['company', 'set', '--nit', '901458732', '--no-test-set']);
    expect(off.code, off.err).toBe(0);
    expect((JSON.parse(off.out) as { company: { test_set_id: string | null } }).company.test_set_id).toBeNull();
    expect(await storedTestSet('901458732')).toBeNull();

    const on = await admin(['company', 'set', '--nit', '901458732', '--test-set-id', 'abc-123']);
    expect(on.code, on.err).toBe(0);
    expect(await storedTestSet('901458732')).toBe('abc-123');

    const status = await admin(['test-set', 'status', '--nit', '901458732']);
    expect(status.code, status.err).toBe(0);
    expect(JSON.parse(status.out)).toMatchObject({ company: { nit: '901458732', test_set_id: 'abc-123' }, test_sets: [] });

    // A company added without one has none.
    const plain = await admin(['company', 'add', '--nit', '900373076', '--profile', 'examples/dian/context.json', '--software-id', 'sw', '--pin', '1']);
    expect(plain.code, plain.err).toBe(0);
    expect((JSON.parse(plain.out) as { company: { test_set_id: string | null } }).company.test_set_id).toBeNull();
  });

  it('refuses a malformed id and an unknown company (exit 1); usage errors for wrong flags', async () => {
    const bad = await admin(['company', 'set', '--nit', '901458732', '--test-set-id', 'no spaces; please']);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/test set id/);
    const badAdd = await admin([
      'company',
      'add',
      '--nit',
      '901458733',
      '--profile',
      'examples/dian/context.json',
      '--software-id',
      'sw',
      '--pin',
      '1',
      '--test-set-id',
      'x y',
    ]);
    expect(badAdd.code).toBe(1);
    const unknown = await admin(['company', 'set', '--nit', '123456789', '--no-test-set']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/unknown company/);
    expect((await admin(['test-set', 'status', '--nit', '123456789'])).code).toBe(1);
    await expect(admin(['company', 'set', '--nit', '901458732'])).rejects.toBeInstanceOf(UsageError);
    await expect(admin(['company', 'set', '--nit', '901458732', '--test-set-id', TEST_SET, '--no-test-set'])).rejects.toBeInstanceOf(UsageError);
    await expect(admin(['company', 'set', '--nit', '901458732', '--test-set'])).rejects.toBeInstanceOf(UsageError);
    expect(await storedTestSet('901458732')).toBe('abc-123');
  });
});
