/**
 * Voiding of unused e-NCF ranges (ANECF): `POST /api/v1/voided-sequences` and the history
 * `GET /api/v1/voided-sequences`.
 *
 * Order of a voiding, and why:
 * 1. The body rules (types, bounds, ≤ 10 types, ≤ 10,000 ranges per type, inverted and overlapping
 *    ranges) and the checks against the issuer's data (ranges inside its authorized sequences, no issued
 *    e-CF inside, no overlap with a pending attempt) all answer 422 before anything is recorded or sent.
 * 2. The ANECF is built and signed before the attempt is recorded, so a local failure leaves nothing behind.
 * 3. The attempt is recorded with `accepted` null (storage withholds its consecutives from then on), then
 *    sent. The authority answers in the same call: accepted → settled true (pointers jump past the ranges);
 *    rejected → settled false (the numbers are available again).
 * 4. If the outcome is unknown (dropped connection, timeout, the authority unreachable) the attempt stays
 *    null and its numbers withheld. Sending the same ranges again reuses that attempt (same `lote`) and
 *    resends it; its answer settles it. A resend refused only because the ranges are "already voided"
 *    means the first send went through: it is settled as accepted.
 *
 * Attempts of one issuer are serialized in this process, so two concurrent requests cannot record
 * overlapping pending attempts.
 */
import { randomBytes } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  buildAnecfXml, checkAnecfRanges, composeEncf, dgiiFileName, ECF_TYPES, EcfError, formatDateTimeDO, isAuthorityError, isTransportError,
  MAX_ANECF_RANGES, MAX_ANECF_TYPES, MAX_CONSECUTIVE, type EcfType,
} from '../../index.js';
import type { AuthorityIdentity, VoidingReceipt } from '../../dgii/index.js';
import { signXml } from '../../sign/index.js';
import { mergeRanges } from '../ranges.js';
import type { Issuer, VoidBatch } from '../storage/types.js';
import { ApiError, authorityMessages } from './errors.js';
import type { AppEnv } from './index.js';
import { dateTimeDO } from './record.js';
import { invalid, issuesReport, readJsonBody, type RouteContext } from './route-context.js';
import { COMMON, error, json, SECURED } from './routes.js';
import { EcfTypeSchema, EncfSchema } from './schemas.js';

/** Distinct e-CF types per request (`Anulacion` maxOccurs in the ANECF XSD). */
export const MAX_VOID_TYPES = MAX_ANECF_TYPES;
/** Ranges per type (`Secuencias` maxOccurs in the ANECF XSD). */
export const MAX_VOID_RANGES_PER_TYPE = MAX_ANECF_RANGES;
/** Attempts listed by `GET /api/v1/voided-sequences`. */
export const VOID_HISTORY_LIMIT = 200;
/** Issued e-NCF named in one refusal (the rest are summarised). */
const ISSUED_SHOWN = 20;

export const VOID_MESSAGES = {
  invalid: 'La solicitud de anulación no es válida: no se transmitió a la autoridad tributaria y no se anuló ningún e-NCF.',
  accepted: (lote: string, n: number) => `Anulación aceptada por la autoridad tributaria (lote ${lote}): ${n} e-NCF anulados; no se asignarán nunca.`,
  rejected: (lote: string) => `La autoridad tributaria rechazó la anulación (lote ${lote}): la secuencia queda intacta y sus e-NCF siguen disponibles.`,
  unknown: (lote: string) => `No se conoce el resultado de la anulación (lote ${lote}): la comunicación con la autoridad tributaria falló. `
    + 'Los e-NCF de los rangos quedan retenidos (no se asignan) hasta resolverlo: reintente la misma solicitud con los mismos rangos; '
    + 'si la autoridad la acepta quedan anulados y, si la rechaza, vuelven a estar disponibles.',
  alreadyVoided: 'La autoridad informa que los rangos ya estaban anulados: el envío anterior de este lote fue aceptado.',
} as const;

// "El rango … ya fue anulado", "ya han sido anulados", "ya se encuentra anulado": the answer to a resend of
// an attempt whose first send was accepted.
const ALREADY_VOIDED = /\bya\s+(?:fue|fueron|ha\s+sido|han\s+sido|est[aá]n?|se\s+encuentran?)\s+anulad/i;

// ---------------------------------------------------------------------------------------------- schemas

const consecutive = (name: 'desde' | 'hasta') => {
  const message = name === 'desde'
    ? 'desde es requerido: el primer consecutivo, un número entero entre 1 y 9,999,999,999.'
    : 'hasta es requerido: el último consecutivo, un número entero entre 1 y 9,999,999,999 (mayor o igual que desde).';
  return z.number({ error: message }).int({ error: message }).min(1, { error: message }).max(MAX_CONSECUTIVE, { error: message });
};

export const VoidRangeInputSchema = z.object({
  tipo: z.enum(ECF_TYPES, { error: 'Tipo de e-CF inválido: un texto de 2 caracteres, uno de "31", "32", "33", "34", "41", "43", "44", "45", "46", "47".' })
    .openapi({ description: 'Tipo de e-CF (texto de 2 caracteres).', example: '31' }),
  desde: consecutive('desde').openapi({ description: 'Primer consecutivo del rango (1 a 9,999,999,999).', example: 101 }),
  hasta: consecutive('hasta').openapi({ description: 'Último consecutivo, mayor o igual que `desde`.', example: 150 }),
}, { error: 'Cada rango es un objeto {tipo, desde, hasta}.' }).openapi('VoidRangeInput');

export const VoidRequestSchema = z.object({
  rangos: z.array(VoidRangeInputSchema, { error: 'rangos es requerido: una lista de rangos {tipo, desde, hasta}.' })
    .min(1, { error: 'Debe indicar al menos un rango.' })
    .max(MAX_VOID_TYPES * MAX_VOID_RANGES_PER_TYPE, { error: `Admite como máximo ${MAX_VOID_TYPES} tipos y ${MAX_VOID_RANGES_PER_TYPE.toLocaleString('en-US')} rangos por tipo.` }),
}, { error: 'El cuerpo debe ser un objeto JSON {rangos: [...]}.' }).openapi('VoidRequest', {
  description: 'Solo se envían consecutivos; el servicio compone los e-NCF de 13 caracteres. Hasta 10 tipos distintos y 10,000 rangos por tipo; '
    + 'los rangos de un mismo tipo no pueden solaparse.',
  example: { rangos: [{ tipo: '31', desde: 101, hasta: 150 }, { tipo: '32', desde: 9001, hasta: 9001 }] },
});

const VoidedRangeSchema = z.object({
  tipo: EcfTypeSchema,
  desde: EncfSchema.openapi({ description: 'Primer e-NCF del rango (13 caracteres).', example: 'E310000000101' }),
  hasta: EncfSchema.openapi({ description: 'Último e-NCF del rango (13 caracteres).', example: 'E310000000150' }),
  cantidad: z.number().int().openapi({ description: 'e-NCF del rango.', example: 50 }),
}).openapi('VoidedRange');

const VoidResultSchema = z.object({
  lote: z.string().openapi({ description: 'Identificador del intento de anulación (se reutiliza al reintentar los mismos rangos).', example: 'ANU20260401100000A1B2C3' }),
  cantidad_anulada: z.number().int().openapi({ description: 'e-NCF anulados: la suma de los rangos si la autoridad aceptó; 0 si no.', example: 51 }),
  aceptada_por_autoridad: z.boolean().nullable().openapi({ description: 'true aceptada, false rechazada, null resultado desconocido (los e-NCF quedan retenidos).' }),
  mensajes_autoridad: z.array(z.string()).openapi({ description: 'Mensajes de la autoridad tributaria.' }),
  rangos: z.array(VoidedRangeSchema),
}).openapi('VoidResult');

const VoidSuccessEnvelopeSchema = z.object({
  status: z.literal('success'),
  message: z.string(),
  data: VoidResultSchema,
}).openapi('VoidSuccessEnvelope');

const VoidErrorEnvelopeSchema = z.object({
  status: z.literal('error'),
  message: z.string(),
  document: z.object({ errors: z.array(z.string()) }),
  data: VoidResultSchema,
}).openapi('VoidErrorEnvelope');

const VoidInvalidEnvelopeSchema = z.object({
  status: z.literal('error'),
  message: z.string(),
  document: z.object({
    errors: z.array(z.string()).openapi({ description: 'Mensajes en español, planos.' }),
    detailed_errors: z.record(z.string(), z.array(z.string())).openapi({
      description: 'Ruta (`rangos.3`, `rangos.3.hasta`, `rangos`) → mensajes.',
      example: { 'rangos.0': ['El e-NCF E310000000105 ya fue emitido: …'] },
    }),
  }),
}).openapi('VoidInvalidEnvelope');

const VoidBatchSchema = VoidResultSchema.extend({
  estado: z.enum(['aceptada', 'rechazada', 'pendiente']).openapi({ description: '`pendiente`: resultado desconocido; reintente los mismos rangos para resolverlo.' }),
  cantidad_solicitada: z.number().int().openapi({ description: 'e-NCF de los rangos solicitados.' }),
  solicitada_en: z.string().openapi({ description: 'Fecha y hora dd-MM-yyyy HH:mm:ss (America/Santo_Domingo).' }),
  actualizada_en: z.string().openapi({ description: 'Último envío o resultado, dd-MM-yyyy HH:mm:ss.' }),
}).openapi('VoidBatch');

const VoidListEnvelopeSchema = z.object({
  status: z.literal('success'),
  message: z.string(),
  data: z.array(VoidBatchSchema),
}).openapi('VoidBatchListEnvelope');

export const voidRoute = createRoute({
  method: 'post',
  path: '/api/v1/voided-sequences',
  operationId: 'voidSequences',
  tags: ['Anulación'],
  summary: 'Anular rangos de e-NCF no utilizados',
  description: 'Anula ante la autoridad tributaria rangos de consecutivos autorizados y no utilizados (ANECF firmado por el emisor). '
    + 'Antes de transmitir responde 422 si un rango está invertido, se solapa con otro del mismo tipo, no está dentro de una secuencia autorizada del emisor, '
    + 'contiene un e-CF ya emitido (se revierte con una nota de crédito, tipo 34) o se superpone con un intento pendiente. '
    + 'La autoridad resuelve en la misma llamada: 201 aceptada (esos e-NCF no se asignan nunca) o 422 rechazada (siguen disponibles). '
    + 'Si el resultado es desconocido (502/503) los e-NCF quedan retenidos; reintentar los mismos rangos reenvía el mismo lote y lo resuelve.',
  security: SECURED,
  request: { body: { required: true, content: { 'application/json': { schema: VoidRequestSchema } } } },
  responses: {
    201: json(VoidSuccessEnvelopeSchema, 'Aceptada por la autoridad tributaria.'),
    ...COMMON,
    409: error('El emisor no tiene un certificado utilizable para firmar la anulación.'),
    413: error('El cuerpo excede el límite de tamaño.'),
    415: error('Content-Type distinto de application/json.'),
    422: {
      description: 'Solicitud inválida (sin `data`; `document.detailed_errors` por rango) o anulación rechazada por la autoridad (`data.aceptada_por_autoridad` false).',
      content: { 'application/json': { schema: z.union([VoidInvalidEnvelopeSchema, VoidErrorEnvelopeSchema]) } },
    },
    502: json(VoidErrorEnvelopeSchema, 'Respuesta ilegible de la autoridad: resultado desconocido (`aceptada_por_autoridad` null); reintente los mismos rangos.'),
    503: json(VoidErrorEnvelopeSchema, 'Autoridad inalcanzable o conexión cortada: resultado desconocido (`aceptada_por_autoridad` null); reintente los mismos rangos.'),
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

// ---------------------------------------------------------------------------------------------- rules

interface RequestedRange {
  tipo: EcfType;
  from: number;
  to: number;
  /** Position in the request's `rangos` (for error paths). */
  index: number;
}

type Range = { tipo: EcfType; from: number; to: number };

const label = (r: Range) => `${composeEncf(r.tipo, r.from)}–${composeEncf(r.tipo, r.to)}`;
const count = (r: Range) => r.to - r.from + 1;

/** The request-only rules: at most 10 types and 10,000 ranges per type, no inverted or overlapping ranges. */
function requestProblems(ranges: RequestedRange[]): Record<string, string[]> | null {
  const detailed: Record<string, string[]> = {};
  const push = (k: string, m: string) => (detailed[k] ??= []).push(m);
  const byType = new Map<EcfType, RequestedRange[]>();
  for (const r of ranges) {
    const list = byType.get(r.tipo);
    if (list) list.push(r);
    else byType.set(r.tipo, [r]);
  }
  if (byType.size > MAX_VOID_TYPES) push('rangos', `Admite como máximo ${MAX_VOID_TYPES} tipos de e-CF distintos por solicitud (se recibieron ${byType.size}).`);
  for (const [tipo, list] of byType) {
    // The SDK's ANECF rules (bounds were checked by the schema); the messages name the request's positions.
    for (const f of checkAnecfRanges(list.map((r) => ({ desde: r.from, hasta: r.to }))).findings) {
      if (f.kind === 'too_many_ranges') {
        push('rangos', `Admite como máximo ${MAX_VOID_RANGES_PER_TYPE.toLocaleString('en-US')} rangos por tipo; el tipo ${tipo} trae ${list.length.toLocaleString('en-US')}.`);
      } else if (f.kind === 'inverted') {
        const r = list[f.range]!;
        push(`rangos.${r.index}`, `Rango invertido: desde (${r.from}) es mayor que hasta (${r.to}).`);
      } else if (f.kind === 'overlap') {
        const r = list[f.range]!;
        const reach = list[f.with]!;
        push(`rangos.${r.index}`, `El rango ${label(r)} se solapa con el rango ${label(reach)} (rangos.${reach.index}) del mismo tipo.`);
      }
    }
  }
  return Object.keys(detailed).length ? detailed : null;
}

/**
 * A lookup of the pending attempt (if any) with a range overlapping a given one: per type, the pending
 * ranges sorted by start with a running maximum of their ends, searched by bisection (requests and
 * attempts may hold 100,000 ranges each).
 */
function pendingIndex(pending: VoidBatch[]): (r: Range) => VoidBatch | null {
  const byType = new Map<EcfType, { from: number; to: number; batch: VoidBatch; reach: number }[]>();
  for (const b of pending) {
    for (const x of b.ranges) {
      const list = byType.get(x.tipo);
      const item = { from: x.from, to: x.to, batch: b, reach: 0 };
      if (list) list.push(item);
      else byType.set(x.tipo, [item]);
    }
  }
  for (const list of byType.values()) {
    list.sort((a, b) => a.from - b.from);
    let reach = 0;
    for (const item of list) item.reach = reach = Math.max(reach, item.to);
  }
  return (r) => {
    const list = byType.get(r.tipo);
    if (!list) return null;
    // Last item starting at or before r.to; walk back while some earlier range still reaches r.from.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.from <= r.to) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo - 1; i >= 0 && list[i]!.reach >= r.from; i--) {
      if (list[i]!.to >= r.from) return list[i]!.batch;
    }
    return null;
  };
}

/** Order-insensitive identity of a set of ranges. */
function rangesKey(ranges: Range[]): string {
  return ranges.map((r) => `${r.tipo}:${r.from}-${r.to}`).sort().join(',');
}

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
  const locks = new Map<number, Promise<void>>();

  /** Runs `fn` after every earlier voiding of the same issuer in this process. */
  async function serialized<T>(issuerId: number, fn: () => Promise<T>): Promise<T> {
    const previous = locks.get(issuerId) ?? Promise.resolve();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const mine = previous.then(() => gate);
    locks.set(issuerId, mine);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (locks.get(issuerId) === mine) locks.delete(issuerId);
    }
  }

  /** A new attempt id: the Dominican date and time plus 6 random hex digits. */
  const newLote = () => {
    const [d, t] = formatDateTimeDO(clock()).split(' ');
    const [dd, mm, yyyy] = d!.split('-');
    return `ANU${yyyy}${mm}${dd}${t!.replace(/:/g, '')}${randomBytes(3).toString('hex').toUpperCase()}`;
  };

  /** 422s from the issuer's data: sequences, issued e-CF, pending attempts. Returns a pending attempt to resend. */
  async function check(issuer: Issuer, ranges: RequestedRange[]): Promise<VoidBatch | null> {
    const detailed: Record<string, string[]> = {};
    const push = (k: string, m: string) => (detailed[k] ??= []).push(m);

    const sequences = await storage.listSequences(issuer.id);
    const authorized = new Map<EcfType, { from: number; to: number }[]>();
    for (const tipo of new Set(ranges.map((r) => r.tipo))) authorized.set(tipo, mergeRanges(sequences.filter((s) => s.tipo === tipo)));
    for (const r of ranges) {
      if (!authorized.get(r.tipo)!.some((s) => s.from <= r.from && r.to <= s.to)) {
        push(`rangos.${r.index}`, `El rango ${label(r)} no está dentro de una secuencia autorizada del emisor para el tipo ${r.tipo}.`);
      }
    }

    const issued = await storage.findIssuedInRanges(issuer.id, ranges.map(({ tipo, from, to }) => ({ tipo, from, to })), ISSUED_SHOWN + 1);
    for (const encf of issued.slice(0, ISSUED_SHOWN)) {
      const tipo = encf.slice(1, 3);
      const n = Number(encf.slice(3));
      const r = ranges.find((x) => x.tipo === tipo && x.from <= n && n <= x.to);
      push(r ? `rangos.${r.index}` : 'rangos', `El e-NCF ${encf} ya fue emitido: un comprobante emitido no se anula por rango. `
        + 'Revértalo con una nota de crédito electrónica (tipo 34) que lo referencie.');
    }
    if (issued.length > ISSUED_SHOWN) push('rangos', `Los rangos contienen más e-NCF emitidos; se muestran los primeros ${ISSUED_SHOWN}.`);

    const pending = (await storage.listVoidBatches(issuer.id, VOID_HISTORY_LIMIT)).filter((b) => b.accepted === null);
    const key = rangesKey(ranges);
    const same = pending.find((b) => rangesKey(b.ranges) === key) ?? null;
    if (!same && pending.length > 0) {
      const overlapping = pendingIndex(pending);
      for (const r of ranges) {
        const b = overlapping(r);
        if (!b) continue;
        const shown = b.ranges.slice(0, 5).map(label).join(', ') + (b.ranges.length > 5 ? ` y ${b.ranges.length - 5} más` : '');
        push(`rangos.${r.index}`, `El rango ${label(r)} se superpone con el lote ${b.lote}, cuya anulación quedó pendiente (resultado desconocido). `
          + `Para resolverlo, reintente exactamente los rangos de ese lote: ${shown}.`);
      }
    }
    if (Object.keys(detailed).length) throw invalid(VOID_MESSAGES.invalid, detailed);
    return same;
  }

  /** The signed ANECF of `ranges` (grouped by type, in ascending order, as the XSD lines). */
  async function signedAnecf(issuer: Issuer, who: AuthorityIdentity, ranges: Range[]): Promise<string> {
    const byType = new Map<EcfType, Range[]>();
    for (const r of [...ranges].sort((a, b) => a.tipo.localeCompare(b.tipo) || a.from - b.from)) {
      const list = byType.get(r.tipo);
      if (list) list.push(r);
      else byType.set(r.tipo, [r]);
    }
    const xml = buildAnecfXml({
      rnc_emisor: issuer.rnc,
      fecha_hora_anulacion_encf: formatDateTimeDO(clock()),
      anulaciones: [...byType].map(([tipo, list]) => ({ tipo_ecf: tipo, rangos: list.map((r) => ({ desde: r.from, hasta: r.to })) })),
    });
    const signed = await signXml(xml, who.signer);
    const xsd = schemas.validate(signed, 'ANECF');
    if (!xsd.valid) {
      logger.error({ issuer: issuer.rnc, violations: xsd.violations.slice(0, 5) }, 'built ANECF does not validate against the XSD');
      throw new EcfError('built ANECF does not validate against the XSD', { code: 'internal_failure' });
    }
    return signed;
  }

  ctx.add(voidRoute, async (c) => {
    const issuer = c.get('issuer');
    const body = await readJsonBody(c.req.raw, limits.jsonBytes, VOID_MESSAGES.invalid);
    const parsed = VoidRequestSchema.safeParse(body);
    if (!parsed.success) throw new ApiError(422, VOID_MESSAGES.invalid, { document: issuesReport(parsed.error.issues) });
    const requested: RequestedRange[] = parsed.data.rangos.map((r, index) => ({ tipo: r.tipo, from: r.desde, to: r.hasta, index }));
    const problems = requestProblems(requested);
    if (problems) throw invalid(VOID_MESSAGES.invalid, problems);

    return serialized(issuer.id, async () => {
      const pending = await check(issuer, requested);
      const who = await ctx.identity(issuer);
      const ranges: Range[] = pending ? pending.ranges : requested.map(({ tipo, from, to }) => ({ tipo, from, to }));
      const signed = await signedAnecf(issuer, who, ranges);
      // Recorded before sending: from here on its consecutives are withheld until the attempt is settled.
      const batch = pending ?? await storage.createVoidBatch(issuer.id, newLote(), ranges);
      const first = ranges[0]!;
      // DGII documents no file name for the ANECF: RNC + first e-NCF voided, like the other uploads.
      const file = { fileName: dgiiFileName(issuer.rnc, composeEncf(first.tipo, first.from)), xml: signed };
      logger.info({ issuer: issuer.rnc, lote: batch.lote, ranges: ranges.length, resend: pending !== null }, 'sending range voiding');

      let receipt: VoidingReceipt;
      try {
        receipt = await transport.voidRanges(who, file);
      } catch (e) {
        if (isAuthorityError(e)) {
          // A definitive refusal (HTTP 4xx): the voiding was not applied.
          const mensajes = authorityMessages(e.mensajes);
          const settled = await storage.settleVoidBatch(batch.id, false, mensajes.length ? mensajes : [e.message]);
          logger.info({ issuer: issuer.rnc, lote: batch.lote }, 'range voiding refused by the authority');
          return rejectedAnswer(c, settled);
        }
        if (!isTransportError(e)) throw e;
        logger.warn({ issuer: issuer.rnc, lote: batch.lote, err: { code: e.code, message: e.message, outcomeUnknown: e.outcomeUnknown } }, 'range voiding outcome unknown');
        const message = VOID_MESSAGES.unknown(batch.lote);
        return c.json(
          { status: 'error' as const, message, document: { errors: [message] }, data: voidResult({ ...batch, accepted: null }) },
          e.retryable === true ? 503 : 502,
          e.retryable === true ? { 'Retry-After': '30' } : {},
        );
      }

      let accepted = receipt.accepted;
      const messages = [...receipt.mensajes];
      if (!accepted && pending && messages.length > 0 && messages.every((m) => ALREADY_VOIDED.test(m))) {
        accepted = true;
        messages.push(VOID_MESSAGES.alreadyVoided);
      }
      const settled = await storage.settleVoidBatch(batch.id, accepted, messages);
      logger.info({ issuer: issuer.rnc, lote: batch.lote, accepted }, 'range voiding settled');
      if (!accepted) return rejectedAnswer(c, settled);
      const data = voidResult(settled);
      return c.json({ status: 'success' as const, message: VOID_MESSAGES.accepted(settled.lote, data.cantidad_anulada), data }, 201);
    });
  });

  const rejectedAnswer = (c: Context<AppEnv>, settled: VoidBatch) => {
    const message = VOID_MESSAGES.rejected(settled.lote);
    return c.json({ status: 'error' as const, message, document: { errors: settled.messages.length ? settled.messages : [message] }, data: voidResult(settled) }, 422);
  };

  ctx.add(voidListRoute, async (c) => {
    const batches = await storage.listVoidBatches(c.get('issuer').id, VOID_HISTORY_LIMIT);
    const data = batches.map((b) => ({
      ...voidResult(b),
      estado: b.accepted === true ? 'aceptada' as const : b.accepted === false ? 'rechazada' as const : 'pendiente' as const,
      cantidad_solicitada: b.ranges.reduce((s, r) => s + count(r), 0),
      solicitada_en: dateTimeDO(b.createdAt),
      actualizada_en: dateTimeDO(b.updatedAt),
    }));
    return c.json({ status: 'success' as const, message: `${data.length} anulación(es).`, data }, 200);
  });
}
