/**
 * DIAN_CERT_KEY rotation end to end (issue 21), on SQLite and PostgreSQL, through the real service
 * (`startDianServer` with its keys from the environment, restarted between steps, invoices over a real socket to
 * the local DIAN in process) and `ecf dian admin certificate reseal` (the command on SQLite; the same operation on
 * a PostgreSQL schema of its own, which the command's `--database-url` cannot name):
 *
 * 0. Two companies, their identities sealed under K1; each issues an invoice.
 * 1. (The mistake the procedure prevents) DIAN_CERT_KEY=K2 alone: the identities cannot be opened; the start-up
 *    check logs it and reseal reports both as failed, each message naming DIAN_CERT_KEY and DIAN_CERT_KEY_PREVIOUS;
 *    nothing stored changes.
 * 2. DIAN_CERT_KEY=K2, DIAN_CERT_KEY_PREVIOUS=K1: both companies sign again, with the same certificates.
 * 3. reseal: both re-sealed under K2 (raw rows); a second run writes nothing.
 * 4. DIAN_CERT_KEY=K2 alone: both sign; no stored blob opens with K1 any more.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dianCertificateResealCommand } from '../../../../src/dian/cli/admin-reseal.js';
import {
  addCompany,
  addResolution,
  type DianServer,
  loadDianCertificateKey,
  type ResealReport,
  resealIdentities,
  sealIdentity,
  startDianServer,
  unsealIdentity,
} from '../../../../src/dian/server/index.js';
import { envelopeKeyId, keyId, SecretError, SecretKey } from '../../../../src/shared/server-kit/sealing.js';
import { fakeIo } from '../../../ecf/helpers/cli.js';
import { dianXsdDir } from '../../helpers/env.js';
import { dropSchema, EXAMPLE_NIT, example, newSchema, NOW, PG_URL, PROFILE, STORAGE_ENGINES } from '../helpers.js';

const OTHER_NIT = '900373076';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const x509Of = (xml: string) => /<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/.exec(xml)?.[1]?.replace(/\s/g, '');

describe.each(['sqlite', 'postgres'] as const)('DIAN certificate key rotation on %s', (engine) => {
  it('identities sealed under the old key keep signing while it is listed in DIAN_CERT_KEY_PREVIOUS, reseal moves them to the new key, the old key can then go', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dian-rotation-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const schema = engine === 'postgres' ? newSchema() : undefined;
    if (schema) cleanups.push(() => dropSchema(schema));
    const [K1, K2] = [randomBytes(32), randomBytes(32)];
    const logs: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
    const log =
      (level: string) =>
      (obj: object, msg = '') =>
        void logs.push({ level, obj: obj as Record<string, unknown>, msg });
    const logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };

    let server: DianServer | null = null;
    const start = async (env: Record<string, string>) => {
      server = await startDianServer({
        dataDir,
        ...(schema ? { databaseUrl: PG_URL, schema } : {}),
        xsdDir: dianXsdDir(),
        clock: () => NOW,
        dianRetries: 0,
        logger,
        env,
      });
      return server;
    };
    const stop = async () => {
      await server?.close();
      server = null;
    };
    cleanups.push(stop);

    // 0. Companies under K1.
    const tokens: Record<string, string> = {};
    let s = await start({ DIAN_CERT_KEY: K1.toString('hex') });
    const k1 = loadDianCertificateKey({ dataDir, env: { DIAN_CERT_KEY: K1.toString('hex') } });
    for (const [nit, name] of [
      [EXAMPLE_NIT, PROFILE.name],
      [OTHER_NIT, 'Otra Empresa S.A.S.'],
    ] as const) {
      const { token } = await addCompany(s.storage, { nit, profile: { ...PROFILE, name }, softwareId: `sw-${nit}`, softwarePin: '12345' }, k1);
      tokens[nit] = token;
      await addResolution(s.storage, nit, {
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
    }
    const raw = async () => {
      const m = new Map<string, Buffer>();
      for (const c of await server!.storage.listCompanies()) m.set(c.nit, Buffer.from(c.certificate!));
      return m;
    };
    let number = 990000200;
    /** Issues an invoice for `nit`; the certificate its signature carries. */
    const issue = async (nit: string): Promise<string> => {
      const n = ++number;
      const r = await fetch(`${server!.url}/service/invoice`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tokens[nit]}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...example('invoice'), identification_number: Number(nit), number: n }),
      });
      const json = (await r.json()) as { document?: { statusCode: number } };
      expect(r.status, JSON.stringify(json)).toBe(200);
      expect(json.document?.statusCode).toBe(6);
      const company = (await server!.storage.getCompanyByNit(nit))!;
      return x509Of((await server!.storage.getDocumentByNumber(company.id, 'SETP', n))!.signedXml!)!;
    };
    const certs = { [EXAMPLE_NIT]: await issue(EXAMPLE_NIT), [OTHER_NIT]: await issue(OTHER_NIT) };
    expect(certs[EXAMPLE_NIT]).not.toBe(certs[OTHER_NIT]);
    const underK1 = await raw();
    for (const blob of underK1.values()) expect(envelopeKeyId(blob)).toBe(keyId(K1));
    await stop();

    // 1. The new key alone: the identities cannot be opened, and every message says which settings to fix.
    logs.length = 0;
    s = await start({ DIAN_CERT_KEY: K2.toString('hex') });
    const unreadableNow = () => logs.filter((l) => l.level === 'error' && l.msg === 'company signing identity cannot be opened');
    // The start-up certificate check runs beside the service's start.
    for (let i = 0; i < 100 && unreadableNow().length < 2; i++) await new Promise((ok) => setTimeout(ok, 50));
    const unreadable = unreadableNow();
    expect(unreadable.map((l) => l.obj.nit).sort()).toEqual([EXAMPLE_NIT, OTHER_NIT].sort());
    for (const l of unreadable) {
      expect((l.obj.err as Error).message).toMatch(/DIAN_CERT_KEY .*DIAN_CERT_KEY_PREVIOUS/);
      expect((l.obj.err as SecretError).code).toBe('wrong_key');
    }
    const refused = await fetch(`${s.url}/service/invoice`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokens[EXAMPLE_NIT]}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...example('invoice'), number: 990000299 }),
    });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { message: string }).message).toMatch(/certificado de firma de la empresa no se puede abrir/);
    const failedRun = await reseal({ DIAN_CERT_KEY: K2.toString('hex') });
    expect(failedRun.report.resealed).toEqual([]);
    expect(failedRun.report.failed.map((f) => [f.nit, f.code])).toEqual([
      [EXAMPLE_NIT, 'wrong_key'],
      [OTHER_NIT, 'wrong_key'],
    ]);
    for (const f of failedRun.report.failed) {
      expect(f.message).toContain('DIAN_CERT_KEY_PREVIOUS');
      expect(f.message).toContain(keyId(K1));
    }
    if (engine === 'sqlite') expect(failedRun.code).toBe(1);
    expect(await raw()).toEqual(underK1);
    await stop();

    // 2. New key, old one listed as previous: both companies sign with their certificates.
    const rotating = { DIAN_CERT_KEY: K2.toString('base64'), DIAN_CERT_KEY_PREVIOUS: `${randomBytes(32).toString('hex')}, ${K1.toString('hex')}` };
    logs.length = 0;
    await start(rotating);
    expect(await issue(EXAMPLE_NIT)).toBe(certs[EXAMPLE_NIT]);
    expect(await issue(OTHER_NIT)).toBe(certs[OTHER_NIT]);

    // 3. Reseal (with the service running): both move to K2; a second run has nothing to do and writes nothing.
    await server!.checkCertificateExpiry();
    expect(logs.filter((l) => l.level === 'error')).toEqual([]);
    const first = await reseal(rotating);
    expect(first.report).toEqual({ key_id: keyId(K2), resealed: [EXAMPLE_NIT, OTHER_NIT], already_current: [], failed: [] });
    if (engine === 'sqlite') expect(first.code).toBe(0);
    const underK2 = await raw();
    for (const [nit, blob] of underK2) {
      expect(envelopeKeyId(blob)).toBe(keyId(K2));
      expect(unsealIdentity(blob, K2)).toEqual(unsealIdentity(underK1.get(nit)!, K1));
    }
    const again = await reseal(rotating);
    expect(again.report).toEqual({ key_id: keyId(K2), resealed: [], already_current: [EXAMPLE_NIT, OTHER_NIT], failed: [] });
    expect(await raw()).toEqual(underK2);
    await stop();

    // 4. The old key removed: everything still signs; nothing stored opens with K1.
    await start({ DIAN_CERT_KEY: K2.toString('hex') });
    expect(await issue(EXAMPLE_NIT)).toBe(certs[EXAMPLE_NIT]);
    expect(await issue(OTHER_NIT)).toBe(certs[OTHER_NIT]);
    for (const blob of (await raw()).values()) expect(() => unsealIdentity(blob, K1)).toThrow(SecretError);

    /** `ecf dian admin certificate reseal` on SQLite (beside the running service); the same operation on PostgreSQL. */
    async function reseal(env: Record<string, string>): Promise<{ code: number; report: ResealReport }> {
      if (engine === 'sqlite') {
        const f = fakeIo({}, env, { disk: true });
        const code = await dianCertificateResealCommand.run(['--data-dir', dataDir], f.io);
        return { code, report: JSON.parse(f.out()) as ResealReport };
      }
      return { code: -1, report: await resealIdentities(server!.storage, loadDianCertificateKey({ dataDir, env })) };
    }
  });
});

describe.each(STORAGE_ENGINES)('reseal beside a concurrent certificate upload (%s)', (_name, open) => {
  it('keeps the identity uploaded between its read and its write, and reports it current', async () => {
    const { storage, cleanup } = await open();
    cleanups.push(cleanup);
    const [K1, K2] = [new SecretKey(randomBytes(32)), randomBytes(32)];
    const rotating = new SecretKey(K2, [K1]);
    const a = await addCompany(storage, { nit: EXAMPLE_NIT, profile: PROFILE, softwareId: 'a', softwarePin: '1' }, K1);
    const b = await addCompany(storage, { nit: OTHER_NIT, profile: PROFILE, softwareId: 'b', softwarePin: '1' }, K1);
    const uploaded = sealIdentity({ p12: new Uint8Array([1, 2, 3]), password: 'nueva' }, rotating);
    // `certificate add` (another process) replaces A's identity right after reseal has listed the companies.
    const racing = {
      ...storage,
      listCompanies: async () => {
        const list = await storage.listCompanies();
        await storage.setCertificate(a.company.id, uploaded);
        return list;
      },
    };
    const report = await resealIdentities(racing, rotating);
    expect(report).toEqual({ key_id: keyId(K2), resealed: [OTHER_NIT], already_current: [EXAMPLE_NIT], failed: [] });
    expect(Buffer.from((await storage.getCompany(a.company.id))!.certificate!)).toEqual(Buffer.from(uploaded));
    expect(envelopeKeyId((await storage.getCompany(b.company.id))!.certificate!)).toBe(keyId(K2));
  });
});
