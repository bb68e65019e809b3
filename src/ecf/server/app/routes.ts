/**
 * Route declarations (createRoute): the single source of the OpenAPI document. Handlers are attached in
 * index.ts; they parse parameters with the same zod schemas referenced here.
 */
import { createRoute, z } from '@hono/zod-openapi';
import {
  AuthorityErrorEnvelopeSchema,
  AuthorityStatusEnvelopeSchema,
  CanonicalDocumentSchema,
  ConflictEnvelopeSchema,
  EncfParams,
  ErrorEnvelopeSchema,
  IssueHeaders,
  IssuedEnvelopeSchema,
  ListEnvelopeSchema,
  ListQuery,
  RecordEnvelopeSchema,
  StatusesEnvelopeSchema,
  TipoParams,
  TrackIdsEnvelopeSchema,
  ValidationErrorEnvelopeSchema,
  XmlDocumentSchema,
} from './schemas.js';

export const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { 'application/json': { schema } } });
export const error = (description: string) => json(ErrorEnvelopeSchema, description);

export const SECURED = [{ bearerAuth: [] }];
export const COMMON = {
  401: error('Token ausente, inválido o revocado.'),
  500: error('Error interno; mensaje genérico (el detalle queda en el registro del servicio).'),
} as const;
const NOT_FOUND = { 404: error('El e-NCF no existe para el emisor del token (o pertenece a otro emisor).') } as const;
export const AUTHORITY_FAILURES = {
  502: json(
    AuthorityErrorEnvelopeSchema,
    'La autoridad tributaria respondió con un rechazo definitivo o con una respuesta ilegible; `document.mensajes_autoridad` trae sus mensajes.',
  ),
  503: json(
    AuthorityErrorEnvelopeSchema,
    'La autoridad tributaria no está disponible (red, tiempo de espera, 5xx o 429); reintente más tarde (encabezado Retry-After).',
  ),
} as const;

export const issueRoute = createRoute({
  method: 'post',
  path: '/api/v1/documents/{tipo}',
  operationId: 'issueDocument',
  tags: ['Emisión'],
  summary: 'Emitir un e-CF (JSON canónico o XML sin firmar)',
  description:
    'Valida el e-CF, asigna el e-NCF y lo pone en cola para firma y transmisión. El 202 confirma la recepción, no la aceptación de la autoridad tributaria. ' +
    'Con `application/json` el servicio asigna el e-NCF y la fecha de emisión (hoy, America/Santo_Domingo). Con `application/xml` o `text/xml` (passthrough) ' +
    'el XML sin firmar trae su e-NCF y su FechaEmision; se verifica (XML bien formado con raíz ECF, TipoeCF = {tipo}, RNCEmisor = emisor del token, sin firma, ' +
    'estructura del e-NCF, secuencia autorizada, activa y vigente, e-NCF no usado ni anulado), se valida contra el XSD y las mismas reglas de negocio, y se guarda sin cambios. ' +
    'Cualquier falla responde 422 y no consume ningún número. Límites por defecto: 12 MB de JSON y 12 MB de XML (configurables). ' +
    'Para reintentar sin riesgo de emitir dos veces, envíe el encabezado `Idempotency-Key`.',
  security: SECURED,
  request: {
    params: TipoParams,
    headers: IssueHeaders,
    body: {
      required: true,
      description: 'El e-CF en JSON canónico o en XML sin firmar (UTF-8).',
      content: {
        'application/json': { schema: CanonicalDocumentSchema },
        'application/xml': { schema: XmlDocumentSchema },
        'text/xml': { schema: XmlDocumentSchema },
      },
    },
  },
  responses: {
    202: {
      ...json(
        IssuedEnvelopeSchema,
        'Recibido y en cola; e-NCF asignado; `track_id` null. Una repetición con la misma `Idempotency-Key` devuelve el mismo documento con su estado actual.',
      ),
      headers: {
        'Idempotent-Replayed': {
          description: '`true` cuando la respuesta repite el documento creado antes con la misma `Idempotency-Key`; ausente en otro caso.',
          schema: { type: 'string', enum: ['true'] },
        },
      },
    },
    ...COMMON,
    413: error('El cuerpo excede el límite de tamaño.'),
    415: error('Content-Type no soportado (se aceptan application/json, application/xml y text/xml, en UTF-8).'),
    422: json(
      ValidationErrorEnvelopeSchema,
      'Validación fallida, tipo inválido, JSON mal formado, verificación passthrough fallida o sin secuencia disponible ' +
        '(en este último caso `detailed_errors` está ausente). El e-NCF no se consume. También: `Idempotency-Key` inválida, o ya usada ' +
        'con otra solicitud (`detailed_errors["Idempotency-Key"]`; no se emite nada).',
    ),
  },
});

export const listRoute = createRoute({
  method: 'get',
  path: '/api/v1/documents',
  operationId: 'listDocuments',
  tags: ['Consulta'],
  summary: 'Listar e-CF emitidos (más recientes primero)',
  description: 'Paginación por cursor: pase `next_cursor` de la respuesta como `cursor` para la página siguiente; es null en la última.',
  security: SECURED,
  request: { query: ListQuery },
  responses: {
    200: json(ListEnvelopeSchema, 'Una página de registros.'),
    ...COMMON,
    422: error('Parámetros de consulta inválidos; `document.detailed_errors` indica cuáles.'),
  },
});

export const getRoute = createRoute({
  method: 'get',
  path: '/api/v1/documents/{eNCF}',
  operationId: 'getDocument',
  tags: ['Consulta'],
  summary: 'Consultar el registro completo de un e-CF emitido',
  security: SECURED,
  request: { params: EncfParams },
  responses: {
    200: json(RecordEnvelopeSchema, 'Registro del documento.'),
    ...COMMON,
    ...NOT_FOUND,
  },
});

export const trackIdsRoute = createRoute({
  method: 'get',
  path: '/api/v1/documents/{eNCF}/track-ids',
  operationId: 'getTrackIds',
  tags: ['Autoridad tributaria'],
  summary: 'Envíos (track ids) del e-NCF: los de este servicio y, en vivo, los de la autoridad',
  description:
    '`envios` lista lo que este servicio transmitió. `autoridad` es la respuesta en vivo de la consulta de track ids; si la autoridad no responde, ' +
    '`autoridad.consultada` es false y `autoridad.error` dice por qué, y la respuesta sigue siendo 200.',
  security: SECURED,
  request: { params: EncfParams },
  responses: {
    200: json(TrackIdsEnvelopeSchema, 'Envíos del e-NCF.'),
    ...COMMON,
    ...NOT_FOUND,
  },
});

export const authorityStatusRoute = createRoute({
  method: 'get',
  path: '/api/v1/documents/{eNCF}/authority-status',
  operationId: 'getAuthorityStatus',
  tags: ['Autoridad tributaria'],
  summary: 'Estado fiscal del e-CF consultado en vivo a la autoridad tributaria',
  description:
    'Consulta de estado del e-CF (consultaestado) con el código de seguridad; para una factura de consumo enviada como resumen (menor a RD$250,000), ' +
    'el veredicto del resumen (consultarfce). Requiere que el documento esté firmado.',
  security: SECURED,
  request: { params: EncfParams },
  responses: {
    200: json(AuthorityStatusEnvelopeSchema, 'Respuesta de la autoridad.'),
    ...COMMON,
    ...NOT_FOUND,
    409: error('El documento aún no está firmado, o el emisor no tiene un certificado utilizable para autenticarse ante la autoridad.'),
    ...AUTHORITY_FAILURES,
  },
});

export const xmlRoute = createRoute({
  method: 'get',
  path: '/api/v1/documents/{eNCF}/xml',
  operationId: 'getSignedXml',
  tags: ['Consulta'],
  summary: 'Descargar el XML firmado',
  security: SECURED,
  request: { params: EncfParams },
  responses: {
    200: {
      description: 'El e-CF firmado, tal como se transmitió (para una factura de consumo resumida, el e-CF completo firmado).',
      content: { 'application/xml': { schema: z.string() } },
    },
    ...COMMON,
    ...NOT_FOUND,
    409: json(ConflictEnvelopeSchema, 'El documento aún no está firmado; `document` es el registro actual.'),
  },
});

export const pdfRoute = createRoute({
  method: 'get',
  path: '/api/v1/documents/{eNCF}/pdf',
  operationId: 'getPdf',
  tags: ['Consulta'],
  summary: 'Descargar la representación impresa (PDF)',
  description: 'Disponible cuando el documento fue aceptado por la autoridad tributaria (estado accepted_authority).',
  security: SECURED,
  request: { params: EncfParams },
  responses: {
    200: {
      description: 'PDF de la representación impresa, con el código QR del timbre.',
      content: { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    ...COMMON,
    ...NOT_FOUND,
    409: json(ConflictEnvelopeSchema, 'El documento aún no fue aceptado por la autoridad; `document` es el registro actual.'),
  },
});

export const statusesRoute = createRoute({
  method: 'get',
  path: '/api/v1/statuses',
  operationId: 'listStatuses',
  tags: ['Consulta'],
  summary: 'Catálogo de estados internos',
  security: SECURED,
  responses: {
    200: json(StatusesEnvelopeSchema, 'Estados, con su código, descripción y si son terminales.'),
    ...COMMON,
  },
});

export const openApiRoute = createRoute({
  method: 'get',
  path: '/api/v1/openapi.json',
  operationId: 'getOpenApi',
  tags: ['Documentación'],
  summary: 'Este documento OpenAPI',
  security: [],
  responses: {
    200: {
      description: 'Documento OpenAPI 3.0.',
      content: { 'application/json': { schema: z.record(z.string(), z.unknown()).openapi({ additionalProperties: true }) } },
    },
  },
});

export const docsRoute = createRoute({
  method: 'get',
  path: '/api/v1/docs',
  operationId: 'getDocsPage',
  tags: ['Documentación'],
  summary: 'Página HTML que presenta este documento',
  security: [],
  responses: { 200: { description: 'Página HTML autocontenida.', content: { 'text/html': { schema: z.string() } } } },
});
