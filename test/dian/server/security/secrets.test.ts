/**
 * Secrets at rest and in the logs, on SQLite and PostgreSQL, with the service's own pino logger (createDianLogger:
 * the kit's redaction and error serializers) captured at debug level during a run that issues, sends an event,
 * mails, refuses tokens, hits a failing `send: true` hook whose error carries request headers, and checks the
 * contingency deadlines (none near: nothing to warn).
 *
 * - Tokens are stored hashed: no stored value (any table, any column) holds a token; `dian_tokens.hash` is a
 *   SHA-256 hex digest.
 * - Certificates are sealed: neither the .p12 (bytes, base64, hex), its password, nor any PEM block appears in the
 *   database or in any file of the data directory.
 * - The logs hold no token (valid, another company's, a refused one), software PIN, .p12 password, sealing key,
 *   technical key or private key.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCompany, unsealIdentity } from '../../../../src/dian/server/index.js';
import { createDianLogger } from '../../../../src/dian/server/start.js';
import { repoRoot } from '../../helpers/env.js';
import { example, type Harness, PG_URL, startHarness } from '../helpers.js';

const CONTEXT = JSON.parse(readFileSync(join(repoRoot, 'examples/dian/context.json'), 'utf8'));

/** Every file under `dir`, whole. */
function filesOf(dir: string): { name: string; bytes: Buffer }[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .map((f) => join(dir, f))
    .filter((p) => statSync(p).isFile())
    .map((p) => ({ name: p, bytes: readFileSync(p) }));
}

describe.each(['sqlite', 'postgres'] as const)('secrets at rest and in the logs (%s)', (engine) => {
  let h: Harness;
  const lines: string[] = [];
  let third: { token: string; pin: string };
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    h = await startHarness(engine, {
      logger: createDianLogger('debug', { write: (s: string) => void lines.push(s) }),
      notifyCustomer: async () => {
        // A failing hook whose error carries what an HTTP client's error often does: the request, headers included.
        const e = new Error('mail relay refused the message');
        Object.assign(e, { config: { headers: { authorization: `Bearer ${h.token}` } }, token: h.token });
        throw e;
      },
    });
    const pin = `pin-secreto-${randomBytes(6).toString('hex')}`;
    const added = await addCompany(
      h.server.storage,
      {
        nit: '900108281',
        profile: { ...CONTEXT.company, name: 'Tercera S.A.S.', dv: '3' },
        softwareId: CONTEXT.software.id,
        softwarePin: pin,
        providerNit: CONTEXT.software.provider_nit,
        providerDv: CONTEXT.software.provider_dv,
      },
      h.certificateKey,
    );
    third = { token: added.token, pin };
    const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
      h.server.app.request(path, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
    const refused = `dian_${randomBytes(24).toString('base64url')}`;
    expect((await call('POST', '/service/invoice', bearer(h.token), { ...example('invoice'), number: 990_400_001 })).status).toBe(200);
    expect((await call('POST', '/service/invoice', bearer(h.token), { ...example('invoice'), number: 990_400_002, send: true })).status).toBe(500);
    expect((await call('POST', '/service/invoice', bearer(third.token), { ...example('invoice'), number: 990_400_003 })).status).toBe(422);
    expect((await call('POST', '/service/invoice', bearer(refused), example('invoice'))).status).toBe(401);
    expect((await call('GET', '/service/documents', { authotization: `Bearer ${h.otherToken}` })).status).toBe(401);
    expect(
      (await call('POST', '/v1/034', bearer(h.token), JSON.parse(readFileSync(join(repoRoot, 'examples/dian/event-034.json'), 'utf8')))).status,
    ).toBeLessThan(500);
    const mail = await call(
      'POST',
      '/utilities/mail/send',
      { authotization: `Bearer ${h.otherToken}` },
      (await (await call('GET', '/service/openapi.json', {})).json()).paths['/utilities/mail/send'].post.requestBody.content['application/json'].example,
    );
    expect(mail.status).toBe(202);
    expect(
      (await call('POST', '/service/contingency-invoice', bearer(h.token), { ...example('contingency-invoice'), number: 990_400_004, send_dian: false }))
        .status,
    ).toBe(200);
    await h.server.checkContingencyDeadlines();

    const company = (await h.server.storage.listCompanies()).find((c) => c.nit === '901458732')!;
    const identity = unsealIdentity(company.certificate!, h.certificateKey);
    Object.assign(secrets, {
      token: h.token,
      otherToken: h.otherToken,
      thirdToken: third.token,
      refusedToken: refused,
      pin: third.pin,
      p12Password: identity.password,
      p12Base64: Buffer.from(identity.p12).toString('base64').slice(0, 48),
      sealingKeyHex: Buffer.from(h.certificateKey).toString('hex'),
      sealingKeyBase64: Buffer.from(h.certificateKey).toString('base64'),
      technicalKey: CONTEXT.resolution.technical_key,
    });
    secrets.p12Hex = Buffer.from(identity.p12).subarray(0, 32).toString('hex');
    (secrets as Record<string, unknown>).p12Bytes = identity.p12;
  }, 180_000);
  afterAll(async () => {
    await h?.cleanup();
  });

  it('logs what happened, with no token, PIN, password, key or private key in any line', () => {
    const log = lines.join('');
    expect(log).toContain('DIAN service listening');
    expect(log).toContain('unexpected error');
    expect(log).toContain('mail relay refused the message');
    for (const [name, value] of Object.entries(secrets)) {
      if (typeof value !== 'string') continue;
      if (name === 'technicalKey') continue; // checked below: written into every CUFE's input, never logged
      expect(log.includes(value), `the log holds the ${name}`).toBe(false);
    }
    expect(log.includes(secrets.technicalKey!), 'the log holds the technical key').toBe(false);
    expect(log).not.toMatch(/-----BEGIN|PRIVATE KEY/);
  });

  it('stores tokens hashed and certificates sealed: nothing of them in the database or the data directory', async () => {
    const p12 = (secrets as Record<string, unknown>).p12Bytes as Uint8Array;
    const plain = [secrets.token!, secrets.otherToken!, secrets.thirdToken!, secrets.p12Password!, secrets.p12Base64!];
    if (engine === 'sqlite') {
      // The database files themselves (and the WAL), byte for byte, and every other file of the data directory.
      const files = filesOf(h.dataDir);
      expect(files.map((f) => f.name.split('/').pop())).toContain('dian.sqlite');
      for (const f of files) {
        for (const s of plain) expect(f.bytes.includes(Buffer.from(s)), `${f.name} holds a secret (${s.slice(0, 8)}…)`).toBe(false);
        expect(f.bytes.includes(Buffer.from(p12).subarray(0, 64)), `${f.name} holds the .p12`).toBe(false);
        expect(f.bytes.includes(Buffer.from('-----BEGIN')), `${f.name} holds a PEM block`).toBe(false);
      }
      const Database = (await import('better-sqlite3')).default;
      const db = new Database(join(h.dataDir, 'dian.sqlite'), { readonly: true });
      const hashes = db.prepare('SELECT hash FROM dian_tokens').all() as { hash: string }[];
      db.close();
      expect(hashes.length).toBeGreaterThanOrEqual(3);
      for (const { hash } of hashes) expect(hash).toMatch(/^[0-9a-f]{64}$/);
    } else {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      try {
        const tables = (await c.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [h.schema])).rows as { table_name: string }[];
        expect(tables.map((t) => t.table_name)).toContain('dian_companies');
        for (const { table_name } of tables) {
          const rows = (await c.query(`SELECT t::text AS r FROM "${h.schema}"."${table_name}" t`)).rows as { r: string }[];
          const text = rows.map((r) => r.r).join('\n');
          for (const s of [...plain, secrets.p12Hex!]) expect(text.includes(s), `${table_name} holds a secret (${s.slice(0, 8)}…)`).toBe(false);
          expect(text).not.toContain('-----BEGIN');
        }
        const hashes = (await c.query(`SELECT hash FROM "${h.schema}".dian_tokens`)).rows as { hash: string }[];
        expect(hashes.length).toBeGreaterThanOrEqual(3);
        for (const { hash } of hashes) expect(hash).toMatch(/^[0-9a-f]{64}$/);
      } finally {
        await c.end();
      }
      for (const f of filesOf(h.dataDir)) {
        for (const s of plain) expect(f.bytes.includes(Buffer.from(s)), `${f.name} holds a secret`).toBe(false);
        expect(f.bytes.includes(Buffer.from('-----BEGIN')), `${f.name} holds a PEM block`).toBe(false);
      }
    }
  });
});
