/**
 * `createReceptorClient`: the issuer's side of the emisor–receptor exchange (DT pp. 52–57,
 * dgii-protocol.md §2.12). An e-CF is delivered to the buyer's `/fe/recepcion/api/ecf`, which
 * answers with its signed receipt (ARECF); a commercial approval (ACECF) goes to the issuer's
 * `/fe/aprobacioncomercial/api/ecf`, which answers 200 or 400. When the receiver publishes an
 * authentication URL (`urlOpcional`), the caller first signs the receiver's seed and sends a bearer
 * token, as with DGII.
 */
import { parseArecfXml, type ArecfInput } from '../documents/arecf.js';
import type { ParsedDoc } from '../documents/generic.js';
import type { AuthorityError } from '../../shared/errors/authority-error.js';
import { EcfError } from '../../shared/errors/ecf-error.js';
import { TransportError } from '../../shared/errors/transport-error.js';
import { verifyXml } from '../sign/index.js';
import { parseXmlRoot } from '../xml/parse.js';
import { exchangeSeed, TokenCache } from './auth.js';
import { createDgiiHttp, multipartXml, type HttpOptions, type HttpRequest, type HttpResponse } from './http.js';
import type { AuthorityIdentity, AuthToken, XmlFile } from './types.js';
import { checkAllowAddresses, receiverConnector, receiverBase, RECEIVER_PATHS, type ReceiverPolicy } from './receiver-guard.js';

/** Where a receiver is reached: its directory entry, or the same three URLs from elsewhere. */
export interface ReceptorTarget {
  urlRecepcion?: string | null;
  urlAceptacion?: string | null;
  urlOpcional?: string | null;
}

/** The service URLs of a receiver (null when its directory entry has no such URL). */
export interface ReceptorUrls {
  recepcion: string | null;
  aprobacion: string | null;
  semilla: string | null;
  validacion: string | null;
}

/** What the receiver answered to an e-CF. */
export interface EcfDelivery {
  /** The ARECF exactly as received (store it). */
  arecfXml: string;
  /** The ARECF read: `data.estado` '0' received, '1' not received (`codigo_motivo_no_recibido` says why). */
  arecf: ParsedDoc<ArecfInput>;
  /** The ARECF's XMLDSig signature verifies against its embedded certificate. */
  signatureValid: boolean;
  /** HTTP status of the answer (a receiver may send a "not received" ARECF with a 4xx). */
  status: number;
}

/** What the receiver answered to a commercial approval: DT defines 200 as satisfactory, 400 as not. */
export interface ApprovalDelivery {
  /** HTTP 2xx. */
  ok: boolean;
  status: number;
  /** The answer as received (receivers write "OK", "Error", JSON…). */
  body: string;
}

/** Largest receiver answer read by default (a signed ARECF is a few KB). */
export const RECEIVER_MAX_RESPONSE_BYTES = 256 * 1024;

export interface ReceptorClientOptions extends Omit<HttpOptions, 'dispatcher'> {
  /**
   * What may be reached (receiver-guard.ts). Default: https only, public addresses only. Development and tests
   * that run receivers on loopback over http opt in: `{ allowHttp: true, allowAddresses: LOOPBACK_RANGES }`.
   */
  receivers?: ReceiverPolicy;
  /** Largest answer read from a receiver, in bytes. Default {@link RECEIVER_MAX_RESPONSE_BYTES}. */
  maxResponseBytes?: number;
}

export interface ReceptorClient {
  /** Token for `target` (cached per receiver and RNC); `null` when the receiver publishes no authentication URL. */
  authenticate(target: ReceptorTarget, who: AuthorityIdentity): Promise<AuthToken | null>;
  /** Delivers a signed e-CF to the receiver's reception service and reads its ARECF. */
  deliverEcf(target: ReceptorTarget, who: AuthorityIdentity, file: XmlFile): Promise<EcfDelivery>;
  /** Delivers a signed ACECF to the issuer's commercial-approval service. */
  sendApproval(target: ReceptorTarget, who: AuthorityIdentity, file: XmlFile): Promise<ApprovalDelivery>;
  /** The URLs this client would call for `target` (its policy applied). @throws EcfError `invalid_argument` */
  urls(target: ReceptorTarget): ReceptorUrls;
  close(): Promise<void>;
}

/**
 * The service URLs of a receiver: the origin of each published URL, its plain path prefix (what precedes `/fe`)
 * and the fixed DT path (DT's receiver services live at fixed paths: anything from `/fe` on, the query, the
 * fragment and credentials of a directory entry are dropped, so an entry cannot aim our requests at another
 * resource of its host). Both authentication services derive from the one published `urlOpcional`. https only,
 * unless the policy allows http (development). See `receiverBase`.
 *
 * @throws EcfError `invalid_argument` for a URL that is not absolute https (http with `allowHttp`), `data:` included
 * @example
 * receptorUrls({ urlRecepcion: 'https://fe.example.do/?y=1', urlAceptacion: 'https://fe.example.do/fe/aprobacioncomercial/api/ecf', urlOpcional: 'https://fe.example.do/fe/autenticacion/api/semilla' })
 * //=> { recepcion: 'https://fe.example.do/fe/recepcion/api/ecf', aprobacion: 'https://fe.example.do/fe/aprobacioncomercial/api/ecf',
 * //     semilla: 'https://fe.example.do/fe/autenticacion/api/semilla', validacion: 'https://fe.example.do/fe/autenticacion/api/validacioncertificado' }
 */
export function receptorUrls(target: ReceptorTarget, policy: ReceiverPolicy = {}): ReceptorUrls {
  const recepcion = receiverBase(target.urlRecepcion, policy);
  const aprobacion = receiverBase(target.urlAceptacion, policy);
  const auth = receiverBase(target.urlOpcional, policy);
  return {
    recepcion: recepcion === null ? null : recepcion + RECEIVER_PATHS.recepcion,
    aprobacion: aprobacion === null ? null : aprobacion + RECEIVER_PATHS.aprobacion,
    semilla: auth === null ? null : auth + RECEIVER_PATHS.semilla,
    validacion: auth === null ? null : auth + RECEIVER_PATHS.validacion,
  };
}

/** The ARECF in a receiver's answer: the XML itself, or a JSON string holding it; `null` otherwise. */
function arecfIn(text: string): string | null {
  let body = text.replace(/^\uFEFF/, '').trim();
  if (body.startsWith('"')) {
    try {
      const inner = JSON.parse(body);
      if (typeof inner === 'string') body = inner.replace(/^\uFEFF/, '').trim();
    } catch {
      return null;
    }
  }
  if (!body.startsWith('<')) return null;
  try {
    const root = parseXmlRoot(body);
    return (root.localName ?? root.nodeName) === 'ARECF' && !root.namespaceURI ? body : null;
  } catch {
    return null;
  }
}

/**
 * Creates a client for other taxpayers' receiver services. Same timeout, retry and error rules as
 * `createDgiiClient` (a delivery is an upload: retried only when it certainly did not arrive).
 *
 * @example
 * const receptor = createReceptorClient({ timeoutMs: 15_000 });
 * const [buyer] = await dgii.directory(who, '131880738');
 * const { arecf, signatureValid } = await receptor.deliverEcf(buyer, who, { fileName: fileNameFor(signed), xml: signed });
 * //=> arecf.data.estado === '0' (received), signatureValid === true
 */
export function createReceptorClient(options: ReceptorClientOptions = {}): ReceptorClient {
  if ((options as HttpOptions).dispatcher) {
    throw new TypeError('createReceptorClient takes no dispatcher: every receiver call goes through its own guarded connection pool.');
  }
  const policy: ReceiverPolicy = { ...options.receivers, allowAddresses: checkAllowAddresses(options.receivers?.allowAddresses ?? []) };
  const maxResponseBytes = options.maxResponseBytes ?? RECEIVER_MAX_RESPONSE_BYTES;
  // One place for every call to a receiver: the guarded connector, no redirects, bounded answers.
  const http = createDgiiHttp(options, {
    connector: receiverConnector(policy, Math.min(10_000, options.timeoutMs ?? 30_000)),
    followRedirects: false,
    maxResponseBytes,
  });
  const tokens = new TokenCache(http.clock);
  const urlsOf = (target: ReceptorTarget): ReceptorUrls => receptorUrls(target, policy);

  const authenticate = async (target: ReceptorTarget, who: AuthorityIdentity): Promise<AuthToken | null> => {
    const urls = urlsOf(target);
    if (!urls.semilla || !urls.validacion) return null;
    const key = `${urls.semilla}\n${who.rnc}`;
    return tokens.get(key, () => exchangeSeed(http, { seed: urls.semilla!, validate: urls.validacion! }, who.signer, 'receiver'));
  };

  /** Sends with the receiver's token (if any), renewing it once on 401; returns 2xx–4xx answers. */
  async function post(
    target: ReceptorTarget,
    who: AuthorityIdentity,
    url: string,
    file: XmlFile,
    what: string,
    accept: string,
  ): Promise<{ req: HttpRequest; res: HttpResponse }> {
    const { body, contentType } = multipartXml(file);
    const urls = urlsOf(target);
    const key = `${urls.semilla}\n${who.rnc}`;
    let renewed = false;
    return http.retry(what, async () => {
      for (;;) {
        const token = await authenticate(target, who);
        const req: HttpRequest = {
          method: 'POST',
          url,
          headers: {
            Accept: accept,
            'Content-Type': contentType,
            'Content-Length': String(body.byteLength),
            ...(token ? { Authorization: `Bearer ${token.token}` } : {}),
          },
          body,
          idempotent: false,
          what,
        };
        const res = await http.send(req);
        if (res.status === 401 && token) {
          tokens.invalidate(key, token.token);
          if (!renewed) {
            renewed = true;
            continue;
          }
        }
        if (
          res.status === 401 ||
          res.status === 408 ||
          res.status === 429 ||
          res.status >= 500 ||
          res.status < 200 ||
          (res.status >= 300 && res.status < 400)
        ) {
          throw http.failureFor(req, res)!;
        }
        return { req, res };
      }
    });
  }

  return {
    authenticate,

    async deliverEcf(target, who, file) {
      const url = urlsOf(target).recepcion;
      if (!url) throw new EcfError('The receiver publishes no reception URL (urlRecepcion).', { code: 'invalid_argument' });
      const { req, res } = await post(target, who, url, file, 'e-CF delivery to the receiver', 'application/xml');
      const arecfXml = arecfIn(res.text);
      if (arecfXml !== null) {
        return { arecfXml, arecf: parseArecfXml(arecfXml), signatureValid: verifyXml(arecfXml).valid, status: res.status };
      }
      if (res.status < 300) {
        throw new TransportError(`The receiver answered HTTP ${res.status} without an ARECF (e-CF delivery: the outcome is unknown)`, {
          code: 'bad_response',
          retryable: true,
          outcomeUnknown: true,
          status: res.status,
        });
      }
      throw http.failureFor(req, res) as AuthorityError;
    },

    async sendApproval(target, who, file) {
      const url = urlsOf(target).aprobacion;
      if (!url) throw new EcfError('The receiver publishes no commercial-approval URL (urlAceptacion).', { code: 'invalid_argument' });
      const { res } = await post(target, who, url, file, 'commercial approval to the issuer', '*/*');
      return { ok: res.status >= 200 && res.status < 300, status: res.status, body: res.text };
    },

    urls: urlsOf,

    close: () => http.close(),
  };
}
