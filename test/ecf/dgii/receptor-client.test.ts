import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildArecfXml } from '../../../src/ecf/documents/arecf.js';
import { LOOPBACK_RANGES } from '../../../src/ecf/dgii/receiver-guard.js';
import {
  createReceptorClient,
  receptorUrls,
  type ReceptorClient,
  type ReceptorClientOptions,
  type ReceptorTarget,
} from '../../../src/ecf/dgii/receptor-client.js';
import type { AuthorityIdentity, XmlFile } from '../../../src/ecf/dgii/types.js';
import { AuthorityError } from '../../../src/shared/errors/authority-error.js';
import { EcfError } from '../../../src/shared/errors/ecf-error.js';
import { signXml } from '../../../src/ecf/sign/index.js';
import { startRecordingServer, type RecordingServer } from './helpers/recording-server.js';
import { installAuth, testIdentity, type AuthStandIn } from './helpers/stand-in.js';

const R = {
  semilla: '/fe/autenticacion/api/semilla',
  validacion: '/fe/autenticacion/api/validacioncertificado',
  recepcion: '/fe/recepcion/api/ecf',
  aprobacion: '/fe/aprobacioncomercial/api/ecf',
};

const ECF: XmlFile = {
  fileName: '130000001E310000000001.xml',
  xml: '<?xml version="1.0" encoding="utf-8"?><ECF><Encabezado><Version>1.0</Version></Encabezado></ECF>',
};
const ACECF: XmlFile = {
  fileName: '131880738E310000000001.xml',
  xml: '<?xml version="1.0" encoding="utf-8"?><ACECF><DetalleAprobacionComercial><Version>1.0</Version></DetalleAprobacionComercial></ACECF>',
};

let who: AuthorityIdentity;
let receivedArecf: string;
let notReceivedArecf: string;
let server: RecordingServer;
let auth: AuthStandIn;
let sleeps: number[];
const clients: ReceptorClient[] = [];

beforeAll(async () => {
  who = testIdentity('130000001');
  const buyer = testIdentity('131880738');
  const base = { rnc_emisor: '130000001', rnc_comprador: '131880738', encf: 'E310000000001', fecha_hora_acuse_recibo: '20-05-2026 16:40:00' } as const;
  receivedArecf = await signXml(buildArecfXml({ ...base, estado: '0' }), buyer.signer);
  notReceivedArecf = await signXml(buildArecfXml({ ...base, estado: '1', codigo_motivo_no_recibido: '4' }), buyer.signer);
});

beforeEach(async () => {
  server = await startRecordingServer();
  auth = installAuth(server, { paths: { seed: R.semilla, validate: R.validacion } });
  sleeps = [];
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server.close();
});

function client(options: ReceptorClientOptions = {}): ReceptorClient {
  // The recording server is plain http on loopback: a development policy, opted into explicitly.
  const c = createReceptorClient({
    random: () => 0.5,
    sleep: async (ms) => void sleeps.push(ms),
    receivers: { allowHttp: true, allowAddresses: LOOPBACK_RANGES },
    ...options,
  });
  clients.push(c);
  return c;
}

function target(withAuth = true): ReceptorTarget {
  return { urlRecepcion: server.url, urlAceptacion: `${server.url}/`, urlOpcional: withAuth ? `${server.url}/fe/autenticacion/api/semilla` : null };
}

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to fail');
}

describe('receptorUrls', () => {
  it('builds every service URL from the published origin plus the fixed DT path', () => {
    expect(
      receptorUrls({
        urlRecepcion: 'https://fe.example.do/',
        urlAceptacion: 'https://fe.example.do/fe/AprobacionComercial/api/ecf',
        urlOpcional: 'https://fe.example.do/fe/autenticacion/api/validacioncertificado',
      }),
    ).toEqual({
      recepcion: 'https://fe.example.do/fe/recepcion/api/ecf',
      aprobacion: 'https://fe.example.do/fe/aprobacioncomercial/api/ecf',
      semilla: 'https://fe.example.do/fe/autenticacion/api/semilla',
      validacion: 'https://fe.example.do/fe/autenticacion/api/validacioncertificado',
    });
  });

  it('keeps a plain path prefix, replaces whatever follows /fe and drops query, fragment and credentials (issue 13, finding 5)', () => {
    expect(
      receptorUrls({
        urlRecepcion: 'https://h.do/ecf/api',
        urlAceptacion: 'https://user:pw@h.do:8443/t/131880738/fe/recepcion?x=1#frag/fe/aprobacioncomercial/api/ecf',
        urlOpcional: '',
      }),
    ).toEqual({
      recepcion: 'https://h.do/ecf/api/fe/recepcion/api/ecf',
      aprobacion: 'https://h.do:8443/t/131880738/fe/aprobacioncomercial/api/ecf',
      semilla: null,
      validacion: null,
    });
    // A URL that merely ends with the service path is not used as given.
    expect(receptorUrls({ urlAceptacion: 'https://h.do/admin?do=delete&x=/fe/aprobacioncomercial/api/ecf' }).aprobacion).toBe(
      'https://h.do/admin/fe/aprobacioncomercial/api/ecf',
    );
    for (const url of [
      'https://h.do/a%2Fb',
      'https://h.do/%2e%2e%2fadmin',
      'https://h.do/a b',
      `https://h.do/${'a/'.repeat(9)}`,
      `https://h.do/${'x'.repeat(201)}`,
    ]) {
      expect(() => receptorUrls({ urlRecepcion: url }), url).toThrow(EcfError);
    }
  });

  it('https only: http needs the development policy; other schemes (data:, file:, ftp:) never', () => {
    expect(() => receptorUrls({ urlRecepcion: 'http://h.do' })).toThrow(EcfError);
    expect(receptorUrls({ urlRecepcion: 'http://h.do/x' }, { allowHttp: true }).recepcion).toBe('http://h.do/x/fe/recepcion/api/ecf');
    for (const url of ['ftp://h.do', 'data:text/plain,OK', 'file:///etc/passwd', 'javascript:alert(1)', 'h.do/fe/recepcion/api/ecf']) {
      expect(() => receptorUrls({ urlAceptacion: url }, { allowHttp: true }), url).toThrow(EcfError);
    }
  });
});

describe('deliverEcf', () => {
  it('authenticates with the receiver, posts the e-CF as multipart `xml` and reads the signed ARECF', async () => {
    server.route('POST', R.recepcion, { headers: { 'Content-Type': 'application/xml' }, body: receivedArecf });
    const delivery = await client().deliverEcf(target(), who, ECF);
    expect(delivery.arecfXml).toBe(receivedArecf);
    expect(delivery.signatureValid).toBe(true);
    expect(delivery.status).toBe(200);
    expect(delivery.arecf.data).toMatchObject({ rnc_emisor: '130000001', rnc_comprador: '131880738', encf: 'E310000000001', estado: '0' });

    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${R.semilla}`, `POST ${R.validacion}`, `POST ${R.recepcion}`]);
    expect(auth.refusals).toEqual([]);
    const upload = server.requestsTo(R.recepcion)[0]!;
    expect(upload.headers.authorization).toBe('Bearer tok-1');
    expect(upload.headers['content-length']).toBe(String(upload.body.length));
    expect(upload.headers['transfer-encoding']).toBeUndefined();
    expect(upload.parts).toHaveLength(1);
    expect(upload.parts[0]).toMatchObject({ name: 'xml', fileName: '130000001E310000000001.xml', contentType: 'text/xml', text: ECF.xml });
  });

  it('reuses the receiver token for later deliveries', async () => {
    server.route('POST', R.recepcion, { body: receivedArecf });
    const c = client();
    await c.deliverEcf(target(), who, ECF);
    await c.deliverEcf(target(), who, ECF);
    expect(auth.seeds()).toBe(1);
  });

  it('sends without authentication when the receiver publishes no authentication URL', async () => {
    server.route('POST', R.recepcion, { body: receivedArecf });
    await client().deliverEcf(target(false), who, ECF);
    expect(server.requests.map((r) => r.path)).toEqual([R.recepcion]);
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('reports a tampered ARECF as not signature-valid', async () => {
    server.route('POST', R.recepcion, { body: receivedArecf.replace('<RNCEmisor>130000001<', '<RNCEmisor>130000002<') });
    const delivery = await client().deliverEcf(target(false), who, ECF);
    expect(delivery.signatureValid).toBe(false);
    expect(delivery.arecf.data.rnc_emisor).toBe('130000002');
  });

  it('returns a "not received" ARECF sent with HTTP 400', async () => {
    server.route('POST', R.recepcion, { status: 400, body: notReceivedArecf });
    const delivery = await client().deliverEcf(target(false), who, ECF);
    expect(delivery.status).toBe(400);
    expect(delivery.arecf.data).toMatchObject({ estado: '1', codigo_motivo_no_recibido: '4' });
    expect(delivery.signatureValid).toBe(true);
  });

  it('renews the receiver token once on 401', async () => {
    server.route('POST', R.recepcion, [{ status: 401 }, { body: receivedArecf }]);
    await client().deliverEcf(target(), who, ECF);
    expect(server.requestsTo(R.recepcion).map((r) => r.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
  });

  it('fails with AuthorityError on a 4xx without ARECF, and outcome unknown on a 2xx without one', async () => {
    server.route('POST', R.recepcion, [
      { status: 404, body: 'Not Found' },
      { status: 200, body: 'OK' },
    ]);
    const c = client();
    const missing = await failure(c.deliverEcf(target(false), who, ECF));
    expect(missing).toBeInstanceOf(AuthorityError);
    expect(missing).toMatchObject({ code: 'not_found', status: 404 });
    const unreadable = await failure(c.deliverEcf(target(false), who, ECF));
    expect(unreadable).toMatchObject({ code: 'bad_response', outcomeUnknown: true, retryable: true });
  });

  it('resends after a 503 but not after a dropped connection', async () => {
    server.route('POST', R.recepcion, [{ status: 503 }, { body: receivedArecf }, { drop: true }]);
    const c = client();
    await c.deliverEcf(target(false), who, ECF);
    expect(server.requestsTo(R.recepcion)).toHaveLength(2);
    expect(sleeps).toEqual([125]);
    const dropped = await failure(c.deliverEcf(target(false), who, ECF));
    expect(dropped).toMatchObject({ code: 'network', outcomeUnknown: true });
    expect(server.requestsTo(R.recepcion)).toHaveLength(3);
  });

  it('refuses a target without reception URL', async () => {
    await expect(client().deliverEcf({ urlRecepcion: null }, who, ECF)).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});

describe('sendApproval', () => {
  it('posts the ACECF and reads 200 as satisfactory', async () => {
    server.route('POST', R.aprobacion, { body: 'OK' });
    const answer = await client().sendApproval(target(), who, ACECF);
    expect(answer).toEqual({ ok: true, status: 200, body: 'OK' });
    const upload = server.requestsTo(R.aprobacion)[0]!;
    expect(upload.headers.authorization).toBe('Bearer tok-1');
    expect(upload.parts[0]).toMatchObject({ name: 'xml', fileName: '131880738E310000000001.xml', contentType: 'text/xml' });
  });

  it('reads 400 as unsatisfactory, with the receiver text', async () => {
    server.route('POST', R.aprobacion, { status: 400, body: 'Error: el e-CF no existe' });
    expect(await client().sendApproval(target(false), who, ACECF)).toEqual({ ok: false, status: 400, body: 'Error: el e-CF no existe' });
  });
});
