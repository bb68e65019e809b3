/**
 * `ecf dian admin company set --nit N --test-set-id ID | --no-test-set`: puts a company into habilitación's
 * test-set mode (its documents go out with SendTestSetAsync, verdicts read with GetStatusZip) or takes it out
 * (SendBillSync again). `ecf dian admin test-set status --nit N`: the company's test sets with the counts of the
 * documents this service sent to each (accepted, rejected, pending), from its own database.
 * Same storage flags and exit codes as the other admin commands (./admin.ts).
 */
import { parseFlags, requireFlag, UsageError, type CliCommand } from '../../shared/cli/command.js';
import { command, companyJson, print, STORAGE_FLAGS, withStorage } from './admin.js';

const companySet = command({
  name: 'dian admin company set',
  summary: "Set or clear a DIAN company's habilitación test set (documents then go out with SendTestSetAsync)",
  usage: 'ecf dian admin company set --nit NIT (--test-set-id ID | --no-test-set) [--data-dir DIR] [--database-url URL]',
  async body(args, io) {
    const { flags, positional } = parseFlags(args, ['no-test-set']);
    const unknown = Object.keys(flags).filter((k) => !['nit', 'test-set-id', 'no-test-set', ...STORAGE_FLAGS].includes(k));
    if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
    if (positional.length) throw new UsageError(`unexpected argument(s): ${positional.join(' ')}`);
    const nit = requireFlag(flags, 'nit');
    const id = flags['test-set-id'];
    const clear = flags['no-test-set'] === true;
    if (id === true) throw new UsageError('--test-set-id needs the test set id DIAN gave the software');
    if ((id === undefined) === !clear) throw new UsageError('give exactly one of --test-set-id ID or --no-test-set');
    const { setCompanyTestSet } = await import('../server/index.js');
    await withStorage(flags, io, async (storage) => {
      print(io, { company: companyJson(await setCompanyTestSet(storage, nit, clear ? null : (id as string))) });
    });
  },
});

const testSetStatus = command({
  name: 'dian admin test-set status',
  summary: "A DIAN company's test set and the documents sent to each test set (accepted, rejected, pending)",
  usage: 'ecf dian admin test-set status --nit NIT [--data-dir DIR] [--database-url URL]',
  async body(args, io) {
    const { flags, positional } = parseFlags(args);
    const unknown = Object.keys(flags).filter((k) => !['nit', ...STORAGE_FLAGS].includes(k));
    if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
    if (positional.length) throw new UsageError(`unexpected argument(s): ${positional.join(' ')}`);
    const nit = requireFlag(flags, 'nit');
    const { DianAdminError } = await import('../server/index.js');
    await withStorage(flags, io, async (storage) => {
      const company = await storage.getCompanyByNit(nit);
      if (!company) throw new DianAdminError(`unknown company: no company with NIT ${nit}`);
      const sets = await storage.testSetProgress(company.id);
      print(io, {
        company: companyJson(company),
        test_sets: sets.map((s) => ({ test_set_id: s.testSetId, accepted: s.accepted, rejected: s.rejected, pending: s.pending })),
      });
    });
  },
});

/** The test-set admin commands (spread into `ecf dian …` by ./index.ts). */
export const dianTestSetCommands: CliCommand[] = [companySet, testSetStatus];
