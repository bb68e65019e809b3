/**
 * Issue 13, finding 5 at the API: the commercial approval's delivery to the issuer's receiver never hands the
 * receiver's answer back to the caller, the server's default receiver client refuses http and loopback, and a
 * directory URL with extra path and query reaches only the fixed service path.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildArecfXml } from '../../../../src/ecf/index.js';
import { createApp } from '../../../../src/ecf/server/app/index.js';
import { signXml } from '../../../../src/ecf/sign/index.js';
import { schemaValidator } from '../../helpers/xsd.js';
import { createV2Harness, foreignEcf, type V2Harness } from './harness.js';

const SECRET = 'SECRET-RECEIVER-WORDS';
const X = '101000001';
const Y = '101000003';

let h: V2Harness;
let receiver: { url: string; hits: string[]; status: { value: number }; close(): Promise<void> };

async function startHostileReceiver(): Promise<typeof receiver> {
  const hits: string[] = [];
  const status = { value: 200 };
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => {
      res.writeHead(status.value, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ mensajes: [{ codigo: 'X1', valor: `${SECRET} <script>alert(1)</script>` }], detalle: SECRET }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    status,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function record(emisor: string, encf: string): Promise<void> {
  const xml = await foreignEcf({ rnc: emisor, buyerRnc: h.issuer.rnc, encf, signer: h.providerSigner, clock: h.clock });
  const arecf = await signXml(
    buildArecfXml({ rnc_emisor: emisor, rnc_comprador: h.issuer.rnc, encf, estado: '0', fecha_hora_acuse_recibo: '01-04-2026 10:00:05' }),
    h.providerSigner,
  );
  await h.storage.addReceivedDocument(h.issuer.id, {
    emisorRnc: emisor,
    emisorName: null,
    encf,
    tipo: '31',
    fechaEmision: '01-04-2026',
    montoTotal: /<MontoTotal>([^<]+)<\/MontoTotal>/.exec(xml)![1]!,
    totalItbis: null,
    xml,
    arecfXml: arecf,
    estado: 0,
    motivo: null,
    receivedAt: h.now.value.getTime(),
  });
}

beforeAll(async () => {
  h = await createV2Harness({ directoryTtlMs: 0 });
  receiver = await startHostileReceiver();
  h.sim.addDirectoryEntry({
    nombre: 'X SRL',
    rnc: X,
    urlRecepcion: null,
    urlAceptacion: `${receiver.url}/admin?purge=all&x=/fe/aprobacioncomercial/api/ecf`,
    urlOpcional: null,
  });
  h.sim.addDirectoryEntry({ nombre: 'Y SRL', rnc: Y, urlRecepcion: null, urlAceptacion: receiver.url, urlOpcional: null });
  for (const encf of ['E310000000201', 'E310000000202', 'E310000000203']) await record(X, encf);
  await record(Y, 'E310000000204');
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

describe('commercial approval: the receiver is reached only where it should be, and its words stay out of the answer', () => {
  it('a 200 or a 400 answer from the receiver: the API says only the status; the path and query of the entry are not used', async () => {
    for (const [encf, status] of [
      ['E310000000201', 200],
      ['E310000000202', 400],
    ] as const) {
      receiver.status.value = status;
      const res = await h.postJson(`/api/v1/received-documents/${encf}/commercial-approval`, { estado: 1 });
      const text = await res.text();
      expect(res.status).toBe(502); // the authority never received these e-CF, so its copy is refused either way
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('purge');
      const b = JSON.parse(text);
      expect(b.document.emisor).toMatchObject({ entregada: status === 200, http_status: status, url: `${receiver.url}/admin/fe/aprobacioncomercial/api/ecf` });
      expect(b.document.emisor.respuesta).toBeUndefined();
      const detail = await (await h.call(`/api/v1/received-documents/${encf}`)).text();
      expect(detail).not.toContain(SECRET);
    }
    expect(receiver.hits).toEqual(['POST /admin/fe/aprobacioncomercial/api/ecf', 'POST /admin/fe/aprobacioncomercial/api/ecf']);
  });

  it('a receiver that keeps answering 401 (an AuthorityError with its messages): only the status reaches the caller', async () => {
    receiver.status.value = 401;
    const res = await h.postJson('/api/v1/received-documents/E310000000203/commercial-approval', { estado: 1 });
    const text = await res.text();
    expect(res.status).toBe(502);
    expect(text).not.toContain(SECRET);
    expect(JSON.parse(text).document.emisor.error).toMatch(/HTTP 401/);
    receiver.status.value = 200;
  });

  it('the server’s default receiver client (no development policy) refuses an http/loopback receiver before connecting', async () => {
    const app = createApp({
      storage: h.storage,
      transport: h.client,
      signers: h.signers,
      schemas: schemaValidator(),
      clock: h.clock,
      environment: 'testecf',
      certificateKey: h.certificateKey,
      directoryTtlMs: 0,
    });
    const before = receiver.hits.length;
    const res = await app.request('/api/v1/received-documents/E310000000204/commercial-approval', {
      method: 'POST',
      body: JSON.stringify({ estado: 1 }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${h.token}` },
    });
    expect(res.status).toBe(502);
    const b = (await res.json()) as { document: { emisor: { entregada: boolean; error: string } } };
    expect(b.document.emisor.entregada).toBe(false);
    expect(b.document.emisor.error).toMatch(/https/);
    expect(receiver.hits.length).toBe(before);
  });
});
