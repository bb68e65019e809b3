/**
 * DGII web-service endpoints per environment (DT pp. 5–6, 40–55; dgii-protocol.md §2.6). Pure: no
 * network, just URLs.
 *
 * Hosts: `ecf.dgii.gov.do/{env}` serves almost everything, `fc.dgii.gov.do/{env}` the consumer-summary
 * (RFCE) services and `statusecf.dgii.gov.do` the service-status API, which has no environment
 * segment. With a custom `baseUrl` (a simulator, a proxy) all three hosts map to that one base and
 * the paths stay the same, so one server can answer every service.
 *
 * Paths are written in lower case as DT writes them; DGII's API paths are case-insensitive.
 */
import { isDgiiEnvironment } from '../spec/environments.js';
import type { DgiiEnvironmentName } from './types.js';

/** Every DGII service the SDK knows, by name. */
export type DgiiService =
  | 'semilla'
  | 'validarSemilla'
  | 'recepcion'
  | 'recepcionFc'
  | 'consultaResultado'
  | 'consultaEstado'
  | 'consultaTrackIds'
  | 'consultaRfce'
  | 'aprobacionComercial'
  | 'anulacionRangos'
  | 'directorioListado'
  | 'directorioPorRnc'
  | 'consultaTimbre'
  | 'consultaTimbreFc'
  | 'estatusServicios'
  | 'ventanasMantenimiento'
  | 'verificarEstado';

/** Full URL (no query string) of every service. */
export type DgiiEndpoints = Readonly<Record<DgiiService, string>>;

/** Which host serves a service, and its path below that host's base. */
const SERVICES: Readonly<Record<DgiiService, { host: 'ecf' | 'fc' | 'status'; path: string }>> = {
  semilla: { host: 'ecf', path: '/autenticacion/api/autenticacion/semilla' },
  validarSemilla: { host: 'ecf', path: '/autenticacion/api/autenticacion/validarsemilla' },
  recepcion: { host: 'ecf', path: '/recepcion/api/facturaselectronicas' },
  recepcionFc: { host: 'fc', path: '/recepcionfc/api/recepcion/ecf' },
  consultaResultado: { host: 'ecf', path: '/consultaresultado/api/consultas/estado' },
  consultaEstado: { host: 'ecf', path: '/consultaestado/api/consultas/estado' },
  consultaTrackIds: { host: 'ecf', path: '/consultatrackids/api/trackids/consulta' },
  consultaRfce: { host: 'fc', path: '/consultarfce/api/consultas/consulta' },
  aprobacionComercial: { host: 'ecf', path: '/aprobacioncomercial/api/aprobacioncomercial' },
  anulacionRangos: { host: 'ecf', path: '/anulacionrangos/api/operaciones/anularrango' },
  directorioListado: { host: 'ecf', path: '/consultadirectorio/api/consultas/listado' },
  directorioPorRnc: { host: 'ecf', path: '/consultadirectorio/api/consultas/obtenerdirectorioporrnc' },
  consultaTimbre: { host: 'ecf', path: '/consultatimbre' },
  consultaTimbreFc: { host: 'fc', path: '/consultatimbrefc' },
  estatusServicios: { host: 'status', path: '/api/estatusservicios/obtenerestatus' },
  ventanasMantenimiento: { host: 'status', path: '/api/estatusservicios/obtenerventanasmantenimiento' },
  verificarEstado: { host: 'status', path: '/api/estatusservicios/verificarestado' },
};

/**
 * DGII's hosts.
 *
 * @example
 * DGII_HOSTS.fc //=> 'https://fc.dgii.gov.do'
 */
export const DGII_HOSTS = {
  ecf: 'https://ecf.dgii.gov.do',
  fc: 'https://fc.dgii.gov.do',
  status: 'https://statusecf.dgii.gov.do',
} as const;

export { DGII_ENVIRONMENTS, isDgiiEnvironment } from '../spec/environments.js';

/**
 * The endpoint table of an environment: DGII's real hosts, or every host mapped to `baseUrl` (kept
 * with the same paths: `{base}/{env}/recepcion/…`, `{base}/{env}/recepcionfc/…`,
 * `{base}/api/estatusservicios/…`).
 *
 * @throws TypeError for an unknown environment or a `baseUrl` that is not an http(s) URL
 * @example
 * dgiiEndpoints('testecf').recepcion
 * //=> 'https://ecf.dgii.gov.do/testecf/recepcion/api/facturaselectronicas'
 * dgiiEndpoints('certecf', 'http://127.0.0.1:9090/').recepcionFc
 * //=> 'http://127.0.0.1:9090/certecf/recepcionfc/api/recepcion/ecf'
 * dgiiEndpoints('ecf').estatusServicios
 * //=> 'https://statusecf.dgii.gov.do/api/estatusservicios/obtenerestatus'
 */
export function dgiiEndpoints(environment: DgiiEnvironmentName, baseUrl?: string | null): DgiiEndpoints {
  if (!isDgiiEnvironment(environment)) {
    throw new TypeError(`Unknown DGII environment "${String(environment)}" (expected testecf, certecf or ecf).`);
  }
  const base = baseUrl == null || baseUrl === '' ? null : normalizeBaseUrl(baseUrl);
  const hostBase = (host: 'ecf' | 'fc' | 'status'): string => {
    const root = base ?? DGII_HOSTS[host];
    return host === 'status' ? root : `${root}/${environment}`;
  };
  const table = {} as Record<DgiiService, string>;
  for (const [name, { host, path }] of Object.entries(SERVICES) as [DgiiService, (typeof SERVICES)[DgiiService]][]) {
    table[name] = hostBase(host) + path;
  }
  return Object.freeze(table);
}

/**
 * Appends a query string, each name and value percent-encoded with `encodeURIComponent` (a security
 * code holds `+` and `/`, which must not reach DGII raw: issue victors1681/dgii-ecf#18). `null` and
 * `undefined` values are sent empty.
 *
 * @example
 * withQuery('https://fc.dgii.gov.do/ecf/consultarfce/api/consultas/consulta', { RNC_Emisor: '130000001', ENCF: 'E320000000001', Cod_Seguridad_eCF: 'a+b/C1' })
 * //=> 'https://fc.dgii.gov.do/ecf/consultarfce/api/consultas/consulta?RNC_Emisor=130000001&ENCF=E320000000001&Cod_Seguridad_eCF=a%2Bb%2FC1'
 */
export function withQuery(url: string, query: Record<string, string | null | undefined>): string {
  const pairs = Object.entries(query).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v ?? '')}`);
  return pairs.length ? `${url}${url.includes('?') ? '&' : '?'}${pairs.join('&')}` : url;
}

function normalizeBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`"${baseUrl}" is not a valid base URL (expected e.g. http://127.0.0.1:9090).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`"${baseUrl}" must be an http or https URL.`);
  }
  if (url.search || url.hash) throw new TypeError(`"${baseUrl}" must not carry a query string or fragment.`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
