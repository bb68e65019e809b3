/**
 * The OpenAPI parts of the event and mail routes: `/v1/{code}` per DIAN_EVENTS row (the request is the spec's
 * event payload, its schema `dianEventRequestJsonSchema(code)`, generated from the fields and rows the SDK's
 * validateDianEvent checks with; the route names the code), `/utilities/mail/send` (the mail service's own zod
 * schema, converted) and `/utilities/mail/{message_id}`.
 */
import { z } from 'zod';
import { DIAN_EVENTS, dianEventRequestJsonSchema } from '../../index.js';
import { mailRequestSchema } from '../../../shared/mail/index.js';

const eventAnswer = {
  type: 'object',
  required: ['status', 'message', 'event'],
  properties: {
    status: { enum: ['success', 'error'] },
    message: { type: 'string' },
    event: {
      type: 'object',
      properties: {
        number: { type: 'string' },
        statusCode: { enum: [5, 11, 13] },
        statusDescription: { type: 'string' },
        uuid: { type: ['string', 'null'], description: 'CUDE del evento.' },
        Base64Bytes: { type: 'string', contentEncoding: 'base64', description: 'El evento firmado, comprimido (zip).' },
        appResponseBase64Bytes: { type: ['string', 'null'], contentEncoding: 'base64' },
        attachedDocumentBase64Bytes: {
          type: ['string', 'null'],
          contentEncoding: 'base64',
          description: 'El AttachedDocument firmado del evento (el evento y la respuesta de la DIAN).',
        },
        notifications: { type: 'array', items: { type: 'string' } },
        errors: { type: 'array', items: { type: 'string' }, description: 'statusCode 11 (p. ej. `Regla: LGC01, Rechazo: …`) o 13.' },
        detailedErrors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      },
    },
  },
};

const mailErrors = {
  type: 'object',
  required: ['errors'],
  properties: {
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['message', 'field', 'help'],
        properties: { message: { type: 'string' }, field: { type: 'string' }, help: { type: ['string', 'null'] } },
      },
    },
  },
};

const mailAccepted = {
  type: 'object',
  required: ['status', 'message', 'message_id', 'date'],
  properties: {
    status: { const: 202 },
    message: { type: 'string' },
    message_id: { type: 'string' },
    date: { type: 'string', description: 'YYYY-MM-DD HH:mm:ss (Bogotá).' },
  },
};

/** A valid mail request (the OpenAPI example; the hostile-input tests mutate it). */
const mailExample = {
  personalizations: [
    {
      custom_args: { message_uuid: 'cufe-de-ejemplo', environment: '2' },
      to: [{ email: 'cliente@example.com', name: 'Ana Pérez' }],
      dynamic_template_data: {
        subject: 'Factura SETP990000001',
        header: { brand_name: 'Mi Empresa SAS' },
        body: { customer_name: 'Ana Pérez', document_type: 'Factura electrónica', document_number: 'SETP990000001', uuid: 'cufe-de-ejemplo' },
        footer: { year: '2025', brand_name: 'Mi Empresa SAS', address: 'Calle 1 # 2-3, Bogotá', telephone: '+57 601 000 0000' },
      },
    },
  ],
  from: { email: 'facturas@empresa.example', name: 'Mi Empresa' },
  email_to_notify: [],
  attachments: [{ content: 'PEludm9pY2UvPg==', mime: 'text/xml', filename: 'SETP990000001.xml' }],
};

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ref = (name: string) => json({ $ref: `#/components/schemas/${name}` });
/** The mail routes take the header `Authotization` as the published interface writes it. */
const misspelt = {
  name: 'Authotization',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description: 'Bearer <token>, como lo escribe la interfaz publicada.',
};

/** Adds the event and mail paths and their schemas. */
export function addEventAndMailPaths(paths: Record<string, unknown>, schemas: Record<string, unknown>): void {
  schemas.EventAnswer = eventAnswer;
  const { $schema: _s, ...mailSchema } = z.toJSONSchema(mailRequestSchema, { unrepresentable: 'any' }) as Record<string, unknown>;
  schemas.MailRequest = mailSchema;
  schemas.MailAccepted = mailAccepted;
  schemas.MailErrors = mailErrors;
  for (const row of Object.values(DIAN_EVENTS)) {
    const { $schema: _es, $id: _ei, ...eventSchema } = dianEventRequestJsonSchema(row.code);
    schemas[`EventRequest${row.code}`] = eventSchema;
    paths[`/v1/${row.code}`] = {
      post: {
        operationId: `event_${row.code}`,
        summary: `Evento ${row.code}: ${row.name}`,
        requestBody: { required: true, ...ref(`EventRequest${row.code}`) },
        responses: {
          '200': { description: 'Validado y enviado a la DIAN (statusCode 5).', ...ref('EventAnswer') },
          '400': { description: 'El cuerpo no es JSON válido en UTF-8: nada se envió.', ...ref('Error') },
          '401': { description: 'Token ausente o inválido.', ...ref('Error') },
          '409': { description: 'El mismo evento se está procesando en otra solicitud.', ...ref('Error') },
          '413': { description: 'El cuerpo excede el límite (2 MB por defecto): nada se envió.', ...ref('Error') },
          '422': { description: 'Validaciones del servicio (statusCode 13) o rechazo de la DIAN (statusCode 11).', ...ref('EventAnswer') },
          '502': {
            description: 'La DIAN rechazó la solicitud (falla SOAP, p. ej. de seguridad): el evento no se registró.',
            ...json({
              type: 'object',
              required: ['status', 'message', 'event'],
              properties: { status: { const: 'error' }, message: { type: 'string' }, event: { type: 'null' } },
            }),
          },
          '503': { description: 'La DIAN no responde: el evento no se envió.', ...ref('Error') },
        },
      },
    };
  }
  paths['/utilities/mail/send'] = {
    post: {
      operationId: 'mail_send',
      summary: 'Encola un correo (una entrega por personalización)',
      parameters: [misspelt],
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/MailRequest' }, example: mailExample } } },
      responses: {
        '202': { description: 'Aceptado en la bandeja de salida.', ...ref('MailAccepted') },
        '400': { description: 'El cuerpo no es JSON válido en UTF-8: nada se encoló.', ...ref('MailErrors') },
        '401': { description: 'Token ausente o inválido.', ...ref('Error') },
        '413': { description: 'El cuerpo excede el límite (2 MB por defecto): nada se encoló.', ...ref('Error') },
        '422': { description: 'Solicitud inválida: errores con la ruta del campo.', ...ref('MailErrors') },
      },
    },
  };
  paths['/utilities/mail/{message_id}'] = {
    get: {
      operationId: 'mail_events',
      summary: 'Mensajes y eventos de un correo (queued, attempt_failed, sent, failed)',
      parameters: [{ name: 'message_id', in: 'path', required: true, schema: { type: 'string' } }, misspelt],
      responses: {
        '200': { description: 'Eventos del correo.', ...json({ type: 'object' }) },
        '401': { description: 'Token ausente o inválido.', ...ref('Error') },
        '404': { description: 'No existe para esta empresa.', ...ref('MailErrors') },
      },
    },
  };
}
