/**
 * The DIAN service's sealing key around rotation (issue 21): refused missing in production (NODE_ENV=production,
 * or DIAN's own endpoints as authority) without writing a development key file; malformed settings named;
 * DIAN_CERT_KEY and DIAN_CERT_KEY_PREVIOUS never in the log (the service's own pino logger at trace level, through
 * start-up, an invoice signed with an identity under a previous key, an identity under an unknown key, and objects
 * carrying the settings); and the certificate expiry watch: a warning per company whose certificate expires within
 * 30 days or has expired, at start-up and again with every watch interval, on the injected clock (SQLite and
 * PostgreSQL).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { dianCertificateResealCommand } from '../../../../src/dian/cli/admin-reseal.js';
import {
  addCompany,
  addResolution,
  DIAN_DEV_KEY_FILE,
  type DianServer,
  loadDianCertificateKey,
  openDianStorage,
  setCompanyCertificate,
  startDianServer,
} from '../../../../src/dian/server/index.js';
import { createDianLogger } from '../../../../src/dian/server/start.js';
import { DIAN_ENDPOINTS } from '../../../../src/dian/transport/index.js';
import { SecretKey } from '../../../../src/shared/server-kit/sealing.js';
import { fakeIo } from '../../../ecf/helpers/cli.js';
import { companyP12 } from '../../helpers/company-p12.js';
import { dianXsdDir } from '../../helpers/env.js';
import { dropSchema, EXAMPLE_NIT, example, newSchema, NOW, PG_URL, PROFILE, QUIET } from '../helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'dian-key-'));
  cleanups.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
}
const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => 'started',
    (e: { code?: string; message: string }) => `${e.code}: ${e.message}`,
  );

describe('DIAN_CERT_KEY in production', () => {
  it('NODE_ENV=production without DIAN_CERT_KEY: the service refuses to start and writes no development key', async () => {
    const dataDir = tempDir();
    const why = await codeOf(startDianServer({ dataDir, env: { NODE_ENV: 'production' }, xsdDir: dianXsdDir(), logger: QUIET }));
    expect(why).toMatch(/^key_missing: DIAN_CERT_KEY is not set\. In production .*openssl rand -hex 32/);
    expect(existsSync(join(dataDir, DIAN_DEV_KEY_FILE))).toBe(false);
  });

  it("one of DIAN's own endpoints as authority is production whatever NODE_ENV says", async () => {
    for (const endpoint of Object.values(DIAN_ENDPOINTS)) {
      const dataDir = tempDir();
      const why = await codeOf(startDianServer({ dataDir, env: {}, authority: { endpoint: `${endpoint}/` }, logger: QUIET }));
      expect(why).toMatch(/^key_missing: DIAN_CERT_KEY is not set/);
      expect(existsSync(join(dataDir, DIAN_DEV_KEY_FILE))).toBe(false);
    }
  });

  it('starts in production with DIAN_CERT_KEY; development (or production: false) uses the key file', async () => {
    const key = randomBytes(32).toString('hex');
    const dataDir = tempDir();
    const s = await startDianServer({ dataDir, env: { NODE_ENV: 'production', DIAN_CERT_KEY: key }, xsdDir: dianXsdDir(), logger: QUIET, mail: false });
    await s.close();
    expect(existsSync(join(dataDir, DIAN_DEV_KEY_FILE))).toBe(false);
    const dev = await startDianServer({ dataDir, env: { NODE_ENV: 'production' }, production: false, xsdDir: dianXsdDir(), logger: QUIET, mail: false });
    await dev.close();
    expect(existsSync(join(dataDir, DIAN_DEV_KEY_FILE))).toBe(true);
  });

  it('the operator commands refuse too, and malformed keys are named', async () => {
    const dataDir = tempDir();
    const f = fakeIo({}, { NODE_ENV: 'production' }, { disk: true });
    expect(await dianCertificateResealCommand.run(['--data-dir', dataDir], f.io)).toBe(1);
    expect(f.err()).toMatch(/DIAN_CERT_KEY is not set/);
    expect(existsSync(join(dataDir, DIAN_DEV_KEY_FILE))).toBe(false);
    const key = randomBytes(32).toString('hex');
    expect(() => loadDianCertificateKey({ dataDir, env: { DIAN_CERT_KEY: key, DIAN_CERT_KEY_PREVIOUS: `${key},corta` } })).toThrow(
      /DIAN_CERT_KEY_PREVIOUS\[1\] must be 32 random bytes/,
    );
    expect(() => loadDianCertificateKey({ dataDir, env: { DIAN_CERT_KEY: 'corta' } })).toThrow(/^DIAN_CERT_KEY must be 32 random bytes/);
  });
});

describe('DIAN_CERT_KEY and DIAN_CERT_KEY_PREVIOUS in the log', () => {
  it('appear in no line, in any encoding, while the service works with both and meets a blob under an unknown key', async () => {
    const [K1, K2, K3] = [randomBytes(32), randomBytes(32), randomBytes(32)];
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createDianLogger('trace', sink);
    const env = { DIAN_CERT_KEY: K2.toString('base64'), DIAN_CERT_KEY_PREVIOUS: `${K3.toString('hex')},${randomBytes(32).toString('base64url')}` };
    const dataDir = tempDir();
    const server: DianServer = await startDianServer({ dataDir, env, xsdDir: dianXsdDir(), clock: () => NOW, dianRetries: 0, logger });
    cleanups.push(() => server.close());
    // A company sealed under a previous key (K3) signs; one sealed under an unknown key (K1) is reported.
    const { token } = await addCompany(server.storage, { nit: EXAMPLE_NIT, profile: PROFILE, softwareId: 'sw', softwarePin: '12345' }, new SecretKey(K3));
    await addResolution(server.storage, EXAMPLE_NIT, {
      kind: 'invoice',
      prefix: 'SETP',
      from: 990000000,
      to: 995000000,
      technicalKey: 'fc8eac422eba16e22ffd8c6f94b3f40a6e38162c',
      resolutionNumber: '18760000001',
      resolutionDate: '2025-01-01',
      validFrom: '2025-01-01',
      validTo: '2026-12-31',
    });
    await addCompany(server.storage, { nit: '900373076', profile: PROFILE, softwareId: 'sw2', softwarePin: '12345' }, K1);
    const r = await fetch(`${server.url}/service/invoice`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...example('invoice'), number: 990000301 }),
    });
    expect(r.status, await r.clone().text()).toBe(200);
    await server.checkCertificateExpiry();
    logger.info({ env, config: { ...env } }, 'settings');
    logger.info({ ...env }, 'settings at the top level');
    await new Promise((ok) => setTimeout(ok, 50));

    const all = lines.join('');
    expect(all).toMatch(/"msg":"company signing identity cannot be opened"/);
    expect(all).toMatch(/DIAN_CERT_KEY_PREVIOUS/); // the hint in the error message: the setting's name, never its value
    expect(all.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(6);
    const secrets = [...env.DIAN_CERT_KEY_PREVIOUS.split(','), env.DIAN_CERT_KEY];
    for (const k of [K1, K2, K3]) secrets.push(k.toString('hex'), k.toString('base64'), k.toString('base64url'));
    for (const s of secrets) expect(all.includes(s), `a key (${s.slice(0, 6)}…) in the log`).toBe(false);
  });
});

describe.each(['sqlite', 'postgres'] as const)('certificate expiry watch (%s)', (engine) => {
  it('warns at start-up and with every interval for each company whose certificate expires within 30 days or has expired', async () => {
    const dataDir = tempDir();
    const schema = engine === 'postgres' ? newSchema() : undefined;
    if (schema) cleanups.push(() => dropSchema(schema));
    const where = { dataDir, ...(schema ? { databaseUrl: PG_URL, schema } : {}) };
    const key = new Uint8Array(randomBytes(32));
    const DAY = 86_400_000;
    let now = NOW.getTime();
    const clock = () => new Date(now);
    // Before start: A expires in 20 days, B in 100, C (the development identity) in years.
    const storage = await openDianStorage({ ...where, clock });
    const companies = { A: '800100200', B: '800100300', C: '800100400' };
    for (const nit of Object.values(companies)) await addCompany(storage, { nit, profile: PROFILE, softwareId: `sw${nit}`, softwarePin: '1' }, key);
    for (const [nit, days] of [
      [companies.A, 20],
      [companies.B, 100],
    ] as const) {
      const p12 = companyP12({ serialNumber: nit, notBefore: new Date(now - DAY), notAfter: new Date(now + days * DAY) });
      await setCompanyCertificate(storage, nit, p12, key, clock());
    }
    await storage.close();

    const warnings: { nit: string; daysToExpiry: number; expired: boolean; msg: string }[] = [];
    const logger = {
      ...QUIET,
      warn(obj: object, msg = '') {
        const o = obj as { nit?: string; daysToExpiry?: number; expired?: boolean };
        if (o.nit !== undefined && o.daysToExpiry !== undefined) warnings.push({ nit: o.nit, daysToExpiry: o.daysToExpiry, expired: o.expired!, msg });
      },
    };
    const server = await startDianServer({ ...where, env: {}, certificateKey: key, clock, logger, xsdDir: dianXsdDir(), contingencyWatchMs: 100, mail: false });
    cleanups.push(() => server.close());
    // The start-up check runs beside the service's start.
    const soon = { nit: companies.A, daysToExpiry: 20, expired: false, msg: expect.stringMatching(/expires soon/) };
    for (let i = 0; i < 100 && warnings.length < 1; i++) await new Promise((ok) => setTimeout(ok, 50));
    expect(warnings[0]).toEqual(soon);
    // (the 100 ms interval may have said it again meanwhile, and only it)
    for (const w of warnings) expect(w).toEqual(soon);

    // 75 days later: A has expired, B expires within 30 days; the next interval says so without being asked.
    now += 75 * DAY;
    const expired = { nit: companies.A, daysToExpiry: -55, expired: true, msg: expect.stringMatching(/expired: DIAN rejects/) };
    const bSoon = { nit: companies.B, daysToExpiry: 25, expired: false, msg: expect.stringMatching(/expires soon/) };
    const seen = (nit: string, days: number) => warnings.some((w) => w.nit === nit && w.daysToExpiry === days);
    for (let i = 0; i < 100 && !(seen(companies.A, -55) && seen(companies.B, 25)); i++) await new Promise((ok) => setTimeout(ok, 50));
    expect(warnings).toEqual(expect.arrayContaining([expired, bSoon]));
    const direct = await server.checkCertificateExpiry();
    expect(direct.map((e) => [e.nit, e.expired])).toEqual([
      [companies.A, true],
      [companies.B, false],
    ]);
    // A certificate renewed in its place is no longer reported.
    await setCompanyCertificate(
      server.storage,
      companies.A,
      companyP12({ serialNumber: companies.A, notBefore: clock(), notAfter: new Date(now + 365 * DAY) }),
      key,
      clock(),
    );
    expect((await server.checkCertificateExpiry()).map((e) => e.nit)).toEqual([companies.B]);
  });
});
