/**
 * The authority's directory of electronic issuers and their reception URLs: `GET /api/v1/directory` and
 * `GET /api/v1/directory/{rnc}`, queried as the calling issuer and cached in memory for a few minutes per
 * environment and RNC (the directory changes rarely and every lookup costs an authenticated round trip).
 * The commercial approval uses the same lookup to find where an issuer receives approvals.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { AuthorityIdentity, DirectoryEntry } from '../../dgii/index.js';
import { ApiError } from './errors.js';
import { invalid, type RouteContext } from './route-context.js';
import { AUTHORITY_FAILURES, COMMON, error, json, SECURED } from './routes.js';

/** Default cache lifetime of directory answers. */
export const DIRECTORY_TTL_MS = 5 * 60_000;
// Bounds the memory a caller can make the cache hold by asking for many RNCs.
const MAX_CACHED = 1_000;

export const RncSchema = z
  .string()
  .regex(/^(\d{9}|\d{11})$/, { error: 'RNC inválido: 9 dígitos (RNC) u 11 (cédula), sin guiones.' })
  .openapi({ description: 'RNC (9 dígitos) o cédula (11 dígitos).', example: '131880738' });

const RncParams = z.object({ rnc: RncSchema.openapi({ param: { name: 'rnc', in: 'path' }, example: '131880738' }) });

const DirectoryEntrySchema = z
  .object({
    nombre: z.string().openapi({ example: 'EMPRESA EJEMPLO SRL' }),
    rnc: z.string().openapi({ example: '131880738' }),
    url_recepcion: z.string().nullable().openapi({ description: 'Servicio de recepción de e-CF del contribuyente.', example: 'https://fe.ejemplo.com.do' }),
    url_aceptacion: z.string().nullable().openapi({ description: 'Servicio de aprobación comercial.', example: 'https://fe.ejemplo.com.do' }),
    url_opcional: z.string().nullable().openapi({ description: 'Servicio de autenticación (semilla), si lo publica.' }),
  })
  .openapi('DirectoryEntry');

const DirectoryListEnvelopeSchema = z
  .object({
    status: z.literal('success'),
    message: z.string(),
    data: z.array(DirectoryEntrySchema),
  })
  .openapi('DirectoryListEnvelope');

const DirectoryEntryEnvelopeSchema = z
  .object({
    status: z.literal('success'),
    message: z.string(),
    data: DirectoryEntrySchema,
  })
  .openapi('DirectoryEntryEnvelope');

const CACHE_NOTE = ' Las respuestas se guardan en memoria durante 5 minutos.';

export const directoryListRoute = createRoute({
  method: 'get',
  path: '/api/v1/directory',
  operationId: 'listDirectory',
  tags: ['Directorio'],
  summary: 'Directorio de emisores electrónicos y sus URL de recepción',
  description: `Consulta el listado del directorio de la autoridad tributaria (autenticado como el emisor del token).${CACHE_NOTE}`,
  security: SECURED,
  responses: {
    200: json(DirectoryListEnvelopeSchema, 'Entradas del directorio.'),
    ...COMMON,
    409: error('El emisor no tiene un certificado utilizable para autenticarse ante la autoridad.'),
    ...AUTHORITY_FAILURES,
  },
});

export const directoryEntryRoute = createRoute({
  method: 'get',
  path: '/api/v1/directory/{rnc}',
  operationId: 'getDirectoryEntry',
  tags: ['Directorio'],
  summary: 'Entrada del directorio de un RNC',
  description: `Consulta el directorio por RNC.${CACHE_NOTE}`,
  security: SECURED,
  request: { params: RncParams },
  responses: {
    200: json(DirectoryEntryEnvelopeSchema, 'La entrada del RNC.'),
    ...COMMON,
    404: error('El RNC no figura en el directorio de emisores electrónicos.'),
    409: error('El emisor no tiene un certificado utilizable para autenticarse ante la autoridad.'),
    422: error('RNC con formato inválido.'),
    ...AUTHORITY_FAILURES,
  },
});

/** A directory entry in the API's snake_case. */
export function directoryBody(e: DirectoryEntry) {
  return { nombre: e.nombre, rnc: e.rnc, url_recepcion: e.urlRecepcion, url_aceptacion: e.urlAceptacion, url_opcional: e.urlOpcional };
}

export interface DirectoryLookup {
  /** The whole list (`rnc` absent) or the entries of one RNC, from the cache when fresh. */
  entries(who: AuthorityIdentity, rnc?: string): Promise<DirectoryEntry[]>;
  /** The entry of one RNC, or null when the directory has none. */
  entry(who: AuthorityIdentity, rnc: string): Promise<DirectoryEntry | null>;
}

export function registerDirectory(ctx: RouteContext): DirectoryLookup {
  const { transport, environment } = ctx.deps;
  const ttl = ctx.deps.directoryTtlMs ?? DIRECTORY_TTL_MS;
  const cache = new Map<string, { until: number; entries: DirectoryEntry[] }>();

  const lookup: DirectoryLookup = {
    async entries(who, rnc) {
      const key = `${environment}:${rnc ?? '*'}`;
      const now = ctx.clock().getTime();
      const hit = cache.get(key);
      if (hit && hit.until > now) return hit.entries;
      const entries = await transport.directory(who, rnc);
      cache.delete(key);
      if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
      cache.set(key, { until: now + ttl, entries });
      return entries;
    },
    async entry(who, rnc) {
      // DGII may answer the by-RNC query with neighbours or an unfiltered list: keep the exact RNC only.
      return (await lookup.entries(who, rnc)).find((e) => e.rnc === rnc) ?? null;
    },
  };

  ctx.add(directoryListRoute, async (c) => {
    const who = await ctx.identity(c.get('issuer'));
    const data = (await lookup.entries(who)).map(directoryBody);
    return c.json({ status: 'success' as const, message: `${data.length} contribuyente(s) en el directorio.`, data }, 200);
  });

  ctx.add(directoryEntryRoute, async (c) => {
    const parsed = RncParams.safeParse({ rnc: c.req.param('rnc') });
    if (!parsed.success) throw invalid('RNC inválido.', { rnc: [parsed.error.issues[0]!.message] });
    const { rnc } = parsed.data;
    const who = await ctx.identity(c.get('issuer'));
    const found = await lookup.entry(who, rnc);
    if (!found) throw new ApiError(404, `El RNC ${rnc} no figura en el directorio de emisores electrónicos de la autoridad tributaria.`);
    return c.json({ status: 'success' as const, message: 'Entrada del directorio.', data: directoryBody(found) }, 200);
  });

  return lookup;
}
