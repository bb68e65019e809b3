import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAcecfXml, parseAcecfXml } from '../../../src/ecf/documents/acecf.js';
import { buildArecfXml, parseArecfXml, type ArecfInput } from '../../../src/ecf/documents/arecf.js';
import { buildSemillaXml, parseSemillaXml } from '../../../src/ecf/documents/semilla.js';
import { signXml } from '../../../src/ecf/sign/sign-xml.js';
import { verifyXml } from '../../../src/ecf/sign/verify-xml.js';
import { SIMULATOR_RNC, type Simulator } from '../../../src/ecf/simulator/index.js';
import { schemaValidator } from '../helpers/xsd.js';
import { EMISOR, form, login, signedEcf, startTestSimulator, testSigner } from './support.js';

/**
 * A taxpayer's receptor on loopback, as §2.12 describes it: seed, certificate validation (checks the
 * signature and the seed value), e-CF reception answering a signed ARECF, commercial approval.
 */
interface TestReceptor {
  url: string;
  received: string[];
  approvals: string[];
  /** Next ARECF answer (default: received). */
  acuse: Pick<ArecfInput, 'estado' | 'codigo_motivo_no_recibido'>;
  close(): Promise<void>;
}

async function startReceptor(rnc: string): Promise<TestReceptor> {
  const seeds = new Set<string>();
  const tokens = new Set<string>();
  const r: Omit<TestReceptor, 'url' | 'close'> = { received: [], approvals: [], acuse: { estado: '0' } };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const path = (req.url ?? '').toLowerCase();
        const xmlPart = async () => {
          const f = await new Response(Buffer.concat(chunks), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
          return (f.get('xml') as File).text();
        };
        const authorized = tokens.has((req.headers.authorization ?? '').replace(/^bearer /i, ''));
        if (path === '/fe/autenticacion/api/semilla') {
          const valor = randomBytes(16).toString('hex');
          seeds.add(valor);
          res.writeHead(200, { 'content-type': 'text/xml' }).end(buildSemillaXml({ valor, fecha: '2026-04-01T10:00:00.0000000-04:00' }));
        } else if (path === '/fe/autenticacion/api/validacioncertificado') {
          const xml = await xmlPart();
          const valor = String(parseSemillaXml(xml).data.valor);
          if (!verifyXml(xml).valid || !seeds.delete(valor)) return void res.writeHead(400).end('semilla inválida');
          const token = randomBytes(16).toString('hex');
          tokens.add(token);
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ token, expira: '2026-04-01T15:00:00Z', expedido: '2026-04-01T14:00:00Z' }));
        } else if (path === '/fe/recepcion/api/ecf') {
          if (!authorized) return void res.writeHead(401).end();
          const xml = await xmlPart();
          r.received.push(xml);
          const arecf = buildArecfXml({
            rnc_emisor: /<RNCEmisor>(\d+)</.exec(xml)![1]!,
            rnc_comprador: rnc,
            encf: /<eNCF>([^<]+)</.exec(xml)![1]!,
            ...r.acuse,
            fecha_hora_acuse_recibo: '01-04-2026 10:00:05',
          });
          res.writeHead(200, { 'content-type': 'application/xml' }).end(await signXml(arecf, testSigner()));
        } else if (path === '/fe/aprobacioncomercial/api/ecf') {
          if (!authorized) return void res.writeHead(401).end();
          r.approvals.push(await xmlPart());
          res.writeHead(200).end('OK');
        } else res.writeHead(404).end();
      })();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(r, {
    url,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  });
}

const ER = 'testecf/emisorreceptor';

describe('simulator: emisor–receptor test service', () => {
  let sim: Simulator;
  let receptor: TestReceptor;
  let token: string;
  beforeAll(async () => {
    sim = await startTestSimulator({ clock: () => new Date('2026-04-01T14:00:00Z') });
    receptor = await startReceptor(EMISOR);
    token = await login(sim.url);
  });
  afterAll(() => receptor.close());

  const postJson = (path: string, body: unknown) =>
    fetch(`${sim.url}/${ER}/${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' },
    });
  const getJson = async (path: string) =>
    (await (await fetch(`${sim.url}/${ER}/${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } })).json()) as Record<
      string,
      any
    >;

  it('emisioncomprobantes: builds a valid signed e-CF for the taxpayer, logs in to its receptor, delivers it, checks the ARECF', async () => {
    const r = await postJson('api/emision/emisioncomprobantes', {
      rnc: EMISOR,
      tipoEncf: '31',
      urlRecepcion: `${receptor.url}/fe/recepcion/api/ecf`,
      urlAutenticacion: `${receptor.url}/fe/autenticacion/api/semilla`,
    });
    expect(r.status).toBe(200);
    const body = (await r.json()) as Record<string, any>;
    expect(body).toMatchObject({
      rnc: EMISOR,
      encf: 'E310000000001',
      estado: 'Enviado',
      acuse: { estado: '0', codigoMotivoNoRecibido: null, firmaValida: true },
      mensajes: [],
    });
    expect(receptor.received).toHaveLength(1);
    const ecf = receptor.received[0]!;
    expect(schemaValidator().validate(ecf, 'ECF-31').valid).toBe(true);
    expect(verifyXml(ecf).valid).toBe(true);
    expect(ecf).toContain(`<RNCEmisor>${SIMULATOR_RNC}</RNCEmisor>`);
    expect(ecf).toContain(`<RNCComprador>${EMISOR}</RNCComprador>`);
    expect(await getJson(`api/emision/consultaacuserecibo?Rnc=${EMISOR}&Encf=E310000000001`)).toMatchObject({
      estado: 'Recibido',
      firmaValida: true,
      fechaHoraAcuseRecibo: '01-04-2026 10:00:05',
    });
    expect(sim.stats().emisorReceptor.ecfSent).toBe(1);

    // The taxpayer, as buyer, approves it at the simulator's own approval endpoint (with a receptor token).
    const receptorToken = await login(sim.url, 'testecf', 'emisorreceptor/fe/autenticacion/api', 'validacioncertificado');
    const montoTotal = Number(/<MontoTotal>([^<]+)</.exec(ecf)![1]);
    const approve = async (monto: number, auth = receptorToken) =>
      fetch(`${sim.url}/${ER}/fe/aprobacioncomercial/api/ecf`, {
        method: 'POST',
        headers: { authorization: `Bearer ${auth}` },
        body: form(
          await signXml(
            buildAcecfXml({
              rnc_emisor: SIMULATOR_RNC,
              encf: 'E310000000001',
              fecha_emision: '01-04-2026',
              monto_total: monto,
              rnc_comprador: EMISOR,
              estado: '1',
              fecha_hora_aprobacion_comercial: '01-04-2026 11:00:00',
            }),
            testSigner(),
          ),
          `${EMISOR}E310000000001.xml`,
        ),
      });
    expect((await approve(montoTotal)).status).toBe(200);
    expect((await approve(montoTotal + 1)).status).toBe(400);
    expect((await approve(montoTotal, token)).status).toBe(401);
  });

  it('every type that travels emisor → receptor builds and is received; other types are refused', async () => {
    for (const tipoEncf of ['33', '34', '44']) {
      const r = await postJson('api/emision/emisioncomprobantes', {
        rnc: EMISOR,
        tipoEncf,
        urlRecepcion: `${receptor.url}/fe/recepcion/api/ecf`,
        urlAutenticacion: `${receptor.url}/fe/autenticacion`,
      });
      expect(r.status, tipoEncf).toBe(200);
      const ecf = receptor.received.at(-1)!;
      expect(schemaValidator().validate(ecf, `ECF-${tipoEncf}` as 'ECF-33').valid, tipoEncf).toBe(true);
    }
    const bad = await postJson('api/emision/emisioncomprobantes', { rnc: EMISOR, tipoEncf: '32', urlRecepcion: `${receptor.url}/fe/recepcion/api/ecf` });
    expect(bad.status).toBe(400);
  });

  it('records a "not received" ARECF and a receptor that cannot be reached', async () => {
    receptor.acuse = { estado: '1', codigo_motivo_no_recibido: '4' };
    try {
      const r = await postJson('api/emision/emisioncomprobantes', { rnc: EMISOR, tipoEncf: '31', urlRecepcion: receptor.url, urlAutenticacion: receptor.url });
      const body = (await r.json()) as Record<string, any>;
      expect(body.acuse).toMatchObject({ estado: '1', codigoMotivoNoRecibido: '4' });
      expect(await getJson(`api/emision/consultaacuserecibo?Rnc=${EMISOR}&Encf=${body.encf}`)).toMatchObject({
        estado: 'No Recibido',
        codigoMotivoNoRecibido: '4',
      });
    } finally {
      receptor.acuse = { estado: '0' };
    }
    const down = await postJson('api/emision/emisioncomprobantes', { rnc: EMISOR, tipoEncf: '31', urlRecepcion: 'http://127.0.0.1:1/fe/recepcion/api/ecf' });
    expect(down.status).toBe(502);
    expect(((await down.json()) as { mensajes: string[] }).mensajes[0]).toContain('No se pudo entregar');
    // Without the receptor's login the test receptor answers 401: the simulator reports it.
    const noAuth = await postJson('api/emision/emisioncomprobantes', { rnc: EMISOR, tipoEncf: '31', urlRecepcion: receptor.url });
    expect(noAuth.status).toBe(502);
    expect(((await noAuth.json()) as { mensajes: string[] }).mensajes[0]).toContain('HTTP 401');
  });

  it("the simulator's receptor answers a signed ARECF: received, duplicate (3), other buyer (4), bad signature (2), type not for receptors (1)", async () => {
    const receptorToken = await login(sim.url, 'testecf', 'emisorreceptor/fe/autenticacion/api', 'validacioncertificado');
    const send = async (xml: string, auth = receptorToken) => {
      const encf = /<eNCF>([^<]+)</.exec(xml)![1]!;
      return fetch(`${sim.url}/${ER}/fe/recepcion/api/ecf`, {
        method: 'POST',
        headers: { authorization: `Bearer ${auth}` },
        body: form(xml, `${EMISOR}${encf}.xml`),
      });
    };
    const acuse = async (xml: string) => {
      const r = await send(xml);
      expect(r.status).toBe(200);
      const arecf = await r.text();
      expect(verifyXml(arecf).valid).toBe(true);
      expect(schemaValidator().validate(arecf, 'ARECF').valid).toBe(true);
      return parseArecfXml(arecf).data;
    };
    const toSimulator = await signedEcf('31', 700, (doc) => {
      doc.comprador.rnc = SIMULATOR_RNC;
    });
    expect(await acuse(toSimulator)).toMatchObject({ rnc_emisor: EMISOR, rnc_comprador: SIMULATOR_RNC, encf: 'E310000000700', estado: '0' });
    expect(await acuse(toSimulator)).toMatchObject({ estado: '1', codigo_motivo_no_recibido: '3' });
    expect(await acuse(await signedEcf('31', 701))).toMatchObject({ estado: '1', codigo_motivo_no_recibido: '4' });
    const tampered = (
      await signedEcf('31', 702, (doc) => {
        doc.comprador.rnc = SIMULATOR_RNC;
      })
    ).replace('Cliente SRL<', 'Cliente SRX<');
    expect(await acuse(tampered)).toMatchObject({ estado: '1', codigo_motivo_no_recibido: '2' });
    expect(await acuse(await signedEcf('43', 703))).toMatchObject({ estado: '1', codigo_motivo_no_recibido: '1' });
    expect((await send(toSimulator, token)).status).toBe(401);
    expect(sim.stats().emisorReceptor.ecfReceived).toBe(5);

    // envioaprobacioncomercial: the simulator, as buyer of E310000000700, sends the ACECF to the taxpayer.
    const r = await postJson('api/emision/envioaprobacioncomercial', {
      urlAprobacionComercial: `${receptor.url}/fe/aprobacioncomercial/api/ecf`,
      urlAutenticacion: `${receptor.url}/fe/autenticacion/api/semilla`,
      rnc: EMISOR,
      encf: 'E310000000700',
      estadoAprobacion: '2',
    });
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ estado: 'Enviado', httpStatus: 200 });
    const acecf = receptor.approvals.at(-1)!;
    expect(verifyXml(acecf).valid).toBe(true);
    expect(schemaValidator().validate(acecf, 'ACECF').valid).toBe(true);
    expect(parseAcecfXml(acecf).data).toMatchObject({
      rnc_emisor: EMISOR,
      encf: 'E310000000700',
      fecha_emision: '01-04-2026',
      monto_total: 236,
      rnc_comprador: SIMULATOR_RNC,
      estado: '2',
    });
    const unknown = await postJson('api/emision/envioaprobacioncomercial', {
      urlAprobacionComercial: receptor.url,
      rnc: EMISOR,
      encf: 'E310000000701',
      estadoAprobacion: '1',
    });
    expect(unknown.status).toBe(400);
  });

  it('scenario: the receptor can be told to answer "not received" and the approval endpoint 400', async () => {
    sim.setScenarios({ receptorAcuse: { estado: '1', motivo: '1' }, receptorApprovalStatus: 400 });
    try {
      const receptorToken = await login(sim.url, 'testecf', 'emisorreceptor/fe/autenticacion/api', 'validacioncertificado');
      const xml = await signedEcf('31', 800, (doc) => {
        doc.comprador.rnc = SIMULATOR_RNC;
      });
      const r = await fetch(`${sim.url}/${ER}/fe/recepcion/api/ecf`, {
        method: 'POST',
        headers: { authorization: `Bearer ${receptorToken}` },
        body: form(xml, `${EMISOR}E310000000800.xml`),
      });
      expect(parseArecfXml(await r.text()).data).toMatchObject({ estado: '1', codigo_motivo_no_recibido: '1' });
    } finally {
      sim.setScenarios({});
    }
  });
});
