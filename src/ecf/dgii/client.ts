/**
 * `createDgiiClient`: the AuthorityTransport port over HTTP (undici), for DGII's real services or
 * anything that speaks the same protocol (the simulator, a proxy) at a custom base URL.
 */
import { isTransportError, TransportError } from '../../shared/errors/transport-error.js';
import { exchangeSeed, TokenCache } from './auth.js';
import { dgiiEndpoints, withQuery, type DgiiEndpoints } from './endpoints.js';
import { createDgiiHttp, multipartXml, type HttpOptions, type HttpRequest, type HttpResponse } from './http.js';
import {
  parseApprovalReceipt,
  parseDirectory,
  parseFiscalStatus,
  parseReceptionReceipt,
  parseServiceStatus,
  parseTrackIds,
  parseTrackResult,
  parseVoidingReceipt,
} from './parse.js';
import type { AuthorityIdentity, AuthorityTransport, AuthToken, DgiiEnvironmentName, XmlFile } from './types.js';

export interface DgiiClientOptions extends HttpOptions {
  /** Path segment of the environment: `testecf` (pre-certification), `certecf` (certification), `ecf` (production). */
  environment: DgiiEnvironmentName;
  /**
   * Serve every host (ecf, fc, statusecf) from this base instead of DGII's, with the same paths, e.g.
   * `http://127.0.0.1:9090` for the simulator.
   */
  baseUrl?: string;
  /** Key for the `statusecf` service-status API (`Authorization: Apikey …`), issued by DGII. */
  apiKey?: string;
}

/** A DGII client: the AuthorityTransport operations plus its endpoint table and `close()`. */
export interface DgiiClient extends AuthorityTransport {
  readonly environment: DgiiEnvironmentName;
  readonly endpoints: DgiiEndpoints;
  /** Closes the connection pool. Pending calls fail; the instance is not usable afterwards. */
  close(): Promise<void>;
}

type Parse<T> = (res: HttpResponse) => T;

/**
 * Creates a DGII client. Each instance keeps its own token cache per RNC (no global state): a token
 * is reused until 60 s before it expires, concurrent callers share one authentication, and a 401
 * renews the token once and repeats the call once (a second 401 is `AuthorityError`
 * `unauthorized`). Uploads (`sendEcf`, `sendRfce`, `sendApproval`, `voidRanges`) are retried only
 * when they certainly were not processed; otherwise the `TransportError` carries
 * `outcomeUnknown: true` (ask `trackIds` / `rfceStatus` before sending again). Queries and the seed
 * exchange are retried on every retryable failure.
 *
 * @throws TypeError for an unknown environment or a bad `baseUrl`
 * @example
 * const dgii = createDgiiClient({ environment: 'testecf' });
 * const who = { rnc: '130000001', signer: p12Signer(readP12(p12Bytes, password)) };
 * const { trackId } = await dgii.sendEcf(who, { fileName: fileNameFor(signedXml), xml: signedXml });
 * const result = await dgii.result(who, trackId);
 * //=> { trackId, codigo: 1, estado: 'Aceptado', encf: 'E310000000001', secuenciaUtilizada: true, fechaRecepcion: Date, mensajes: [] }
 * await dgii.close();
 */
export function createDgiiClient(options: DgiiClientOptions): DgiiClient {
  const endpoints = dgiiEndpoints(options.environment, options.baseUrl);
  const http = createDgiiHttp(options);
  const tokens = new TokenCache(http.clock);

  const authenticate = (who: AuthorityIdentity): Promise<AuthToken> =>
    tokens.get(who.rnc, () => exchangeSeed(http, { seed: endpoints.semilla, validate: endpoints.validarSemilla }, who.signer, 'DGII'));

  /** An authenticated call: token, one renewal on 401, status mapping, parsing, retries. */
  function call<T>(who: AuthorityIdentity, req: Omit<HttpRequest, 'headers'> & { headers?: Record<string, string> }, parse: Parse<T>): Promise<T> {
    let renewed = false;
    return http.retry(req.what, async () => {
      for (;;) {
        const token = await authenticate(who);
        const request: HttpRequest = { ...req, headers: { ...req.headers, Accept: 'application/json', Authorization: `Bearer ${token.token}` } };
        const res = await http.send(request);
        if (res.status === 401) {
          tokens.invalidate(who.rnc, token.token);
          if (!renewed) {
            renewed = true;
            continue;
          }
        }
        return finish(request, res, parse);
      }
    });
  }

  function finish<T>(req: HttpRequest, res: HttpResponse, parse: Parse<T>): T {
    const failure = http.failureFor(req, res);
    if (failure) throw failure;
    try {
      return parse(res);
    } catch (e) {
      // A 2xx the client cannot read: for an upload, the document may well have been taken.
      if (isTransportError(e) && !req.idempotent) {
        throw new TransportError(`${e.message} (${req.what}: the outcome is unknown)`, {
          code: e.code,
          retryable: true,
          outcomeUnknown: true,
          status: res.status,
          cause: e,
        });
      }
      if (isTransportError(e)) throw new TransportError(e.message, { code: e.code, retryable: e.retryable, status: res.status, cause: e.cause });
      throw e;
    }
  }

  function upload<T>(who: AuthorityIdentity, url: string, file: XmlFile, what: string, parse: Parse<T>): Promise<T> {
    const { body, contentType } = multipartXml(file);
    return call(
      who,
      { method: 'POST', url, body, idempotent: false, what, headers: { 'Content-Type': contentType, 'Content-Length': String(body.byteLength) } },
      parse,
    );
  }

  function query<T>(who: AuthorityIdentity, url: string, what: string, parse: Parse<T>): Promise<T> {
    return call(who, { method: 'GET', url, idempotent: true, what }, parse);
  }

  return {
    environment: options.environment,
    endpoints,
    authenticate,

    sendEcf: (who, file) => upload(who, endpoints.recepcion, file, 'e-CF reception', (r) => parseReceptionReceipt(r.text, r.contentType)),

    sendRfce: (who, file) => upload(who, endpoints.recepcionFc, file, 'RFCE reception', (r) => parseTrackResult(r.text, r.contentType)),

    rfceStatus: (who, q) =>
      query(who, withQuery(endpoints.consultaRfce, { RNC_Emisor: q.rncEmisor, ENCF: q.encf, Cod_Seguridad_eCF: q.codigoSeguridad }), 'RFCE query', (r) =>
        parseTrackResult(r.text, r.contentType),
      ),

    result: (who, trackId) =>
      query(who, withQuery(endpoints.consultaResultado, { trackid: trackId }), 'result query', (r) => {
        const result = parseTrackResult(r.text, r.contentType);
        return result.trackId ? result : { ...result, trackId };
      }),

    status: (who, q) =>
      query(
        who,
        withQuery(endpoints.consultaEstado, {
          rncemisor: q.rncEmisor,
          ncfelectronico: q.encf,
          rnccomprador: q.rncComprador ?? '',
          codigoseguridad: q.codigoSeguridad,
        }),
        'status query',
        (r) => parseFiscalStatus(r.text, r.contentType),
      ),

    trackIds: (who, q) =>
      query(who, withQuery(endpoints.consultaTrackIds, { rncemisor: q.rncEmisor, encf: q.encf }), 'track-id query', (r) =>
        parseTrackIds(r.text, r.contentType),
      ),

    sendApproval: (who, file) => upload(who, endpoints.aprobacionComercial, file, 'commercial approval', (r) => parseApprovalReceipt(r.text, r.contentType)),

    voidRanges: (who, file) => upload(who, endpoints.anulacionRangos, file, 'range voiding', (r) => parseVoidingReceipt(r.text, r.contentType)),

    directory: (who, rnc) =>
      query(who, rnc ? withQuery(endpoints.directorioPorRnc, { RNC: rnc }) : endpoints.directorioListado, 'directory query', (r) =>
        parseDirectory(r.text, r.contentType),
      ),

    serviceStatus: () => {
      const req: HttpRequest = {
        method: 'GET',
        url: endpoints.estatusServicios,
        headers: { Accept: 'application/json', ...(options.apiKey ? { Authorization: `Apikey ${options.apiKey}` } : {}) },
        idempotent: true,
        what: 'service status',
      };
      return http.retry(req.what, async () => finish(req, await http.send(req), (r) => parseServiceStatus(r.text, r.contentType)));
    },

    close: () => http.close(),
  };
}
