/**
 * Zod schemas of the HTTP API. The OpenAPI document is generated from these (routes.ts), and the handlers
 * parse path and query parameters with the same schemas, so the document and the behaviour cannot drift.
 *
 * Naming: the issued-document record keeps the spec's field names (`document_id`, `e_ncf`, `issued_at`…);
 * bodies the spec leaves open (track ids, live status, lists) use Spanish snake_case like the spec's voiding
 * answer (`lote`, `cantidad_anulada`), reusing record names (`e_ncf`, `track_id`) for the same concepts.
 */
import { z } from '@hono/zod-openapi';
import { ECF_TYPES, ENCF_PATTERN } from '../../index.js';
import { STATUS_NAMES, STATUSES } from '../statuses.js';

const DATE_DO = /^(0[1-9]|[12]\d|3[01])-(0[1-9]|1[0-2])-\d{4}$/;
const DATE_DESC = 'Fecha dd-MM-yyyy (America/Santo_Domingo).';
const DATETIME_DESC = 'Fecha y hora dd-MM-yyyy HH:mm:ss (America/Santo_Domingo, UTC−4).';

export const EcfTypeSchema = z
  .enum(ECF_TYPES, { error: 'Tipo de e-CF inválido: use 31, 32, 33, 34, 41, 43, 44, 45, 46 o 47.' })
  .openapi({ description: 'Tipo de e-CF', example: '31' });

export const EncfSchema = z
  .string()
  .regex(ENCF_PATTERN, { error: 'e-NCF inválido: E + tipo (2 dígitos) + 10 dígitos.' })
  .openapi({ description: 'e-NCF de 13 caracteres: E + tipo (2 dígitos) + secuencial (10 dígitos).', example: 'E310000000001' });

export const StatusNameSchema = z
  .enum(STATUS_NAMES, { error: `Estado inválido: use ${STATUS_NAMES.join(', ')}.` })
  .openapi({ description: 'Estado interno (ver GET /api/v1/statuses).', example: 'received' });

// ---------------------------------------------------------------------------------------------- parameters

export const TipoParams = z.object({
  tipo: EcfTypeSchema.openapi({ param: { name: 'tipo', in: 'path' }, example: '31' }),
});

export const EncfParams = z.object({
  eNCF: EncfSchema.openapi({ param: { name: 'eNCF', in: 'path' }, example: 'E310000000001' }),
});

export const IssueHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .optional()
    .openapi({
      param: { name: 'Idempotency-Key', in: 'header' },
      description:
        'Clave de idempotencia opcional, opaca, elegida por el cliente (p. ej. un UUID): de 1 a 255 caracteres ASCII imprimibles; ' +
        'también se acepta entre comillas (`"…"`, cadena de campo estructurado). Por emisor, vigente 24 horas desde su primer uso. ' +
        'Reenviar la misma solicitud (mismo tipo, Content-Type y cuerpo byte a byte) con la misma clave devuelve el mismo 202 y el mismo documento ' +
        '(estado actual, encabezado `Idempotent-Replayed: true`) sin consumir otro e-NCF, también si las solicitudes llegan a la vez. ' +
        'La misma clave con otra solicitud responde 422. Una solicitud rechazada (422) no guarda la clave. Sin el encabezado, cada solicitud emite un documento.',
      example: '6f1c2b9e-2d7a-4c55-9a53-0e2b1f7d8c41',
    }),
});

export const MAX_LIST_LIMIT = 200;
export const DEFAULT_LIST_LIMIT = 50;

export const ListQuery = z.object({
  status: StatusNameSchema.optional().openapi({ param: { name: 'status', in: 'query' }, description: 'Filtra por estado interno.' }),
  tipo: EcfTypeSchema.optional().openapi({ param: { name: 'tipo', in: 'query' }, description: 'Filtra por tipo de e-CF.' }),
  desde: z
    .string()
    .regex(DATE_DO, { error: 'Fecha inválida: use dd-MM-yyyy.' })
    .optional()
    .openapi({ param: { name: 'desde', in: 'query' }, description: `Fecha de emisión mínima, inclusive. ${DATE_DESC}`, example: '01-04-2026' }),
  hasta: z
    .string()
    .regex(DATE_DO, { error: 'Fecha inválida: use dd-MM-yyyy.' })
    .optional()
    .openapi({ param: { name: 'hasta', in: 'query' }, description: `Fecha de emisión máxima, inclusive. ${DATE_DESC}`, example: '30-04-2026' }),
  rnc_comprador: z
    .string()
    .regex(/^(?:\d{9}|\d{11})$/, { error: 'RNC o cédula inválido: 9 dígitos (RNC) u 11 dígitos (cédula), sin guiones.' })
    .optional()
    .openapi({
      param: { name: 'rnc_comprador', in: 'query' },
      description: 'Filtra por el RNC (9 dígitos) o la cédula (11 dígitos) del comprador (RNCComprador del e-CF), sin guiones. Coincidencia exacta.',
      example: '131880738',
    }),
  numero_factura_interna: z
    .string()
    .min(1, { error: 'numero_factura_interna no puede estar vacío.' })
    .max(20, { error: 'numero_factura_interna admite como máximo 20 caracteres (NumeroFacturaInterna).' })
    .optional()
    .openapi({
      param: { name: 'numero_factura_interna', in: 'query' },
      description:
        'Filtra por el número de factura interno del emisor (NumeroFacturaInterna del e-CF, 1 a 20 caracteres), tal como se envió. ' +
        'Coincidencia exacta; sirve para encontrar un documento ya enviado.',
      example: 'FAC-000123',
    }),
  cursor: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, { error: 'Cursor inválido: use el valor next_cursor de la página anterior.' })
    .optional()
    .openapi({ param: { name: 'cursor', in: 'query' }, description: 'Valor `next_cursor` de la página anterior (opaco).' }),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, { error: `limit debe ser un entero entre 1 y ${MAX_LIST_LIMIT}.` })
    .refine((v) => Number(v) >= 1 && Number(v) <= MAX_LIST_LIMIT, { error: `limit debe ser un entero entre 1 y ${MAX_LIST_LIMIT}.` })
    .optional()
    .openapi({
      param: { name: 'limit', in: 'query' },
      description: `Tamaño de página, 1 a ${MAX_LIST_LIMIT} (por defecto ${DEFAULT_LIST_LIMIT}).`,
      example: '50',
    }),
});

// ---------------------------------------------------------------------------------------------- bodies

// `additionalProperties: true` rather than the generator's `{ nullable: true }`, a `nullable` without `type`
// that OpenAPI 3.0 does not allow (Redocly's nullable-type-sibling).
export const CanonicalDocumentSchema = z.record(z.string(), z.unknown()).openapi('CanonicalDocument', {
  additionalProperties: true,
  description:
    'e-CF en JSON canónico (snake_case, español). El esquema completo de cada tipo está en schemas/ecf-{tipo}.schema.json del paquete; ' +
    'las reglas de negocio se validan en el servicio. El emisor, el e-NCF y la fecha de emisión no se envían. `null` equivale a omitir el campo.',
  example: {
    id_doc: { tipo_ingresos: '01', tipo_pago: '1' },
    comprador: { rnc: '131880738', razon_social: 'Cliente SRL' },
    items: [{ indicador_facturacion: 1, nombre: 'Café molido 1 lb', indicador_bien_servicio: '1', cantidad: 2, precio_unitario: 100, monto: 200 }],
    totales: { monto_gravado_total: 200, monto_gravado_i1: 200, itbis1: 18, total_itbis: 36, total_itbis1: 36, monto_total: 236 },
  },
});

export const XmlDocumentSchema = z.string().openapi('UnsignedEcfXml', {
  description:
    'e-CF en XML sin firmar (modo passthrough), codificado en UTF-8. Se almacena y transmite sin cambios; el servicio solo agrega la firma. ' +
    'No se aceptan DOCTYPE ni entidades.',
  example: '<?xml version="1.0" encoding="utf-8"?><ECF><Encabezado><Version>1.0</Version>…</Encabezado>…</ECF>',
});

// ---------------------------------------------------------------------------------------------- records

const ErrorsArray = z.array(z.string()).nullable().openapi({ description: 'Motivos de rechazo (español) o null.' });

export const IssuedDocumentSchema = z
  .object({
    document_id: z.number().int().openapi({ description: 'Identificador interno.', example: 1 }),
    ecf_type_code: EcfTypeSchema,
    e_ncf: EncfSchema,
    track_id: z.string().nullable().openapi({ description: 'Identificador de seguimiento de la autoridad; null hasta la transmisión.', example: null }),
    status_code: z.number().int().openapi({ example: 1 }),
    status: StatusNameSchema,
    status_description: z.string().openapi({ example: STATUSES[0]!.description }),
  })
  .openapi('IssuedDocument');

export const DocumentRecordSchema = IssuedDocumentSchema.extend({
  is_valid_fiscally: z.boolean().openapi({ description: 'true cuando la autoridad tributaria lo aceptó.' }),
  security_code: z
    .string()
    .nullable()
    .openapi({ description: 'Código de seguridad (6 caracteres del SignatureValue); null hasta la firma.', example: 'm+tPLr' }),
  issued_at: z.string().openapi({ description: DATE_DESC, example: '01-04-2026' }),
  signed_at: z
    .string()
    .nullable()
    .openapi({ description: `${DATETIME_DESC} null hasta la firma.`, example: '01-04-2026 10:15:02' }),
  total_amount: z.string().openapi({ description: 'Monto total, decimal con 2 posiciones.', example: '236.00' }),
  total_itbis: z.string().openapi({ description: 'ITBIS total, decimal con 2 posiciones.', example: '36.00' }),
  sequence_reusable: z.boolean().nullable().openapi({ description: 'En un rechazo definitivo, si el e-NCF puede reutilizarse; null si no se sabe.' }),
  errors: ErrorsArray,
  commercial_approvals: z
    .array(
      z.object({
        estado: z.union([z.literal(1), z.literal(2)]).openapi({ description: '1 aprobado, 2 rechazado por el comprador.' }),
        motivo_rechazo: z.string().nullable(),
        rnc_comprador: z.string(),
        received_at: z.string().openapi({ description: DATETIME_DESC }),
      }),
    )
    .optional()
    .openapi({
      description: 'Aprobaciones o rechazos comerciales (ACECF) que el comprador envió a /fe/aprobacioncomercial/api/ecf; solo en la consulta individual.',
    }),
}).openapi('DocumentRecord');

export const ValidationDocumentSchema = z
  .object({
    status_code: z.literal(2),
    status: z.literal('rejected_validation'),
    status_description: z.string(),
    errors: z.array(z.string()).openapi({ description: 'Mensajes en español, planos.' }),
    detailed_errors: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .openapi({
        description:
          'Ruta del campo (`id_doc.tipo_ingresos`, `items.0.cantidad`; rutas XML `/ECF/…` para el XSD) → mensajes. Ausente cuando no hay secuencia disponible.',
        example: { 'id_doc.tipo_ingresos': ['Campo requerido para el tipo 33.'] },
      }),
  })
  .openapi('RejectedValidation');

// ---------------------------------------------------------------------------------------------- envelopes

export const ErrorEnvelopeSchema = z
  .object({
    status: z.literal('error'),
    message: z.string().openapi({ description: 'Mensaje en español.' }),
    document: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: 'Detalle (errors, detailed_errors, registro…) o null.', additionalProperties: true }),
  })
  .openapi('ErrorEnvelope');

export const ValidationErrorEnvelopeSchema = z
  .object({
    status: z.literal('error'),
    message: z.string(),
    document: ValidationDocumentSchema,
  })
  .openapi('ValidationErrorEnvelope');

/** Error envelope whose `document` is the current record (409 on xml/pdf). */
export const ConflictEnvelopeSchema = z
  .object({
    status: z.literal('error'),
    message: z.string(),
    document: DocumentRecordSchema,
  })
  .openapi('ConflictEnvelope');

export const AuthorityErrorEnvelopeSchema = z
  .object({
    status: z.literal('error'),
    message: z.string(),
    document: z.object({
      errors: z.array(z.string()),
      mensajes_autoridad: z.array(z.object({ codigo: z.string().nullable(), valor: z.string() })).optional(),
    }),
  })
  .openapi('AuthorityErrorEnvelope');

export const ValidationWarningSchema = z
  .object({
    path: z.string().openapi({ description: 'Ruta del campo en el JSON canónico.', example: 'id_doc.tipo_ingresos' }),
    code: z.string().openapi({ description: 'Código estable del aviso.', example: 'required' }),
    rule_id: z.string().optional().openapi({ description: 'Regla que lo emite (docs/validation.md).', example: 'ECF-IDDOC-TIPO-INGRESOS' }),
    message: z.string().openapi({ description: 'Mensaje en español.' }),
  })
  .openapi('ValidationWarning');

export const IssuedEnvelopeSchema = z
  .object({
    status: z.literal('success'),
    message: z.string(),
    document: IssuedDocumentSchema,
    warnings: z.array(ValidationWarningSchema).optional().openapi({
      description:
        'Advertencias de validación: reglas que no rechazan porque la DGII acepta el documento (lecturas más estrictas de la especificación, consejos, tolerancias). Ausente cuando no hay ninguna y en una repetición con la misma `Idempotency-Key`.',
    }),
  })
  .openapi('IssuedEnvelope');

export const RecordEnvelopeSchema = z
  .object({
    status: z.literal('success'),
    message: z.string(),
    document: DocumentRecordSchema,
  })
  .openapi('RecordEnvelope');

export const ListEnvelopeSchema = z
  .object({
    status: z.literal('success'),
    message: z.string(),
    data: z.object({
      items: z.array(DocumentRecordSchema),
      next_cursor: z.string().nullable().openapi({ description: 'Cursor de la página siguiente (pásese como `cursor`); null en la última.' }),
    }),
  })
  .openapi('DocumentListEnvelope');

export const StatusInfoSchema = z
  .object({
    status: StatusNameSchema,
    status_code: z.number().int(),
    description: z.string(),
    terminal: z.boolean().openapi({ description: 'true cuando el documento ya no cambia de estado.' }),
  })
  .openapi('StatusInfo');

export const StatusesEnvelopeSchema = z
  .object({
    status: z.literal('success'),
    message: z.string(),
    data: z.array(StatusInfoSchema),
  })
  .openapi('StatusesEnvelope');

const AuthorityMessageSchema = z.object({ codigo: z.string().nullable(), valor: z.string() }).openapi('AuthorityMessage');

export const TrackIdsEnvelopeSchema = z
  .object({
    status: z.literal('success'),
    message: z.string(),
    data: z.object({
      e_ncf: EncfSchema,
      envios: z
        .array(
          z.object({
            tipo_envio: z.enum(['ecf', 'rfce']).openapi({ description: '`ecf`: e-CF completo; `rfce`: resumen de factura de consumo.' }),
            track_id: z.string().nullable().openapi({ description: 'null para un resumen RFCE (se resuelve en la misma llamada).' }),
            estado: z.string().nullable().openapi({ description: 'Estado informado por la autoridad en ese envío.', example: 'Aceptado' }),
            fecha: z.string().openapi({ description: DATETIME_DESC }),
          }),
        )
        .openapi({ description: 'Envíos que este servicio hizo, del más antiguo al más reciente.' }),
      autoridad: z
        .object({
          consultada: z.boolean().openapi({ description: 'true cuando la consulta en vivo (consultatrackids) respondió.' }),
          track_ids: z.array(
            z.object({
              track_id: z.string(),
              estado: z.string().openapi({ example: 'Aceptado' }),
              fecha_recepcion: z.string().nullable().openapi({ description: DATETIME_DESC }),
            }),
          ),
          error: z.string().nullable().openapi({ description: 'Motivo cuando la consulta en vivo no pudo hacerse.' }),
        })
        .openapi({ description: 'Respuesta en vivo de la autoridad; si falla, el resto de la respuesta sigue siendo válido.' }),
    }),
  })
  .openapi('TrackIdsEnvelope');

export const AuthorityStatusEnvelopeSchema = z
  .object({
    status: z.literal('success'),
    message: z.string(),
    data: z.object({
      e_ncf: EncfSchema,
      servicio: z.enum(['estado_ecf', 'resumen_rfce']).openapi({
        description:
          '`estado_ecf`: consulta de estado del e-CF (consultaestado); `resumen_rfce`: veredicto del resumen de una factura de consumo menor a RD$250,000 (consultarfce).',
      }),
      codigo: z
        .number()
        .int()
        .openapi({ description: 'Código de la autoridad: 0 no encontrado, 1 aceptado, 2 rechazado, 3 en proceso, 4 aceptado condicional.' }),
      estado: z.string().openapi({ example: 'Aceptado' }),
      valido_fiscalmente: z.boolean().openapi({ description: 'true con los códigos 1 (aceptado) y 4 (aceptado condicional).' }),
      rnc_emisor: z.string().nullable(),
      rnc_comprador: z.string().nullable(),
      id_extranjero: z.string().nullable(),
      monto_total: z.string().nullable(),
      total_itbis: z.string().nullable(),
      fecha_emision: z.string().nullable(),
      fecha_firma: z.string().nullable(),
      codigo_seguridad: z.string().nullable(),
      track_id: z.string().nullable(),
      secuencia_utilizada: z.boolean().nullable().openapi({ description: 'Solo en resumen_rfce: si el e-NCF quedó consumido.' }),
      mensajes: z.array(AuthorityMessageSchema),
      consultado_en: z.string().openapi({ description: DATETIME_DESC }),
    }),
  })
  .openapi('AuthorityStatusEnvelope');
