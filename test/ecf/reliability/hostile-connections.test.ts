/**
 * Hostile clients at the connection level (issue 13, findings 6 and 12), over real loopback sockets against
 * the whole server: many slowloris clients that never finish their headers, many slow bodies on the
 * credential-free seed validation, and a flood of seed requests. The server cuts the slow ones, keeps
 * answering a cheap request meanwhile, and the seed flood writes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/ecf/server/config.js';
import { startServer, type RunningServer } from '../../../src/ecf/server/main.js';
import { openStorage } from '../../../src/ecf/server/storage/open.js';
import { xsdDir } from '../helpers/env.js';
import { rawConnect, type RawClient } from '../helpers/raw-http.js';
import { scale } from './mode.js';

const SLOW = scale(30, 400);
const SEEDS = scale(300, 5_000);
const VALIDAR = '/fe/autenticacion/api/validacioncertificado';

const dirs: string[] = [];
const servers: RunningServer[] = [];
const clients: RawClient[] = [];
afterAll(async () => {
  for (const c of clients) c.destroy();
  for (const s of servers) await s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function start(extra: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ecf-hostile-conn-'));
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
  servers.push(server);
  return { server, dataDir };
}

describe('hostile connections', () => {
  it(`${SLOW} slowloris headers and ${SLOW} slow bodies are cut while a seed request is answered`, async () => {
    const { server } = await start({
      ECF_HEADERS_TIMEOUT_MS: '600',
      ECF_REQUEST_TIMEOUT_MS: '5000',
      ECF_MIN_BODY_RATE: '500',
      ECF_BODY_GRACE_MS: '300',
      ECF_MAX_CONNECTIONS: String(2 * SLOW + 10),
    });
    const attackers: RawClient[] = [];
    for (let i = 0; i < SLOW; i++) {
      const h = await rawConnect(server.url);
      h.socket.write(`GET /fe/autenticacion/api/semilla HTTP/1.1\r\nHost: x\r\n`);
      h.trickle(
        Array.from({ length: 300 }, (_, j) => `X-${j}: a\r\n`),
        100,
      );
      const b = await rawConnect(server.url);
      b.socket.write(`POST ${VALIDAR} HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 60000\r\n\r\n`);
      b.trickle(
        Array.from({ length: 3000 }, () => 'x'),
        100,
      );
      attackers.push(h, b);
    }
    clients.push(...attackers);
    // A legitimate client is served during the attack.
    const res = await fetch(`${server.url}/fe/autenticacion/api/semilla`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<valor>');
    const closed = await Promise.all(attackers.map((a) => a.closed(20_000)));
    expect(closed.every(Boolean)).toBe(true);
    const bodies = attackers.filter((_, i) => i % 2 === 1);
    expect(bodies.every((b) => /^HTTP\/1\.1 408 /.test(b.received()))).toBe(true);
  });

  it(`a flood of ${SEEDS} seed requests writes no row`, async () => {
    const { server, dataDir } = await start();
    const values = new Set<string>();
    const batch = 50;
    for (let i = 0; i < SEEDS; i += batch) {
      const texts = await Promise.all(
        Array.from({ length: Math.min(batch, SEEDS - i) }, async () => {
          const r = await fetch(`${server.url}/fe/autenticacion/api/semilla`);
          expect(r.status).toBe(200);
          return r.text();
        }),
      );
      for (const t of texts) values.add(/<valor>([^<]+)<\/valor>/.exec(t)![1]!);
    }
    expect(values.size).toBe(SEEDS);
    const storage = await openStorage({ dataDir });
    try {
      // Pruning at the end of time deletes (and counts) every seed and token row there is.
      expect(await storage.pruneInboundAuth(Number.MAX_SAFE_INTEGER)).toBe(0);
    } finally {
      await storage.close();
    }
  });
});
