/**
 * `ecf dian admin certificate add` and `setCompanyCertificate`: a running service signs a company's next
 * documents and WS-Security envelopes with the .p12 uploaded while it runs (SQLite through the command,
 * PostgreSQL through the same operation), checked in the signed XML and in the envelopes DIAN received
 * (a pass-through proxy over real sockets in front of a local DIAN); refusals (wrong password, expired, not yet
 * valid, no key, two keys, unknown company) leave the stored identity as it was; a subject without the company's NIT
 * and an expiry within 30 days are warnings. The .p12 files are made at test time (node-forge).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dianCertificateAddCommand } from '../../../../src/dian/cli/admin-certificate.js';
import { setCompanyCertificate } from '../../../../src/dian/server/index.js';
import { DIAN_SIM_EXAMPLE_COMPANY, DIAN_SIM_EXAMPLE_RANGE, type DianSimulator, startDianSimulator } from '../../../../src/dian/simulator/index.js';
import { UsageError } from '../../../../src/shared/cli/command.js';
import { fakeIo } from '../../../ecf/helpers/cli.js';
import { type CompanyP12, companyP12, twoKeyP12 } from '../../helpers/company-p12.js';
import { dianXsdDir } from '../../helpers/env.js';
import { EXAMPLE_NIT, example, type Harness, NOW, startHarness } from '../helpers.js';

const VALID = { notBefore: new Date('2025-01-01T00:00:00Z'), notAfter: new Date('2027-01-01T00:00:00Z') };
const DAY = 86_400_000;

/** A pass-through HTTP proxy that keeps every request body it forwards. */
async function recordingProxy(target: string): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      bodies.push(body.toString('utf8'));
      void fetch(target, { method: req.method, headers: { 'Content-Type': req.headers['content-type'] ?? '' }, body })
        .then(async (r) => {
          res.writeHead(r.status, { 'Content-Type': r.headers.get('content-type') ?? 'text/plain' });
          res.end(Buffer.from(await r.arrayBuffer()));
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/WcfDianCustomerServices.svc`,
    bodies,
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}

const x509Of = (xml: string) => /<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/.exec(xml)?.[1]?.replace(/\s/g, '');
const tokenOf = (envelope: string) => /BinarySecurityToken[^>]*>([^<]+)</.exec(envelope)?.[1]?.replace(/\s/g, '');

describe.each(['sqlite', 'postgres'] as const)('a certificate uploaded while the service runs (%s)', (engine) => {
  let h: Harness;
  let sim: DianSimulator;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let uploaded: CompanyP12;
  let cliDir: string;

  beforeAll(async () => {
    sim = await startDianSimulator({ xsdDir: dianXsdDir(), clock: () => NOW, companies: [DIAN_SIM_EXAMPLE_COMPANY], ranges: [DIAN_SIM_EXAMPLE_RANGE] });
    proxy = await recordingProxy(sim.url);
    h = await startHarness(engine, { authority: { endpoint: proxy.url } });
    uploaded = companyP12({ serialNumber: EXAMPLE_NIT, ...VALID });
    cliDir = mkdtempSync(join(tmpdir(), 'dian-cert-'));
  });
  afterAll(async () => {
    await h?.cleanup();
    await proxy?.close();
    await sim?.close();
    rmSync(cliDir, { recursive: true, force: true });
  });

  const issue = async (number: number) => {
    const r = await fetch(`${h.server.url}/service/invoice`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${h.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...example('invoice'), number }),
    });
    const json = (await r.json()) as { document: { statusCode: number } };
    expect(r.status, JSON.stringify(json)).toBe(200);
    expect(json.document.statusCode).toBe(6);
    const company = (await h.server.storage.getCompanyByNit(EXAMPLE_NIT))!;
    const doc = (await h.server.storage.getDocumentByNumber(company.id, 'SETP', number))!;
    return { signedXml: doc.signedXml!, envelope: proxy.bodies.filter((b) => b.includes('SendBillSync')).at(-1)! };
  };

  it('signs the next invoice and its envelope with the uploaded certificate, not the development one', async () => {
    const before = await issue(990000101);
    expect(x509Of(before.signedXml)).toBeDefined();
    expect(x509Of(before.signedXml)).not.toBe(uploaded.certificate);
    expect(tokenOf(before.envelope)).toBe(x509Of(before.signedXml));

    if (engine === 'sqlite') {
      // The command, as an operator runs it beside the running service (the key as DIAN_CERT_KEY).
      writeFileSync(join(cliDir, 'company.p12'), uploaded.p12);
      writeFileSync(join(cliDir, 'password'), `${uploaded.password}\n`);
      const f = fakeIo({}, { DIAN_CERT_KEY: Buffer.from(h.certificateKey).toString('hex') }, { disk: true });
      const code = await dianCertificateAddCommand({ clock: () => NOW }).run(
        ['--nit', EXAMPLE_NIT, '--p12', join(cliDir, 'company.p12'), '--password-file', join(cliDir, 'password'), '--data-dir', h.dataDir],
        f.io,
      );
      expect(code, f.err()).toBe(0);
      const out = JSON.parse(f.out()) as { company: { nit: string }; certificate: Record<string, unknown>; warnings: unknown[] };
      expect(out.company.nit).toBe(EXAMPLE_NIT);
      expect(out.certificate).toMatchObject({ subject_serial_number: EXAMPLE_NIT, not_after: VALID.notAfter.toISOString() });
      expect(out.warnings).toEqual([]);
    } else {
      const r = await setCompanyCertificate(h.server.storage, EXAMPLE_NIT, uploaded, h.certificateKey, NOW);
      expect(r.warnings).toEqual([]);
    }

    const after = await issue(990000102);
    expect(x509Of(after.signedXml)).toBe(uploaded.certificate);
    expect(tokenOf(after.envelope)).toBe(uploaded.certificate);
  });
});

describe('ecf dian admin certificate add: refusals and warnings', () => {
  let h: Harness;
  let dir: string;
  const env = () => ({ DIAN_CERT_KEY: Buffer.from(h.certificateKey).toString('hex'), P12_PASSWORD: 'clave-de-prueba 2025', OTHER: 'no-es-la-clave' });

  beforeAll(async () => {
    h = await startHarness('sqlite');
    dir = mkdtempSync(join(tmpdir(), 'dian-cert-'));
  });
  afterAll(async () => {
    await h?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Writes the .p12 and runs the command on the harness's directory; the stored identity before and after. */
  async function add(p12: CompanyP12, extra: string[] = ['--password-env', 'P12_PASSWORD'], nit = EXAMPLE_NIT, now = NOW) {
    const file = join(dir, `c${Math.random().toString(36).slice(2)}.p12`);
    writeFileSync(file, p12.p12);
    const stored = async () => Buffer.from((await h.server.storage.getCompanyByNit(EXAMPLE_NIT))!.certificate!).toString('hex');
    const before = await stored();
    const f = fakeIo({}, env(), { disk: true });
    const code = await dianCertificateAddCommand({ clock: () => now }).run(['--nit', nit, '--p12', file, ...extra, '--data-dir', h.dataDir], f.io);
    return { code, out: f.out(), err: f.err(), changed: (await stored()) !== before };
  }

  it('refuses a wrong password, an expired, a not yet valid certificate, a .p12 without key or with two; the identity stays', async () => {
    const wrong = await add(companyP12({ serialNumber: EXAMPLE_NIT, ...VALID }), ['--password-env', 'OTHER']);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/certificate refused: Wrong password/);
    expect(wrong.changed).toBe(false);

    const expired = await add(
      companyP12({ serialNumber: EXAMPLE_NIT, notBefore: new Date('2023-01-01T00:00:00Z'), notAfter: new Date('2024-01-01T00:00:00Z') }),
    );
    expect(expired.code).toBe(1);
    expect(expired.err).toMatch(/expired on 2024-01-01T00:00:00\.000Z/);
    expect(expired.changed).toBe(false);

    const early = await add(companyP12({ serialNumber: EXAMPLE_NIT, notBefore: new Date('2025-06-01T00:00:00Z'), notAfter: new Date('2027-01-01T00:00:00Z') }));
    expect(early.code).toBe(1);
    expect(early.err).toMatch(/not valid before 2025-06-01/);
    expect(early.changed).toBe(false);

    const noKey = await add(companyP12({ serialNumber: EXAMPLE_NIT, ...VALID, withKey: false }));
    expect(noKey.code).toBe(1);
    expect(noKey.err).toMatch(/holds no private key/);
    expect(noKey.changed).toBe(false);

    const twoKeys = await add(twoKeyP12({ serialNumber: EXAMPLE_NIT, ...VALID }));
    expect(twoKeys.code).toBe(1);
    expect(twoKeys.err).toMatch(/holds 2 private keys/);
    expect(twoKeys.changed).toBe(false);
  });

  it('refuses an unknown company', async () => {
    const r = await add(companyP12({ serialNumber: '800123456', ...VALID }), undefined, '800123456');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/unknown company: no company with NIT 800123456/);
  });

  it('accepts with warnings a subject without the company NIT and a certificate expiring within 30 days', async () => {
    const other = await add(companyP12({ serialNumber: '800123456', commonName: 'OTRA PERSONA', ...VALID }));
    expect(other.code, other.err).toBe(0);
    expect(other.changed).toBe(true);
    expect(JSON.parse(other.out).warnings).toEqual([
      { code: 'nit_mismatch', message: expect.stringContaining(`does not carry the company's NIT ${EXAMPLE_NIT}`) },
    ]);
    expect(other.err).toMatch(/warning: the certificate's subject/);

    // NIT with check digit and separators is the company's NIT; ten days left is a warning.
    const soon = await add(
      companyP12({
        serialNumber: `${EXAMPLE_NIT.slice(0, 3)}.${EXAMPLE_NIT.slice(3, 6)}.${EXAMPLE_NIT.slice(6)}-8`,
        notBefore: VALID.notBefore,
        notAfter: new Date(NOW.getTime() + 10 * DAY + 3600_000),
      }),
    );
    expect(soon.code, soon.err).toBe(0);
    const json = JSON.parse(soon.out) as { certificate: { days_to_expiry: number }; warnings: { code: string }[] };
    expect(json.certificate.days_to_expiry).toBe(10);
    expect(json.warnings.map((w) => w.code)).toEqual(['expires_soon']);
  });

  it('never takes the password on the command line; it needs one of --password-env / --password-file', async () => {
    const good = companyP12({ serialNumber: EXAMPLE_NIT, ...VALID });
    await expect(add(good, ['--password', 'x'])).rejects.toThrow(UsageError);
    await expect(add(good, ['--password', 'x'])).rejects.toThrow(/visible to every user/);
    await expect(add(good, [])).rejects.toThrow(/missing the .p12 password: --password-env VAR .* or --password-file FILE/);
    await expect(add(good, ['--password-env', 'NOT_SET'])).rejects.toThrow(/NOT_SET \(--password-env\) is not set/);
  });
});
