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
import { ACECF_TYPES, buildAcecfXml, fileNameFor, formatDateTimeDO, isAuthorityError, isEcfError, isTransportError, securityCode } from '../../index.js';
import {
  createReceptorClient, type AuthorityIdentity, type FiscalStatus, type ReceptorClient, type XmlFile,
} from '../../dgii/index.js';
import { signXml } from '../../sign/index.js';
import type { Issuer, ReceivedDocument } from '../storage/types.js';
import { ApiError, authorityMessages, formatBytes, MESSAGES } from './errors.js';
import type { AppEnv } from './index.js';
import { amountText, dateTimeDO, doToIso, isRealDate } from './record.js';
import { invalid, issuesReport, readJsonBody, type RouteContext } from './route-context.js';
import { AUTHORITY_FAILURES, COMMON, error, json, SECURED } from './routes.js';
import { AuthorityStatusEnvelopeSchema, DEFAULT_LIST_LIMIT, EcfTypeSchema, EncfParams, EncfSchema, ListQuery } from './schemas.js';
import { RncSchema, type DirectoryLookup } from './directory.js';
import { xmlValue } from '../inbound/xml.js';

const BUYER_PATH = ['Encabezado', 'Comprador', 'RNCComprador'] as const;

/** Largest commercial-approval request body (`{estado, motivo_rechazo}` is a few hundred bytes). */
export const APPROVAL_MAX_BYTES = 64 * 1024;
/** Longest `motivo_rechazo` (ACECF `DetalleMotivoRechazo`). */
export const MAX_REJECTION_REASON = 250;
// A receiver's answer is logged (never returned) for diagnosis, this long at most.
const MAX_ANSWER_CHARS = 200;

/** A receiver's answer for the log: control characters removed, whitespace collapsed, bounded. */
function answerSummary(text: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.slice(0, MAX_ANSWER_CHARS * 4).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();
  return clean.length > MAX_ANSWER_CHARS ? `${clean.slice(0, MAX_ANSWER_CHARS)}…` : clean;
}
// An approval recorded this recently without an outcome is still being delivered by another request (or that
// request died; after this long a repeat may resend it). Real time: storage stamps `updatedAt` with it.
const IN_FLIGHT_MS = 2 * 60_000;

export const RECEIVED_MESSAGES = {
  invalidApproval: 'La aprobación comercial no es válida: no se envió.',
  approved: 'Aprobación comercial enviada al emisor y a la autoridad tributaria.',
  partial: (failed: string[]) => `La aprobación comercial quedó registrada y firmada, pero no fue aceptada por: ${failed.join(' y ')}. `
    + 'Repita la misma solicitud para reenviarla a quien no la recibió.',
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

const EmisorDeliverySchema = z.object({
  entregada: z.boolean().openapi({ description: 'true cuando el servicio del emisor respondió 2xx.' }),
  url: z.string().nullable().openapi({ description: 'URL de aprobación comercial del emisor (directorio).' }),
  http_status: z.number().int().nullable(),
  error: z.string().nullable(),
  fecha: z.string().openapi({ description: DATETIME }),
}).openapi('ApprovalDeliveryToIssuer');

const AuthorityDeliverySchema = z.object({
  entregada: z.boolean().openapi({ description: 'true cuando la autoridad respondió con código 1 (recibida).' }),
  codigo: z.string().nullable(),
  estado: z.string().nullable(),
  mensajes: z.array(z.string()),
  error: z.string().nullable(),
  fecha: z.string().openapi({ description: DATETIME }),
}).openapi('ApprovalDeliveryToAuthority');

const ApprovalInfoSchema = z.object({
  estado: z.union([z.literal(1), z.literal(2)]).openapi({ description: '1 aceptado, 2 rechazado.' }),
  motivo_rechazo: z.string().nullable(),
  enviada_en: z.string().nullable().openapi({ description: DATETIME }),
  entrega: z.object({ emisor: EmisorDeliverySchema.nullable(), autoridad: AuthorityDeliverySchema.nullable() }).nullable(),
}).openapi('CommercialApprovalInfo');

const ReceivedSchema = z.object({
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
    codigo_motivo_no_recibido: z.number().int().nullable().openapi({ description: '1 especificación, 2 firma digital, 3 envío duplicado, 4 RNC comprador no corresponde.' }),
  }),
  aprobacion_comercial: ApprovalInfoSchema.nullable(),
}).openapi('ReceivedDocument');

const ReceivedDetailSchema = ReceivedSchema.extend({
  xml_ecf: z.string().openapi({ description: 'El e-CF firmado, exactamente como se recibió.' }),
  xml_acuse_recibo: z.string().openapi({ description: 'El acuse de recibo (ARECF) firmado que se respondió.' }),
  xml_aprobacion_comercial: z.string().nullable().openapi({ description: 'La aprobación comercial (ACECF) firmada, si se emitió.' }),
}).openapi('ReceivedDocumentDetail');

const ReceivedListEnvelopeSchema = z.object({
  status: z.literal('success'),
  message: z.string(),
  data: z.object({
    items: z.array(ReceivedSchema),
    next_cursor: z.string().nullable().openapi({ description: 'Cursor de la página siguiente (pásese como `cursor`); null en la última.' }),
  }),
}).openapi('ReceivedDocumentListEnvelope');

const ReceivedDetailEnvelopeSchema = z.object({
  status: z.literal('success'),
  message: z.string(),
  data: ReceivedDetailSchema,
}).openapi('ReceivedDocumentEnvelope');

export const ApprovalRequestSchema = z.object({
  estado: z.union([z.literal(1), z.literal(2)], { error: 'estado es requerido: 1 (acepta) o 2 (rechaza), como número.' })
    .openapi({ description: '1 acepta la operación, 2 la rechaza.', example: 2 }),
  motivo_rechazo: z.string({ error: 'motivo_rechazo debe ser un texto.' }).nullable().optional()
    .openapi({ description: `Requerido cuando estado es 2; máximo ${MAX_REJECTION_REASON} caracteres. No se envía con estado 1.`, example: 'Mercancía no recibida.' }),
}, { error: 'El cuerpo debe ser un objeto JSON {estado, motivo_rechazo}.' }).superRefine((v, ctx) => {
  const motivo = v.motivo_rechazo ?? null;
  if (v.estado === 2 && (motivo === null || motivo.trim() === '')) {
    ctx.addIssue({ code: 'custom', path: ['motivo_rechazo'], message: 'motivo_rechazo es requerido cuando estado es 2 (rechazo).' });
  }
  if (v.estado === 1 && motivo !== null && motivo.trim() !== '') {
    ctx.addIssue({ code: 'custom', path: ['motivo_rechazo'], message: 'motivo_rechazo solo se indica cuando estado es 2 (rechazo).' });
  }
  if (motivo !== null && [...motivo].length > MAX_REJECTION_REASON) {
    ctx.addIssue({ code: 'custom', path: ['motivo_rechazo'], message: `motivo_rechazo admite como máximo ${MAX_REJECTION_REASON} caracteres (tiene ${[...motivo].length}).` });
  }
}).openapi('CommercialApprovalRequest');

const ApprovalResultSchema = z.object({
  e_ncf: EncfSchema,
  rnc_emisor: z.string(),
  estado: z.union([z.literal(1), z.literal(2)]),
  motivo_rechazo: z.string().nullable(),
  enviada_en: z.string().openapi({ description: DATETIME }),
  emisor: EmisorDeliverySchema,
  autoridad: AuthorityDeliverySchema,
}).openapi('CommercialApprovalResult');

const ApprovalEnvelopeSchema = z.object({
  status: z.literal('success'),
  message: z.string(),
  data: ApprovalResultSchema,
}).openapi('CommercialApprovalEnvelope');

const ApprovalFailedEnvelopeSchema = z.object({
  status: z.literal('error'),
  message: z.string(),
  document: ApprovalResultSchema.extend({ errors: z.array(z.string()) }),
}).openapi('CommercialApprovalFailedEnvelope');

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
  description: 'Construye la aprobación comercial (ACECF) con los datos del e-CF recibido, la firma, la envía al servicio de aprobación del emisor '
    + '(su `url_aceptacion` en el directorio) y una copia a la autoridad tributaria. Solo para los tipos 31, 33, 34, 44 y 45. Una aprobación por documento; '
    + 'repetir la misma solicitud reenvía el mismo ACECF a quien no lo aceptó.',
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
    409: error('Ya existe otra aprobación comercial para el e-CF (o ya fue entregada); varios emisores enviaron el e-NCF; o el emisor del token no tiene un certificado utilizable.'),
    413: error(`El cuerpo excede ${formatBytes(APPROVAL_MAX_BYTES)}.`),
    415: error('Content-Type distinto de application/json.'),
    422: error('estado inválido, motivo_rechazo ausente (estado 2) o de más de 250 caracteres, tipo de e-CF que no admite aprobación comercial, o e-CF no recibido.'),
    502: json(ApprovalFailedEnvelopeSchema, 'Registrada y firmada, pero el emisor o la autoridad no la aceptaron (o no respondieron); `document` trae ambos resultados.'),
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

type EmisorDelivery = z.infer<typeof EmisorDeliverySchema>;
type AuthorityDelivery = z.infer<typeof AuthorityDeliverySchema>;
interface ApprovalOutcome {
  emisor: EmisorDelivery | null;
  autoridad: AuthorityDelivery | null;
}

/** The stored outcome (JSON written by this module), read defensively. */
function outcomeOf(raw: Record<string, unknown> | null): ApprovalOutcome | null {
  if (!raw) return null;
  const e = EmisorDeliverySchema.safeParse(raw.emisor);
  const a = AuthorityDeliverySchema.safeParse(raw.autoridad);
  return { emisor: e.success ? e.data : null, autoridad: a.success ? a.data : null };
}

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
    aprobacion_comercial: d.approvalEstado === null ? null : {
      estado: d.approvalEstado,
      motivo_rechazo: d.approvalMotivo,
      enviada_en: d.approvalSentAt === null ? null : dateTimeDO(d.approvalSentAt),
      entrega: outcomeOf(d.approvalOutcome),
    },
  };
}

/**
 * RNCComprador of a received e-CF, read from the parsed document (`ECF/Encabezado/Comprador/RNCComprador`), so
 * that a decoy in a comment, a CDATA section or a processing instruction is never taken for it.
 */
function buyerOf(xml: string): string | null {
  return xmlValue(xml, BUYER_PATH);
}

/** Spanish reason of a failed delivery to another taxpayer's service. */
function deliveryFailure(e: unknown): string {
  if (isTransportError(e)) {
    if (e.code === 'network' && !e.retryable) return 'El servicio del emisor no es accesible: su dirección no es pública o la conexión segura falló.';
    const reasons: Record<string, string> = {
      network: 'la conexión falló',
      timeout: 'no respondió a tiempo',
      server_error: `respondió con un error HTTP ${e.status ?? '5xx'}`,
      rate_limited: 'pidió esperar (HTTP 429)',
      bad_response: 'respondió algo ilegible',
    };
    return `El servicio del emisor ${reasons[e.code] ?? 'no respondió correctamente'}.`;
  }
  // The receiver's own words never reach the caller (they are logged, bounded): only the status.
  if (isAuthorityError(e)) return `El servicio del emisor rechazó la solicitud (HTTP ${e.status ?? '4xx'}).`;
  if (isEcfError(e) && e.code === 'invalid_argument') return 'La URL de aprobación comercial publicada en el directorio no es válida (se exige https).';
  return 'No se pudo entregar al servicio del emisor.';
}

// ---------------------------------------------------------------------------------------------- routes

export function registerReceived(ctx: RouteContext, directory: DirectoryLookup): void {
  const { storage, transport, schemas } = ctx.deps;
  const { clock, logger } = ctx;
  let receptor: ReceptorClient | null = ctx.deps.receptor ?? null;
  const receptorClient = () => (receptor ??= createReceptorClient({ clock, timeoutMs: 15_000, retries: 1 }));

  /** The caller's received document named by the path (and `?rnc_emisor=`): 404 unknown, 409 ambiguous. */
  async function findReceived(c: Context<AppEnv>): Promise<ReceivedDocument> {
    const issuer = c.get('issuer');
    const raw = c.req.param('eNCF') ?? '';
    const encf = EncfSchema.safeParse(raw.toUpperCase());
    const q = RncEmisorQuery.safeParse(c.req.query());
    if (!q.success) throw invalid('Parámetros de consulta inválidos.', { rnc_emisor: q.error.issues.map((i) => i.message) });
    const notFound = () => new ApiError(404, `El emisor no recibió ningún e-CF con e-NCF ${raw}${q.data.rnc_emisor ? ` del RNC ${q.data.rnc_emisor}` : ''}.`);
    if (!encf.success) throw notFound();
    if (q.data.rnc_emisor) {
      const d = await storage.getReceivedDocument(issuer.id, encf.data, q.data.rnc_emisor);
      if (!d) throw notFound();
      return d;
    }
    const found = await storage.listReceivedDocuments(issuer.id, { encf: encf.data, limit: 10 });
    if (found.length === 0) throw notFound();
    if (found.length > 1) {
      throw new ApiError(409, `Varios emisores enviaron el e-NCF ${encf.data} (RNC ${found.map((d) => d.emisorRnc).join(', ')}): indique cuál con ?rnc_emisor=.`);
    }
    return found[0]!;
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
    return c.json({ status: 'success' as const, message: `${page.length} documento(s) recibido(s).`, data: { items: page.map(receivedBody), next_cursor: next } }, 200);
  });

  ctx.add(receivedGetRoute, async (c) => {
    const d = await findReceived(c);
    const data = { ...receivedBody(d), xml_ecf: d.xml, xml_acuse_recibo: d.arecfXml, xml_aprobacion_comercial: d.approvalXml };
    return c.json({ status: 'success' as const, message: 'Documento recibido.', data }, 200);
  });

  /** The signed ACECF of `d` with the values of the received e-CF. */
  async function signedAcecf(issuer: Issuer, who: AuthorityIdentity, d: ReceivedDocument, estado: 1 | 2, motivo: string | null): Promise<string> {
    // The builder takes the amount as a number; a 2-decimal amount round-trips exactly, and the check below
    // refuses to sign anything whose MontoTotal differs from the received one.
    const monto = Number(d.montoTotal);
    if (!Number.isFinite(monto) || amountText(monto) !== amountText(d.montoTotal)) {
      throw new ApiError(422, `El MontoTotal del e-CF recibido (${d.montoTotal}) no puede expresarse con 2 decimales en la aprobación comercial.`);
    }
    // The reception service records only e-CF whose buyer is the receiving issuer; never sign for anyone else.
    const buyer = buyerOf(d.xml) ?? issuer.rnc;
    if (buyer !== issuer.rnc) {
      throw new ApiError(409, `El e-CF recibido no nombra como comprador al emisor ${issuer.rnc}: no se emite aprobación comercial.`);
    }
    const xml = buildAcecfXml({
      rnc_emisor: d.emisorRnc,
      encf: d.encf,
      fecha_emision: d.fechaEmision,
      monto_total: monto,
      rnc_comprador: buyer,
      estado: estado === 1 ? '1' : '2',
      ...(motivo !== null ? { detalle_motivo_rechazo: motivo } : {}),
      fecha_hora_aprobacion_comercial: formatDateTimeDO(clock()),
    });
    const signed = await signXml(xml, who.signer);
    const xsd = schemas.validate(signed, 'ACECF');
    if (!xsd.valid) {
      throw new ApiError(422, RECEIVED_MESSAGES.invalidApproval, {
        document: { errors: xsd.violations.slice(0, 10).map((v) => `${v.xpath ?? '/ACECF'}: ${v.message.trim()}`) },
      });
    }
    return signed;
  }

  async function deliverToIssuer(who: AuthorityIdentity, d: ReceivedDocument, file: XmlFile): Promise<EmisorDelivery> {
    const fecha = formatDateTimeDO(clock());
    const failed = (error: string, url: string | null = null): EmisorDelivery => ({ entregada: false, url, http_status: null, error, fecha });
    let entry;
    try {
      entry = await directory.entry(who, d.emisorRnc);
    } catch (e) {
      logger.warn({ emisor: d.emisorRnc, err: { name: (e as Error).name, message: (e as Error).message } }, 'directory lookup for a commercial approval failed');
      return failed('No se pudo consultar el directorio de la autoridad tributaria para obtener la URL de aprobación comercial del emisor.');
    }
    if (!entry?.urlAceptacion) return failed(`El emisor ${d.emisorRnc} no publica una URL de aprobación comercial en el directorio de la autoridad tributaria.`);
    let url: string | null = null;
    try {
      url = receptorClient().urls(entry).aprobacion;
      const r = await receptorClient().sendApproval(entry, who, file);
      // The answer is the receiver's, not ours: a bounded, sanitized summary goes to the log only.
      logger.info({ emisor: d.emisorRnc, url, status: r.status, answer: answerSummary(r.body) }, 'commercial approval: issuer receiver answered');
      return {
        entregada: r.ok, url, http_status: r.status,
        error: r.ok ? null : `El servicio de aprobación comercial del emisor respondió HTTP ${r.status}.`, fecha,
      };
    } catch (e) {
      logger.warn({ emisor: d.emisorRnc, err: { name: (e as Error).name, message: (e as Error).message } }, 'commercial approval delivery to the issuer failed');
      return failed(deliveryFailure(e), url);
    }
  }

  async function copyToAuthority(who: AuthorityIdentity, file: XmlFile): Promise<AuthorityDelivery> {
    const fecha = formatDateTimeDO(clock());
    try {
      const r = await transport.sendApproval(who, file);
      // DGII documents no code list; the simulator (and DGII's examples) answer codigo "1" when the copy is taken.
      return { entregada: r.codigo === '1', codigo: r.codigo, estado: r.estado, mensajes: r.mensajes, error: null, fecha };
    } catch (e) {
      logger.warn({ err: { name: (e as { name?: string }).name, message: (e as Error).message } }, 'commercial approval copy to the authority failed');
      if (isAuthorityError(e)) {
        return { entregada: false, codigo: null, estado: null, mensajes: authorityMessages(e.mensajes), error: MESSAGES.authorityRefused, fecha };
      }
      const message = isTransportError(e) && e.retryable ? MESSAGES.authorityUnavailable : MESSAGES.authorityBadGateway;
      return { entregada: false, codigo: null, estado: null, mensajes: [], error: message, fecha };
    }
  }

  ctx.add(approvalRoute, async (c) => {
    const issuer = c.get('issuer');
    const body = await readJsonBody(c.req.raw, APPROVAL_MAX_BYTES, RECEIVED_MESSAGES.invalidApproval);
    const parsed = ApprovalRequestSchema.safeParse(body);
    if (!parsed.success) throw new ApiError(422, RECEIVED_MESSAGES.invalidApproval, { document: issuesReport(parsed.error.issues) });
    const estado = parsed.data.estado;
    const motivo = estado === 2 ? parsed.data.motivo_rechazo!.trim() : null;
    const d = await findReceived(c);
    if (!(ACECF_TYPES as readonly string[]).includes(d.tipo)) {
      throw invalid(RECEIVED_MESSAGES.invalidApproval, {
        e_ncf: [`El tipo de e-CF ${d.tipo} no admite aprobación comercial (solo ${ACECF_TYPES.join(', ')}).`],
      });
    }
    if (d.estado !== 0) {
      throw invalid(RECEIVED_MESSAGES.invalidApproval, {
        e_ncf: ['Este e-CF se respondió como no recibido (acuse de recibo estado 1): no admite aprobación comercial.'],
      });
    }

    const who = await ctx.identity(issuer);
    let xml: string;
    let previous: ApprovalOutcome | null = null;
    if (d.approvalEstado !== null) {
      if (d.approvalEstado !== estado || (d.approvalMotivo ?? null) !== motivo || !d.approvalXml) {
        throw new ApiError(409, `Este e-CF ya tiene una aprobación comercial registrada (estado ${d.approvalEstado}); no puede cambiarse.`);
      }
      if (d.approvalOutcome === null && Date.now() - d.updatedAt < IN_FLIGHT_MS) {
        throw new ApiError(409, 'La aprobación comercial de este e-CF se está enviando en este momento; consulte el documento en unos segundos.');
      }
      previous = outcomeOf(d.approvalOutcome);
      if (previous?.emisor?.entregada && previous.autoridad?.entregada) {
        throw new ApiError(409, 'La aprobación comercial de este e-CF ya fue entregada al emisor y a la autoridad tributaria.');
      }
      xml = d.approvalXml;
    } else {
      xml = await signedAcecf(issuer, who, d, estado, motivo);
      // One approval per document: of concurrent requests only one records its ACECF.
      const claimed = await storage.updateReceivedApproval(d.id, { approvalEstado: estado, approvalMotivo: motivo, approvalXml: xml }, { onlyIfUnapproved: true });
      if (!claimed) throw new ApiError(409, 'Otra solicitud registró al mismo tiempo la aprobación comercial de este e-CF.');
    }

    const file: XmlFile = { fileName: fileNameFor(xml), xml };
    const [emisor, autoridad] = await Promise.all([
      previous?.emisor?.entregada ? Promise.resolve(previous.emisor) : deliverToIssuer(who, d, file),
      previous?.autoridad?.entregada ? Promise.resolve(previous.autoridad) : copyToAuthority(who, file),
    ]);
    const sentAt = clock().getTime();
    await storage.updateReceivedApproval(d.id, { approvalSentAt: sentAt, approvalOutcome: { emisor, autoridad } });
    logger.info({ issuer: issuer.rnc, emisor: d.emisorRnc, encf: d.encf, estado, toIssuer: emisor.entregada, toAuthority: autoridad.entregada }, 'commercial approval sent');

    const data = { e_ncf: d.encf, rnc_emisor: d.emisorRnc, estado, motivo_rechazo: motivo, enviada_en: dateTimeDO(sentAt), emisor, autoridad };
    if (emisor.entregada && autoridad.entregada) return c.json({ status: 'success' as const, message: RECEIVED_MESSAGES.approved, data }, 200);
    const failed = [...(emisor.entregada ? [] : ['el emisor']), ...(autoridad.entregada ? [] : ['la autoridad tributaria'])];
    const errors = [emisor.error, autoridad.error, ...(autoridad.entregada ? [] : autoridad.mensajes)].filter((x): x is string => !!x);
    return c.json({ status: 'error' as const, message: RECEIVED_MESSAGES.partial(failed), document: { ...data, errors } }, 502);
  });

  ctx.add(receivedStatusRoute, async (c) => {
    const issuer = c.get('issuer');
    const d = await findReceived(c);
    let code: string;
    try {
      code = securityCode(d.xml);
    } catch {
      throw new ApiError(409, 'El XML recibido no tiene una firma legible: no se puede calcular su código de seguridad para consultarlo.');
    }
    const who = await ctx.identity(issuer);
    const consultado_en = formatDateTimeDO(clock());
    const r: FiscalStatus = await transport.status(who, { rncEmisor: d.emisorRnc, encf: d.encf, rncComprador: buyerOf(d.xml), codigoSeguridad: code });
    const data = {
      e_ncf: d.encf, servicio: 'estado_ecf' as const, codigo: r.codigo, estado: r.estado, valido_fiscalmente: r.codigo === 1 || r.codigo === 4,
      rnc_emisor: r.rncEmisor, rnc_comprador: r.rncComprador, id_extranjero: r.idExtranjero, monto_total: r.montoTotal, total_itbis: r.totalITBIS,
      fecha_emision: r.fechaEmision, fecha_firma: r.fechaFirma, codigo_seguridad: r.codigoSeguridad, track_id: null, secuencia_utilizada: null,
      mensajes: [], consultado_en,
    };
    return c.json({ status: 'success' as const, message: 'Estado consultado a la autoridad tributaria.', data }, 200);
  });
}
