/**
 * Issue 13, finding 6: connection exhaustion. The whole server over real loopback sockets with small
 * configured values: a client that never finishes its headers is cut, a body slower than the minimum rate
 * is answered 408 and cut, and connections beyond the cap are closed while an existing client is served.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../src/ecf/server/config.js';
import { startServer, type RunningServer } from '../../../../src/ecf/server/main.js';
import { xsdDir } from '../../helpers/env.js';
import { rawConnect, type RawClient } from '../../helpers/raw-http.js';

const dirs: string[] = [];
const open: { server: RunningServer; clients: RawClient[] }[] = [];
afterAll(async () => {
  for (const o of open) {
    for (const c of o.clients) c.destroy();
    await o.server.close();
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function start(extra: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ecf-conn-'));
  dirs.push(dataDir);
  const server = await startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      ECF_DATA_DIR: dataDir,
      ECF_XSD_DIR: xsdDir(),
      LOG_LEVEL: 'silent',
      ECF_WORKER: 'off',
      ...extra,
    }),
  );
  const entry = { server, clients: [] as RawClient[] };
  open.push(entry);
  const client = async () => {
    const c = await rawConnect(server.url);
    entry.clients.push(c);
    return c;
  };
  return { server, client };
}

const VALIDAR = '/fe/autenticacion/api/validacioncertificado';

describe('connection limits over real sockets', () => {
  it('cuts a slowloris client that never finishes its headers', async () => {
    const { client } = await start({ ECF_HEADERS_TIMEOUT_MS: '500', ECF_REQUEST_TIMEOUT_MS: '2000' });
    const c = await client();
    c.socket.write(`POST ${VALIDAR} HTTP/1.1\r\nHost: x\r\n`);
    c.trickle(
      Array.from({ length: 200 }, (_, i) => `X-Slow-${i}: a\r\n`),
      100,
    );
    expect(await c.closed(8_000)).toBe(true);
  });

  it('answers 408 to a body slower than the minimum rate and closes the connection', async () => {
    const { client } = await start({ ECF_MIN_BODY_RATE: '200', ECF_BODY_GRACE_MS: '300', ECF_REQUEST_TIMEOUT_MS: '60000' });
    const c = await client();
    c.socket.write(`POST ${VALIDAR} HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 5000\r\n\r\n`);
    c.trickle(
      Array.from({ length: 500 }, () => 'x'),
      50,
    ); // 20 bytes/s
    expect(await c.closed(8_000)).toBe(true);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes connections beyond the cap while a client already connected is still served', async () => {
    const { client } = await start({ ECF_MAX_CONNECTIONS: '3', ECF_HEADERS_TIMEOUT_MS: '10000', ECF_REQUEST_TIMEOUT_MS: '20000' });
    const a = await client();
    const b = await client();
    const c = await client();
    const d = await client();
    expect(await d.closed(3_000)).toBe(true);
    expect(d.received()).toBe('');
    a.socket.write('GET /fe/autenticacion/api/semilla HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(await a.closed(8_000)).toBe(true);
    expect(a.received()).toMatch(/^HTTP\/1\.1 200 [\s\S]*<valor>/);
    expect(await b.closed(10)).toBe(false);
    expect(await c.closed(10)).toBe(false);
  });
});
