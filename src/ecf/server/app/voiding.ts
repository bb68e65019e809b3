/**
 * Voiding of unused e-NCF ranges (ANECF), the HTTP side: `POST /api/v1/voided-sequences` and the history
 * `GET /api/v1/voided-sequences`. The rules and the order of a voiding live in `use-cases/voiding.ts`; here
 * the body is parsed, the use case called and its outcome mapped to the answer (201 accepted, 422 rejected,
 * 502/503 unknown).
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { composeEncf, ECF_TYPES, MAX_CONSECUTIVE } from '../../index.js';
import type { VoidBatch } from '../storage/types.js';
import { createVoiding, MAX_VOID_RANGES_PER_TYPE, MAX_VOID_TYPES, rangeCount as count, VOID_MESSAGES, type RequestedRange } from '../use-cases/voiding.js';
import { ApiError } from './errors.js';
import type { AppEnv } from './deps.js';
import { dateTimeDO } from './record.js';
import { issuesReport, readJsonBody, type RouteContext } from './route-context.js';
import { COMMON, error, json, SECURED } from './routes.js';
import { EcfTypeSchema, EncfSchema } from './schemas.js';

export { MAX_VOID_RANGES_PER_TYPE, MAX_VOID_TYPES, VOID_HISTORY_LIMIT, VOID_MESSAGES } from '../use-cases/voiding.js';

/** Largest consecutive: the 10 digits of an e-NCF. */
export { MAX_CONSECUTIVE };

// ---------------------------------------------------------------------------------------------- schemas

const consecutive = (name: 'desde' | 'hasta') => {
  const message =
    name === 'desde'
      ? 'desde es requerido: el primer consecutivo, un número entero entre 1 y 9,999,999,999.'
      : 'hasta es requerido: el último consecutivo, un número entero entre 1 y 9,999,999,999 (mayor o igual que desde).';
  return z.number({ error: message }).int({ error: message }).min(1, { error: message }).max(MAX_CONSECUTIVE, { error: message });
};

export const VoidRangeInputSchema = z
  .object(
    {
      tipo: z
        .enum(ECF_TYPES, { error: 'Tipo de e-CF inválido: un texto de 2 caracteres, uno de "31", "32", "33", "34", "41", "43", "44", "45", "46", "47".' })
        .openapi({ description: 'Tipo de e-CF (texto de 2 caracteres).', example: '31' }),
      desde: consecutive('desde').openapi({ description: 'Primer consecutivo del rango (1 a 9,999,999,999).', example: 101 }),
      hasta: consecutive('hasta').openapi({ description: 'Último consecutivo, mayor o igual que `desde`.', example: 150 }),
    },
    { error: 'Cada rango es un objeto {tipo, desde, hasta}.' },
  )
  .openapi('VoidRangeInput');

export const VoidRequestSchema = z
  .object(
    {
      rangos: z
        .array(VoidRangeInputSchema, { error: 'rangos es requerido: una lista de rangos {tipo, desde, hasta}.' })
        .min(1, { error: 'Debe indicar al menos un rango.' })
        .max(MAX_VOID_TYPES * MAX_VOID_RANGES_PER_TYPE, {
          error: `Admite como máximo ${MAX_VOID_TYPES} tipos y ${MAX_VOID_RANGES_PER_TYPE.toLocaleString('en-US')} rangos por tipo.`,
        }),
    },
    { error: 'El cuerpo debe ser un objeto JSON {rangos: [...]}.' },
  )
  .openapi('VoidRequest', {
    description:
      'Solo se envían consecutivos; el servicio compone los e-NCF de 13 caracteres. Hasta 10 tipos distintos y 10,000 rangos por tipo; ' +
      'los rangos de un mismo tipo no pueden solaparse.',
    example: {
      rangos: [
        { tipo: '31', desde: 101, hasta: 150 },
        { tipo: '32', desde: 9001, hasta: 9001 },
      ],
    },
  });

const VoidedRangeSchema = z
  .object({
    tipo: EcfTypeSchema,
    desde: EncfSchema.openapi({ description: 'Primer e-NCF del rango (13 caracteres).', example: 'E310000000101' }),
    hasta: EncfSchema.openapi({ description: 'Último e-NCF del rango (13 caracteres).', example: 'E310000000150' }),
    cantidad: z.number().int().openapi({ description: 'e-NCF del rango.', example: 50 }),
  })
  .openapi('VoidedRange');

const VoidResultSchema = z
  .object({
    lote: z
      .string()
      .openapi({ description: 'Identificador del intento de anulación (se reutiliza al reintentar los mismos rangos).', example: 'ANU20260401100000A1B2C3' }),
    cantidad_anulada: z.number().int().openapi({ description: 'e-NCF anulados: la suma de los rangos si la autoridad aceptó; 0 si no.', example: 51 }),
    aceptada_por_autoridad: z
      .boolean()
      .nullable()
      .openapi({ description: 'true aceptada, false rechazada, null resultado desconocido (los e-NCF quedan retenidos).' }),
    mensajes_autoridad: z.array(z.string()).openapi({ description: 'Mensajes de la autoridad tributaria.' }),
    rangos: z.array(VoidedRangeSchema),
  })
  .openapi('VoidResult');

const VoidSuccessEnvelopeSchema = z
  .object({
    status: z.literal('success'),
    message: z.string(),
    data: VoidResultSchema,
  })
  .openapi('VoidSuccessEnvelope');

const VoidErrorEnvelopeSchema = z
  .object({
    status: z.literal('error'),
    message: z.string(),
    document: z.object({ errors: z.array(z.string()) }),
    data: VoidResultSchema,
  })
  .openapi('VoidErrorEnvelope');

const VoidInvalidEnvelopeSchema = z
  .object({
    status: z.literal('error'),
    message: z.string(),
    document: z.object({
      errors: z.array(z.string()).openapi({ description: 'Mensajes en español, planos.' }),
      detailed_errors: z.record(z.string(), z.array(z.string())).openapi({
        description: 'Ruta (`rangos.3`, `rangos.3.hasta`, `rangos`) → mensajes.',
        example: { 'rangos.0': ['El e-NCF E310000000105 ya fue emitido: …'] },
      }),
    }),
  })
  .openapi('VoidInvalidEnvelope');

const VoidBatchSchema = VoidResultSchema.extend({
  estado: z
    .enum(['aceptada', 'rechazada', 'pendiente'])
    .openapi({ description: '`pendiente`: resultado desconocido; reintente los mismos rangos para resolverlo.' }),
  cantidad_solicitada: z.number().int().openapi({ description: 'e-NCF de los rangos solicitados.' }),
  solicitada_en: z.string().openapi({ description: 'Fecha y hora dd-MM-yyyy HH:mm:ss (America/Santo_Domingo).' }),
  actualizada_en: z.string().openapi({ description: 'Último envío o resultado, dd-MM-yyyy HH:mm:ss.' }),
}).openapi('VoidBatch');

const VoidListEnvelopeSchema = z
  .object({
    status: z.literal('success'),
    message: z.string(),
    data: z.array(VoidBatchSchema),
  })
  .openapi('VoidBatchListEnvelope');

export const voidRoute = createRoute({
  method: 'post',
  path: '/api/v1/voided-sequences',
  operationId: 'voidSequences',
  tags: ['Anulación'],
  summary: 'Anular rangos de e-NCF no utilizados',
  description:
    'Anula ante la autoridad tributaria rangos de consecutivos autorizados y no utilizados (ANECF firmado por el emisor). ' +
    'Antes de transmitir responde 422 si un rango está invertido, se solapa con otro del mismo tipo, no está dentro de una secuencia autorizada del emisor, ' +
    'contiene un e-CF ya emitido (se revierte con una nota de crédito, tipo 34) o se superpone con un intento pendiente. ' +
    'La autoridad resuelve en la misma llamada: 201 aceptada (esos e-NCF no se asignan nunca) o 422 rechazada (siguen disponibles). ' +
    'Si el resultado es desconocido (502/503) los e-NCF quedan retenidos; reintentar los mismos rangos reenvía el mismo lote y lo resuelve.',
  security: SECURED,
  request: { body: { required: true, content: { 'application/json': { schema: VoidRequestSchema } } } },
  responses: {
    201: json(VoidSuccessEnvelopeSchema, 'Aceptada por la autoridad tributaria.'),
    ...COMMON,
    409: error('El emisor no tiene un certificado utilizable para firmar la anulación.'),
    413: error('El cuerpo excede el límite de tamaño.'),
    415: error('Content-Type distinto de application/json.'),
    422: {
      description:
        'Solicitud inválida (sin `data`; `document.detailed_errors` por rango) o anulación rechazada por la autoridad (`data.aceptada_por_autoridad` false).',
      content: { 'application/json': { schema: z.union([VoidInvalidEnvelopeSchema, VoidErrorEnvelopeSchema]) } },
    },
    502: json(
      VoidErrorEnvelopeSchema,
      'Respuesta ilegible de la autoridad: resultado desconocido (`aceptada_por_autoridad` null); reintente los mismos rangos.',
    ),
    503: json(
      VoidErrorEnvelopeSchema,
      'Autoridad inalcanzable o conexión cortada: resultado desconocido (`aceptada_por_autoridad` null); reintente los mismos rangos.',
    ),
  },
});

export const voidListRoute = createRoute({
  method: 'get',
  path: '/api/v1/voided-sequences',
  operationId: 'listVoidedSequences',
  tags: ['Anulación'],
  summary: 'Últimas 200 anulaciones del emisor, más recientes primero',
  security: SECURED,
  responses: {
    200: json(VoidListEnvelopeSchema, 'Intentos de anulación con el resultado de la autoridad (aceptada, rechazada o pendiente).'),
    ...COMMON,
  },
});

/** Body of a voiding answer / history item (`rangos` in the order they were requested). */
export function voidResult(b: VoidBatch) {
  const total = b.ranges.reduce((s, r) => s + count(r), 0);
  return {
    lote: b.lote,
    cantidad_anulada: b.accepted === true ? total : 0,
    aceptada_por_autoridad: b.accepted,
    mensajes_autoridad: b.messages,
    rangos: b.ranges.map((r) => ({ tipo: r.tipo, desde: composeEncf(r.tipo, r.from), hasta: composeEncf(r.tipo, r.to), cantidad: count(r) })),
  };
}

// ---------------------------------------------------------------------------------------------- routes

export function registerVoiding(ctx: RouteContext): void {
  const { storage, transport, schemas } = ctx.deps;
  const { clock, logger, limits } = ctx;
  const voiding = createVoiding({ storage, transport, schemas, clock, logger, identity: ctx.identity });

  const rejectedAnswer = (c: Context<AppEnv>, settled: VoidBatch) => {
    const message = VOID_MESSAGES.rejected(settled.lote);
    return c.json(
      { status: 'error' as const, message, document: { errors: settled.messages.length ? settled.messages : [message] }, data: voidResult(settled) },
      422,
    );
  };

  ctx.add(voidRoute, async (c) => {
    const body = await readJsonBody(c.req.raw, limits.jsonBytes, VOID_MESSAGES.invalid);
    const parsed = VoidRequestSchema.safeParse(body);
    if (!parsed.success) throw new ApiError(422, VOID_MESSAGES.invalid, { document: issuesReport(parsed.error.issues) });
    const requested: RequestedRange[] = parsed.data.rangos.map((r, index) => ({ tipo: r.tipo, from: r.desde, to: r.hasta, index }));
    const outcome = await voiding.voidRanges(c.get('issuer'), requested);
    switch (outcome.kind) {
      case 'rejected':
        return rejectedAnswer(c, outcome.batch);
      case 'unknown': {
        const message = VOID_MESSAGES.unknown(outcome.batch.lote);
        return c.json(
          { status: 'error' as const, message, document: { errors: [message] }, data: voidResult(outcome.batch) },
          outcome.retryable ? 503 : 502,
          outcome.retryable ? { 'Retry-After': '30' } : {},
        );
      }
      case 'accepted': {
        const data = voidResult(outcome.batch);
        return c.json({ status: 'success' as const, message: VOID_MESSAGES.accepted(outcome.batch.lote, data.cantidad_anulada), data }, 201);
      }
    }
  });

  ctx.add(voidListRoute, async (c) => {
    const batches = await voiding.history(c.get('issuer'));
    const data = batches.map((b) => ({
      ...voidResult(b),
      estado: b.accepted === true ? ('aceptada' as const) : b.accepted === false ? ('rechazada' as const) : ('pendiente' as const),
      cantidad_solicitada: b.ranges.reduce((s, r) => s + count(r), 0),
      solicitada_en: dateTimeDO(b.createdAt),
      actualizada_en: dateTimeDO(b.updatedAt),
    }));
    return c.json({ status: 'success' as const, message: `${data.length} anulación(es).`, data }, 200);
  });
}
