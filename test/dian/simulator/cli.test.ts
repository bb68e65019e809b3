/** `ecf dian simulate`: prints the service and control URLs and the seeded example company, whose ranges it serves. */
import { describe, expect, it } from 'vitest';
import { runDianSimulate } from '../../../src/dian/cli/simulate.js';
import { DIAN_SIM_EXAMPLE_COMPANY as company } from '../../../src/dian/simulator/index.js';
import { UsageError } from '../../../src/shared/cli/command.js';
import { dianXsdDir } from '../helpers/env.js';
import { client } from './fixtures.js';

const io = (out: string[]) => ({
  stdout: (s: string | Uint8Array) => out.push(String(s)),
  stderr: () => {},
  readFile: async () => new Uint8Array(),
  env: {},
});

describe('ecf dian simulate', () => {
  it('serves the example company until stopped', async () => {
    const out: string[] = [];
    const stop = new AbortController();
    const running = runDianSimulate(['--port', '0', '--xsd', dianXsdDir(), '--seed', '3'], io(out), stop.signal);
    for (let i = 0; i < 200 && out.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    const text = out.join('');
    const url = /listening on (\S+)/.exec(text)![1]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/WcfDianCustomerServices\.svc$/);
    expect(text).toContain(`NIT ${company.nit}`);
    expect(text).toContain(`PIN ${company.pin}`);
    const dian = createClient(url);
    const ranges = await dian.getNumberingRange(company.nit, company.nit, company.softwareId);
    await dian.close();
    expect(ranges.ranges.map((r) => r.prefix)).toEqual(['SETP']);
    stop.abort();
    expect(await running).toBe(0);
    expect(out.join('')).toContain('DIAN simulator stopped.');
  });

  it('refuses unknown options', async () => {
    await expect(runDianSimulate(['--nope', '1'], io([]), AbortSignal.abort())).rejects.toBeInstanceOf(UsageError);
  });
});

/** The simulator's clock is the system's here: a client on the system clock. */
function createClient(url: string) {
  return client(url, { clockOffsetMs: Date.now() - new Date('2024-05-10T15:00:00Z').getTime() });
}
