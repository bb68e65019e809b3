/**
 * Certificate key rotation end to end (issue 8, part 5, item 4), on SQLite and PostgreSQL, through the real
 * server (`startServer` from the environment, restarted between steps), the API and `ecf worker
 * --reencrypt-certificates`, following the procedure of docs/security.md:
 *
 * 0. Two issuers upload their certificates under K1.
 * 1. (The mistake the procedure prevents) restarting with ECF_CERT_KEY=K2 alone: stored certificates are
 *    unreadable, documents wait in `system_error` — nothing is lost.
 * 2. ECF_CERT_KEY=K2, ECF_CERT_KEY_PREVIOUS=K1: the waiting document and new ones are signed with the
 *    certificates sealed under K1; a new upload is sealed with K2 (raw row).
 * 3. `ecf worker --reencrypt-certificates`: the rest are re-sealed with K2 (raw rows); a second run has
 *    nothing to do.
 * 4. ECF_CERT_KEY=K2 alone: everything signs; no stored blob opens with K1 any more.
 *
 * What test/ecf/server/secrets.test.ts, certificates.test.ts, signers.test.ts and worker/cli.test.ts already
 * prove in pieces (key ring decryption, re-encryption with a fake storage, the CLI on SQLite) is not
 * repeated; this is the whole procedure on both engines with assertions on the stored bytes.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../../src/cli/main.js';
import { unsealCertificate } from '../../../../src/ecf/server/certificates.js';
import { loadConfig } from '../../../../src/ecf/server/config.js';
import { startServer, type RunningServer } from '../../../../src/ecf/server/main.js';
import { decryptSecret, envelopeKeyId, keyId, SecretError } from '../../../../src/ecf/server/secrets.js';
import { openStorage } from '../../../../src/ecf/server/storage/open.js';
import { generateToken, hashToken } from '../../../../src/shared/server-kit/tokens.js';
import { baseDoc } from '../../helpers/docs.js';
import { fakeIo } from '../../helpers/cli.js';
import { xsdDir } from '../../helpers/env.js';
import { A, B, BACKENDS, identityOf, PG_URL, type Backend } from './harness.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function pgQuery(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** A data directory and, for PostgreSQL, a fresh schema; the raw certificate column by RNC. */
async function place(backend: Backend): Promise<{ env: Record<string, string>; certificates(): Promise<Map<string, Buffer>> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ecf-sec-rotation-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = { PORT: '0', HOST: '127.0.0.1', ECF_DATA_DIR: dataDir, ECF_XSD_DIR: xsdDir(), LOG_LEVEL: 'silent' };
  if (backend === 'sqlite') {
    return {
      env,
      certificates: async () => {
        const db = new Database(join(dataDir, 'ecf.sqlite'), { readonly: true });
        try {
          return new Map(
            (db.prepare('SELECT rnc, certificate FROM issuers').all() as { rnc: string; certificate: Buffer }[]).map((r) => [r.rnc, r.certificate]),
          );
        } finally {
          db.close();
        }
      },
    };
  }
  const schema = `ecf_sec_rot_${process.pid}_${randomBytes(3).toString('hex')}`;
  await pgQuery(`CREATE SCHEMA "${schema}"`);
  cleanups.push(() => pgQuery(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
  const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    env: { ...env, DATABASE_URL: url },
    certificates: async () => {
      const c = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
      await c.connect();
      try {
        return new Map((await c.query('SELECT rnc, certificate FROM issuers')).rows.map((r: { rnc: string; certificate: Buffer }) => [r.rnc, r.certificate]));
      } finally {
        await c.end();
      }
    },
  };
}

describe.each(BACKENDS)('certificate key rotation on %s', (backend) => {
  it('old certificates keep signing during the rotation, re-encryption moves every blob to the new key, the old key can then go', async () => {
    const { env, certificates } = await place(backend);
    const K1 = randomBytes(32);
    const K2 = randomBytes(32);
    const ids = { [A.rnc]: identityOf(A.rnc, A.razon_social.toUpperCase()), [B.rnc]: identityOf(B.rnc, B.razon_social.toUpperCase()) };

    // Issuers, tokens, sequences.
    const tokens: Record<string, string> = {};
    const storage = await openStorage({ dataDir: env.ECF_DATA_DIR!, ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}) });
    try {
      for (const p of [A, B]) {
        const issuer = await storage.createIssuer({ rnc: p.rnc, name: p.razon_social, profile: p, signingMode: 'provider' });
        tokens[p.rnc] = generateToken();
        await storage.addToken(issuer.id, hashToken(tokens[p.rnc]!));
        await storage.addSequence(issuer.id, { tipo: '31', from: 1, to: 100, expiresOn: '2099-12-31' });
      }
    } finally {
      await storage.close();
    }

    let server: RunningServer | null = null;
    const start = async (keys: { ECF_CERT_KEY: string; ECF_CERT_KEY_PREVIOUS?: string }) => {
      server = await startServer(loadConfig({ ...env, ...keys }));
      return server;
    };
    const stop = async () => {
      await server?.close();
      server = null;
    };
    cleanups.push(stop);
    const api = (rnc: string, path: string, init: RequestInit = {}) =>
      fetch(`${server!.url}${path}`, { ...init, headers: { authorization: `Bearer ${tokens[rnc]}`, ...((init.headers as Record<string, string>) ?? {}) } });
    const upload = (rnc: string) => {
      const form = new FormData();
      form.append('certificate', new Blob([ids[rnc]!.p12 as Uint8Array<ArrayBuffer>]), 'cert.p12');
      form.append('password', ids[rnc]!.password);
      return api(rnc, '/api/v1/certificate', { method: 'POST', body: form });
    };
    const issue = async (rnc: string): Promise<string> => {
      const res = await api(rnc, '/api/v1/documents/31', {
        method: 'POST',
        body: JSON.stringify(baseDoc('31')),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(202);
      return ((await res.json()) as any).document.e_ncf;
    };
    const until = async (rnc: string, encf: string, status: string): Promise<any> => {
      let doc: any = null;
      for (let i = 0; i < 400; i++) {
        doc = ((await (await api(rnc, `/api/v1/documents/${encf}`)).json()) as any).document;
        if (doc.status === status) return doc;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`${rnc} ${encf} stayed ${doc?.status} (${JSON.stringify(doc?.errors)}), expected ${status}`);
    };
    const keyIds = async () => new Map([...(await certificates())].map(([rnc, blob]) => [rnc, envelopeKeyId(blob)]));
    const hex = (k: Buffer) => k.toString('hex');
    const b64 = (k: Buffer) => k.toString('base64');

    // 0. Uploads under K1; a document signed with A's certificate.
    await start({ ECF_CERT_KEY: hex(K1) });
    for (const rnc of [A.rnc, B.rnc]) expect((await upload(rnc)).status).toBe(200);
    await until(A.rnc, await issue(A.rnc), 'accepted_authority');
    await stop();
    expect(await keyIds()).toEqual(
      new Map([
        [A.rnc, keyId(K1)],
        [B.rnc, keyId(K1)],
      ]),
    );

    // 1. K2 without K1: the stored certificates cannot be opened; the document waits, nothing is lost.
    await start({ ECF_CERT_KEY: hex(K2) });
    const waiting = await issue(A.rnc);
    const failed = await until(A.rnc, waiting, 'system_error');
    expect(JSON.stringify(failed.errors)).toMatch(/certificado/i);
    expect(((await (await api(A.rnc, '/api/v1/certificate')).json()) as any).data.tax_id).toBe(A.rnc);
    await stop();

    // 2. K2 with K1 as previous: the waiting document and a new one are signed with the K1-sealed certificate;
    //    B's new upload is sealed with K2.
    await start({ ECF_CERT_KEY: hex(K2), ECF_CERT_KEY_PREVIOUS: b64(K1) });
    await until(A.rnc, waiting, 'accepted_authority');
    const during = await issue(A.rnc);
    await until(A.rnc, during, 'accepted_authority');
    expect((await upload(B.rnc)).status).toBe(200);
    await stop();
    expect(await keyIds()).toEqual(
      new Map([
        [A.rnc, keyId(K1)],
        [B.rnc, keyId(K2)],
      ]),
    );

    // 3. Re-encryption (the worker command, same environment): A's blob moves to K2; a second run finds nothing.
    const reencrypt = async () => {
      const { io, out, err } = fakeIo({}, { ...env, ECF_CERT_KEY: hex(K2), ECF_CERT_KEY_PREVIOUS: b64(K1) });
      expect(await runCli(['worker', '--reencrypt-certificates'], io), err()).toBe(0);
      return out();
    };
    const before = await certificates();
    expect(await reencrypt()).toContain('re-encrypted 1 certificate(s)');
    expect(await reencrypt()).toContain('re-encrypted 0 certificate(s)');
    const after = await certificates();
    expect(await keyIds()).toEqual(
      new Map([
        [A.rnc, keyId(K2)],
        [B.rnc, keyId(K2)],
      ]),
    );
    expect(after.get(B.rnc)).toEqual(before.get(B.rnc));
    expect(after.get(A.rnc)).not.toEqual(before.get(A.rnc));
    // Same certificate and password inside; the old key opens none of them.
    for (const [rnc, blob] of after) {
      const opened = unsealCertificate(blob, K2);
      expect(opened.password).toBe(ids[rnc]!.password);
      expect(Buffer.from(opened.p12)).toEqual(Buffer.from(ids[rnc]!.p12));
      expect(() => decryptSecret(blob, K1)).toThrow(SecretError);
    }

    // 4. K1 removed: both issuers sign.
    await start({ ECF_CERT_KEY: hex(K2) });
    for (const rnc of [A.rnc, B.rnc]) await until(rnc, await issue(rnc), 'accepted_authority');
    await stop();
  }, 180_000);
});
