/**
 * Secrets never reach the logs (issue 8, part 5, item 3).
 *
 * 1. A real server process at LOG_LEVEL=trace (stdout and stderr to a file) through a full flow: issuers and
 *    tokens created with `ecf admin`, API calls with bearer tokens, bad tokens, a certificate upload with a
 *    wrong then the right password, documents signed with it (ECF_CERT_KEY, with ECF_CERT_KEY_PREVIOUS set),
 *    the worker authenticating to the in-process DGII simulator (seeds and tokens), a range voiding, the
 *    inbound seed login of another issuer and its deliveries with a good and a bad token. None of the
 *    secrets, nor their base64 / hex forms, appears in any line; nor does any XML body.
 * 2. In process: errors thrown with a request, headers, a body and a password attached (the 500 paths of
 *    the API and of the inbound services) are logged with their message and stack but none of that.
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../../src/cli/main.js';
import { createApp } from '../../../../src/ecf/server/app/index.js';
import { createLogger } from '../../../../src/ecf/server/main.js';
import { createSignerProvider } from '../../../../src/ecf/server/signers.js';
import { createSqliteStorage } from '../../../../src/ecf/server/storage/sqlite.js';
import type { Storage } from '../../../../src/ecf/server/storage/types.js';
import { generateToken, hashToken } from '../../../../src/shared/server-kit/tokens.js';
import { createDgiiClient } from '../../../../src/ecf/dgii/index.js';
import { buildEcfXmlFromJson } from '../../../../src/ecf/index.js';
import { signEcf, signXml } from '../../../../src/ecf/sign/index.js';
import { baseContext, baseDoc } from '../../helpers/docs.js';
import { fakeIo } from '../../helpers/cli.js';
import { repoRoot, xsdDir } from '../../helpers/env.js';
import { schemaValidator } from '../../helpers/xsd.js';
import { A, B, FOREIGN, identityOf } from './harness.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The forms a secret could be logged in: as is, base64, base64url, hex; for bytes, windows of them. */
function forms(secret: string | Uint8Array): string[] {
  if (typeof secret === 'string') {
    const b = Buffer.from(secret, 'utf8');
    return [secret, b.toString('base64'), b.toString('base64url'), b.toString('hex')];
  }
  const out: string[] = [];
  const b = Buffer.from(secret);
  // Windows at several offsets, so a base64 form of the whole (or of a part) is caught whatever its alignment.
  for (let at = 0; at + 48 <= b.length; at += Math.max(48, Math.floor(b.length / 8))) {
    const w = b.subarray(at, at + 48);
    out.push(w.toString('hex'), w.toString('base64').slice(4, 60), w.toString('base64url').slice(4, 60));
  }
  return out;
}

/** `name: form` of every secret found in `text`. */
function leaks(text: string, secrets: Record<string, string | Uint8Array>): string[] {
  return Object.entries(secrets).flatMap(([name, s]) =>
    forms(s)
      .filter((f) => f.length >= 8 && text.includes(f))
      .map((f) => `${name}: ${f.slice(0, 12)}…`),
  );
}

describe('a server process at LOG_LEVEL=trace', () => {
  it('logs the whole flow without a single secret, and no XML body', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ecf-sec-logs-'));
    dirs.push(dir);
    const dataDir = join(dir, 'data');
    const certKey = randomBytes(32);
    const previousKey = randomBytes(32);
    const provider = identityOf('000000001', 'PROVEEDOR LOGS');
    writeFileSync(join(dir, 'provider.p12'), provider.p12);
    const own = identityOf(A.rnc, A.razon_social.toUpperCase());
    const wrongPassword = `mal-${randomBytes(6).toString('hex')}`;

    // Issuers, tokens and sequences with the admin CLI (it prints each token once, on its own stdout).
    const adminEnv = { ECF_DATA_DIR: dataDir, ECF_CERT_KEY: certKey.toString('hex') };
    const admin = async (...args: string[]) => {
      const { io, out, err } = fakeIo({ '/profile-a.json': JSON.stringify(A), '/profile-b.json': JSON.stringify(B) }, adminEnv);
      const code = await runCli(['admin', ...args], io);
      if (code !== 0) throw new Error(`ecf admin ${args.join(' ')}: ${err()}`);
      return JSON.parse(out());
    };
    const tokenA: string = (await admin('issuer', 'add', '--rnc', A.rnc, '--name', A.razon_social, '--profile', '/profile-a.json', '--signing', 'provider'))
      .token;
    const tokenB: string = (await admin('issuer', 'add', '--rnc', B.rnc, '--name', B.razon_social, '--profile', '/profile-b.json', '--signing', 'provider'))
      .token;
    const tokenA2: string = (await admin('token', 'add', '--rnc', A.rnc, '--label', 'segundo')).token;
    for (const [rnc, tipo] of [
      [A.rnc, '31'],
      [A.rnc, '32'],
      [A.rnc, '33'],
      [B.rnc, '31'],
    ]) {
      await admin('sequence', 'add', '--rnc', rnc!, '--type', tipo!, '--from', '1', '--to', '100', '--expires', tipo === '32' ? 'none' : '31-12-2099');
    }

    const logFile = join(dir, 'server.log');
    const fd = openSync(logFile, 'w');
    const env: Record<string, string | undefined> = {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      ECF_DATA_DIR: dataDir,
      ECF_XSD_DIR: xsdDir(),
      LOG_LEVEL: 'trace',
      ECF_CERT_KEY: certKey.toString('hex'),
      ECF_CERT_KEY_PREVIOUS: previousKey.toString('base64'),
      ECF_PROVIDER_P12: join(dir, 'provider.p12'),
      ECF_PROVIDER_P12_PASSWORD: provider.password,
      DATABASE_URL: undefined,
      ECF_AUTHORITY: undefined,
      NODE_ENV: undefined,
      ECF_ENVIRONMENT: undefined,
    };
    const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'src/ecf/server/start.ts')], {
      cwd: repoRoot,
      env: Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv,
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const inboundSeeds: string[] = [];
    let inboundToken = '';
    try {
      let url: string | undefined;
      for (let i = 0; i < 600 && !url; i++) {
        if (child.exitCode !== null) throw new Error(`server exited:\n${readFileSync(logFile, 'utf8')}`);
        await new Promise((r) => setTimeout(r, 100));
        url = /listening on (http:\/\/\S+)/.exec(readFileSync(logFile, 'utf8'))?.[1];
      }
      if (!url) throw new Error('server did not start');
      const api = (token: string | null, path: string, init: RequestInit = {}) =>
        fetch(`${url}${path}`, {
          ...init,
          headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...((init.headers as Record<string, string>) ?? {}) },
        });

      expect((await api(tokenA, '/api/v1/statuses')).status).toBe(200);
      expect((await api(tokenA2, '/api/v1/certificate')).status).toBe(200);
      const badToken = generateToken();
      expect((await api(badToken, '/api/v1/documents')).status).toBe(401);
      expect((await api(null, '/api/v1/documents', { headers: { authorization: `Basic ${Buffer.from(`u:${badToken}`).toString('base64')}` } })).status).toBe(
        401,
      );

      const upload = (password: string) => {
        const form = new FormData();
        form.append('certificate', new Blob([own.p12 as Uint8Array<ArrayBuffer>]), 'a.p12');
        form.append('password', password);
        return api(tokenA, '/api/v1/certificate', { method: 'POST', body: form });
      };
      expect((await upload(wrongPassword)).status).toBe(422);
      expect((await upload(own.password)).status).toBe(200);

      // Documents signed with the uploaded certificate; the worker talks to the simulator (seed, token).
      const issued: string[] = [];
      for (const tipo of ['31', '32', '33']) {
        const res = await api(tokenA, `/api/v1/documents/${tipo}`, {
          method: 'POST',
          body: JSON.stringify(baseDoc(tipo as '31')),
          headers: { 'content-type': 'application/json' },
        });
        expect(res.status).toBe(202);
        issued.push(((await res.json()) as any).document.e_ncf);
      }
      const resB = await api(tokenB, '/api/v1/documents/31', {
        method: 'POST',
        body: JSON.stringify(baseDoc('31')),
        headers: { 'content-type': 'application/json' },
      });
      expect(resB.status).toBe(202);
      for (const encf of issued) {
        let status = '';
        for (let i = 0; i < 300 && status !== 'accepted_authority'; i++) {
          status = ((await (await api(tokenA, `/api/v1/documents/${encf}`)).json()) as any).document.status;
          if (status !== 'accepted_authority') await new Promise((r) => setTimeout(r, 100));
        }
        expect(status, encf).toBe('accepted_authority');
      }
      expect((await api(tokenA, `/api/v1/documents/${issued[0]}/xml`)).status).toBe(200);
      expect((await api(tokenA, `/api/v1/documents/${issued[0]}/authority-status`)).status).toBe(200);
      expect((await api(tokenA, `/api/v1/documents/${issued[0]}/track-ids`)).status).toBe(200);
      expect((await api(tokenA, '/api/v1/directory')).status).toBe(200);
      const voided = await api(tokenA, '/api/v1/voided-sequences', {
        method: 'POST',
        body: JSON.stringify({ rangos: [{ tipo: '31', desde: 50, hasta: 59 }] }),
        headers: { 'content-type': 'application/json' },
      });
      expect(voided.status).toBe(201);

      // Another issuer logs in to B's receiver (seed + signature) and delivers an e-CF.
      const foreign = identityOf(FOREIGN, 'EMISOR EXTRANJERO SRL');
      const login = async () => {
        const seed = await (await fetch(`${url}/t/${B.rnc}/fe/autenticacion/api/semilla`)).text();
        inboundSeeds.push(/<valor>([^<]+)<\/valor>/.exec(seed)![1]!);
        const form = new FormData();
        form.append('xml', new Blob([await signXml(seed, foreign.signer)]), 'semilla.xml');
        return fetch(`${url}/t/${B.rnc}/fe/autenticacion/api/validacioncertificado`, { method: 'POST', body: form, headers: { accept: 'application/json' } });
      };
      const logged = await login();
      expect(logged.status).toBe(200);
      inboundToken = ((await logged.json()) as { token: string }).token;
      // A replayed seed (refused) and a seed with a broken signature (refused).
      const seed = await (await fetch(`${url}/t/${B.rnc}/fe/autenticacion/api/semilla`)).text();
      inboundSeeds.push(/<valor>([^<]+)<\/valor>/.exec(seed)![1]!);
      const tampered = (await signXml(seed, foreign.signer)).replace(/<valor>[^<]+/, '<valor>x');
      const bad = new FormData();
      bad.append('xml', new Blob([tampered]), 'semilla.xml');
      expect((await fetch(`${url}/t/${B.rnc}/fe/autenticacion/api/validacioncertificado`, { method: 'POST', body: bad })).status).toBe(401);

      const doc = baseDoc('31');
      doc.comprador = { ...doc.comprador, rnc: B.rnc };
      const ecf = await signEcf(buildEcfXmlFromJson('31', doc, baseContext('31')), foreign.signer, () => new Date());
      const deliver = (token: string) => {
        const form = new FormData();
        form.append('xml', new Blob([ecf]), `${FOREIGN}E310000000001.xml`);
        return fetch(`${url}/t/${B.rnc}/fe/recepcion/api/ecf`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
      };
      expect((await deliver(inboundToken)).status).toBe(200);
      expect((await deliver(`${inboundToken.slice(0, -2)}zz`)).status).toBe(401);
    } finally {
      if (child.exitCode === null) child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(force);
    }

    const log = readFileSync(logFile, 'utf8');
    // The simulator's own state holds the DGII tokens the worker and the API obtained (it stores them in clear).
    const sim = JSON.parse(readFileSync(join(dataDir, 'simulator.json'), 'utf8')) as { tokens: Record<string, unknown> };
    const dgiiTokens = Object.keys(sim.tokens);
    expect(dgiiTokens.length).toBeGreaterThan(0);

    // The log is the real thing: trace/debug lines of every part of the flow.
    const lines = log
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, any>);
    const messages = new Set(lines.map((l) => l.msg));
    for (const m of [
      'request',
      'certificate upload refused',
      'certificate uploaded',
      'document received',
      'document status changed',
      'authority request',
      'claimed documents',
      'inbound: token issued',
      'inbound: seed signature invalid',
      'inbound e-CF received',
      'range voiding settled',
    ]) {
      expect(messages, m).toContain(m);
    }
    expect(lines.filter((l) => l.msg === 'request' && l.status === 401).length).toBeGreaterThanOrEqual(3);

    const secrets: Record<string, string | Uint8Array> = {
      tokenA,
      tokenB,
      tokenA2,
      inboundToken,
      certPassword: own.password,
      wrongPassword,
      providerPassword: provider.password,
      ECF_CERT_KEY: certKey.toString('hex'),
      certKeyBytes: certKey,
      ECF_CERT_KEY_PREVIOUS: previousKey.toString('base64'),
      previousKeyBytes: previousKey,
      ownP12: own.p12,
      providerP12: provider.p12,
      ...Object.fromEntries(dgiiTokens.map((t, i) => [`dgiiToken${i}`, t])),
      ...Object.fromEntries(inboundSeeds.map((s, i) => [`inboundSeed${i}`, s])),
    };
    expect(leaks(log, secrets)).toEqual([]);
    // Bodies stay out too: no e-CF, seed, signature or certificate.
    expect(log).not.toMatch(/<ECF|<SemillaModel|<SignatureValue|<X509Certificate|BEGIN CERTIFICATE/);
    // And the hashes of the tokens (what storage keeps) are not logged either.
    expect(leaks(log, { hashA: hashToken(tokenA), hashInbound: hashToken(inboundToken) })).toEqual([]);
  }, 180_000);
});

describe('errors carrying requests', () => {
  /** An error as an HTTP library or driver might throw it: the failed request attached, with its credentials. */
  function richError(token: string, password: string): Error {
    const cause = Object.assign(new Error('upstream refused'), {
      code: 'E_UPSTREAM',
      headers: { authorization: `Bearer ${token}` },
      config: { auth: { password } },
    });
    return Object.assign(new Error('storage exploded'), {
      code: 'E_TEST',
      request: { method: 'POST', headers: { authorization: `Bearer ${token}`, cookie: `s=${token}` }, body: `<ECF>${password}</ECF>` },
      response: { status: 500, data: { token } },
      options: { password },
      cause,
    });
  }

  it('a 500 in the API and in the inbound services logs message, code and stack, never the request', async () => {
    const lines: string[] = [];
    const logger = createLogger(
      'trace',
      new Writable({
        write(chunk, _e, cb) {
          lines.push(String(chunk));
          cb();
        },
      }),
    );
    const token = generateToken();
    const password = `clave-${randomBytes(8).toString('hex')}`;
    const base = createSqliteStorage({ file: ':memory:' });
    await base.migrate();
    const issuer = await base.createIssuer({ rnc: A.rnc, name: A.razon_social, profile: A, signingMode: 'provider' });
    await base.addToken(issuer.id, hashToken(token));
    const storage: Storage = {
      ...base,
      listDocuments: async () => {
        throw richError(token, password);
      },
      getIssuerByRnc: async (rnc) => {
        if (rnc === B.rnc) throw richError(token, password);
        return base.getIssuerByRnc(rnc);
      },
    };
    const provider = identityOf('000000001', 'PROVEEDOR LOGS');
    const transport = createDgiiClient({ environment: 'testecf', baseUrl: 'http://127.0.0.1:9' });
    const app = createApp({
      storage,
      transport,
      schemas: schemaValidator(),
      environment: 'testecf',
      logger,
      signers: createSignerProvider({ key: null, provider: { p12: provider.p12, password: provider.password } }),
    });
    try {
      const res = await app.request('/api/v1/documents', { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(500);
      expect(await res.text()).not.toContain('storage exploded');
      const inbound = await app.request(`/t/${B.rnc}/fe/autenticacion/api/semilla`);
      expect(inbound.status).toBe(500);
    } finally {
      await transport.close();
      await base.close();
    }
    const text = lines.join('');
    const errors = lines.map((l) => JSON.parse(l) as Record<string, any>).filter((l) => l.err);
    expect(errors.map((l) => l.msg)).toEqual(['unexpected error while handling a request', 'inbound service failed']);
    for (const e of errors) {
      expect(e.err).toMatchObject({ type: 'Error', message: 'storage exploded', code: 'E_TEST', cause: { message: 'upstream refused', code: 'E_UPSTREAM' } });
      expect(e.err.stack).toContain('storage exploded');
      expect(Object.keys(e.err).sort()).toEqual(['cause', 'code', 'message', 'name', 'stack', 'type']);
    }
    expect(leaks(text, { token, password })).toEqual([]);
    expect(text).not.toContain('<ECF>');
  });

  it('redacts credentials under their usual names, also one level down', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (s: string) => void lines.push(s) });
    const secret = `s3cr3t-${randomBytes(6).toString('hex')}`;
    logger.info(
      {
        ECF_CERT_KEY_PREVIOUS: secret,
        env: { DATABASE_URL: `postgres://u:${secret}@db/x`, ECF_CERT_KEY: secret },
        p12: secret,
        req: { headers: { cookie: secret, authorization: secret } },
        upload: { password: secret, p12: secret },
        certificateKey: secret,
      },
      'config',
    );
    expect(lines.join('')).not.toContain(secret);
    expect(JSON.parse(lines[0]!).env.DATABASE_URL).toBe('[redacted]');
  });
});
