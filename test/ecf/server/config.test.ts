/** loadConfig: defaults, every variable, and clear errors (all problems at once). */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/ecf/server/config.js';

const HEX_KEY = 'a'.repeat(64);

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('defaults: port 8080, ./data, SQLite, XSD under the data dir, in-process simulator, worker on, 12 MB limits', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: resolve('./data'),
      databaseUrl: null,
      xsdDir: resolve('./data/xsd'),
      authority: { kind: 'simulator' },
      environment: 'testecf',
      providerP12: null,
      providerP12Password: null,
      production: false,
      worker: true,
      limits: { jsonBytes: 12 * 1024 * 1024, xmlBytes: 12 * 1024 * 1024 },
      logLevel: 'info',
    });
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      ECF_DATA_DIR: '/srv/ecf',
      DATABASE_URL: 'postgres://u:p@db/ecf',
      ECF_XSD_DIR: '/opt/xsd',
      ECF_AUTHORITY: 'certecf',
      ECF_CERT_KEY: HEX_KEY,
      ECF_CERT_KEY_PREVIOUS: HEX_KEY,
      ECF_PROVIDER_P12: '/run/secrets/provider.p12',
      ECF_PROVIDER_P12_PASSWORD: 'secreto',
      ECF_WORKER: 'off',
      ECF_MAX_JSON_BYTES: '2MB',
      ECF_MAX_XML_BYTES: '512KB',
      LOG_LEVEL: 'debug',
      NODE_ENV: 'production',
      UNRELATED_SECRET: 'x',
    });
    expect(c).toMatchObject({
      port: 0,
      host: '127.0.0.1',
      dataDir: '/srv/ecf',
      databaseUrl: 'postgres://u:p@db/ecf',
      xsdDir: '/opt/xsd',
      authority: { kind: 'dgii', environment: 'certecf' },
      environment: 'certecf',
      providerP12: '/run/secrets/provider.p12',
      providerP12Password: 'secreto',
      production: true,
      worker: false,
      limits: { jsonBytes: 2 * 1024 * 1024, xmlBytes: 512 * 1024 },
      logLevel: 'debug',
    });
    // Only the certificate-key variables are kept from the environment.
    expect(c.env).toEqual({ ECF_CERT_KEY: HEX_KEY, ECF_CERT_KEY_PREVIOUS: HEX_KEY });
  });

  it('ECF_AUTHORITY: the three environments, a URL (with ECF_ENVIRONMENT), or the simulator', () => {
    // A real authority is production and needs ECF_CERT_KEY (issue 13, finding 11).
    for (const e of ['testecf', 'certecf', 'ecf'] as const)
      expect(loadConfig({ ECF_AUTHORITY: e, ECF_CERT_KEY: HEX_KEY }).authority).toEqual({ kind: 'dgii', environment: e });
    expect(loadConfig({ ECF_AUTHORITY: 'http://127.0.0.1:9090/' }).authority).toEqual({
      kind: 'url',
      baseUrl: 'http://127.0.0.1:9090',
      environment: 'testecf',
    });
    const url = loadConfig({ ECF_AUTHORITY: 'https://gateway.example/dgii', ECF_ENVIRONMENT: 'ecf' });
    expect(url.authority).toEqual({ kind: 'url', baseUrl: 'https://gateway.example/dgii', environment: 'ecf' });
    expect(url.environment).toBe('ecf');
    expect(loadConfig({ ECF_AUTHORITY: 'simulator' }).authority).toEqual({ kind: 'simulator' });
    expect(loadConfig({ ECF_AUTHORITY: '  ' }).authority).toEqual({ kind: 'simulator' });
  });

  it('accepts the key as base64 and plain byte counts as limits', () => {
    const c = loadConfig({ ECF_CERT_KEY: Buffer.alloc(32, 7).toString('base64'), ECF_MAX_JSON_BYTES: '20000', ECF_WORKER: 'on' });
    expect(c.limits.jsonBytes).toBe(20000);
    expect(c.worker).toBe(true);
  });

  it.each([
    [{ PORT: '65536' }, /PORT must be an integer from 0 to 65535 \(got "65536"\)/],
    [{ PORT: '80a' }, /PORT must be an integer/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be a postgres:\/\//],
    [{ ECF_AUTHORITY: 'produccion' }, /ECF_AUTHORITY must be testecf, certecf, ecf or an http\(s\) URL/],
    [{ ECF_AUTHORITY: 'ftp://x' }, /ECF_AUTHORITY must be/],
    [{ ECF_ENVIRONMENT: 'prod' }, /ECF_ENVIRONMENT must be testecf, certecf or ecf/],
    [{ ECF_ENVIRONMENT: 'ecf' }, /needs ECF_AUTHORITY: the in-process simulator plays testecf/],
    [{ ECF_AUTHORITY: 'certecf', ECF_ENVIRONMENT: 'ecf' }, /contradicts ECF_AUTHORITY=certecf/],
    [{ ECF_CERT_KEY: 'short' }, /ECF_CERT_KEY must be 32 random bytes/],
    [{ ECF_PROVIDER_P12: '/p.p12' }, /ECF_PROVIDER_P12 is set but ECF_PROVIDER_P12_PASSWORD is not/],
    [{ ECF_PROVIDER_P12_PASSWORD: 'x' }, /ECF_PROVIDER_P12_PASSWORD is set but ECF_PROVIDER_P12 is not/],
    [{ ECF_WORKER: 'maybe' }, /ECF_WORKER must be on or off/],
    [{ ECF_MAX_JSON_BYTES: '12 GB' }, /ECF_MAX_JSON_BYTES must be a size/],
    [{ ECF_MAX_XML_BYTES: '10' }, /ECF_MAX_XML_BYTES must be a size of at least 1024 bytes/],
    [{ LOG_LEVEL: 'verbose' }, /LOG_LEVEL must be one of/],
    [{ NODE_ENV: 'production', ECF_CERT_KEY: HEX_KEY }, /NODE_ENV=production requires ECF_AUTHORITY/],
    [{ NODE_ENV: 'production', ECF_AUTHORITY: 'ecf' }, /NODE_ENV=production requires ECF_CERT_KEY/],
  ])('%o → %s', (env, pattern) => {
    expect(problems(env as Record<string, string>).some((p) => pattern.test(p))).toBe(true);
  });

  it('receiver policy (issue 13, finding 5): https and public addresses by default; development opt-ins refused in production', () => {
    expect(loadConfig({}).receivers).toEqual({ allowHttp: false, allowAddresses: [] });
    expect(loadConfig({ ECF_RECEIVER_ALLOW_HTTP: 'on', ECF_RECEIVER_ALLOW_ADDRESSES: 'loopback, 10.1.0.0/16' }).receivers).toEqual({
      allowHttp: true,
      allowAddresses: ['127.0.0.0/8', '::1/128', '10.1.0.0/16'],
    });
    expect(problems({ ECF_RECEIVER_ALLOW_ADDRESSES: '10.0.0.0/33' }).join(' ')).toMatch(/ECF_RECEIVER_ALLOW_ADDRESSES/);
    const prod = { NODE_ENV: 'production', ECF_AUTHORITY: 'http://127.0.0.1:9090', ECF_CERT_KEY: HEX_KEY };
    expect(loadConfig(prod).receivers.allowHttp).toBe(false);
    expect(problems({ ...prod, ECF_RECEIVER_ALLOW_HTTP: 'on' }).join(' ')).toMatch(
      /ECF_RECEIVER_ALLOW_HTTP and ECF_RECEIVER_ALLOW_ADDRESSES are for development/,
    );
    expect(problems({ ECF_AUTHORITY: 'certecf', ECF_RECEIVER_ALLOW_ADDRESSES: 'loopback' }).join(' ')).toMatch(/for development/);
  });

  it('reports every problem at once, in an English message', () => {
    const p = problems({ PORT: 'x', LOG_LEVEL: 'loud', ECF_WORKER: '?' });
    expect(p).toHaveLength(3);
    expect(() => loadConfig({ PORT: 'x' })).toThrow(/^invalid server configuration:\n {2}- PORT/);
  });
});
