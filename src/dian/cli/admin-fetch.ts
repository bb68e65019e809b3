/**
 * `ecf dian admin resolution fetch`: asks DIAN for a company's numbering ranges (GetNumberingRange, signed with
 * the company's identity) and stores each as a resolution of one kind, idempotently (`fetchResolutions` of
 * the server: a range is identified by kind, prefix, resolution number, first and last number).
 *
 * Which DIAN: by default the embedded local DIAN the service runs (its state in `${dataDir}/dian-simulator`,
 * opened here on a free local port; the company and its software are registered with it first, as the service
 * does, when it does not know them yet); `--dian-url URL` a DIAN endpoint (`…/WcfDianCustomerServices.svc`: a
 * local DIAN on a port, a proxy); `--environment 1|2` DIAN's own endpoint of production or habilitación.
 */
import { resolve } from 'node:path';
import type { Clock } from '../../shared/ports.js';
import { systemClock } from '../../shared/server-kit/clock.js';
import { type CliCommand, optionalFlag, requireFlag, UsageError } from '../../shared/cli/command.js';
import { type CompanyRecord, type NumberingRangeSource, type ResolutionRecord, simulatorCompany } from '../server/index.js';
import type { DianSimCompany } from '../simulator/index.js';
import { command, companyJson, parse, print, resolutionJson, STORAGE_FLAGS, withStorage } from './admin.js';

/** The command, over `clock` (default: the system clock) for the envelopes' timestamps and the local DIAN. */
export function dianResolutionFetchCommand(options: { clock?: Clock } = {}): CliCommand {
  const clock = options.clock ?? systemClock;
  return command({
    name: 'dian admin resolution fetch',
    summary: "Fetch a DIAN company's numbering ranges with GetNumberingRange and store them as resolutions",
    usage:
      'ecf dian admin resolution fetch --nit NIT [--kind KIND] [--account-code-t NIT] [--dian-url URL | --environment 1|2] [--xsd DIR] [--data-dir DIR] [--database-url URL]',
    async body(args, io) {
      const flags = parse(args, ['nit', 'kind', 'account-code-t', 'dian-url', 'environment', 'xsd', ...STORAGE_FLAGS]);
      const nit = requireFlag(flags, 'nit');
      const kind = optionalFlag(flags, 'kind') ?? 'invoice';
      const accountCodeT = optionalFlag(flags, 'account-code-t');
      const url = optionalFlag(flags, 'dian-url');
      const environment = optionalFlag(flags, 'environment');
      if (url !== undefined && environment !== undefined) throw new UsageError('give --dian-url or --environment, not both');
      if (environment !== undefined && environment !== '1' && environment !== '2')
        throw new UsageError('--environment must be 1 (production) or 2 (habilitación)');
      if (url !== undefined && !/^https?:\/\//.test(url)) throw new UsageError(`--dian-url must be an http(s) URL, got ${JSON.stringify(url)}`);
      const { companySigners, fetchResolutions, loadDianCertificateKey } = await import('../server/index.js');
      const { createDianClient, DIAN_ENDPOINTS } = await import('../transport/index.js');
      const closers: (() => Promise<void>)[] = [];
      try {
        await withStorage(flags, io, async (storage, dir) => {
          const signerFor = companySigners(loadDianCertificateKey({ dataDir: dir, env: io.env }));
          const dian = async (company: CompanyRecord): Promise<NumberingRangeSource> => {
            let endpoint: string;
            let where: string;
            if (url !== undefined) [endpoint, where] = [url, url];
            else if (environment !== undefined) [endpoint, where] = [DIAN_ENDPOINTS[environment], DIAN_ENDPOINTS[environment]];
            else {
              const xsdDir = resolve(optionalFlag(flags, 'xsd') ?? io.env.DIAN_XSD_DIR ?? '../shared/dian-xsd');
              const simDir = resolve(dir, 'dian-simulator');
              endpoint = await embeddedDian(company, xsdDir, simDir, clock, closers);
              where = `embedded local DIAN (${simDir})`;
            }
            const client = createDianClient({ signer: await signerFor(company), endpoint, environment: company.environment, clock, retries: 1 });
            closers.push(() => client.close());
            return {
              async getNumberingRange(accountCode, t, softwareCode) {
                io.stderr(`ecf dian admin resolution fetch: GetNumberingRange(${accountCode}, ${t}, ${softwareCode}) at ${where}\n`);
                return client.getNumberingRange(accountCode, t, softwareCode);
              },
            };
          };
          const r = await fetchResolutions(storage, nit, { kind, ...(accountCodeT !== undefined ? { accountCodeT } : {}), dian });
          const json = (x: ResolutionRecord) => ({ ...resolutionJson(x), technical_key: x.technicalKey, resolution_date: x.resolutionDate });
          print(io, {
            company: companyJson(r.company),
            operation: r.operation,
            added: r.added.map(json),
            unchanged: r.unchanged.map(json),
            differs: r.differs.map((d) => ({ stored: json(d.stored), dian: d.dian })),
            skipped: r.skipped,
          });
        });
      } finally {
        for (const close of closers.reverse()) await close();
      }
    },
  });
}

/**
 * Opens the service's local DIAN state on a free port and registers the company and its software when the state
 * does not hold them as the service would register them; its SOAP URL.
 */
async function embeddedDian(company: CompanyRecord, xsdDir: string, dataDir: string, clock: Clock, closers: (() => Promise<void>)[]): Promise<string> {
  const { startDianSimulator } = await import('../simulator/index.js');
  const sim = await startDianSimulator({ xsdDir, dataDir, clock });
  closers.push(() => sim.close());
  // What the service registers, so both processes agree on the company.
  const wanted = simulatorCompany(company);
  const known = (await (await fetch(`${sim.controlUrl}/companies`)).json()) as Record<string, unknown>[];
  const same = known.some((c) => (Object.keys(wanted) as (keyof DianSimCompany)[]).every((k) => c[k] === wanted[k]));
  if (!same) sim.addCompany(wanted);
  return sim.url;
}
