import { describe, expect, it } from 'vitest';
import { TransportError } from '../../../src/shared/errors/transport-error.js';
import {
  errorMessages,
  htmlToText,
  normalizeState,
  parseApprovalReceipt,
  parseAuthToken,
  parseBody,
  parseDgiiDate,
  parseDirectory,
  parseFiscalStatus,
  parseReceptionReceipt,
  parseSeed,
  parseServiceStatus,
  parseTrackIds,
  parseTrackResult,
  parseVoidingReceipt,
  toAuthorityMessages,
} from '../../../src/ecf/dgii/parse.js';
import { fixture } from './helpers/fixtures.js';

const iso = (d: Date | null) => d?.toISOString() ?? null;

describe('parseDgiiDate', () => {
  it('reads US-style dates as Dominican local time (UTC−4), AM and PM', () => {
    expect(iso(parseDgiiDate('5/20/2026 4:38:38 PM'))).toBe('2026-05-20T20:38:38.000Z');
    expect(iso(parseDgiiDate('5/20/2026 4:38:38 AM'))).toBe('2026-05-20T08:38:38.000Z');
    expect(iso(parseDgiiDate('8/15/2023 6:06:57 AM'))).toBe('2023-08-15T10:06:57.000Z');
  });

  it('maps 12 AM to midnight and 12 PM to noon', () => {
    expect(iso(parseDgiiDate('1/2/2026 12:00:05 AM'))).toBe('2026-01-02T04:00:05.000Z');
    expect(iso(parseDgiiDate('1/2/2026 12:30:00 PM'))).toBe('2026-01-02T16:30:00.000Z');
  });

  it('reads the evening hour past midnight UTC onto the next UTC day', () => {
    expect(iso(parseDgiiDate('12/31/2025 11:59:59 PM'))).toBe('2026-01-01T03:59:59.000Z');
  });

  it('reads ISO instants with Z, with an offset and seven fraction digits, and without zone as local', () => {
    expect(iso(parseDgiiDate('2026-05-20T21:38:38Z'))).toBe('2026-05-20T21:38:38.000Z');
    expect(iso(parseDgiiDate('2019-03-13T14:33:32.8617792-04:00'))).toBe('2019-03-13T18:33:32.861Z');
    expect(iso(parseDgiiDate('2026-05-20T12:30:00+01:00'))).toBe('2026-05-20T11:30:00.000Z');
    expect(iso(parseDgiiDate('2026-05-20T12:30:00'))).toBe('2026-05-20T16:30:00.000Z');
  });

  it('reads DGII dd-MM-yyyy HH:mm:ss as local time', () => {
    expect(iso(parseDgiiDate('20-05-2026 16:38:30'))).toBe('2026-05-20T20:38:30.000Z');
  });

  it('returns null for impossible or foreign values', () => {
    expect(parseDgiiDate('2/30/2026 1:00:00 PM')).toBeNull();
    expect(parseDgiiDate('13/1/2026 1:00:00 PM')).toBeNull();
    expect(parseDgiiDate('5/20/2026 13:00:00 PM')).toBeNull();
    expect(parseDgiiDate('ayer')).toBeNull();
    expect(parseDgiiDate('')).toBeNull();
    expect(parseDgiiDate(null)).toBeNull();
    expect(parseDgiiDate(42)).toBeNull();
  });
});

describe('normalizeState', () => {
  it('normalises case and spacing of state names', () => {
    expect(normalizeState('En proceso')).toEqual({ estado: 'En Proceso', codigo: 3 });
    expect(normalizeState('EN PROCESO')).toEqual({ estado: 'En Proceso', codigo: 3 });
    expect(normalizeState('no encontrado')).toEqual({ estado: 'No encontrado', codigo: 0 });
  });

  it('never reads "Aceptado Condicional" as "Aceptado"', () => {
    expect(normalizeState('Aceptado Condicional')).toEqual({ estado: 'Aceptado Condicional', codigo: 4 });
    expect(normalizeState('Aceptado condicional', 1)).toEqual({ estado: 'Aceptado Condicional', codigo: 4 });
  });

  it('falls back to the numeric code and rejects what it does not know', () => {
    expect(normalizeState(undefined, '2')).toEqual({ estado: 'Rechazado', codigo: 2 });
    expect(normalizeState('Anulado', 9)).toBeNull();
    expect(normalizeState('Aceptadísimo')).toBeNull();
  });
});

describe('messages', () => {
  it('reads objects, strings, a single string and drops empty texts', () => {
    expect(
      toAuthorityMessages([
        { codigo: 614, valor: 'NCFModificado no emitido' },
        { valor: '', codigo: 0 },
      ]),
    ).toEqual([{ codigo: '614', valor: 'NCFModificado no emitido' }]);
    expect(toAuthorityMessages(['uno', ' dos '])).toEqual([
      { codigo: null, valor: 'uno' },
      { codigo: null, valor: 'dos' },
    ]);
    expect(toAuthorityMessages('solo uno')).toEqual([{ codigo: null, valor: 'solo uno' }]);
    expect(
      toAuthorityMessages({
        Mensaje: [
          { Codigo: '1', Valor: 'x' },
          { Codigo: '2', Valor: 'y' },
        ],
      }),
    ).toEqual([
      { codigo: '1', valor: 'x' },
      { codigo: '2', valor: 'y' },
    ]);
  });

  it('extracts readable text from an HTML error page', () => {
    const text = htmlToText(fixture('html-error.html'));
    expect(text).toContain("Server Error in '/testecf/recepcion' Application.");
    expect(text).toContain('Contacte a la Dirección General de Impuestos Internos.');
    expect(text).not.toMatch(/<|font-family|Recepci&oacute;n/);
    const [message] = errorMessages(parseBody(fixture('html-error.html'), 'text/html; charset=utf-8'));
    expect(message!.valor).toContain('Runtime Error');
  });

  it('keeps the authority text of every error shape', () => {
    expect(errorMessages(parseBody(fixture('reception-error-not-delegated.json')))).toEqual([
      { codigo: null, valor: expect.stringContaining('no se encuentra delegado para el RNC 130000001') },
      { codigo: null, valor: 'Solicitud inválida' },
    ]);
    expect(errorMessages(parseBody(fixture('error-string.json'), 'application/json'))).toEqual([{ codigo: null, valor: 'Firma del certificado invalida' }]);
    expect(errorMessages(parseBody(fixture('error-text.txt'), 'text/plain'))).toEqual([
      { codigo: null, valor: 'La longitud del nombre del archivo no es válida' },
    ]);
    expect(errorMessages(parseBody(fixture('error-problem-details.json'))).map((m) => m.valor)).toEqual([
      'The xml field is required.',
      'One or more validation errors occurred.',
    ]);
    expect(errorMessages(parseBody(fixture('result-rejected.json'))).map((m) => m.codigo)).toEqual(['614', '2020']);
  });
});

describe('parseBody', () => {
  it('turns PascalCase XML into nested values and ArrayOf roots into arrays', () => {
    const one = parseBody(fixture('result-accepted.xml'));
    expect(one.kind).toBe('xml');
    expect(one.value).toMatchObject({ TrackId: '5a0b9c6e-8f1d-4e2b-9d5a-3f7c1e2b4a60', Codigo: '1' });
    const list = parseBody(fixture('trackids.xml'));
    expect(Array.isArray(list.value)).toBe(true);
    expect((list.value as unknown[]).length).toBe(2);
  });

  it('keeps JSON amounts as exact decimal strings', () => {
    const body = parseBody(fixture('status.json'));
    expect(body.value).toMatchObject({ montoTotal: '1180.00', totalITBIS: '180.00' });
  });

  it('treats a non-JSON, non-XML body as text and an empty body as empty', () => {
    expect(parseBody('Service Unavailable').kind).toBe('text');
    expect(parseBody('  \r\n').kind).toBe('empty');
    expect(parseBody('{broken').kind).toBe('text');
  });
});

describe('authentication answers', () => {
  it('reads the token from JSON and from PascalCase XML', () => {
    const json = parseAuthToken(fixture('token.json'), 'application/json');
    expect(json.token).toMatch(/^eyJ/);
    expect(iso(json.expiresAt)).toBe('2026-05-20T21:38:38.000Z');
    expect(iso(json.issuedAt)).toBe('2026-05-20T20:38:38.000Z');
    const xml = parseAuthToken(fixture('token.xml'), 'application/xml');
    expect(xml.token).toMatch(/^eyJ/);
    expect(iso(xml.expiresAt)).toBe('2026-05-20T21:38:38.000Z');
  });

  it('refuses a token answer without token or expiry', () => {
    expect(() => parseAuthToken('{"token":"x"}')).toThrow(TransportError);
    expect(() => parseAuthToken('{"expira":"2026-05-20T21:38:38Z"}')).toThrow(/Unexpected token answer/);
  });

  it('accepts the pretty-printed seed and refuses anything else', () => {
    expect(parseSeed(fixture('seed.xml'))).toMatch(/^<\?xml[\s\S]*<\/SemillaModel>$/);
    expect(() => parseSeed('<html><body>Mantenimiento</body></html>')).toThrow(TransportError);
    expect(() => parseSeed('{"valor":"x"}')).toThrow(/seed/);
  });
});

describe('operation answers', () => {
  it('reads the reception receipt and refuses one without track id', () => {
    expect(parseReceptionReceipt(fixture('reception.json'))).toEqual({ trackId: '5a0b9c6e-8f1d-4e2b-9d5a-3f7c1e2b4a60', mensaje: null });
    const e = (() => {
      try {
        parseReceptionReceipt('{"trackId":null,"error":null,"mensaje":null}');
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(TransportError);
    expect((e as TransportError).code).toBe('bad_response');
  });

  it('reads an accepted result from JSON and the same from XML', () => {
    const expected = {
      trackId: '5a0b9c6e-8f1d-4e2b-9d5a-3f7c1e2b4a60',
      codigo: 1,
      estado: 'Aceptado',
      rnc: '130000001',
      encf: 'E310000000001',
      secuenciaUtilizada: true,
      fechaRecepcion: new Date('2026-05-20T20:38:38.000Z'),
      mensajes: [],
    };
    expect(parseTrackResult(fixture('result-accepted.json'))).toEqual(expected);
    expect(parseTrackResult(fixture('result-accepted.xml'), 'application/xml')).toEqual(expected);
  });

  it('reads rejections with their codes, from JSON and XML alike', () => {
    const json = parseTrackResult(fixture('result-rejected.json'));
    const xml = parseTrackResult(fixture('result-rejected.xml'));
    expect(json.estado).toBe('Rechazado');
    expect(json.mensajes).toEqual([
      { codigo: '614', valor: 'El campo NCFModificado no corresponde a un e-CF emitido y aceptado.' },
      { codigo: '2020', valor: 'La sumatoria de los montos de TablaSubDescuento no coincide con el DescuentoMonto del ítem.' },
    ]);
    expect(xml).toEqual(json);
  });

  it('reads in-process, conditional and string-message results', () => {
    const inProcess = parseTrackResult(fixture('result-in-process.json'));
    expect(inProcess).toMatchObject({ codigo: 3, estado: 'En Proceso', secuenciaUtilizada: false, mensajes: [] });
    expect(iso(inProcess.fechaRecepcion)).toBe('2026-05-20T04:00:05.000Z');
    const conditional = parseTrackResult(fixture('result-conditional.json'));
    expect(conditional).toMatchObject({ codigo: 4, estado: 'Aceptado Condicional' });
    expect(iso(conditional.fechaRecepcion)).toBe('2026-05-20T16:30:00.000Z');
    expect(parseTrackResult(fixture('result-mensajes-strings.json')).mensajes).toEqual([
      { codigo: null, valor: 'Firma del certificado invalida' },
      { codigo: null, valor: 'La estructura del XML no es válida' },
    ]);
  });

  it('reads RFCE verdicts and the RFCE query', () => {
    expect(parseTrackResult(fixture('rfce-accepted.json'))).toMatchObject({
      trackId: null,
      codigo: 1,
      estado: 'Aceptado',
      encf: 'E320000000123',
      secuenciaUtilizada: true,
    });
    const rejected = parseTrackResult(fixture('rfce-rejected.json'));
    expect(rejected).toMatchObject({ codigo: 2, estado: 'Rechazado', secuenciaUtilizada: false });
    expect(rejected.mensajes[0]!.valor).toMatch(/no está delegado/);
    expect(parseTrackResult(fixture('rfce-query.json'))).toMatchObject({ rnc: '130000001', codigo: 1, estado: 'Aceptado' });
  });

  it('refuses a result without a recognisable state', () => {
    expect(() => parseTrackResult('{"trackId":"x","estado":"Perdido"}')).toThrow(TransportError);
    expect(() => parseTrackResult(fixture('html-error.html'))).toThrow(/Unexpected result answer/);
  });

  it('reads the fiscal status with exact amounts', () => {
    expect(parseFiscalStatus(fixture('status.json'))).toEqual({
      codigo: 1,
      estado: 'Aceptado',
      rncEmisor: '130000001',
      ncfElectronico: 'E310000000001',
      montoTotal: '1180.00',
      totalITBIS: '180.00',
      fechaEmision: '20-05-2026',
      fechaFirma: '20-05-2026 16:38:30',
      rncComprador: '131880738',
      codigoSeguridad: 'aB+9/x',
      idExtranjero: null,
    });
    expect(parseFiscalStatus('{"codigo":0,"estado":"No encontrado"}')).toMatchObject({ codigo: 0, montoTotal: null });
  });

  it('reads track ids from JSON and XML with normalised states', () => {
    const json = parseTrackIds(fixture('trackids.json'));
    expect(json.map((t) => t.estado)).toEqual(['Rechazado', 'En Proceso', 'Aceptado Condicional']);
    expect(iso(json[1]!.fechaRecepcion)).toBe('2026-05-20T14:20:45.000Z');
    const xml = parseTrackIds(fixture('trackids.xml'));
    expect(xml).toEqual(json.slice(0, 2));
    expect(parseTrackIds('[]')).toEqual([]);
    expect(parseTrackIds('')).toEqual([]);
  });

  it('reads the commercial-approval receipt', () => {
    expect(parseApprovalReceipt(fixture('approval.json'))).toEqual({
      codigo: '1',
      estado: 'Aprobación comercial aprobada (1)',
      mensajes: ['Aprobación comercial aprobada'],
    });
  });

  it('reads whether a voiding was accepted', () => {
    const ok = parseVoidingReceipt(fixture('voiding-accepted.json'));
    expect(ok).toEqual({
      rnc: '130000001',
      codigo: '1',
      nombre: 'Aceptado',
      mensajes: ['Se anularon 10 e-NCF del tipo 31 de forma satisfactoria.'],
      accepted: true,
    });
    const refused = parseVoidingReceipt(fixture('voiding-rejected.json'));
    expect(refused.accepted).toBe(false);
    expect(refused.mensajes[0]).toMatch(/ya fue utilizada/);
    expect(
      parseVoidingReceipt('{"rnc":"130000001","codigo":null,"nombre":null,"mensajes":["No se pudo anular el rango: secuencia no autorizada"]}').accepted,
    ).toBe(false);
  });

  it('normalises the directory: one object or an array, JSON or XML, empty URLs as null', () => {
    const single = parseDirectory(fixture('directory-object.json'));
    expect(single).toEqual([
      {
        nombre: 'COMERCIAL DEL CARIBE SRL',
        rnc: '131880738',
        urlRecepcion: 'https://fe.comercialcaribe.com.do',
        urlAceptacion: 'https://fe.comercialcaribe.com.do/fe/aprobacioncomercial/api/ecf',
        urlOpcional: null,
      },
    ]);
    const list = parseDirectory(fixture('directory-array.json'));
    expect(list.map((d) => d.rnc)).toEqual(['131880738', '101672919']);
    expect(list[1]!.urlOpcional).toBeNull();
    expect(parseDirectory(fixture('directory.xml'))).toEqual([
      {
        nombre: 'COMERCIAL DEL CARIBE SRL',
        rnc: '131880738',
        urlRecepcion: 'https://fe.comercialcaribe.com.do',
        urlAceptacion: 'https://fe.comercialcaribe.com.do',
        urlOpcional: null,
      },
    ]);
  });

  it('reads the service status list', () => {
    const status = parseServiceStatus(fixture('service-status.json'));
    expect(status).toHaveLength(3);
    expect(status[2]).toEqual({ servicio: 'Recepción FC', estatus: 'No Disponible', ambiente: 'PreCertificación' });
  });
});

describe('errorMessages summaries', () => {
  it('does not repeat an `error` that joins the listed `mensajes`', () => {
    const body = parseBody(
      '{"error":"El RNC no existe. El e-NCF no está autorizado.","mensajes":[{"codigo":"1","valor":"El RNC no existe."},{"codigo":"2","valor":"El e-NCF no está autorizado."}]}',
    );
    expect(errorMessages(body)).toEqual([
      { codigo: '1', valor: 'El RNC no existe.' },
      { codigo: '2', valor: 'El e-NCF no está autorizado.' },
    ]);
  });

  it('ignores boolean error flags and keeps a summary that adds information', () => {
    expect(errorMessages(parseBody('{"error":true,"mensaje":"Archivo vacío"}'))).toEqual([{ codigo: null, valor: 'Archivo vacío' }]);
    expect(errorMessages(parseBody('{"error":"Solicitud inválida","mensajes":["Archivo vacío"]}')).map((m) => m.valor)).toEqual([
      'Archivo vacío',
      'Solicitud inválida',
    ]);
  });
});
