/**
 * The service's OpenAPI 3.1 document, built from the same descriptions that run: each document endpoint is a
 * row of DIAN_KINDS with its request body's JSON Schema (dianRequestJsonSchema, the one behind
 * schemas/dian-<kind>.schema.json and validateDianRequest's field table).
 */
import { DIAN_KINDS, dianRequestJsonSchema } from '../../index.js';
import { addEventAndMailPaths } from './openapi-events.js';
import { addPayrollPaths } from './openapi-payrolls.js';

const errorBody = {
  type: 'object',
  required: ['status', 'message', 'document'],
  properties: { status: { const: 'error' }, message: { type: 'string' }, document: { type: ['object', 'null'] } },
};

const documentAnswer = {
  type: 'object',
  required: ['status', 'message', 'document'],
  properties: {
    status: { const: 'success' },
    message: { type: 'string' },
    document: {
      type: 'object',
      required: [
        'number',
        'statusCode',
        'statusDescription',
        'uuid',
        'zipBase64Bytes',
        'pdfBase64Bytes',
        'appResponseBase64Bytes',
        'attachedDocumentBase64Bytes',
      ],
      properties: {
        number: { type: 'string', description: 'Prefijo y consecutivo.' },
        statusCode: { const: 6 },
        statusDescription: { type: 'string' },
        uuid: { type: 'string', description: 'CUFE, CUDE o CUDS.' },
        zipBase64Bytes: { type: 'string', contentEncoding: 'base64' },
        pdfBase64Bytes: { type: ['string', 'null'], contentEncoding: 'base64' },
        appResponseBase64Bytes: { type: ['string', 'null'], contentEncoding: 'base64' },
        attachedDocumentBase64Bytes: { type: 'string', contentEncoding: 'base64' },
        notifications: { type: 'array', items: { type: 'string' }, description: 'Notificaciones de la DIAN (`Regla: X, Notificación: …`).' },
      },
    },
  },
};

const rejection = {
  type: 'object',
  properties: {
    status: { const: 'error' },
    message: { type: 'string' },
    document: {
      type: 'object',
      properties: {
        number: { type: 'string' },
        statusCode: { enum: [11, 13] },
        statusDescription: { type: 'string' },
        Errors: { type: 'array', items: { type: 'string' }, description: 'statusCode 11: `Regla: X, Rechazo: …`.' },
        errors: { type: 'array', items: { type: 'string' }, description: 'statusCode 13.' },
        detailedErrors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      },
    },
  },
};

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const unauthorized = { description: 'Token ausente o inválido.', ...json({ $ref: '#/components/schemas/Error' }) };

/** The OpenAPI document of the DIAN service. */
export function dianOpenApi(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = { DocumentAnswer: documentAnswer, Rejection: rejection, Error: errorBody };
  for (const kind of Object.values(DIAN_KINDS)) {
    const name = `Request_${kind.id.replace(/-/g, '_')}`;
    const { $schema: _s, $id: _i, ...schema } = dianRequestJsonSchema(kind.id);
    schemas[name] = schema;
    paths[kind.path] = {
      post: {
        operationId: `issue_${kind.id.replace(/-/g, '_')}`,
        summary: `Emite ${kind.name}`,
        requestBody: { required: true, ...json({ $ref: `#/components/schemas/${name}` }) },
        responses: {
          '200': { description: 'Validado y aceptado por la DIAN (statusCode 6).', ...json({ $ref: '#/components/schemas/DocumentAnswer' }) },
          '400': { description: 'El cuerpo no es JSON válido en UTF-8: nada se emitió.', ...json({ $ref: '#/components/schemas/Error' }) },
          '202': {
            description: 'Set de pruebas de habilitación: la DIAN recibió el documento y aún lo valida (statusCode null, zipKey); repita la misma solicitud.',
            ...json({ type: 'object' }),
          },
          '401': { description: 'Token ausente o inválido.', ...json({ $ref: '#/components/schemas/Error' }) },
          '409': { description: 'El mismo documento se está procesando en otra solicitud.', ...json({ $ref: '#/components/schemas/Error' }) },
          '413': { description: 'El cuerpo excede el límite (2 MB por defecto): nada se emitió.', ...json({ $ref: '#/components/schemas/Error' }) },
          '422': {
            description: 'Validaciones del servicio (statusCode 13) o rechazo de la DIAN (statusCode 11).',
            ...json({ $ref: '#/components/schemas/Rejection' }),
          },
          '502': {
            description:
              'La DIAN rechazó la solicitud (falla SOAP, p. ej. de seguridad) o aceptó pero su ApplicationResponse no se pudo leer (reintente: se consulta su estado).',
            ...json({ $ref: '#/components/schemas/Error' }),
          },
          '503': { description: 'La DIAN no responde: nada se emitió; use /service/contingency-invoice.', ...json({ $ref: '#/components/schemas/Error' }) },
        },
      },
    };
  }
  paths['/service/documents/{id}'] = {
    get: {
      operationId: 'get_document',
      summary: 'Un documento de la empresa por prefijo y número o por CUFE/CUDE',
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': { description: 'Estado y archivos del documento.', ...json({ type: 'object' }) },
        '401': unauthorized,
        '404': { description: 'No existe para esta empresa.', ...json({ $ref: '#/components/schemas/Error' }) },
      },
    },
  };
  const query = (name: string, description: string) => ({ name, in: 'query', required: false, description, schema: { type: 'string' } });
  paths['/service/documents'] = {
    get: {
      operationId: 'list_documents',
      summary: 'Los documentos de la empresa, del más reciente al más antiguo, por páginas',
      parameters: [
        query('kind', 'Tipo de documento (fila de DIAN_KINDS, p. ej. invoice).'),
        query('state', 'Estado: building, sending, accepted, rejected, contingency_pending o test_set_pending.'),
        query('from', 'Creado desde (aaaa-MM-dd o instante ISO 8601).'),
        query('to', 'Creado hasta (aaaa-MM-dd incluye todo el día UTC, o instante ISO 8601).'),
        query('number', 'Prefijo y número (SETP990000001) o solo el número.'),
        query('limit', 'Entre 1 y 100; por defecto 50.'),
        query('cursor', 'El nextCursor de la página anterior.'),
      ],
      responses: {
        '200': { description: 'Una página: documents y nextCursor (null en la última).', ...json({ type: 'object' }) },
        '400': { description: 'Parámetros inválidos (errors con su path).', ...json({ $ref: '#/components/schemas/Error' }) },
        '401': unauthorized,
      },
    },
  };
  paths['/service/contingency/pending'] = {
    get: {
      operationId: 'list_contingency_pending',
      summary: 'Documentos emitidos en contingencia aún no transmitidos, con las horas que quedan para transmitirlos',
      responses: {
        '200': { description: 'deadlineHours y documents (hoursLeft negativo: vencido).', ...json({ type: 'object' }) },
        '401': unauthorized,
      },
    },
  };
  paths['/service/test-set'] = {
    get: {
      operationId: 'get_test_set',
      summary: 'Set de pruebas de habilitación de la empresa y conteo de los documentos enviados a cada set (aceptados, rechazados, en proceso)',
      responses: { '200': { description: 'testSetId (null fuera del set de pruebas) y testSets.', ...json({ type: 'object' }) }, '401': unauthorized },
    },
  };
  addEventAndMailPaths(paths, schemas);
  addPayrollPaths(paths, schemas);
  // The two public routes: this document and the page that presents it.
  paths['/service/openapi.json'] = {
    get: {
      operationId: 'get_openapi',
      summary: 'Este documento OpenAPI',
      security: [],
      responses: { '200': { description: 'Documento OpenAPI 3.1.', ...json({ type: 'object' }) } },
    },
  };
  paths['/service/docs'] = {
    get: {
      operationId: 'get_docs_page',
      summary: 'Página HTML que presenta este documento',
      security: [],
      responses: { '200': { description: 'Página HTML autocontenida.', content: { 'text/html': { schema: { type: 'string' } } } } },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'ecf-kit: servicio de documentos electrónicos de Colombia (DIAN)',
      version: '0.1.0',
      description:
        'Facturas, notas, documento soporte, POS, contingencia y eventos RADIAN ante la DIAN. Todas las rutas salvo la documentación exigen `Authorization: Bearer <token>`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'Este servicio.' }],
    security: [{ bearer: [] }],
    paths,
    components: { schemas, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  };
}
