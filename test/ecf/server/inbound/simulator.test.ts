/**
 * The inbound handler behind a real node:http server, driven by the DGII simulator's emisor–receptor test
 * service: the simulator logs in to our receptor (seed, signed, validacioncertificado), delivers an e-CF it
 * builds and signs, and checks the signed ARECF we answer; as a buyer it sends us commercial approvals.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArecfXml } from '../../../../src/ecf/index.js';
import { signXml, verifyXml } from '../../../../src/ecf/sign/index.js';
import { SIMULATOR_RNC, startSimulator, type Simulator } from '../../../../src/ecf/simulator/index.js';
import { xsdDir } from '../../helpers/env.js';
import { schemaValidator } from '../../helpers/xsd.js';
import { createHarness, form, ourDocument, RECEPTOR_A, RECEPTOR_B, remoteIdentity, type Harness } from './harness.js';

const ER = 'testecf/emisorreceptor';

let h: Harness;
let server: Server;
let url: string;
let sim: Simulator;
let dgiiToken: string;

/** The seed flow against a simulator service; returns the token. */
async function loginAt(base: string, validar: string): Promise<string> {
  const seed = await (await fetch(`${base}/semilla`)).text();
  const res = await fetch(`${base}/${validar}`, {
    method: 'POST',
    body: form(await signXml(seed, remoteIdentity().signer), 'semilla.xml'),
    headers: { accept: 'application/json' },
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

async function simPost(path: string, body: unknown): Promise<{ status: number; body: Record<string, any> }> {
  const res = await fetch(`${sim.url}/${ER}/${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { authorization: `Bearer ${dgiiToken}`, accept: 'application/json', 'content-type': 'application/json' },
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

beforeAll(async () => {
  // Real clocks on both sides: the simulator signs with its own time, tokens expire in real time.
  h = await createHarness({ clock: () => new Date() });
  server = createServer(getRequestListener(async (req) => (await h.handler(req)) ?? new Response('no encontrado', { status: 404 })));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sim = await startSimulator({ xsdDir: xsdDir(), processingDelayMs: 20 });
  dgiiToken = await loginAt(`${sim.url}/testecf/autenticacion/api/autenticacion`, 'validarsemilla');
});

afterAll(async () => {
  await sim?.close();
  await new Promise<void>((ok) => {
    server.close(() => ok());
    server.closeAllConnections();
  });
  await h?.close();
});

describe('inbound services over HTTP, driven by the DGII simulator', () => {
  it('the simulator logs in, delivers a 31 and gets back a signed ARECF Estado 0 that verifies', async () => {
    const r = await simPost('api/emision/emisioncomprobantes', {
      rnc: RECEPTOR_A,
      tipoEncf: '31',
      urlRecepcion: `${url}/fe/recepcion/api/ecf`,
      urlAutenticacion: `${url}/fe/autenticacion/api/semilla`,
    });
    expect(r.body).toMatchObject({ rnc: RECEPTOR_A, estado: 'Enviado', acuse: { estado: '0', codigoMotivoNoRecibido: null, firmaValida: true }, mensajes: [] });
    expect(r.status).toBe(200);
    const encf = r.body.encf as string;

    const rec = await h.storage.getReceivedDocument(h.a.id, encf, SIMULATOR_RNC);
    expect(rec).toMatchObject({ emisorRnc: SIMULATOR_RNC, encf, tipo: '31', estado: 0 });
    expect(schemaValidator().validate(rec!.xml, 'ECF-31').valid).toBe(true);
    expect(verifyXml(rec!.xml).valid).toBe(true);
    expect(verifyXml(rec!.arecfXml).valid).toBe(true);
    expect(parseArecfXml(rec!.arecfXml).data).toMatchObject({ rnc_emisor: SIMULATOR_RNC, rnc_comprador: RECEPTOR_A, encf, estado: '0' });
    // The simulator logged in: a token was issued to its certificate.
    expect(h.logs.some((l) => l.msg === 'inbound: token issued' && String(l.obj.subject).includes('SIMULADOR'))).toBe(true);

    const ack = await fetch(`${sim.url}/${ER}/api/emision/consultaacuserecibo?Rnc=${RECEPTOR_A}&Encf=${encf}`, {
      headers: { authorization: `Bearer ${dgiiToken}`, accept: 'application/json' },
    });
    expect(await ack.json()).toMatchObject({ estado: 'Recibido', firmaValida: true });
  });

  it('delivers to a tenant prefix (the URL base the issuer publishes), type 44', async () => {
    const r = await simPost('api/emision/emisioncomprobantes', {
      rnc: RECEPTOR_B,
      tipoEncf: '44',
      urlRecepcion: `${url}/t/${RECEPTOR_B}`,
      urlAutenticacion: `${url}/t/${RECEPTOR_B}`,
    });
    expect(r.body).toMatchObject({ estado: 'Enviado', acuse: { estado: '0', firmaValida: true }, mensajes: [] });
    expect(await h.storage.getReceivedDocument(h.b.id, r.body.encf as string, SIMULATOR_RNC)).toMatchObject({ tipo: '44' });
  });

  it('a document for another buyer at a tenant prefix gets a signed ARECF motivo 4; an unknown buyer at the root a 400', async () => {
    const wrong = await simPost('api/emision/emisioncomprobantes', {
      rnc: RECEPTOR_B,
      tipoEncf: '31',
      urlRecepcion: `${url}/t/${RECEPTOR_A}`,
      urlAutenticacion: `${url}/t/${RECEPTOR_A}`,
    });
    expect(wrong.body.acuse).toMatchObject({ estado: '1', codigoMotivoNoRecibido: '4', firmaValida: true });
    expect(await h.storage.getReceivedDocument(h.a.id, wrong.body.encf as string)).toBeNull();
    expect(await h.storage.getReceivedDocument(h.b.id, wrong.body.encf as string)).toBeNull();

    const unknown = await simPost('api/emision/emisioncomprobantes', { rnc: '401000001', tipoEncf: '31', urlRecepcion: url, urlAutenticacion: url });
    expect(unknown.status).toBe(502);
    expect(unknown.body.mensajes.join(' ')).toMatch(/HTTP 400: .*401000001 no corresponde a ningún receptor/);
  });

  it('without a token login the simulator cannot deliver (our receptor declares authentication)', async () => {
    const r = await simPost('api/emision/emisioncomprobantes', { rnc: RECEPTOR_A, tipoEncf: '31', urlRecepcion: url, urlAutenticacion: '' });
    expect(r.status).toBe(502);
    expect(r.body.mensajes.join(' ')).toMatch(/HTTP 401/);
  });

  it('the simulator, as buyer, approves commercially an e-CF we issued: recorded on our document', async () => {
    const doc = await ourDocument(h, h.a, SIMULATOR_RNC);
    // Our e-CF reaches the simulator's receptor (what the outbound delivery will do).
    const receptorToken = await loginAt(`${sim.url}/${ER}/fe/autenticacion/api`, 'validacioncertificado');
    const delivered = await fetch(`${sim.url}/${ER}/fe/recepcion/api/ecf`, {
      method: 'POST',
      body: form(doc.signedXml!, `${RECEPTOR_A}${doc.encf}.xml`),
      headers: { authorization: `Bearer ${receptorToken}` },
    });
    expect(parseArecfXml(await delivered.text()).data.estado).toBe('0');

    const r = await simPost('api/emision/envioaprobacioncomercial', {
      urlAprobacionComercial: `${url}/t/${RECEPTOR_A}`,
      urlAutenticacion: `${url}/t/${RECEPTOR_A}`,
      rnc: RECEPTOR_A,
      encf: doc.encf,
      estadoAprobacion: '2',
    });
    expect(r.body).toMatchObject({ estado: 'Enviado', httpStatus: 200, mensajes: [] });
    const approvals = await h.storage.getDocumentApprovals(doc.id);
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({ estado: 2, rncComprador: SIMULATOR_RNC });
    expect(approvals[0]!.motivo).toMatch(/simulador/);
    expect(verifyXml(approvals[0]!.acecfXml).valid).toBe(true);
  });

  it('refuses a body over 12 MB with 413 before reading it', async () => {
    const token = (
      await (async () => {
        const seed = await (await fetch(`${url}/fe/autenticacion/api/semilla`)).text();
        const res = await fetch(`${url}/fe/autenticacion/api/validacioncertificado`, {
          method: 'POST',
          body: form(await signXml(seed, remoteIdentity().signer)),
          headers: { accept: 'application/json' },
        });
        return (await res.json()) as { token: string };
      })()
    ).token;
    const res = await fetch(`${url}/fe/recepcion/api/ecf`, {
      method: 'POST',
      body: new Uint8Array(12 * 1024 * 1024 + 1),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/xml' },
    });
    expect(res.status).toBe(413);
  });
});
