import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/shared/cli/command.js';
import { adminCommands } from '../../../src/ecf/cli/admin.js';
import { unsealCertificate } from '../../../src/ecf/server/certificates.js';
import { openStorage } from '../../../src/ecf/server/storage/open.js';
import { hashToken } from '../../../src/shared/server-kit/tokens.js';
import { fakeIo } from '../helpers/cli.js';
import { expiredP12, modernP12, rncP12 } from '../helpers/certs.js';

const RNC = '131880738';
const KEY_HEX = 'ab'.repeat(32);

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'ecf-admin-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** Dispatches like `ecf` does (src/cli/main.ts): longest command name first; UsageError → exit 2. */
async function admin(argv: string[], options: { files?: Record<string, string | Uint8Array>; env?: Record<string, string> } = {}) {
  const f = fakeIo(options.files ?? {}, { ECF_DATA_DIR: dataDir, ...options.env });
  const cmd = adminCommands.find((c) => c.name.split(' ').every((w, i) => argv[i] === w));
  if (!cmd) throw new Error(`no command for ${argv.join(' ')}`);
  let code: number;
  try {
    code = await cmd.run(argv.slice(cmd.name.split(' ').length), f.io);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    f.io.stderr(`${e.message}\n`);
    code = 2;
  }
  return { code, out: f.out(), err: f.err(), json: () => JSON.parse(f.out()) };
}

async function withStorage<T>(fn: (s: Awaited<ReturnType<typeof openStorage>>) => Promise<T>): Promise<T> {
  const s = await openStorage({ dataDir });
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

const profile = JSON.stringify({
  rnc: RNC,
  razon_social: 'Emisor de Prueba SRL',
  direccion: 'Av. 27 de Febrero 100',
  municipio: '010101',
  telefonos: ['809-555-1234'],
});

describe('ecf admin issuer', () => {
  it('adds an issuer with its profile and a working first token', async () => {
    const r = await admin(['admin', 'issuer', 'add', '--rnc', RNC, '--name', 'Emisor de Prueba', '--profile', 'issuer.json'], {
      files: { 'issuer.json': profile },
    });
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.issuer).toEqual({ id: expect.any(Number), rnc: RNC, name: 'Emisor de Prueba', signing_mode: 'provider' });
    expect(out.token).toMatch(/^ecf_[A-Za-z0-9_-]{43}$/);
    expect(existsSync(join(dataDir, 'ecf.sqlite'))).toBe(true);
    await withStorage(async (s) => {
      const found = await s.findToken(hashToken(out.token));
      expect(found?.issuer.rnc).toBe(RNC);
      expect(found?.issuer.profile).toEqual(JSON.parse(profile));
      // Only the hash is stored.
      expect(JSON.stringify(await s.listTokens(found!.issuer.id))).not.toContain(out.token);
    });
  });

  it('defaults the profile from --rnc/--name, accepts --signing own and lists issuers', async () => {
    const a = await admin(['admin', 'issuer', 'add', '--rnc', RNC, '--name', 'Uno', '--signing', 'own']);
    expect(a.code).toBe(0);
    expect(a.json().issuer.signing_mode).toBe('own');
    expect(a.err).toMatch(/direccion/);
    const b = await admin(['admin', 'issuer', 'add', '--rnc', '00199999996', '--name', 'Persona Física']);
    expect(b.code).toBe(0);
    const list = await admin(['admin', 'issuer', 'list']);
    expect(list.code).toBe(0);
    expect(list.json().issuers.map((i: { rnc: string; signing_mode: string }) => [i.rnc, i.signing_mode])).toEqual([
      [RNC, 'own'],
      ['00199999996', 'provider'],
    ]);
    await withStorage(async (s) => {
      expect((await s.getIssuerByRnc(RNC))?.profile).toEqual({ rnc: RNC, razon_social: 'Uno' });
    });
  });

  it('refuses a duplicate RNC (exit 1) and bad flags (exit 2)', async () => {
    expect((await admin(['admin', 'issuer', 'add', '--rnc', RNC, '--name', 'Uno'])).code).toBe(0);
    const dup = await admin(['admin', 'issuer', 'add', '--rnc', RNC, '--name', 'Otra']);
    expect(dup.code).toBe(1);
    expect(dup.err).toMatch(/issuer exists: RNC 131880738/);
    for (const [argv, msg] of [
      [['--rnc', '1234', '--name', 'X'], /9 digits .* or 11 digits/],
      [['--rnc', '13188073X', '--name', 'X'], /9 digits/],
      [['--rnc', RNC], /missing --name/],
      [['--name', 'X'], /missing --rnc/],
      [['--rnc', '101672919', '--name', 'X', '--signing', 'self'], /own or provider/],
      [['--rnc', '101672919', '--name', 'X', '--colour', 'red'], /unknown option/],
    ] as const) {
      const r = await admin(['admin', 'issuer', 'add', ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(msg);
    }
    expect((await admin(['admin', 'issuer', 'list'])).json().issuers).toHaveLength(1);
  });

  it('validates the profile file against the issuer profile rules', async () => {
    const cases: [string, RegExp][] = [
      ['{"rnc": "131880738", "razon_social": "X"', /not valid JSON/],
      ['[1, 2]', /must be a JSON object/],
      [JSON.stringify({ rnc: '101672919', razon_social: 'X', direccion: 'Y' }), /is for RNC "101672919", not 131880738/],
      [JSON.stringify({ razon_social: 'X' }), /direccion: required/],
      [JSON.stringify({ razon_social: 'X', direccion: 'Y', municipio: '999999', extra: 1 }), /municipio: enum[\s\S]*extra: unknown_field/],
      [JSON.stringify({ razon_social: '', direccion: 'Y', telefonos: ['8095551234'] }), /razon_social: min_length[\s\S]*telefonos\.0: pattern/],
    ];
    for (const [text, msg] of cases) {
      const r = await admin(['admin', 'issuer', 'add', '--rnc', RNC, '--name', 'X', '--profile', 'p.json'], { files: { 'p.json': text } });
      expect(r.code, text).toBe(1);
      expect(r.err).toMatch(msg);
    }
    const missing = await admin(['admin', 'issuer', 'add', '--rnc', RNC, '--name', 'X', '--profile', 'nope.json']);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/cannot read profile nope\.json/);
    // Without rnc in the file it is taken from --rnc.
    const ok = await admin(['admin', 'issuer', 'add', '--rnc', RNC, '--name', 'X', '--profile', 'p.json'], {
      files: { 'p.json': JSON.stringify({ razon_social: 'X SRL', direccion: 'Calle 1' }) },
    });
    expect(ok.code).toBe(0);
    await withStorage(async (s) => expect((await s.getIssuerByRnc(RNC))?.profile).toEqual({ rnc: RNC, razon_social: 'X SRL', direccion: 'Calle 1' }));
  });

  it('updates name, profile and signing mode', async () => {
    await admin(['admin', 'issuer', 'add', '--rnc', RNC, '--name', 'Uno']);
    const r = await admin(['admin', 'issuer', 'update', '--rnc', RNC, '--name', 'Dos', '--profile', 'p.json', '--signing', 'own'], {
      files: { 'p.json': profile },
    });
    expect(r.code).toBe(0);
    expect(r.json().issuer).toMatchObject({ rnc: RNC, name: 'Dos', signing_mode: 'own' });
    await withStorage(async (s) => expect((await s.getIssuerByRnc(RNC))?.profile).toEqual(JSON.parse(profile)));
    expect((await admin(['admin', 'issuer', 'update', '--rnc', RNC])).code).toBe(2);
    const unknown = await admin(['admin', 'issuer', 'update', '--rnc', '101672919', '--name', 'X']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/unknown issuer: no issuer with RNC 101672919/);
  });
});

describe('ecf admin token', () => {
  it('adds, lists and revokes tokens', async () => {
    const first = (await admin(['admin', 'issuer', 'add', '--rnc', RNC, '--name', 'Uno'])).json().token as string;
    const added = await admin(['admin', 'token', 'add', '--rnc', RNC, '--label', 'ERP producción']);
    expect(added.code).toBe(0);
    const { token, id, label } = added.json();
    expect(token).toMatch(/^ecf_/);
    expect(token).not.toBe(first);
    expect(label).toBe('ERP producción');

    const list = await admin(['admin', 'token', 'list', '--rnc', RNC]);
    expect(list.code).toBe(0);
    const tokens = list.json().tokens;
    expect(tokens.map((t: { label: string | null; revoked_at: string | null }) => [t.label, t.revoked_at])).toEqual([
      ['initial', null],
      ['ERP producción', null],
    ]);
    expect(list.out).not.toContain(token);
    expect(list.out).not.toContain(hashToken(token));

    const revoked = await admin(['admin', 'token', 'revoke', '--id', String(id)]);
    expect(revoked.code).toBe(0);
    expect(revoked.json()).toEqual({ id, revoked: true });
    await withStorage(async (s) => {
      expect(await s.findToken(hashToken(token))).toBeNull();
      expect((await s.findToken(hashToken(first)))?.issuer.rnc).toBe(RNC);
    });
    const again = await admin(['admin', 'token', 'revoke', '--id', String(id)]);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already revoked/);
    expect((await admin(['admin', 'token', 'list', '--rnc', RNC])).json().tokens[1].revoked_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('refuses unknown issuers (1) and bad ids (2)', async () => {
    const r = await admin(['admin', 'token', 'add', '--rnc', RNC]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/unknown issuer/);
    expect((await admin(['admin', 'token', 'list', '--rnc', RNC])).code).toBe(1);
    expect((await admin(['admin', 'token', 'revoke', '--id', 'abc'])).code).toBe(2);
    expect((await admin(['admin', 'token', 'revoke', '--id', '-3'])).code).toBe(2);
    expect((await admin(['admin', 'token', 'revoke'])).code).toBe(2);
  });
});

describe('ecf admin sequence', () => {
  it('adds sequences that the storage then numbers from, and lists them', async () => {
    await admin(['admin', 'issuer', 'add', '--rnc', RNC, '--name', 'Uno']);
    const a = await admin(['admin', 'sequence', 'add', '--rnc', RNC, '--type', '31', '--from', '1', '--to', '10000', '--expires', '31-12-2027']);
    expect(a.code).toBe(0);
    expect(a.json().sequence).toEqual({ id: expect.any(Number), tipo: '31', from: 1, to: 10000, next: 1, expires: '31-12-2027', active: true });
    const b = await admin(['admin', 'sequence', 'add', '--rnc', RNC, '--type', '32', '--from', '9999999990', '--to', '9999999999', '--expires', 'none']);
    expect(b.code).toBe(0);
    expect(b.json().sequence).toMatchObject({ tipo: '32', from: 9_999_999_990, to: 9_999_999_999, expires: null });
    await withStorage(async (s) => {
      const issuer = (await s.getIssuerByRnc(RNC))!;
      const doc = await s.reserveAndInsert(issuer.id, '31', '2027-12-31', () => ({
        source: 'json',
        unsignedXml: '<ECF/>',
        summary: false,
        issuedAt: '31-12-2027',
        totalAmount: '1.00',
        totalItbis: '0.00',
      }));
      expect(doc?.encf).toBe('E310000000001');
      expect(
        await s.reserveAndInsert(issuer.id, '31', '2028-01-01', () => {
          throw new Error('not reached');
        }),
      ).toBeNull();
    });
    const list = await admin(['admin', 'sequence', 'list', '--rnc', RNC]);
    expect(list.json().sequences.map((x: { tipo: string; next: number; expires: string | null }) => [x.tipo, x.next, x.expires])).toEqual([
      ['31', 2, '31-12-2027'],
      ['32', 9_999_999_990, null],
    ]);
  });

  it('validates type, bounds, order, date and overlaps', async () => {
    await admin(['admin', 'issuer', 'add', '--rnc', RNC, '--name', 'Uno']);
    const base = ['admin', 'sequence', 'add', '--rnc', RNC];
    const cases: [string[], number, RegExp][] = [
      [['--type', '30', '--from', '1', '--to', '5', '--expires', 'none'], 2, /--type must be one of 31, 32/],
      [['--type', '31', '--from', '0', '--to', '5', '--expires', '31-12-2027'], 2, /--from must be a whole number between 1 and 9999999999/],
      [['--type', '31', '--from', '1', '--to', '10000000000', '--expires', '31-12-2027'], 2, /--to must be/],
      [['--type', '31', '--from', '1.5', '--to', '5', '--expires', '31-12-2027'], 2, /--from must be/],
      [['--type', '31', '--from', '9', '--to', '5', '--expires', '31-12-2027'], 2, /--from \(9\) must not be greater than --to \(5\)/],
      [['--type', '31', '--from', '1', '--to', '5', '--expires', '31-02-2027'], 2, /--expires must be a date dd-MM-yyyy/],
      [['--type', '31', '--from', '1', '--to', '5', '--expires', '2027-12-31'], 2, /--expires must be a date/],
      [['--type', '31', '--from', '1', '--to', '5'], 2, /missing --expires/],
      // Type 31 documents carry FechaVencimientoSecuencia: an expiry is required.
      [['--type', '31', '--from', '1', '--to', '5', '--expires', 'none'], 2, /type 31 .*FechaVencimientoSecuencia/],
    ];
    for (const [argv, code, msg] of cases) {
      const r = await admin([...base, ...argv]);
      expect(r.code, argv.join(' ')).toBe(code);
      expect(r.err).toMatch(msg);
    }
    expect((await admin([...base, '--type', '34', '--from', '1', '--to', '100', '--expires', 'none'])).code).toBe(0);
    const overlap = await admin([...base, '--type', '34', '--from', '100', '--to', '200', '--expires', 'none']);
    expect(overlap.code).toBe(1);
    expect(overlap.err).toMatch(/overlaps sequence/);
    expect((await admin([...base, '--type', '33', '--from', '100', '--to', '200', '--expires', '01-01-2030'])).code).toBe(0);
    const unknown = await admin(['admin', 'sequence', 'add', '--rnc', '101672919', '--type', '31', '--from', '1', '--to', '5', '--expires', '31-12-2027']);
    expect(unknown.code).toBe(1);
    expect((await admin(['admin', 'sequence', 'list', '--rnc', RNC])).json().sequences).toHaveLength(2);
  });
});

describe('ecf admin certificate set', () => {
  it('checks the .p12, stores it encrypted and switches the issuer to own signing', async () => {
    await admin(['admin', 'issuer', 'add', '--rnc', RNC, '--name', 'Uno']);
    const cert = rncP12();
    const r = await admin(['admin', 'certificate', 'set', '--rnc', RNC, '--p12', 'c.p12', '--password-env', 'P12_PW'], {
      files: { 'c.p12': cert.p12 },
      env: { P12_PW: cert.password, ECF_CERT_KEY: KEY_HEX },
    });
    expect(r.code).toBe(0);
    expect(r.json().issuer).toMatchObject({ rnc: RNC, signing_mode: 'own', certificate: { tax_id: RNC } });
    await withStorage(async (s) => {
      const issuer = (await s.getIssuerByRnc(RNC))!;
      expect(issuer.signingMode).toBe('own');
      expect(Buffer.from(issuer.certificate!).includes(Buffer.from(cert.p12))).toBe(false);
      const sealed = unsealCertificate(issuer.certificate!, Buffer.from(KEY_HEX, 'hex'));
      expect(Buffer.from(sealed.p12).equals(Buffer.from(cert.p12))).toBe(true);
      expect(sealed.password).toBe(cert.password);
    });
  });

  it('generates a development key in the data directory when ECF_CERT_KEY is unset', async () => {
    await admin(['admin', 'issuer', 'add', '--rnc', RNC, '--name', 'Uno']);
    const cert = rncP12();
    const r = await admin(['admin', 'certificate', 'set', '--rnc', RNC, '--p12', 'c.p12', '--password', cert.password], { files: { 'c.p12': cert.p12 } });
    expect(r.code).toBe(0);
    expect(statSync(join(dataDir, 'certificate.key')).mode & 0o777).toBe(0o600);
    const prod = await admin(['admin', 'certificate', 'set', '--rnc', RNC, '--p12', 'c.p12', '--password', cert.password], {
      files: { 'c.p12': cert.p12 },
      env: { NODE_ENV: 'production' },
    });
    expect(prod.code).toBe(1);
    expect(prod.err).toMatch(/ECF_CERT_KEY is not set/);
  });

  it('refuses a wrong password, another tax id, an expired certificate and an unknown issuer', async () => {
    await admin(['admin', 'issuer', 'add', '--rnc', RNC, '--name', 'Uno']);
    const env = { ECF_CERT_KEY: KEY_HEX };
    const set = (p12: Uint8Array, password: string, rnc = RNC) =>
      admin(['admin', 'certificate', 'set', '--rnc', rnc, '--p12', 'c.p12', '--password', password], { files: { 'c.p12': p12 }, env });
    const wrong = await set(rncP12().p12, 'otra');
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/contraseña/);
    const other = await set(modernP12().p12, modernP12().password);
    expect(other.code).toBe(1);
    expect(other.err).toMatch(/00199999996/);
    const expired = await set(expiredP12().p12, expiredP12().password, '00199999996');
    expect(expired.code).toBe(1);
    expect(expired.err).toMatch(/unknown issuer/);
    await admin(['admin', 'issuer', 'add', '--rnc', '00199999996', '--name', 'Persona']);
    const expired2 = await set(expiredP12().p12, expiredP12().password, '00199999996');
    expect(expired2.code).toBe(1);
    expect(expired2.err).toMatch(/venció/);
    const notP12 = await set(new TextEncoder().encode('-----BEGIN CERTIFICATE-----'), 'x');
    expect(notP12.code).toBe(1);
    const noFile = await admin(['admin', 'certificate', 'set', '--rnc', RNC, '--p12', 'none.p12', '--password', 'x'], { env });
    expect(noFile.code).toBe(1);
    expect(noFile.err).toMatch(/cannot read none\.p12/);
    expect((await admin(['admin', 'certificate', 'set', '--rnc', RNC, '--p12', 'c.p12'])).code).toBe(2);
    expect((await admin(['admin', 'certificate', 'set', '--rnc', RNC, '--p12', 'c.p12', '--password-env', 'UNSET_VAR'])).code).toBe(2);
    await withStorage(async (s) => {
      expect(await s.getIssuerByRnc(RNC)).toMatchObject({ signingMode: 'provider', certificate: null, certificateInfo: null });
    });
  });
});
