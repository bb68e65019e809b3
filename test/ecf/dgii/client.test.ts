import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDgiiClient, type DgiiClient, type DgiiClientOptions } from '../../../src/ecf/dgii/client.js';
import type { AuthorityIdentity, XmlFile } from '../../../src/ecf/dgii/types.js';
import { AuthorityError } from '../../../src/shared/errors/authority-error.js';
import { TransportError } from '../../../src/shared/errors/transport-error.js';
import { fixture } from './helpers/fixtures.js';
import { startRecordingServer, type RecordedRequest, type RecordingServer } from './helpers/recording-server.js';
import { installAuth, testIdentity, type AuthStandIn } from './helpers/stand-in.js';

const P = {
  recepcion: '/testecf/recepcion/api/facturaselectronicas',
  recepcionFc: '/testecf/recepcionfc/api/recepcion/ecf',
  consultaRfce: '/testecf/consultarfce/api/consultas/consulta',
  resultado: '/testecf/consultaresultado/api/consultas/estado',
  estado: '/testecf/consultaestado/api/consultas/estado',
  trackIds: '/testecf/consultatrackids/api/trackids/consulta',
  aprobacion: '/testecf/aprobacioncomercial/api/aprobacioncomercial',
  anulacion: '/testecf/anulacionrangos/api/operaciones/anularrango',
  listado: '/testecf/consultadirectorio/api/consultas/listado',
  porRnc: '/testecf/consultadirectorio/api/consultas/obtenerdirectorioporrnc',
  semilla: '/testecf/autenticacion/api/autenticacion/semilla',
  validar: '/testecf/autenticacion/api/autenticacion/validarsemilla',
  estatus: '/api/estatusservicios/obtenerestatus',
};

const ECF: XmlFile = {
  fileName: '130000001E310000000001.xml',
  xml: '<?xml version="1.0" encoding="utf-8"?><ECF><Encabezado><Version>1.0</Version><Item><NombreItem>Café con leche ñ</NombreItem></Item></Encabezado></ECF>',
};

let who: AuthorityIdentity;
let server: RecordingServer;
let auth: AuthStandIn;
let sleeps: number[];
const clients: DgiiClient[] = [];

beforeAll(() => {
  who = testIdentity('130000001');
});

beforeEach(async () => {
  server = await startRecordingServer();
  auth = installAuth(server);
  sleeps = [];
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server.close();
});

function client(options: Partial<DgiiClientOptions> = {}): DgiiClient {
  const c = createDgiiClient({
    environment: 'testecf',
    baseUrl: server.url,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  clients.push(c);
  return c;
}

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to fail');
}

function expectPlainUploadHeaders(r: RecordedRequest, fileName: string) {
  expect(r.method).toBe('POST');
  expect(r.headers['content-type']).toMatch(/^multipart\/form-data; boundary=\S+$/);
  expect(r.headers['content-length']).toBe(String(r.body.length));
  expect(r.headers['transfer-encoding']).toBeUndefined();
  expect(r.parts).toHaveLength(1);
  expect(r.parts[0]!.name).toBe('xml');
  expect(r.parts[0]!.fileName).toBe(fileName);
  expect(r.parts[0]!.contentType).toBe('text/xml');
}

describe('request contract', () => {
  it('authenticates with the signed, compacted seed, then uploads the e-CF as multipart `xml` with a bearer token', async () => {
    server.route('POST', P.recepcion, { json: JSON.parse(fixture('reception.json')) });
    const receipt = await client().sendEcf(who, ECF);
    expect(receipt).toEqual({ trackId: '5a0b9c6e-8f1d-4e2b-9d5a-3f7c1e2b4a60', mensaje: null });

    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${P.semilla}`, `POST ${P.validar}`, `POST ${P.recepcion}`]);
    expect(auth.refusals).toEqual([]);
    const [seed, validate, upload] = server.requests as [RecordedRequest, RecordedRequest, RecordedRequest];
    expect(seed.headers.authorization).toBeUndefined();
    expect(validate.headers.authorization).toBeUndefined();
    expect(validate.headers.accept).toBe('application/json');
    expectPlainUploadHeaders(validate, 'semilla.xml');
    expect(validate.parts[0]!.text).not.toMatch(/>\s+</);
    expect(validate.parts[0]!.text).toContain('<Signature xmlns="http://www.w3.org/2000/09/xmldsig#">');

    expectPlainUploadHeaders(upload, '130000001E310000000001.xml');
    expect(upload.headers.authorization).toBe('Bearer tok-1');
    expect(upload.headers.accept).toBe('application/json');
    // The document travels byte for byte, UTF-8.
    expect(upload.parts[0]!.body.equals(Buffer.from(ECF.xml, 'utf8'))).toBe(true);
  });

  it('sends the RFCE to the fc reception path and returns the synchronous verdict', async () => {
    server.route('POST', P.recepcionFc, { json: JSON.parse(fixture('rfce-rejected.json')) });
    const verdict = await client().sendRfce(who, { fileName: '130000001E320000000124.xml', xml: '<RFCE/>' });
    expect(verdict).toMatchObject({ codigo: 2, estado: 'Rechazado', encf: 'E320000000124', secuenciaUtilizada: false });
    const [upload] = server.requestsTo(P.recepcionFc);
    expectPlainUploadHeaders(upload!, '130000001E320000000124.xml');
    expect(upload!.headers.authorization).toBe('Bearer tok-1');
  });

  it('queries the RFCE verdict with every parameter percent-encoded', async () => {
    server.route('GET', P.consultaRfce, { json: JSON.parse(fixture('rfce-query.json')) });
    const result = await client().rfceStatus(who, { rncEmisor: '130000001', encf: 'E320000000123', codigoSeguridad: 'a+B/9z' });
    expect(result).toMatchObject({ estado: 'Aceptado', rnc: '130000001' });
    const [r] = server.requestsTo(P.consultaRfce);
    expect(r!.method).toBe('GET');
    expect(r!.rawQuery).toBe('RNC_Emisor=130000001&ENCF=E320000000123&Cod_Seguridad_eCF=a%2BB%2F9z');
    expect(r!.query.Cod_Seguridad_eCF).toBe('a+B/9z');
    expect(r!.headers.authorization).toBe('Bearer tok-1');
    expect(r!.headers.accept).toBe('application/json');
  });

  it('queries a result by track id and reads a PascalCase XML answer', async () => {
    server.route('GET', P.resultado, { headers: { 'Content-Type': 'application/xml' }, body: fixture('result-accepted.xml') });
    const result = await client().result(who, '5a0b9c6e-8f1d-4e2b-9d5a-3f7c1e2b4a60');
    expect(result).toMatchObject({ codigo: 1, estado: 'Aceptado', encf: 'E310000000001', fechaRecepcion: new Date('2026-05-20T20:38:38Z') });
    expect(server.requestsTo(P.resultado)[0]!.rawQuery).toBe('trackid=5a0b9c6e-8f1d-4e2b-9d5a-3f7c1e2b4a60');
  });

  it('fills the track id of a result answer that omits it', async () => {
    server.route('GET', P.resultado, { json: { codigo: 0, estado: 'No encontrado', mensajes: [] } });
    expect(await client().result(who, 'abc')).toMatchObject({ trackId: 'abc', codigo: 0, estado: 'No encontrado' });
  });

  it('queries the fiscal status with the four documented parameters', async () => {
    server.route('GET', P.estado, { body: fixture('status.json'), headers: { 'Content-Type': 'application/json' } });
    const status = await client().status(who, { rncEmisor: '130000001', encf: 'E310000000001', codigoSeguridad: 'aB+9/x' });
    expect(status).toMatchObject({ codigo: 1, montoTotal: '1180.00', codigoSeguridad: 'aB+9/x' });
    expect(server.requestsTo(P.estado)[0]!.rawQuery).toBe('rncemisor=130000001&ncfelectronico=E310000000001&rnccomprador=&codigoseguridad=aB%2B9%2Fx');
  });

  it('queries the track ids of an e-NCF', async () => {
    server.route('GET', P.trackIds, { headers: { 'Content-Type': 'text/xml' }, body: fixture('trackids.xml') });
    const list = await client().trackIds(who, { rncEmisor: '130000001', encf: 'E340000000007' });
    expect(list.map((t) => t.estado)).toEqual(['Rechazado', 'En Proceso']);
    expect(server.requestsTo(P.trackIds)[0]!.rawQuery).toBe('rncemisor=130000001&encf=E340000000007');
  });

  it('uploads a commercial approval and a range voiding', async () => {
    server.route('POST', P.aprobacion, { json: JSON.parse(fixture('approval.json')) });
    server.route('POST', P.anulacion, { json: JSON.parse(fixture('voiding-accepted.json')) });
    const c = client();
    expect(await c.sendApproval(who, { fileName: '131880738E310000000001.xml', xml: '<ACECF/>' })).toMatchObject({
      codigo: '1',
      mensajes: ['Aprobación comercial aprobada'],
    });
    expect(await c.voidRanges(who, { fileName: '130000001ANECF.xml', xml: '<ANECF/>' })).toMatchObject({ accepted: true, rnc: '130000001' });
    expectPlainUploadHeaders(server.requestsTo(P.aprobacion)[0]!, '131880738E310000000001.xml');
    expectPlainUploadHeaders(server.requestsTo(P.anulacion)[0]!, '130000001ANECF.xml');
  });

  it('reads the directory list and one taxpayer (single object) as arrays', async () => {
    server.route('GET', P.listado, { json: JSON.parse(fixture('directory-array.json')) });
    server.route('GET', P.porRnc, { json: JSON.parse(fixture('directory-object.json')) });
    const c = client();
    expect((await c.directory(who)).map((d) => d.rnc)).toEqual(['131880738', '101672919']);
    const one = await c.directory(who, '131880738');
    expect(one).toHaveLength(1);
    expect(one[0]!.urlOpcional).toBeNull();
    expect(server.requestsTo(P.porRnc)[0]!.rawQuery).toBe('RNC=131880738');
  });

  it('asks the service status with the API key and without a seed exchange', async () => {
    server.route('GET', P.estatus, { json: JSON.parse(fixture('service-status.json')) });
    const status = await client({ apiKey: 'clave-dgii' }).serviceStatus();
    expect(status[0]).toEqual({ servicio: 'Autenticación', estatus: 'Disponible', ambiente: 'PreCertificación' });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers.authorization).toBe('Apikey clave-dgii');
  });
});

describe('token cache', () => {
  it('authenticates once for many calls, sequential and concurrent', async () => {
    server.route('POST', P.recepcion, { json: JSON.parse(fixture('reception.json')) });
    server.route('GET', P.resultado, { json: JSON.parse(fixture('result-in-process.json')) });
    const c = client();
    await Promise.all([c.sendEcf(who, ECF), c.result(who, 'a'), c.result(who, 'b'), c.sendEcf(who, ECF)]);
    await c.result(who, 'c');
    await c.sendEcf(who, ECF);
    expect(auth.seeds()).toBe(1);
    expect(server.requestsTo(P.validar)).toHaveLength(1);
    expect(new Set([...server.requestsTo(P.recepcion), ...server.requestsTo(P.resultado)].map((r) => r.headers.authorization))).toEqual(
      new Set(['Bearer tok-1']),
    );
  });

  it('keeps one token per RNC and none across client instances', async () => {
    server.route('GET', P.resultado, { json: JSON.parse(fixture('result-in-process.json')) });
    const other = testIdentity('131880738');
    const c = client();
    await Promise.all([c.result(who, 'a'), c.result(other, 'b'), c.result(who, 'c')]);
    expect(auth.issued).toEqual(['tok-1', 'tok-2']);
    await client().result(who, 'd');
    expect(auth.issued).toHaveLength(3);
  });

  it('renews the token 60 s before it expires, judged by the injected clock', async () => {
    let now = new Date('2026-05-20T20:00:00Z');
    const clock = () => now;
    server.route('GET', P.resultado, { json: JSON.parse(fixture('result-in-process.json')) });
    await server.close();
    server = await startRecordingServer();
    auth = installAuth(server, { clock, ttlMs: 3_600_000 });
    server.route('GET', P.resultado, { json: JSON.parse(fixture('result-in-process.json')) });
    const c = client({ clock });
    await c.result(who, 'a');
    now = new Date('2026-05-20T20:58:59Z'); // 61 s before expiry: still used
    await c.result(who, 'b');
    expect(auth.issued).toEqual(['tok-1']);
    now = new Date('2026-05-20T20:59:01Z'); // inside the last minute: renewed
    await c.result(who, 'c');
    expect(auth.issued).toEqual(['tok-1', 'tok-2']);
    expect(server.requestsTo(P.resultado).map((r) => r.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
  });

  it('drops the token on a 401, authenticates again and repeats the call once', async () => {
    server.route('POST', P.recepcion, [{ status: 401, body: '' }, { json: JSON.parse(fixture('reception.json')) }]);
    const receipt = await client().sendEcf(who, ECF);
    expect(receipt.trackId).toBe('5a0b9c6e-8f1d-4e2b-9d5a-3f7c1e2b4a60');
    expect(server.requestsTo(P.recepcion).map((r) => r.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(auth.seeds()).toBe(2);
  });

  it('fails with AuthorityError unauthorized on a second 401', async () => {
    server.route('POST', P.recepcion, { status: 401, json: { mensaje: 'Token inválido o vencido' } });
    const e = await failure(client().sendEcf(who, ECF));
    expect(e).toBeInstanceOf(AuthorityError);
    expect((e as AuthorityError).code).toBe('unauthorized');
    expect((e as AuthorityError).status).toBe(401);
    expect((e as AuthorityError).mensajes).toEqual([{ codigo: null, valor: 'Token inválido o vencido' }]);
    expect(server.requestsTo(P.recepcion)).toHaveLength(2);
    expect(auth.seeds()).toBe(2);
    expect(sleeps).toEqual([]);
  });

  it('reports a refused seed validation with DGII text, without retrying', async () => {
    server.route('POST', P.validar, { status: 400, json: 'Firma del certificado invalida' });
    const e = await failure(client().result(who, 'x'));
    expect(e).toBeInstanceOf(AuthorityError);
    expect((e as AuthorityError).message).toContain('Firma del certificado invalida');
    expect((e as AuthorityError).mensajes).toEqual([{ codigo: null, valor: 'Firma del certificado invalida' }]);
    expect(server.requestsTo(P.validar)).toHaveLength(1);
    expect(server.requestsTo(P.resultado)).toHaveLength(0);
  });

  it('retries the seed exchange on a 503 with a fresh seed', async () => {
    server.route('GET', P.resultado, { json: JSON.parse(fixture('result-in-process.json')) });
    server.route('POST', P.validar, [
      { status: 503, body: 'Service Unavailable' },
      { json: { token: 'tok-x', expira: '2099-01-01T00:00:00Z', expedido: '2098-12-31T23:00:00Z' } },
    ]);
    await client().result(who, 'x');
    expect(auth.seeds()).toBe(2);
    expect(server.requestsTo(P.validar)).toHaveLength(2);
    const [first, second] = server.requestsTo(P.validar).map((r) => /<valor>([^<]*)/.exec(r.parts[0]!.text)![1]);
    expect(first).not.toBe(second);
    expect(server.requestsTo(P.resultado)[0]!.headers.authorization).toBe('Bearer tok-x');
    expect(sleeps).toEqual([125]);
  });
});

describe('retries and failures', () => {
  it('retries a query on 503 with exponential backoff and full jitter', async () => {
    server.route('GET', P.resultado, [{ status: 503 }, { status: 503 }, { status: 502 }, { json: JSON.parse(fixture('result-accepted.json')) }]);
    const result = await client({ backoffMs: 100 }).result(who, 'x');
    expect(result.estado).toBe('Aceptado');
    expect(server.requestsTo(P.resultado)).toHaveLength(4);
    expect(sleeps).toEqual([50, 100, 200]); // 0.5 × 100 × 2^n
  });

  it('caps each backoff delay', async () => {
    server.route('GET', P.resultado, { status: 503 });
    const e = await failure(client({ retries: 5, backoffMs: 1000, maxBackoffMs: 3000, random: () => 0.999 }).result(who, 'x'));
    expect((e as TransportError).code).toBe('server_error');
    expect(sleeps.map(Math.round)).toEqual([999, 1998, 2997, 2997, 2997]);
    expect(server.requestsTo(P.resultado)).toHaveLength(6);
  });

  it('gives up after the configured retries with a retryable TransportError', async () => {
    server.route('GET', P.resultado, { status: 503, body: 'Service Unavailable' });
    const e = await failure(client({ retries: 2 }).result(who, 'x'));
    expect(e).toBeInstanceOf(TransportError);
    expect(e).toMatchObject({ code: 'server_error', retryable: true, outcomeUnknown: false, status: 503 });
    expect(server.requestsTo(P.resultado)).toHaveLength(3);
  });

  it('resends an upload after a 503 (it was not processed)', async () => {
    server.route('POST', P.recepcion, [{ status: 503 }, { json: JSON.parse(fixture('reception.json')) }]);
    await client().sendEcf(who, ECF);
    expect(server.requestsTo(P.recepcion)).toHaveLength(2);
  });

  it('honours Retry-After on 429, up to the cap', async () => {
    server.route('GET', P.resultado, [
      { status: 429, headers: { 'Retry-After': '2' } },
      { status: 429, headers: { 'Retry-After': '120' } },
      { json: JSON.parse(fixture('result-accepted.json')) },
    ]);
    await client({ maxRetryAfterMs: 10_000 }).result(who, 'x');
    expect(sleeps).toEqual([2000, 10_000]);
  });

  it('honours Retry-After on 503 as an HTTP date, judged by the injected clock', async () => {
    const now = new Date('2026-05-20T20:00:00Z');
    server.route('GET', P.resultado, [
      { status: 503, headers: { 'Retry-After': 'Wed, 20 May 2026 20:00:03 GMT' } },
      { json: JSON.parse(fixture('result-accepted.json')) },
    ]);
    await client({ clock: () => now }).result(who, 'x');
    expect(sleeps).toEqual([3000]);
  });

  it('logs retries without tokens or document bodies', async () => {
    const lines: string[] = [];
    const log = (obj: Record<string, unknown>, msg?: string) => void lines.push(`${msg} ${JSON.stringify(obj)}`);
    server.route('POST', P.recepcion, [{ status: 503 }, { json: JSON.parse(fixture('reception.json')) }]);
    await client({ logger: { debug: log, warn: log } }).sendEcf(who, ECF);
    expect(lines.some((l) => l.startsWith('authority request failed; retrying') && l.includes('"status":503'))).toBe(true);
    expect(lines.filter((l) => l.startsWith('authority request ')).length).toBeGreaterThanOrEqual(4);
    expect(lines.join('\n')).not.toMatch(/tok-1|Café|Signature/);
  });

  it('resends an upload after a 429', async () => {
    server.route('POST', P.recepcion, [{ status: 429 }, { json: JSON.parse(fixture('reception.json')) }]);
    await client().sendEcf(who, ECF);
    expect(server.requestsTo(P.recepcion)).toHaveLength(2);
    expect(sleeps).toEqual([125]);
  });

  it('resends an upload when the connection was refused (nothing was sent)', async () => {
    server.route('POST', P.recepcion, { json: JSON.parse(fixture('reception.json')) });
    const port = server.port;
    let restarted: RecordingServer | null = null;
    const c = client({
      sleep: async (ms) => {
        sleeps.push(ms);
        if (!restarted) {
          restarted = await startRecordingServer({ port });
          restarted.route('POST', P.recepcion, { json: JSON.parse(fixture('reception.json')) });
        }
      },
    });
    await c.sendEcf(who, ECF); // token cached
    await server.close();
    await new Promise((r) => setTimeout(r, 50)); // let the client see its pooled connection close
    const receipt = await c.sendEcf(who, ECF);
    expect(receipt.trackId).toBe('5a0b9c6e-8f1d-4e2b-9d5a-3f7c1e2b4a60');
    expect(sleeps).toEqual([125]);
    server = restarted!;
    expect(server.requestsTo(P.recepcion)).toHaveLength(1);
    expect(server.requestsTo(P.recepcion)[0]!.headers.authorization).toBe('Bearer tok-1');
  });

  it('gives up on a refused connection after the retries, as a retryable network error', async () => {
    const port = server.port;
    await server.close();
    const c = createDgiiClient({ environment: 'ecf', baseUrl: `http://127.0.0.1:${port}`, retries: 2, sleep: async (ms) => void sleeps.push(ms) });
    clients.push(c);
    const e = await failure(c.result(who, 'x'));
    expect(e).toBeInstanceOf(TransportError);
    expect(e).toMatchObject({ code: 'network', retryable: true, outcomeUnknown: false });
    expect((e as TransportError).message).toContain('ECONNREFUSED');
    expect(sleeps).toHaveLength(2);
    server = await startRecordingServer();
  });

  it('never resends an upload the authority refused (400), and keeps its text', async () => {
    server.route('POST', P.recepcion, { status: 400, json: JSON.parse(fixture('reception-error-not-delegated.json')) });
    const e = await failure(client().sendEcf(who, ECF));
    expect(e).toBeInstanceOf(AuthorityError);
    expect(e).toMatchObject({ code: 'rejected', status: 400, retryable: false });
    expect((e as AuthorityError).mensajes[0]!.valor).toContain('no se encuentra delegado para el RNC 130000001');
    expect((e as AuthorityError).message).toContain('no se encuentra delegado');
    expect((e as AuthorityError).body).toContain('Solicitud inválida');
    expect(server.requestsTo(P.recepcion)).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('maps 403, 404 and 422 to AuthorityError codes, with HTML text extracted', async () => {
    server.route('GET', P.resultado, [
      { status: 403, headers: { 'Content-Type': 'text/html' }, body: fixture('html-error.html') },
      { status: 404, body: 'No encontrado' },
      { status: 422, json: JSON.parse(fixture('error-problem-details.json')) },
    ]);
    const c = client();
    const forbidden = (await failure(c.result(who, 'x'))) as AuthorityError;
    expect(forbidden.code).toBe('unauthorized');
    expect(forbidden.mensajes[0]!.valor).toContain('Contacte a la Dirección General de Impuestos Internos.');
    expect(((await failure(c.result(who, 'x'))) as AuthorityError).code).toBe('not_found');
    const unprocessable = (await failure(c.result(who, 'x'))) as AuthorityError;
    expect(unprocessable.code).toBe('rejected');
    expect(unprocessable.mensajes.map((m) => m.valor)).toContain('The xml field is required.');
    expect(sleeps).toEqual([]);
  });

  it('does not resend an upload after a 500/502/504: the outcome is unknown', async () => {
    for (const status of [500, 502, 504]) {
      server.route('POST', P.recepcion, { status, body: 'error' });
      const before = server.requestsTo(P.recepcion).length;
      const e = await failure(client().sendEcf(who, ECF));
      expect(e).toMatchObject({ code: 'server_error', retryable: true, outcomeUnknown: true, status });
      expect(server.requestsTo(P.recepcion).length - before).toBe(1);
    }
    expect(sleeps).toEqual([]);
  });

  it('reports a connection dropped during an upload as outcome unknown, without resending', async () => {
    server.route('POST', P.recepcion, { drop: true });
    const e = await failure(client().sendEcf(who, ECF));
    expect(e).toBeInstanceOf(TransportError);
    expect(e).toMatchObject({ code: 'network', retryable: true, outcomeUnknown: true });
    expect(server.requestsTo(P.recepcion)).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('reports a connection dropped in the middle of the answer to an upload as outcome unknown', async () => {
    server.route('POST', P.recepcionFc, { dropMidBody: true });
    const e = await failure(client().sendRfce(who, { fileName: '130000001E320000000001.xml', xml: '<RFCE/>' }));
    expect(e).toMatchObject({ code: 'network', outcomeUnknown: true, retryable: true });
    expect(server.requestsTo(P.recepcionFc)).toHaveLength(1);
  });

  it('retries a query whose connection dropped', async () => {
    server.route('GET', P.trackIds, [{ drop: true }, { dropMidBody: true }, { json: JSON.parse(fixture('trackids.json')) }]);
    expect(await client().trackIds(who, { rncEmisor: '130000001', encf: 'E310000000001' })).toHaveLength(3);
    expect(server.requestsTo(P.trackIds)).toHaveLength(3);
  });

  it('times out an upload as outcome unknown, without resending', async () => {
    server.route('POST', P.recepcion, { hang: true });
    const e = await failure(client({ timeoutMs: 300 }).sendEcf(who, ECF));
    expect(e).toMatchObject({ code: 'timeout', retryable: true, outcomeUnknown: true });
    expect(server.requestsTo(P.recepcion)).toHaveLength(1);
  });

  it('times out and retries a query', async () => {
    server.route('GET', P.resultado, [{ hang: true }, { json: JSON.parse(fixture('result-accepted.json')) }]);
    expect((await client({ timeoutMs: 300 }).result(who, 'x')).estado).toBe('Aceptado');
    expect(server.requestsTo(P.resultado)).toHaveLength(2);
    server.route('GET', P.resultado, { hang: true });
    const e = await failure(client({ timeoutMs: 200, retries: 1 }).result(who, 'x'));
    expect(e).toMatchObject({ code: 'timeout', retryable: true, outcomeUnknown: false });
  });

  it('reports an unreadable 2xx as bad_response: not resent, and outcome unknown for uploads', async () => {
    server.route('GET', P.resultado, { status: 200, headers: { 'Content-Type': 'text/html' }, body: fixture('html-error.html') });
    server.route('POST', P.recepcion, { status: 200, body: '{"ok":true}' });
    const c = client();
    const query = await failure(c.result(who, 'x'));
    expect(query).toMatchObject({ code: 'bad_response', outcomeUnknown: false, status: 200 });
    const upload = await failure(c.sendEcf(who, ECF));
    expect(upload).toMatchObject({ code: 'bad_response', retryable: true, outcomeUnknown: true, status: 200 });
    expect(server.requestsTo(P.resultado)).toHaveLength(1);
    expect(server.requestsTo(P.recepcion)).toHaveLength(1);
  });
});
