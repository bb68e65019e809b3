/**
 * e-CF that other issuers sent to the caller (recorded by the inbound reception service): the list, the
 * detail with the original XML and our receipt acknowledgment (ARECF), the commercial approval (ACECF) and
 * the live fiscal status at the authority.
 *
 * Commercial approval: the ACECF is built from the received e-CF's own values (emisor, e-NCF, FechaEmision,
 * MontoTotal, buyer), signed by the caller, recorded (one approval per document, also under concurrent
 * requests), then delivered to the issuer's approval service (its `urlAceptacion` in the directory) and
 * copied to the authority. Both outcomes are recorded and returned; repeating the same request resends
 * the same signed ACECF to the destinations that did not take it.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createReceptorClient, type ReceptorClient } from '../../dgii/index.js';
import type { ReceivedDocument } from '../storage/types.js';
import {
  APPROVAL_MESSAGES,
  AuthorityDeliverySchema,
  EmisorDeliverySchema,
  findReceivedDocument,
  outcomeOf,
  receivedFiscalStatus,
  sendCommercialApproval,
} from '../use-cases/received.js';
import { ApiError, formatBytes } from './errors.js';
import type { AppEnv } from './deps.js';
import { dateTimeDO, doToIso, fiscalStatusBody, isRealDate } from './record.js';
import { invalid, issuesReport, readJsonBody, type RouteContext } from './route-context.js';
import { AUTHORITY_FAILURES, COMMON, error, json, SECURED } from './routes.js';
import { AuthorityStatusEnvelopeSchema, DEFAULT_LIST_LIMIT, EcfTypeSchema, EncfParams, EncfSchema, ListQuery } from './schemas.js';
import { RncSchema, type DirectoryLookup } from './directory.js';

/** Largest commercial-approval request body (`{estado, motivo_rechazo}` is a few hundred bytes). */
export const APPROVAL_MAX_BYTES = 64 * 1024;
/** Longest `motivo_rechazo` (ACECF `DetalleMotivoRechazo`). */
export const MAX_REJECTION_REASON = 250;
export const RECEIVED_MESSAGES = {
  invalidApproval: APPROVAL_MESSAGES.invalidApproval,
  approved: 'Aprobación comercial enviada al emisor y a la autoridad tributaria.',
  partial: (failed: string[]) =>
    `La aprobación comercial quedó registrada y firmada, pero no fue aceptada por: ${failed.join(' y ')}. ` +
    'Repita la misma solicitud para reenviarla a quien no la recibió.',
} as const;

// ---------------------------------------------------------------------------------------------- schemas

const DATETIME = 'Fecha y hora dd-MM-yyyy HH:mm:ss (America/Santo_Domingo).';

export const ReceivedListQuery = ListQuery.omit({ status: true }).extend({
  rnc_emisor: RncSchema.optional().openapi({ param: { name: 'rnc_emisor', in: 'query' }, description: 'Filtra por RNC del emisor.' }),
});

const RncEmisorQuery = z.object({
  rnc_emisor: RncSchema.optional().openapi({
    param: { name: 'rnc_emisor', in: 'query' },
    description: 'RNC del emisor; necesario cuando dos emisores enviaron el mismo e-NCF.',
  }),
});

const ApprovalInfoSchema = z
  .object({
    estado: z.union([z.literal(1), z.literal(2)]).openapi({ description: '1 aceptado, 2 rechazado.' }),
    motivo_rechazo: z.string().nullable(),
    enviada_en: z.string().nullable().openapi({ description: DATETIME }),
    entrega: z.object({ emisor: EmisorDeliverySchema.nullable(), autoridad: AuthorityDeliverySchema.nullable() }).nullable(),
  })
  .openapi('CommercialApprovalInfo');

const ReceivedSchema = z
  .object({
    id: z.number().int().openapi({ description: 'Identificador interno.' }),
    e_ncf: EncfSchema,
    ecf_type_code: EcfTypeSchema,
    rnc_emisor: z.string(),
    razon_social_emisor: z.string().nullable(),
    fecha_emision: z.string().openapi({ description: 'dd-MM-yyyy', example: '01-04-2026' }),
    monto_total: z.string().openapi({ description: 'Tal como figura en el e-CF.', example: '236.00' }),
    total_itbis: z.string().nullable(),
    recibido_en: z.string().openapi({ description: DATETIME }),
    acuse_recibo: z.object({
      estado: z.union([z.literal(0), z.literal(1)]).openapi({ description: '0 e-CF recibido, 1 no recibido.' }),
      descripcion: z.string(),
      codigo_motivo_no_recibido: z
        .number()
        .int()
        .nullable()
        .openapi({ description: '1 especificación, 2 firma digital, 3 envío duplicado, 4 RNC comprador no corresponde.' }),
    }),
    aprobacion_comercial: ApprovalInfoSchema.nullable(),
  })
  .openapi('ReceivedDocument');

const ReceivedDetailSchema = ReceivedSchema.extend({
  xml_ecf: z.string().openapi({ description: 'El e-CF firmado, exactamente como se recibió.' }),
  xml_acuse_recibo: z.string().openapi({ description: 'El acuse de recibo (ARECF) firmado que se respondió.' }),
  xml_aprobacion_comercial: z.string().nullable().openapi({ description: 'La aprobación comercial (ACECF) firmada, si se emitió.' }),
}).openapi('ReceivedDocumentDetail');

const ReceivedListEnvelopeSchema = z
  .object({
    status: z.literal('success'),
    message: z.string(),
    data: z.object({
      items: z.array(ReceivedSchema),
      next_cursor: z.string().nullable().openapi({ description: 'Cursor de la página siguiente (pásese como `cursor`); null en la última.' }),
    }),
  })
  .openapi('ReceivedDocumentListEnvelope');

const ReceivedDetailEnvelopeSchema = z
  .object({
    status: z.literal('success'),
    message: z.string(),
    data: ReceivedDetailSchema,
  })
  .openapi('ReceivedDocumentEnvelope');

export const ApprovalRequestSchema = z
  .object(
    {
      estado: z
        .union([z.literal(1), z.literal(2)], { error: 'estado es requerido: 1 (acepta) o 2 (rechaza), como número.' })
        .openapi({ description: '1 acepta la operación, 2 la rechaza.', example: 2 }),
      motivo_rechazo: z
        .string({ error: 'motivo_rechazo debe ser un texto.' })
        .nullable()
        .optional()
        .openapi({
          description: `Requerido cuando estado es 2; máximo ${MAX_REJECTION_REASON} caracteres. No se envía con estado 1.`,
          example: 'Mercancía no recibida.',
        }),
    },
    { error: 'El cuerpo debe ser un objeto JSON {estado, motivo_rechazo}.' },
  )
  .superRefine((v, ctx) => {
    const motivo = v.motivo_rechazo ?? null;
    if (v.estado === 2 && (motivo === null || motivo.trim() === '')) {
      ctx.addIssue({ code: 'custom', path: ['motivo_rechazo'], message: 'motivo_rechazo es requerido cuando estado es 2 (rechazo).' });
    }
    if (v.estado === 1 && motivo !== null && motivo.trim() !== '') {
      ctx.addIssue({ code: 'custom', path: ['motivo_rechazo'], message: 'motivo_rechazo solo se indica cuando estado es 2 (rechazo).' });
    }
    if (motivo !== null && [...motivo].length > MAX_REJECTION_REASON) {
      ctx.addIssue({
        code: 'custom',
        path: ['motivo_rechazo'],
        message: `motivo_rechazo admite como máximo ${MAX_REJECTION_REASON} caracteres (tiene ${[...motivo].length}).`,
      });
    }
  })
  .openapi('CommercialApprovalRequest');

const ApprovalResultSchema = z
  .object({
    e_ncf: EncfSchema,
    rnc_emisor: z.string(),
    estado: z.union([z.literal(1), z.literal(2)]),
    motivo_rechazo: z.string().nullable(),
    enviada_en: z.string().openapi({ description: DATETIME }),
    emisor: EmisorDeliverySchema,
    autoridad: AuthorityDeliverySchema,
  })
  .openapi('CommercialApprovalResult');

const ApprovalEnvelopeSchema = z
  .object({
    status: z.literal('success'),
    message: z.string(),
    data: ApprovalResultSchema,
  })
  .openapi('CommercialApprovalEnvelope');

const ApprovalFailedEnvelopeSchema = z
  .object({
    status: z.literal('error'),
    message: z.string(),
    document: ApprovalResultSchema.extend({ errors: z.array(z.string()) }),
  })
  .openapi('CommercialApprovalFailedEnvelope');

const NOT_FOUND = { 404: error('El emisor del token no recibió un e-CF con ese e-NCF (o el e-NCF es inválido).') } as const;
const AMBIGUOUS = { 409: error('Varios emisores enviaron ese e-NCF: indique `rnc_emisor`.') } as const;

export const receivedListRoute = createRoute({
  method: 'get',
  path: '/api/v1/received-documents',
  operationId: 'listReceivedDocuments',
  tags: ['Documentos recibidos'],
  summary: 'e-CF que otros emisores enviaron al emisor del token (más recientes primero)',
  description: 'Filtros: `rnc_emisor`, `tipo`, `desde` y `hasta` (fecha de emisión, inclusive). Paginación por cursor como en GET /api/v1/documents.',
  security: SECURED,
  request: { query: ReceivedListQuery },
  responses: {
    200: json(ReceivedListEnvelopeSchema, 'Una página de documentos recibidos.'),
    ...COMMON,
    422: error('Parámetros de consulta inválidos; `document.detailed_errors` indica cuáles.'),
  },
});

export const receivedGetRoute = createRoute({
  method: 'get',
  path: '/api/v1/received-documents/{eNCF}',
  operationId: 'getReceivedDocument',
  tags: ['Documentos recibidos'],
  summary: 'Detalle de un e-CF recibido, con el XML original y el acuse de recibo',
  security: SECURED,
  request: { params: EncfParams, query: RncEmisorQuery },
  responses: {
    200: json(ReceivedDetailEnvelopeSchema, 'El documento recibido.'),
    ...COMMON,
    ...NOT_FOUND,
    ...AMBIGUOUS,
    422: error('`rnc_emisor` con formato inválido.'),
  },
});

export const approvalRoute = createRoute({
  method: 'post',
  path: '/api/v1/received-documents/{eNCF}/commercial-approval',
  operationId: 'sendCommercialApproval',
  tags: ['Documentos recibidos'],
  summary: 'Aprobar (1) o rechazar (2) comercialmente un e-CF recibido',
  description:
    'Construye la aprobación comercial (ACECF) con los datos del e-CF recibido, la firma, la envía al servicio de aprobación del emisor ' +
    '(su `url_aceptacion` en el directorio) y una copia a la autoridad tributaria. Solo para los tipos 31, 33, 34, 44 y 45. Una aprobación por documento; ' +
    'repetir la misma solicitud reenvía el mismo ACECF a quien no lo aceptó.',
  security: SECURED,
  request: {
    params: EncfParams,
    query: RncEmisorQuery,
    body: { required: true, content: { 'application/json': { schema: ApprovalRequestSchema } } },
  },
  responses: {
    200: json(ApprovalEnvelopeSchema, 'Entregada al emisor y a la autoridad tributaria.'),
    ...COMMON,
    ...NOT_FOUND,
    409: error(
      'Ya existe otra aprobación comercial para el e-CF (o ya fue entregada); varios emisores enviaron el e-NCF; o el emisor del token no tiene un certificado utilizable.',
    ),
    413: error(`El cuerpo excede ${formatBytes(APPROVAL_MAX_BYTES)}.`),
    415: error('Content-Type distinto de application/json.'),
    422: error(
      'estado inválido, motivo_rechazo ausente (estado 2) o de más de 250 caracteres, tipo de e-CF que no admite aprobación comercial, o e-CF no recibido.',
    ),
    502: json(
      ApprovalFailedEnvelopeSchema,
      'Registrada y firmada, pero el emisor o la autoridad no la aceptaron (o no respondieron); `document` trae ambos resultados.',
    ),
  },
});

export const receivedStatusRoute = createRoute({
  method: 'get',
  path: '/api/v1/received-documents/{eNCF}/authority-status',
  operationId: 'getReceivedAuthorityStatus',
  tags: ['Documentos recibidos'],
  summary: 'Validez fiscal de un e-CF recibido, consultada en vivo a la autoridad tributaria',
  description: 'Consulta de estado del e-CF (consultaestado) con el RNC del emisor, el e-NCF, el comprador y el código de seguridad del XML recibido.',
  security: SECURED,
  request: { params: EncfParams, query: RncEmisorQuery },
  responses: {
    200: json(AuthorityStatusEnvelopeSchema, 'Respuesta de la autoridad.'),
    ...COMMON,
    ...NOT_FOUND,
    409: error('Varios emisores enviaron ese e-NCF, el XML recibido no tiene firma legible, o el emisor del token no tiene un certificado utilizable.'),
    422: error('`rnc_emisor` con formato inválido.'),
    ...AUTHORITY_FAILURES,
  },
});

// ---------------------------------------------------------------------------------------------- bodies

export function receivedBody(d: ReceivedDocument) {
  return {
    id: d.id,
    e_ncf: d.encf,
    ecf_type_code: d.tipo,
    rnc_emisor: d.emisorRnc,
    razon_social_emisor: d.emisorName,
    fecha_emision: d.fechaEmision,
    monto_total: d.montoTotal,
    total_itbis: d.totalItbis,
    recibido_en: dateTimeDO(d.receivedAt),
    acuse_recibo: {
      estado: d.estado,
      descripcion: d.estado === 0 ? 'e-CF recibido.' : 'e-CF no recibido.',
      codigo_motivo_no_recibido: d.motivo,
    },
    aprobacion_comercial:
      d.approvalEstado === null
        ? null
        : {
            estado: d.approvalEstado,
            motivo_rechazo: d.approvalMotivo,
            enviada_en: d.approvalSentAt === null ? null : dateTimeDO(d.approvalSentAt),
            entrega: outcomeOf(d.approvalOutcome),
          },
  };
}

// ---------------------------------------------------------------------------------------------- routes

export function registerReceived(ctx: RouteContext, directory: DirectoryLookup): void {
  const { storage, transport, schemas } = ctx.deps;
  const { clock, logger } = ctx;
  let receptor: ReceptorClient | null = ctx.deps.receptor ?? null;
  const receptorClient = () => (receptor ??= createReceptorClient({ clock, timeoutMs: 15_000, retries: 1 }));
  const approvalDeps = { storage, transport, schemas, clock, logger, identity: ctx.identity, directory, receptor: receptorClient };

  /** The caller's received document named by the path (and `?rnc_emisor=`): 422 bad query, 404 unknown, 409 ambiguous. */
  async function findReceived(c: Context<AppEnv>): Promise<ReceivedDocument> {
    const raw = c.req.param('eNCF') ?? '';
    const encf = EncfSchema.safeParse(raw.toUpperCase());
    const q = RncEmisorQuery.safeParse(c.req.query());
    if (!q.success) throw invalid('Parámetros de consulta inválidos.', { rnc_emisor: q.error.issues.map((i) => i.message) });
    return findReceivedDocument(storage, c.get('issuer'), { raw, encf: encf.success ? encf.data : null, rncEmisor: q.data.rnc_emisor });
  }

  ctx.add(receivedListRoute, async (c) => {
    const q = ReceivedListQuery.safeParse(c.req.query());
    if (!q.success) throw new ApiError(422, 'Parámetros de consulta inválidos.', { document: issuesReport(q.error.issues) });
    const { rnc_emisor, tipo, desde, hasta, cursor } = q.data;
    const bad: Record<string, string[]> = {};
    if (desde && !isRealDate(desde)) bad.desde = [`Fecha inexistente: ${desde}.`];
    if (hasta && !isRealDate(hasta)) bad.hasta = [`Fecha inexistente: ${hasta}.`];
    if (!bad.desde && !bad.hasta && desde && hasta && doToIso(desde) > doToIso(hasta)) bad.desde = ['desde no puede ser posterior a hasta.'];
    if (Object.keys(bad).length) throw invalid('Parámetros de consulta inválidos.', bad);
    const limit = q.data.limit ? Number(q.data.limit) : DEFAULT_LIST_LIMIT;
    const rows = await storage.listReceivedDocuments(c.get('issuer').id, {
      ...(rnc_emisor ? { emisorRnc: rnc_emisor } : {}),
      ...(tipo ? { tipo } : {}),
      ...(desde ? { from: doToIso(desde) } : {}),
      ...(hasta ? { to: doToIso(hasta) } : {}),
      ...(cursor ? { cursor: Number(cursor) } : {}),
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const next = rows.length > limit ? String(page[page.length - 1]!.id) : null;
    return c.json(
      { status: 'success' as const, message: `${page.length} documento(s) recibido(s).`, data: { items: page.map(receivedBody), next_cursor: next } },
      200,
    );
  });

  ctx.add(receivedGetRoute, async (c) => {
    const d = await findReceived(c);
    const data = { ...receivedBody(d), xml_ecf: d.xml, xml_acuse_recibo: d.arecfXml, xml_aprobacion_comercial: d.approvalXml };
    return c.json({ status: 'success' as const, message: 'Documento recibido.', data }, 200);
  });

  ctx.add(approvalRoute, async (c) => {
    const body = await readJsonBody(c.req.raw, APPROVAL_MAX_BYTES, RECEIVED_MESSAGES.invalidApproval);
    const parsed = ApprovalRequestSchema.safeParse(body);
    if (!parsed.success) throw new ApiError(422, RECEIVED_MESSAGES.invalidApproval, { document: issuesReport(parsed.error.issues) });
    const estado = parsed.data.estado;
    const motivo = estado === 2 ? parsed.data.motivo_rechazo!.trim() : null;
    const d = await findReceived(c);
    const r = await sendCommercialApproval(approvalDeps, c.get('issuer'), d, { estado, motivo });
    const { emisor, autoridad } = r;
    const data = { e_ncf: d.encf, rnc_emisor: d.emisorRnc, estado, motivo_rechazo: motivo, enviada_en: dateTimeDO(r.sentAt), emisor, autoridad };
    if (r.delivered) return c.json({ status: 'success' as const, message: RECEIVED_MESSAGES.approved, data }, 200);
    const failed = [...(emisor.entregada ? [] : ['el emisor']), ...(autoridad.entregada ? [] : ['la autoridad tributaria'])];
    const errors = [emisor.error, autoridad.error, ...(autoridad.entregada ? [] : autoridad.mensajes)].filter((x): x is string => !!x);
    return c.json({ status: 'error' as const, message: RECEIVED_MESSAGES.partial(failed), document: { ...data, errors } }, 502);
  });

  ctx.add(receivedStatusRoute, async (c) => {
    const d = await findReceived(c);
    const { status: r, consultedAt: consultado_en } = await receivedFiscalStatus({ transport, clock, identity: ctx.identity }, c.get('issuer'), d);
    const data = fiscalStatusBody(d.encf, r, consultado_en);
    return c.json({ status: 'success' as const, message: 'Estado consultado a la autoridad tributaria.', data }, 200);
  });
}
