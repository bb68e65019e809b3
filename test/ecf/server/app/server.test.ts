/**
 * The whole server over real HTTP: startServer with PORT 0 and a temporary data directory in simulator
 * mode (in-process simulator, worker, SQLite), then fetch; and `ecf serve` started and stopped with a signal.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runServe, serveCommand } from '../../../../src/ecf/cli/serve.js';
import { loadConfig } from '../../../../src/ecf/server/config.js';
import { createLogger, startServer } from '../../../../src/ecf/server/main.js';
import { openStorage } from '../../../../src/ecf/server/storage/open.js';
import { generateToken, hashToken } from '../../../../src/shared/server-kit/tokens.js';
import { modernP12 } from '../../helpers/certs.js';
import { fakeIo } from '../../helpers/cli.js';
import { baseDoc, withLines } from '../../helpers/docs.js';
import { xsdDir } from '../../helpers/env.js';
import { ISSUER_PROFILE } from './harness.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ecf-server-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const env = (dataDir: string, extra: Record<string, string> = {}) => ({
  PORT: '0',
  HOST: '127.0.0.1',
  ECF_DATA_DIR: dataDir,
  ECF_XSD_DIR: xsdDir(),
  LOG_LEVEL: 'silent',
  ...extra,
});

/** Adds an issuer (provider signing), a token and a type-31 sequence to the server's database. */
async function provision(dataDir: string): Promise<string> {
  const storage = await openStorage({ dataDir });
  try {
    const issuer = await storage.createIssuer({
      rnc: ISSUER_PROFILE.rnc!,
      name: ISSUER_PROFILE.razon_social!,
      profile: ISSUER_PROFILE,
      signingMode: 'provider',
    });
    const token = generateToken();
    await storage.addToken(issuer.id, hashToken(token));
    await storage.addSequence(issuer.id, { tipo: '31', from: 1, to: 100, expiresOn: '2099-12-31' });
    return token;
  } finally {
    await storage.close();
  }
}

describe('startServer over HTTP (simulator mode)', () => {
  it('serves the API, issues a document that the in-process worker gets accepted, and stops cleanly', async () => {
    const dataDir = tempDir();
    // A provider certificate from a file (ECF_PROVIDER_P12); the `ecf serve` test below covers the generated one.
    const cert = modernP12();
    writeFileSync(join(dataDir, 'provider.p12'), cert.p12);
    const server = await startServer(
      loadConfig(
        env(dataDir, {
          ECF_MAX_JSON_BYTES: '64KB',
          ECF_PROVIDER_P12: join(dataDir, 'provider.p12'),
          ECF_PROVIDER_P12_PASSWORD: cert.password,
        }),
      ),
    );
    let closed = false;
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.port).toBeGreaterThan(0);
      expect(server.fresh).toBe(true);
      expect(server.simulatorUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      const openapi = await fetch(`${server.url}/api/v1/openapi.json`);
      expect(openapi.status).toBe(200);
      expect((await openapi.json()).openapi).toMatch(/^3\./);
      expect((await fetch(`${server.url}/api/v1/statuses`)).status).toBe(401);

      const token = await provision(dataDir);
      const auth = { authorization: `Bearer ${token}` };
      const res = await fetch(`${server.url}/api/v1/documents/31`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(baseDoc('31')),
      });
      expect(res.status).toBe(202);
      const issued = await res.json();
      expect(issued.document).toMatchObject({ e_ncf: 'E310000000001', status: 'received', track_id: null });

      let doc: any = null;
      for (let i = 0; i < 200 && doc?.status !== 'accepted_authority'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        doc = (await (await fetch(`${server.url}/api/v1/documents/E310000000001`, { headers: auth })).json()).document;
      }
      expect(doc).toMatchObject({ status: 'accepted_authority', is_valid_fiscally: true });
      const pdf = await fetch(`${server.url}/api/v1/documents/E310000000001/pdf`, { headers: auth });
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');

      // The configured limit applies to real sockets too (413 envelope, nothing consumed).
      const big = await fetch(`${server.url}/api/v1/documents/31`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(withLines('31', 1000)),
      });
      expect(big.status).toBe(413);
      expect((await big.json()).message).toMatch(/64 KB/);

      await server.close();
      closed = true;
      await expect(fetch(`${server.url}/api/v1/openapi.json`)).rejects.toThrow();
      expect(existsSync(join(dataDir, 'ecf.sqlite'))).toBe(true);

      // A restart on the same data directory keeps everything: not fresh, the document still there.
      const again = await startServer(
        loadConfig(env(dataDir, { ECF_WORKER: 'off', ECF_PROVIDER_P12: join(dataDir, 'provider.p12'), ECF_PROVIDER_P12_PASSWORD: cert.password })),
      );
      try {
        expect(again.fresh).toBe(false);
        const rec = await (await fetch(`${again.url}/api/v1/documents/E310000000001`, { headers: auth })).json();
        expect(rec.document.status).toBe('accepted_authority');
      } finally {
        await again.close();
      }
    } finally {
      if (!closed) await server.close();
    }
  });

  it('fails to start with a clear error when the XSD directory is missing, leaving nothing running', async () => {
    const dataDir = tempDir();
    await expect(startServer(loadConfig(env(dataDir, { ECF_XSD_DIR: join(dataDir, 'nope') })))).rejects.toThrow(/XSD directory not found/);
  });
});

describe('createLogger', () => {
  it('writes structured lines and redacts credentials wherever they appear', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (s: string) => void lines.push(s) });
    logger.info(
      {
        authorization: 'Bearer ecf_abc',
        req: { headers: { authorization: 'Bearer ecf_def' } },
        token: 'ecf_ghi',
        issuer: { password: 'pw1' },
        rnc: '130182452',
      },
      'hello',
    );
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ msg: 'hello', service: 'ecf-kit', rnc: '130182452', authorization: '[redacted]', token: '[redacted]' });
    expect(line.req.headers.authorization).toBe('[redacted]');
    expect(line.issuer.password).toBe('[redacted]');
    expect(lines.join('')).not.toMatch(/ecf_abc|ecf_def|ecf_ghi|pw1/);
  });
});

describe('ecf serve', () => {
  it('starts, prints the URL and the first-run hint, serves, and stops on the signal', async () => {
    const dataDir = tempDir();
    const { io, out } = fakeIo({}, { ECF_XSD_DIR: xsdDir(), LOG_LEVEL: 'silent' });
    const stop = new AbortController();
    let failure: unknown = null;
    const running = runServe(['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir], io, stop.signal);
    running.catch((e) => {
      failure = e;
    });
    let url: string | undefined;
    for (let i = 0; i < 200 && !url && !failure; i++) {
      await new Promise((r) => setTimeout(r, 25));
      url = /listening on (http:\/\/\S+)/.exec(out())?.[1];
    }
    expect(failure).toBeNull();
    expect(url).toBeDefined();
    expect(out()).toContain('in-process simulator');
    expect(out()).toContain('ecf admin issuer add');
    expect((await fetch(`${url}/api/v1/docs`)).status).toBe(200);
    stop.abort();
    expect(await running).toBe(0);
    await expect(fetch(`${url}/api/v1/docs`)).rejects.toThrow();
  });

  it('reports configuration errors and unknown flags', async () => {
    const bad = fakeIo({}, { ECF_XSD_DIR: xsdDir() });
    expect(await serveCommand.run(['--port', '99999'], bad.io)).toBe(2);
    expect(bad.err()).toMatch(/PORT must be an integer from 0 to 65535/);
    await expect(serveCommand.run(['--frobnicate'], fakeIo().io)).rejects.toThrow(/unknown option\(s\): --frobnicate/);
    await expect(serveCommand.run(['--port'], fakeIo().io)).rejects.toThrow(/--port needs a value/);
  });
});
