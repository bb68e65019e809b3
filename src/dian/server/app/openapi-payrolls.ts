/**
 * The OpenAPI parts of the payroll routes: `POST /service/payrolls` (102) and `POST /service/payrolls/adjustment`
 * (103), their request bodies the SDK's payroll schema (payrollRequestJsonSchema) plus the service's `testSetId`, and
 * `GET /service/payrolls/{payrollId}` with the spec's payroll status record.
 */
import { PAYROLL_KINDS, type PayrollKindId, payrollRequestJsonSchema } from '../../index.js';
import { PAYROLL_PATHS } from './payrolls.js';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ref = (name: string) => json({ $ref: `#/components/schemas/${name}` });

const testSetId = {
  type: 'string',
  minLength: 1,
  description: 'Habilitación: el set de pruebas; la nómina se envía con SendTestSetAsync y su estado se lee con GetStatusZip.',
};

/** A request schema with the service's `testSetId` beside the payroll's keys (in each note-type branch for 103). */
function withTestSet(schema: Record<string, unknown>): Record<string, unknown> {
  const add = (s: Record<string, unknown>) => ({ ...s, properties: { ...(s.properties as object), testSetId } });
  if (Array.isArray(schema.oneOf)) return { ...schema, oneOf: schema.oneOf.map((b) => add(b as Record<string, unknown>)) };
  return add(schema);
}

const nil = { type: 'object', properties: { _attributes: { type: 'object', properties: { nil: { const: 'true' } } } }, description: 'Valor ausente (i:nil).' };
const text = { oneOf: [{ type: 'string' }, nil] };

const statusRecord = {
  type: 'object',
  required: ['data', 'dianResponse'],
  properties: {
    data: {
      type: 'object',
      required: [
        'id',
        'payroll_id',
        'testing_set',
        'signed_xml_key',
        'generator_id',
        'signed_xml',
        'consecutive_id',
        'type',
        'xml_type',
        'status',
        'created_at',
        'updated_at',
      ],
      properties: {
        id: { type: 'integer' },
        payroll_id: { type: ['integer', 'null'], description: 'En una nota de ajuste (103): el id de la nómina que ajusta, si se envió por este servicio.' },
        testing_set: { type: ['string', 'null'], description: 'El set de pruebas (testSetId) o null.' },
        signed_xml_key: { type: ['string', 'null'], description: 'La clave con la que se consulta en la DIAN: el ZipKey en un set de pruebas, si no el CUNE.' },
        generator_id: { type: 'string', description: 'El software que generó el XML (ProveedorXML/@SoftwareID).' },
        signed_xml: { type: ['string', 'null'], description: 'Nombre del XML firmado (nie…/niae….xml).' },
        consecutive_id: { type: 'integer' },
        type: { enum: ['sync', 'test_set'], description: 'sync: SendNominaSync; test_set: SendTestSetAsync.' },
        xml_type: { enum: [102, 103] },
        status: { enum: [0, 1, 2, 3], description: '0 en construcción, 1 enviada sin veredicto, 2 aceptada, 3 rechazada.' },
        created_at: { type: 'string', format: 'date-time' },
        updated_at: { type: 'string', format: 'date-time' },
      },
    },
    dianResponse: {
      type: 'object',
      required: ['responseDian', 'isValid', 'applicationResponseBytes', 'attachedDocumentBytes'],
      properties: {
        responseDian: {
          type: ['object', 'null'],
          description: 'La respuesta de la DIAN en la forma SOAP de GetStatusZip; null mientras no hay respuesta.',
          properties: {
            Envelope: {
              type: 'object',
              properties: {
                Header: {
                  type: 'object',
                  properties: {
                    Action: { type: 'string' },
                    Security: {
                      type: 'object',
                      properties: { Timestamp: { type: 'object', properties: { Created: { type: 'string' }, Expires: { type: 'string' } } } },
                    },
                  },
                },
                Body: {
                  type: 'object',
                  properties: {
                    GetStatusZipResponse: {
                      type: 'object',
                      properties: {
                        GetStatusZipResult: {
                          type: 'object',
                          properties: {
                            DianResponse: {
                              type: 'object',
                              properties: {
                                ErrorMessage: { type: 'object', properties: { string: { type: 'array', items: { type: 'string' } } } },
                                IsValid: { enum: ['true', 'false'] },
                                StatusCode: text,
                                StatusDescription: text,
                                StatusMessage: text,
                                XmlBase64Bytes: text,
                                XmlBytes: text,
                                XmlDocumentKey: text,
                                XmlFileName: text,
                              },
                            },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
        isValid: { type: 'boolean' },
        applicationResponseBytes: { type: ['string', 'null'], contentEncoding: 'base64' },
        attachedDocumentBytes: { type: ['string', 'null'], contentEncoding: 'base64' },
      },
    },
  },
};

const payrollAnswer = {
  type: 'object',
  required: ['status', 'message', 'payrollId', 'document'],
  properties: {
    status: { const: 'success' },
    message: { type: 'string' },
    payrollId: { type: 'string', description: 'El identificador para GET /service/payrolls/{payrollId}.' },
    document: {
      type: 'object',
      properties: {
        number: { type: 'string', description: 'Prefijo y consecutivo.' },
        xml_type: { enum: [102, 103] },
        uuid: { type: 'string', description: 'CUNE.' },
        status: { enum: [1, 2], description: '2 aceptada; 1 enviada al set de pruebas, sin veredicto aún.' },
        statusCode: { enum: [6, null] },
        statusDescription: { type: 'string' },
        zipKey: { type: ['string', 'null'] },
        zipBase64Bytes: { type: 'string', contentEncoding: 'base64' },
        appResponseBase64Bytes: { type: ['string', 'null'], contentEncoding: 'base64' },
        notifications: { type: 'array', items: { type: 'string' } },
      },
    },
  },
};

const payrollRejection = {
  type: 'object',
  required: ['status', 'message', 'document'],
  properties: {
    status: { const: 'error' },
    message: { type: 'string' },
    payrollId: { type: 'string', description: 'Solo en el rechazo de la DIAN (statusCode 11): la nómina queda consultable.' },
    document: {
      type: 'object',
      properties: {
        number: { type: 'string' },
        xml_type: { enum: [102, 103] },
        uuid: { type: 'string', description: 'CUNE.' },
        status: { const: 3 },
        statusCode: { enum: [11, 13] },
        statusDescription: { type: 'string' },
        Errors: { type: 'array', items: { type: 'string' }, description: 'statusCode 11: `Regla: X, Rechazo: …`.' },
        errors: { type: 'array', items: { type: 'string' }, description: 'statusCode 13.' },
        detailedErrors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      },
    },
  },
};

/** Adds the payroll paths and schemas. */
export function addPayrollPaths(paths: Record<string, unknown>, schemas: Record<string, unknown>): void {
  schemas.PayrollAnswer = payrollAnswer;
  schemas.PayrollStatusRecord = statusRecord;
  schemas.PayrollRejection = payrollRejection;
  for (const [kind, path] of Object.entries(PAYROLL_PATHS) as [PayrollKindId, string][]) {
    const name = `Request_${kind.replace(/-/g, '_')}`;
    const { $schema: _s, $id: _i, ...schema } = payrollRequestJsonSchema(kind);
    schemas[name] = withTestSet(schema);
    paths[path] = {
      post: {
        operationId: `submit_${kind.replace(/-/g, '_')}`,
        summary: `Envía ${PAYROLL_KINDS[kind].name}`,
        parameters: [{ name: 'Authotization', in: 'header', required: false, schema: { type: 'string' }, description: 'Se acepta en lugar de Authorization.' }],
        requestBody: { required: true, ...ref(name) },
        responses: {
          '200': { description: 'Aceptada por la DIAN (status 2), o enviada al set de pruebas (status 1).', ...ref('PayrollAnswer') },
          '400': { description: 'El cuerpo no es JSON válido en UTF-8: nada se envió.', ...ref('Error') },
          '401': { description: 'Token ausente o inválido.', ...ref('Error') },
          '409': { description: 'La misma nómina se está procesando en otra solicitud.', ...ref('Error') },
          '413': { description: 'El cuerpo excede el límite (2 MB por defecto): nada se envió.', ...ref('Error') },
          '422': { description: 'Validaciones del servicio (statusCode 13) o rechazo de la DIAN (statusCode 11, status 3).', ...ref('PayrollRejection') },
          '503': {
            description: 'La DIAN no responde: nada se envió y el número sigue libre; o no confirmó un envío (con payrollId: consulte su estado).',
            ...ref('Error'),
          },
        },
      },
    };
  }
  paths['/service/payrolls/{payrollId}'] = {
    get: {
      operationId: 'get_payroll',
      summary: 'Estado de una nómina en la DIAN (consulta a la DIAN si aún no hay veredicto)',
      parameters: [
        { name: 'payrollId', in: 'path', required: true, schema: { type: 'string' }, description: 'El payrollId de la respuesta al envío, o el CUNE.' },
        { name: 'Authotization', in: 'header', required: false, schema: { type: 'string' }, description: 'Se acepta en lugar de Authorization.' },
      ],
      responses: {
        '200': { description: 'El registro de estado de la nómina.', ...ref('PayrollStatusRecord') },
        '401': { description: 'Token ausente o inválido.', ...ref('Error') },
        '404': { description: 'No existe para esta empresa.', ...ref('Error') },
      },
    },
  };
}
