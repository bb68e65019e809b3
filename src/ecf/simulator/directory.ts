/** Taxpayer directory (`consultadirectorio`) and the service-status host (`statusecf`). */
import type { DirectoryEntry } from '../dgii/types.js';
import { errorReply, msg, type RouteInput, type RouteResult, type SimContext } from './context.js';

const ENTRY = { $root: 'DirectorioContribuyente' };

/** Checks and copies a directory entry; throws a RangeError on a missing name or RNC. */
export function normalizeEntry(e: unknown): DirectoryEntry {
  const x = (e ?? {}) as Record<string, unknown>;
  const str = (k: string) => (typeof x[k] === 'string' && x[k] !== '' ? (x[k] as string) : null);
  const rnc = str('rnc');
  const nombre = str('nombre');
  if (!rnc || !/^\d{9}(\d{2})?$/.test(rnc)) throw new RangeError('directory entry: rnc must be 9 or 11 digits');
  if (!nombre) throw new RangeError('directory entry: nombre is required');
  return { nombre, rnc, urlRecepcion: str('urlRecepcion'), urlAceptacion: str('urlAceptacion'), urlOpcional: str('urlOpcional') };
}

/** Adds or replaces (by RNC) a directory entry. */
export function upsertEntry(ctx: SimContext, entry: DirectoryEntry): void {
  const list = ctx.store.state.directory;
  const i = list.findIndex((e) => e.rnc === entry.rnc);
  if (i >= 0) list[i] = entry;
  else list.push(entry);
  ctx.store.changed();
}

/** `GET consultadirectorio/api/consultas/listado`. */
export function directoryList(ctx: SimContext): RouteResult {
  return { body: ctx.store.state.directory, xmlRoot: 'ArrayOfDirectorioContribuyente', xmlItems: ENTRY };
}

/** `GET consultadirectorio/api/consultas/obtenerdirectorioporrnc?RNC=`: one match comes back as a single object, as DGII does. */
export function directoryByRnc(ctx: SimContext, input: RouteInput): RouteResult {
  const rnc = input.query.get('rnc') ?? '';
  const matches = ctx.store.state.directory.filter((e) => e.rnc === rnc);
  if (matches.length === 1) return { body: matches[0], xmlRoot: 'DirectorioContribuyente' };
  return { body: matches, xmlRoot: 'ArrayOfDirectorioContribuyente', xmlItems: ENTRY };
}

const SERVICES = [
  'Autenticación',
  'Recepción e-CF',
  'Recepción FC',
  'Consulta Resultado',
  'Consulta Estado',
  'Consulta TrackIds',
  'Aprobación Comercial',
  'Anulación de Rangos',
  'Consulta Directorio',
];
/** `verificarestado?ambiente=`: 1 PreCertificación, 2 Producción, 3 Certificación (DT). */
const AMBIENTES: Record<string, string> = { '1': 'PreCertificación', '2': 'Producción', '3': 'Certificación' };

/** True when the request carries `Authorization: Apikey <key>`, which statusecf requires. */
export function hasApiKey(input: RouteInput): boolean {
  return /^\s*apikey\s+\S+/i.test(input.req.headers.get('authorization') ?? '');
}

function unavailable(ctx: SimContext, servicio: string): boolean {
  const list = ctx.scenarios.unavailableServices ?? [];
  return list.includes('*') || list.some((s) => s.toLowerCase() === servicio.toLowerCase());
}

/** `GET /api/estatusservicios/obtenerestatus`. */
export function serviceStatus(ctx: SimContext): RouteResult {
  const body = Object.values(AMBIENTES).flatMap((ambiente) =>
    SERVICES.map((servicio) => ({ servicio, estatus: unavailable(ctx, servicio) ? 'No Disponible' : 'Disponible', ambiente })),
  );
  return { body, xmlRoot: 'ArrayOfEstatusServicio', xmlItems: { $root: 'EstatusServicio' } };
}

/** `GET /api/estatusservicios/obtenerventanasmantenimiento`. */
export function maintenanceWindows(ctx: SimContext): RouteResult {
  return {
    body: { ventanaMantenimientos: ctx.scenarios.maintenanceWindows ?? [] },
    xmlRoot: 'RespuestaVentanasMantenimiento',
    xmlItems: { ventanaMantenimientos: 'VentanaMantenimiento' },
  };
}

/** `GET /api/estatusservicios/verificarestado?ambiente=1|2|3`. */
export function checkEnvironment(ctx: SimContext, input: RouteInput): RouteResult {
  const ambiente = input.query.get('ambiente') ?? '';
  if (!AMBIENTES[ambiente]) return errorReply(400, [msg('El parámetro ambiente debe ser 1 (PreCertificación), 2 (Producción) o 3 (Certificación).')]);
  return { body: { estado: unavailable(ctx, '*') ? 'No Disponible' : 'Disponible' }, xmlRoot: 'RespuestaVerificarEstado' };
}
