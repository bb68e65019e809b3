/**
 * Two issuers on one server, over real HTTP (issue 7): A issues a 31 to B's RNC; the signed e-CF is
 * delivered to B's `/fe/recepcion/api/ecf` (found through the DGII directory, authenticated with a signed
 * seed) and B answers a signed ARECF that verifies; B lists it and approves it commercially; the ACECF goes
 * to A's `/fe/aprobacioncomercial/api/ecf` (and a copy to DGII); A's record shows the approval.
 */
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDgiiClient, createReceptorClient, LOOPBACK_RANGES } from '../../../../src/ecf/dgii/index.js';
import { fileNameFor } from '../../../../src/ecf/index.js';
import { loadConfig } from '../../../../src/ecf/server/config.js';
import { startServer } from '../../../../src/ecf/server/main.js';
import { openStorage } from '../../../../src/ecf/server/storage/open.js';
import { generateToken, hashToken } from '../../../../src/shared/server-kit/tokens.js';
import { createSelfSignedIdentity, verifyXml } from '../../../../src/ecf/sign/index.js';
import { baseDoc } from '../../helpers/docs.js';
import { xsdDir } from '../../helpers/env.js';

const A = { rnc: '130182452', razon_social: 'Emisora A SRL', direccion: 'Calle A 1' };
const B = { rnc: '101543213', razon_social: 'Compradora B SRL', direccion: 'Calle B 2' };

const dir = mkdtempSync(join(tmpdir(), 'ecf-two-issuers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function provision(): Promise<{ a: string; b: string }> {
  const storage = await openStorage({ dataDir: dir });
  try {
    const tokens: string[] = [];
    for (const p of [A, B]) {
      const issuer = await storage.createIssuer({ rnc: p.rnc, name: p.razon_social, profile: p, signingMode: 'provider' });
      const token = generateToken();
      await storage.addToken(issuer.id, hashToken(token));
      await storage.addSequence(issuer.id, { tipo: '31', from: 1, to: 100, expiresOn: '2099-12-31' });
      tokens.push(token);
    }
    return { a: tokens[0]!, b: tokens[1]! };
  } finally {
    await storage.close();
  }
}

async function api(url: string, token: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { ...init, headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(init.headers ?? {}) } });
  return { status: res.status, body: await res.json() };
}

async function until<T>(probe: () => Promise<T | null>, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const v = await probe();
    if (v !== null) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('two issuers on one server', () => {
  it('A issues to B, B receives with a signed ARECF, approves, and A sees the approval', async () => {
    // Both issuers sign in provider mode with the server's provider certificate, which names neither RNC: since
    // issue 13 a receiver believes it for them only when configured as their delegate (by fingerprint).
    const provider = createSelfSignedIdentity({ commonName: 'PROVEEDOR E2E' });
    const fingerprint = new X509Certificate(provider.certificatePem).fingerprint256;
    writeFileSync(join(dir, 'provider.p12'), provider.p12);
    writeFileSync(join(dir, 'delegates.json'), JSON.stringify({ [A.rnc]: [fingerprint], [B.rnc]: [fingerprint] }));
    const server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        ECF_DATA_DIR: dir,
        ECF_XSD_DIR: xsdDir(),
        LOG_LEVEL: 'silent',
        ECF_PROVIDER_P12: join(dir, 'provider.p12'),
        ECF_PROVIDER_P12_PASSWORD: provider.password,
        ECF_INBOUND_DELEGATES: join(dir, 'delegates.json'),
        // Development receiver policy: the receivers here are this server's own, over http on loopback.
        ECF_RECEIVER_ALLOW_HTTP: 'on',
        ECF_RECEIVER_ALLOW_ADDRESSES: 'loopback',
      }),
    );
    const receptor = createReceptorClient({ receivers: { allowHttp: true, allowAddresses: LOOPBACK_RANGES } });
    const dgii = createDgiiClient({ environment: 'testecf', baseUrl: server.simulatorUrl! });
    try {
      const tokens = await provision();
      // Both issuers publish their receiver services in DGII's directory (here the simulator's), each under its tenant prefix.
      for (const p of [A, B]) {
        const base = `${server.url}/t/${p.rnc}`;
        const res = await fetch(`${server.simulatorUrl}/_simulator/directory`, {
          // The in-process simulator's control API takes the server's per-process token (issue 13, finding 11).
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${server.simulatorControlToken}` },
          body: JSON.stringify({ nombre: p.razon_social, rnc: p.rnc, urlRecepcion: base, urlAceptacion: base, urlOpcional: base }),
        });
        expect(res.status).toBe(200);
      }

      // A issues a 31 whose buyer is B; the worker gets it accepted.
      const doc = baseDoc('31') as any;
      doc.comprador = { ...doc.comprador, rnc: B.rnc, razon_social: B.razon_social };
      const issued = await api(`${server.url}/api/v1/documents/31`, tokens.a, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(doc),
      });
      expect(issued.status).toBe(202);
      const encf: string = issued.body.document.e_ncf;
      await until(async () => {
        const r = await api(`${server.url}/api/v1/documents/${encf}`, tokens.a);
        return r.body.document.status === 'accepted_authority' ? r : null;
      }, 'acceptance');
      const signed = await (await fetch(`${server.url}/api/v1/documents/${encf}/xml`, { headers: { authorization: `Bearer ${tokens.a}` } })).text();

      // Delivery emisor → receptor: B's URLs from the directory, seed authentication, ARECF back.
      const sender = createSelfSignedIdentity({ commonName: 'Emisora A SRL', serialNumber: A.rnc });
      const [entry] = await dgii.directory({ rnc: A.rnc, signer: sender.signer }, B.rnc);
      expect(entry!.urlRecepcion).toBe(`${server.url}/t/${B.rnc}`);
      const delivery = await receptor.deliverEcf(entry!, { rnc: A.rnc, signer: sender.signer }, { fileName: fileNameFor(signed), xml: signed });
      expect(delivery.signatureValid).toBe(true);
      expect(verifyXml(delivery.arecfXml).valid).toBe(true);
      expect(delivery.arecf.data).toMatchObject({ rnc_emisor: A.rnc, rnc_comprador: B.rnc, encf, estado: '0' });

      // The same delivery again is a duplicate (motivo 3), not a second record.
      const again = await receptor.deliverEcf(entry!, { rnc: A.rnc, signer: sender.signer }, { fileName: fileNameFor(signed), xml: signed });
      expect(again.arecf.data).toMatchObject({ estado: '1', codigo_motivo_no_recibido: '3' });

      // B lists it; A does not see it among its received documents.
      const listB = await api(`${server.url}/api/v1/received-documents`, tokens.b);
      expect(listB.status).toBe(200);
      expect(listB.body.data.items.map((d: any) => d.e_ncf ?? d.encf)).toEqual([encf]);
      const listA = await api(`${server.url}/api/v1/received-documents`, tokens.a);
      expect(listA.body.data.items).toEqual([]);

      // A's token cannot approve B's received document.
      const foreign = await api(`${server.url}/api/v1/received-documents/${encf}/commercial-approval`, tokens.a, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ estado: 1 }),
      });
      expect(foreign.status).toBe(404);

      // B approves; the ACECF reaches A's approval service and DGII.
      const approval = await api(`${server.url}/api/v1/received-documents/${encf}/commercial-approval`, tokens.b, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ estado: 1 }),
      });
      expect(approval.status).toBe(200);

      const record = await api(`${server.url}/api/v1/documents/${encf}`, tokens.a);
      expect(record.body.document.commercial_approvals).toEqual([expect.objectContaining({ estado: 1, motivo_rechazo: null, rnc_comprador: B.rnc })]);
    } finally {
      await receptor.close();
      await dgii.close();
      await server.close();
    }
  }, 60_000);
});
