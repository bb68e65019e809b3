/**
 * The simulator as a Request → outcome function: the route table of DGII's paths (ecf host, fc host,
 * statusecf, emisor–receptor test service; case-insensitive, under the environment segment), token
 * checks, and fault injection. The node:http adapter (http.ts) turns outcomes into answers or dropped
 * connections.
 */
import { hasValidToken, issueSeed, unauthorized, validateSeed } from './auth.js';
import { errorReply, msg, type RouteInput, type RouteResult, type SimContext } from './context.js';
import { control, type ControlTarget } from './control.js';
import { checkEnvironment, directoryByRnc, directoryList, hasApiKey, maintenanceWindows, serviceStatus } from './directory.js';
import { receiveApproval, receiveVoiding } from './documents.js';
import { emitToReceptor, receiptOf, sendApproval } from './emisor-receptor.js';
import { approvalAtReceptor, receiveAtReceptor } from './receptor.js';
import { decideFault } from './faults.js';
import { fiscalStatus, resultByTrackId, rfceStatus, timbre, trackIds } from './queries.js';
import { receiveEcf } from './reception.js';
import { render, textResponse } from './respond.js';
import { receiveRfce } from './rfce.js';
import { isDgiiEnvironment } from '../spec/environments.js';

/** What happens to a request: an answer, possibly followed by a dropped connection, or a drop before processing. */
export type Outcome = { response: Response; dropAfter?: boolean } | { dropBefore: true };

type Auth = 'dgii' | 'receptor' | 'apikey' | null;

interface Route {
  methods: readonly string[];
  auth: Auth;
  handle(ctx: SimContext, input: RouteInput): RouteResult | Promise<RouteResult>;
}

const GET = ['GET'] as const;
const POST = ['POST'] as const;

/** Paths below `/{env}/`, lower case. The ecf and fc hosts' paths do not collide, so one table serves both. */
const ENV_ROUTES: Record<string, Route> = {
  'autenticacion/api/autenticacion/semilla': { methods: GET, auth: null, handle: (c, i) => issueSeed(c, i.env, 'dgii') },
  'autenticacion/api/autenticacion/validarsemilla': { methods: POST, auth: null, handle: (c, i) => validateSeed(c, i, 'dgii') },
  'recepcion/api/facturaselectronicas': { methods: POST, auth: 'dgii', handle: receiveEcf },
  'recepcionfc/api/recepcion/ecf': { methods: POST, auth: 'dgii', handle: receiveRfce },
  'consultaresultado/api/consultas/estado': { methods: GET, auth: 'dgii', handle: resultByTrackId },
  'consultaestado/api/consultas/estado': { methods: GET, auth: 'dgii', handle: fiscalStatus },
  'consultatrackids/api/trackids/consulta': { methods: GET, auth: 'dgii', handle: trackIds },
  'consultarfce/api/consultas/consulta': { methods: GET, auth: 'dgii', handle: rfceStatus },
  'aprobacioncomercial/api/aprobacioncomercial': { methods: POST, auth: 'dgii', handle: receiveApproval },
  'anulacionrangos/api/operaciones/anularrango': { methods: POST, auth: 'dgii', handle: receiveVoiding },
  'consultadirectorio/api/consultas/listado': { methods: GET, auth: 'dgii', handle: (c) => directoryList(c) },
  'consultadirectorio/api/consultas/obtenerdirectorioporrnc': { methods: GET, auth: 'dgii', handle: directoryByRnc },
  consultatimbre: { methods: GET, auth: null, handle: (c, i) => timbre(c, i, false) },
  consultatimbrefc: { methods: GET, auth: null, handle: (c, i) => timbre(c, i, true) },
  'emisorreceptor/api/emision/emisioncomprobantes': { methods: POST, auth: 'dgii', handle: emitToReceptor },
  'emisorreceptor/api/emision/consultaacuserecibo': { methods: ['GET', 'POST'], auth: 'dgii', handle: receiptOf },
  'emisorreceptor/api/emision/envioaprobacioncomercial': { methods: POST, auth: 'dgii', handle: sendApproval },
  'emisorreceptor/fe/autenticacion/api/semilla': { methods: GET, auth: null, handle: (c, i) => issueSeed(c, i.env, 'receptor') },
  'emisorreceptor/fe/autenticacion/api/validacioncertificado': { methods: POST, auth: null, handle: (c, i) => validateSeed(c, i, 'receptor') },
  'emisorreceptor/fe/recepcion/api/ecf': { methods: POST, auth: 'receptor', handle: receiveAtReceptor },
  'emisorreceptor/fe/aprobacioncomercial/api/ecf': { methods: POST, auth: 'receptor', handle: approvalAtReceptor },
};

/** statusecf paths: no environment segment, `Authorization: Apikey …`. */
const STATUS_ROUTES: Record<string, Route> = {
  '/api/estatusservicios/obtenerestatus': { methods: GET, auth: 'apikey', handle: (c) => serviceStatus(c) },
  '/api/estatusservicios/obtenerventanasmantenimiento': { methods: GET, auth: 'apikey', handle: (c) => maintenanceWindows(c) },
  '/api/estatusservicios/verificarestado': { methods: GET, auth: 'apikey', handle: checkEnvironment },
};

const HTML_500 =
  '<!DOCTYPE html><html><head><title>500 - Internal server error.</title></head><body><h1>Server Error</h1><h2>500 - Internal server error.</h2><h3>There is a problem with the resource you are looking for, and it cannot be displayed.</h3></body></html>';
const HTML_503 =
  '<!DOCTYPE html><html><head><title>Service Unavailable</title></head><body><h2>Service Unavailable</h2><hr><p>HTTP Error 503. The service is unavailable.</p></body></html>';
const HTML_404 =
  '<!DOCTYPE html><html><head><title>404 - File or directory not found.</title></head><body><h2>404 - File or directory not found.</h2></body></html>';

/** Lower case, no repeated or trailing slashes. */
function normalizePath(pathname: string): string {
  let p = pathname;
  try {
    p = decodeURIComponent(p);
  } catch {
    // keep it encoded
  }
  return p
    .toLowerCase()
    .replace(/\/{2,}/g, '/')
    .replace(/(.)\/$/, '$1');
}

function locate(path: string): { env: string; route: Route } | null {
  const status = STATUS_ROUTES[path];
  if (status) return { env: '', route: status };
  const m = /^\/([^/]+)\/(.+)$/.exec(path);
  if (!m || !isDgiiEnvironment(m[1])) return null;
  const route = ENV_ROUTES[m[2]!];
  return route ? { env: m[1]!, route } : null;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Builds the request handler over a context and the control target. */
export function createHandler(ctx: SimContext, target: ControlTarget): (req: Request) => Promise<Outcome> {
  return async (req) => {
    const url = new URL(req.url);
    const path = normalizePath(url.pathname);
    const method = req.method.toUpperCase();
    if (path === '/_simulator' || path.startsWith('/_simulator/')) return { response: await control(target, method, path, req, ctx.controlToken) };

    const stats = ctx.store.state.stats;
    stats.requests++;
    ctx.store.changed();
    const fault = decideFault(ctx.faults, ctx.rng, method, path, stats);
    if (fault.latencyMs > 0) await sleep(fault.latencyMs);
    if (fault.action === 'dropBefore') return { dropBefore: true };
    if (fault.action === 'http500') return { response: textResponse(500, HTML_500, 'text/html; charset=utf-8') };
    if (fault.action === 'http503') return { response: textResponse(503, HTML_503, 'text/html; charset=utf-8', { 'retry-after': '1' }) };

    const response = await route(ctx, req, url, path, method);
    return fault.action === 'dropAfter' ? { response, dropAfter: true } : { response };
  };
}

async function route(ctx: SimContext, req: Request, url: URL, path: string, method: string): Promise<Response> {
  const found = locate(path);
  if (!found) return textResponse(404, HTML_404, 'text/html; charset=utf-8');
  const { env, route: r } = found;
  const query = new Map<string, string>();
  for (const [k, v] of url.searchParams) query.set(k.toLowerCase(), v);
  const input: RouteInput = {
    req,
    url,
    env,
    query,
    json: /application\/json/i.test(req.headers.get('accept') ?? ''),
    body: method === 'GET' || method === 'HEAD' ? new Uint8Array() : new Uint8Array(await req.arrayBuffer()),
  };
  if (!r.methods.includes(method)) {
    return render(
      { ...errorReply(405, [msg(`Método ${method} no permitido; use ${r.methods.join(' o ')}.`)]), headers: { allow: r.methods.join(', ') } },
      input.json,
    );
  }
  if (r.auth === 'apikey' && !hasApiKey(input)) return render(errorReply(401, [msg('Se requiere el encabezado Authorization: Apikey <clave>.')]), input.json);
  if ((r.auth === 'dgii' || r.auth === 'receptor') && !hasValidToken(ctx, input, r.auth)) {
    const u = unauthorized();
    return u instanceof Response ? u : render(u, input.json);
  }
  try {
    const result = await r.handle(ctx, input);
    return result instanceof Response ? result : render(result, input.json);
  } catch (e) {
    // A bug in the simulator must not look like a DGII verdict: a plain 500 with the reason.
    return render(errorReply(500, [msg(`Error interno del simulador: ${e instanceof Error ? e.message : String(e)}`)]), input.json);
  }
}
