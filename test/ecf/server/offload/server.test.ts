/**
 * The whole server (startServer, in-process) with its offload pool: a big PDF render does not stop a cheap GET,
 * the PDF is cached per document (identical bytes, one render), and close() leaves no offload process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildEcfXmlFromJson, formatDateDO } from '../../../../src/ecf/index.js';
import { p12Signer, readP12, signEcf } from '../../../../src/ecf/sign/index.js';
import { createSelfSignedIdentity } from '../../../../src/shared/xmldsig/self-signed.js';
import { loadConfig } from '../../../../src/ecf/server/config.js';
import { startServer } from '../../../../src/ecf/server/main.js';
import type { OffloadPool } from '../../../../src/ecf/server/offload/index.js';
import { openStorage } from '../../../../src/ecf/server/storage/open.js';
import { generateToken, hashToken } from '../../../../src/shared/server-kit/tokens.js';
import { baseContext, withLines } from '../../helpers/docs.js';
import { xsdDir } from '../../helpers/env.js';
import { ISSUER_PROFILE } from '../app/harness.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const LINES = 400;

/** An issuer, a token and two accepted type-31 documents (1 line, LINES lines), signed, in the server's database. */
async function provision(dataDir: string): Promise<{ token: string; small: string; encf: string }> {
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
    const id = createSelfSignedIdentity({ commonName: 'EMISOR', serialNumber: ISSUER_PROFILE.rnc! });
    const accepted = async (lines: number) => {
      const doc = withLines('31', lines);
      const fecha = formatDateDO(new Date());
      const record = await storage.reserveAndInsert(issuer.id, '31', new Date().toISOString().slice(0, 10), (encf) => ({
        source: 'json',
        unsignedXml: buildEcfXmlFromJson('31', doc, {
          ...baseContext('31'),
          emisor: { rnc: ISSUER_PROFILE.rnc!, razon_social: ISSUER_PROFILE.razon_social!, direccion: ISSUER_PROFILE.direccion! },
          encf,
          fecha_emision: fecha,
        }),
        summary: false,
        issuedAt: fecha,
        totalAmount: '1.00',
        totalItbis: '0.00',
      }));
      const signedXml = await signEcf(record!.unsignedXml, p12Signer(readP12(id.p12, id.password)), () => new Date());
      await storage.updateDocument(record!.id, { status: 'accepted_authority', transmission: 'sent', signedXml, trackId: 'track-1' });
      return record!.encf;
    };
    return { token, small: await accepted(1), encf: await accepted(LINES) };
  } finally {
    await storage.close();
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('server with the offload pool', () => {
  it('answers a cheap GET while a big PDF renders, caches the PDF, and stops its processes on close', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ecf-offload-'));
    dirs.push(dataDir);
    const { token, small, encf } = await provision(dataDir);
    let pool: OffloadPool | null = null;
    const server = await startServer(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', ECF_DATA_DIR: dataDir, ECF_XSD_DIR: xsdDir(), LOG_LEVEL: 'silent', ECF_WORKER: 'off' }),
      {
        onOffloadPool: (p) => {
          pool = p;
        },
      },
    );
    let pids: number[] = [];
    try {
      const auth = { authorization: `Bearer ${token}` };
      // Warm-up: the PDF modules loaded (in-process before, in an offload process now).
      expect((await fetch(`${server.url}/api/v1/documents/${small}/pdf`, { headers: auth })).status).toBe(200);
      const order: string[] = [];
      const pdfUrl = `${server.url}/api/v1/documents/${encf}/pdf`;
      const first = fetch(pdfUrl, { headers: auth }).then(async (r) => {
        const b = new Uint8Array(await r.arrayBuffer());
        order.push('pdf');
        return { status: r.status, b };
      });
      // Wait until the render is running in an offload process (not a fixed delay: a loaded machine may take
      // longer to get there), then ask something cheap while it runs.
      const reached = Date.now() + 20_000;
      while (pool!.stats().busy === 0 && Date.now() < reached) await new Promise((r) => setTimeout(r, 5));
      expect(pool!.stats().busy).toBeGreaterThan(0);
      const cheap = await fetch(`${server.url}/api/v1/statuses`, { headers: auth }).then((r) => {
        order.push('get');
        return r.status;
      });
      const pdf1 = await first;
      expect(cheap).toBe(200);
      expect(pdf1.status).toBe(200);
      expect(order).toEqual(['get', 'pdf']);

      // Cached: the same bytes, without a second render in the pool.
      const done = pool!.stats().completed;
      const again = await fetch(pdfUrl, { headers: auth });
      expect(again.status).toBe(200);
      expect(Buffer.from(await again.arrayBuffer()).equals(Buffer.from(pdf1.b))).toBe(true);
      expect(pool!.stats().completed).toBe(done);
      pids = pool!.pids();
      expect(pids.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
    for (let i = 0; i < 100 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 20));
    expect(pids.filter(alive)).toEqual([]);
    expect(pool!.pids()).toEqual([]);
  });
});
