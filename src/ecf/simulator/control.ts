/**
 * The control API (`/_simulator/*`), for a simulator running in another process: faults, scenarios,
 * stats, directory entries. Always JSON; never subject to faults; not counted in `stats.requests`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { normalizeEntry } from './directory.js';
import { normalizeFaults } from './faults.js';
import { normalizeScenarios } from './scenarios.js';
import type { DirectoryEntry, FaultSettings, ScenarioSettings, SimulatorStats } from './types.js';

export interface ControlTarget {
  faults(): FaultSettings;
  setFaults(f: FaultSettings): void;
  scenarios(): ScenarioSettings;
  setScenarios(s: ScenarioSettings): void;
  stats(): SimulatorStats;
  addDirectoryEntry(e: DirectoryEntry): void;
  directory(): DirectoryEntry[];
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

/** True when `req` carries `Authorization: Bearer <token>` (compared in constant time). */
function hasToken(req: Request, token: string): boolean {
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(req.headers.get('authorization') ?? '');
  if (!m) return false;
  const given = createHash('sha256').update(m[1]!).digest();
  return timingSafeEqual(given, createHash('sha256').update(token).digest());
}

/**
 * Handles `/_simulator/…` (path already lower-cased, without trailing slash). With `token` (the server's
 * in-process simulator sets one per process), every control request must carry it as a bearer token.
 */
export async function control(target: ControlTarget, method: string, path: string, req: Request, token?: string): Promise<Response> {
  if (token !== undefined && !hasToken(req, token)) {
    return json(401, { error: 'No autorizado: la API de control de este simulador requiere el token del proceso (Authorization: Bearer …).' });
  }
  const name = path.slice('/_simulator/'.length);
  const read = async (): Promise<unknown> => JSON.parse(await req.text()) as unknown;
  try {
    switch (`${method} ${name}`) {
      case 'GET faults':
        return json(200, target.faults());
      case 'PUT faults':
        target.setFaults(normalizeFaults(await read()));
        return json(200, target.faults());
      case 'GET scenarios':
        return json(200, target.scenarios());
      case 'PUT scenarios':
        target.setScenarios(normalizeScenarios(await read()));
        return json(200, target.scenarios());
      case 'GET stats':
        return json(200, target.stats());
      case 'GET directory':
        return json(200, target.directory());
      case 'POST directory': {
        const body = await read();
        const entries = (Array.isArray(body) ? body : [body]).map(normalizeEntry);
        for (const e of entries) target.addDirectoryEntry(e);
        return json(200, target.directory());
      }
      default:
        return json(404, {
          error: `Ruta de control desconocida: ${method} /_simulator/${name}. Disponibles: GET|PUT faults, GET|PUT scenarios, GET stats, GET|POST directory.`,
        });
    }
  } catch (e) {
    if (e instanceof SyntaxError) return json(400, { error: `El cuerpo no es JSON válido: ${e.message}` });
    if (e instanceof RangeError) return json(400, { error: e.message });
    throw e;
  }
}
