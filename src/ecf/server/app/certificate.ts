/**
 * The issuer's own signing certificate: `POST /api/v1/certificate` (multipart upload of the .p12 and its
 * password) and `GET /api/v1/certificate` (validity and days remaining).
 *
 * The upload is checked by `prepareCertificate` (opens with the password, holder's tax id = the issuer's
 * RNC, valid now), sealed with the server's certificate key together with its password, and stored; the
 * issuer's signing mode becomes `own`. The file is never returned. Issuers signing with the provider's
 * certificate need no upload, but may upload their own to switch to it.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { formatDateTimeDO } from '../../index.js';
import { prepareCertificate } from '../certificates.js';
import type { Issuer, IssuerStore } from '../storage/types.js';
import { readLimited } from './body.js';
import { ApiError, formatBytes } from './errors.js';
import { detailedReport, type RouteContext } from './route-context.js';
import { COMMON, error, json, SECURED } from './routes.js';

/** Largest accepted .p12 (a real one is a few KB; the limit only keeps junk out). */
export const CERTIFICATE_MAX_BYTES = 1024 * 1024;
// Room for the multipart framing and the password field around the file.
const FORM_OVERHEAD_BYTES = 64 * 1024;
const MS_PER_DAY = 86_400_000;

export const CERTIFICATE_MESSAGES = {
  uploaded: 'Certificado cargado: el emisor firma desde ahora con su propio certificado.',
  refused: 'El certificado no fue aceptado.',
  badForm: 'Envíe un formulario multipart/form-data con los campos certificate (archivo .p12) y password.',
  tooLarge: `El archivo excede el límite de ${formatBytes(CERTIFICATE_MAX_BYTES)}; un certificado .p12 ocupa normalmente unos pocos KB.`,
  noKey: 'El servicio no tiene configurada la llave que cifra los certificados (ECF_CERT_KEY): no puede guardar certificados.',
  provider:
    'El emisor firma con el certificado del proveedor: delegó el rol de firmante al servicio en la Oficina Virtual de la autoridad tributaria ' +
    'y no necesita subir un certificado. Si sube el suyo con POST /api/v1/certificate, pasará a firmar con su propio certificado.',
  ownMissing: 'El emisor firma con su propio certificado y aún no ha subido ninguno: súbalo con POST /api/v1/certificate (campos certificate y password).',
  ownExpired: 'El certificado venció: los documentos no pueden firmarse hasta que suba uno vigente.',
  ownValid: 'Certificado vigente.',
} as const;

// ---------------------------------------------------------------------------------------------- schemas

const DATETIME = 'Fecha y hora dd-MM-yyyy HH:mm:ss (America/Santo_Domingo).';

const CertificateStatusSchema = z
  .object({
    signing_mode: z
      .enum(['own', 'provider'])
      .openapi({ description: '`own`: certificado propio subido; `provider`: certificado del proveedor con rol delegado.' }),
    has_certificate: z.boolean().openapi({ description: 'true cuando el emisor subió un certificado.' }),
    subject: z.string().nullable().openapi({ description: 'Sujeto del certificado.', example: 'CN=MARIA PEREZ, SERIALNUMBER=130182452, C=DO' }),
    certificate_issuer: z.string().nullable().openapi({ description: 'Entidad certificadora que lo emitió.' }),
    tax_id: z.string().nullable().openapi({ description: 'RNC o cédula del titular (serialNumber del sujeto).', example: '130182452' }),
    serial_number: z.string().nullable().openapi({ description: 'Número de serie del certificado (hexadecimal).' }),
    valid_from: z.string().nullable().openapi({ description: DATETIME }),
    valid_to: z.string().nullable().openapi({ description: DATETIME }),
    uploaded_at: z.string().nullable().openapi({ description: DATETIME }),
    days_remaining: z.number().int().nullable().openapi({ description: 'Días completos hasta el vencimiento (0 si venció).', example: 290 }),
    expired: z.boolean().nullable().openapi({ description: 'true si ya venció.' }),
    note: z.string().openapi({ description: 'Explicación en español del estado.' }),
  })
  .openapi('CertificateStatus');

const CertificateEnvelopeSchema = z
  .object({
    status: z.literal('success'),
    message: z.string(),
    data: CertificateStatusSchema,
  })
  .openapi('CertificateEnvelope');

const CertificateUploadSchema = z
  .object({
    certificate: z
      .string()
      .openapi({ format: 'binary', description: `Archivo .p12 / .pfx (PKCS#12) con la llave privada; máximo ${formatBytes(CERTIFICATE_MAX_BYTES)}.` }),
    password: z.string().openapi({ description: 'Contraseña del archivo .p12.' }),
  })
  .openapi('CertificateUpload');

const CertificateRefusedSchema = z
  .object({
    status: z.literal('error'),
    message: z.string(),
    document: z.object({
      code: z.string().openapi({
        description:
          'Código estable: invalid_file, wrong_password, no_private_key, no_certificate, unsupported_key, no_tax_id, tax_id_mismatch, expired, not_yet_valid, invalid_form.',
      }),
      errors: z.array(z.string()),
      detailed_errors: z.record(z.string(), z.array(z.string())).openapi({ example: { password: ['La contraseña no abre el certificado .p12. …'] } }),
    }),
  })
  .openapi('CertificateRefusedEnvelope');

export const certificateGetRoute = createRoute({
  method: 'get',
  path: '/api/v1/certificate',
  operationId: 'getCertificate',
  tags: ['Certificado'],
  summary: 'Vigencia del certificado de firma del emisor',
  description:
    'Para emisores con certificado propio: sujeto, RNC del titular, vigencia y días restantes. Los emisores que firman con el certificado del proveedor ' +
    'reciben su modo de firma y una nota (no necesitan subir nada).',
  security: SECURED,
  responses: {
    200: json(CertificateEnvelopeSchema, 'Estado del certificado.'),
    ...COMMON,
  },
});

export const certificatePostRoute = createRoute({
  method: 'post',
  path: '/api/v1/certificate',
  operationId: 'uploadCertificate',
  tags: ['Certificado'],
  summary: 'Subir o reemplazar el certificado .p12 del emisor',
  description:
    'Formulario multipart con `certificate` (archivo .p12) y `password`. Se verifica que abra con la contraseña, que el RNC del titular sea el del emisor ' +
    'y que esté vigente; se guarda cifrado y nunca se devuelve. El modo de firma del emisor pasa a `own` (también para quien firmaba con el certificado del proveedor).',
  security: SECURED,
  request: { body: { required: true, content: { 'multipart/form-data': { schema: CertificateUploadSchema } } } },
  responses: {
    200: json(CertificateEnvelopeSchema, 'Certificado aceptado y guardado; `data` es su estado.'),
    ...COMMON,
    413: error(`El archivo excede ${formatBytes(CERTIFICATE_MAX_BYTES)}.`),
    415: error('Content-Type distinto de multipart/form-data.'),
    422: json(
      CertificateRefusedSchema,
      'Certificado rechazado: no es un .p12, contraseña incorrecta, de otro RNC, vencido o aún no válido; o formulario incompleto.',
    ),
    503: error('El servicio no tiene configurada la llave de cifrado de certificados.'),
  },
});

// ---------------------------------------------------------------------------------------------- handlers

/** The `data` of both routes, from the issuer's stored certificate metadata and the clock. */
export function certificateStatus(issuer: Issuer, now: Date) {
  const info = issuer.certificateInfo as Record<string, unknown> | null;
  const text = (k: string) => (info && typeof info[k] === 'string' ? (info[k] as string) : null);
  const instant = (k: string) => {
    const v = text(k);
    const d = v ? new Date(v) : null;
    return d && !Number.isNaN(d.getTime()) ? d : null;
  };
  const notBefore = instant('not_before');
  const notAfter = instant('not_after');
  const uploaded = instant('uploaded_at');
  const has = issuer.certificate !== null && issuer.certificate.length > 0 && info !== null;
  const expired = has && notAfter ? now.getTime() > notAfter.getTime() : null;
  const days = has && notAfter ? Math.max(0, Math.floor((notAfter.getTime() - now.getTime()) / MS_PER_DAY)) : null;
  const note =
    issuer.signingMode === 'provider'
      ? CERTIFICATE_MESSAGES.provider
      : !has
        ? CERTIFICATE_MESSAGES.ownMissing
        : expired
          ? CERTIFICATE_MESSAGES.ownExpired
          : CERTIFICATE_MESSAGES.ownValid;
  return {
    signing_mode: issuer.signingMode,
    has_certificate: has,
    subject: has ? text('subject') : null,
    certificate_issuer: has ? text('issuer') : null,
    tax_id: has ? text('tax_id') : null,
    serial_number: has ? text('serial_number') : null,
    valid_from: has && notBefore ? formatDateTimeDO(notBefore) : null,
    valid_to: has && notAfter ? formatDateTimeDO(notAfter) : null,
    uploaded_at: has && uploaded ? formatDateTimeDO(uploaded) : null,
    days_remaining: days,
    expired,
    note,
  };
}

function refused(code: string, field: string, message: string): ApiError {
  return new ApiError(422, message, { document: { code, ...detailedReport({ [field]: [message] }) } });
}

export function registerCertificate(ctx: RouteContext): void {
  const issuers: Pick<IssuerStore, 'updateIssuer'> = ctx.deps.storage;
  const { clock, logger } = ctx;

  ctx.add(certificateGetRoute, (c) => {
    const data = certificateStatus(c.get('issuer'), clock());
    return c.json({ status: 'success' as const, message: data.note, data }, 200);
  });

  ctx.add(certificatePostRoute, async (c) => {
    const issuer = c.get('issuer');
    const contentType = c.req.header('content-type') ?? '';
    if (!/^multipart\/form-data\s*;/i.test(contentType)) throw new ApiError(415, CERTIFICATE_MESSAGES.badForm);
    let bytes: Uint8Array;
    try {
      bytes = await readLimited(c.req.raw, CERTIFICATE_MAX_BYTES + FORM_OVERHEAD_BYTES);
    } catch (e) {
      if (e instanceof ApiError && e.status === 413) throw new ApiError(413, CERTIFICATE_MESSAGES.tooLarge);
      throw e;
    }
    let form: FormData;
    try {
      form = await new Request('http://localhost/', {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: bytes as Uint8Array<ArrayBuffer>,
      }).formData();
    } catch {
      throw refused('invalid_form', '_', `El formulario multipart no es válido. ${CERTIFICATE_MESSAGES.badForm}`);
    }
    const file = form.get('certificate');
    const password = form.get('password');
    const missing: Record<string, string[]> = {};
    if (file === null || typeof file === 'string')
      missing.certificate = ['Campo requerido: el archivo .p12 en el campo certificate (como archivo, no como texto).'];
    if (typeof password !== 'string') missing.password = ['Campo requerido: la contraseña del .p12 en el campo password (texto).'];
    if (Object.keys(missing).length) {
      throw new ApiError(422, CERTIFICATE_MESSAGES.refused, { document: { code: 'invalid_form', ...detailedReport(missing) } });
    }
    const p12 = new Uint8Array(await (file as Blob).arrayBuffer());
    if (p12.byteLength > CERTIFICATE_MAX_BYTES) throw new ApiError(413, CERTIFICATE_MESSAGES.tooLarge);
    const key = ctx.deps.certificateKey;
    if (!key) throw new ApiError(503, CERTIFICATE_MESSAGES.noKey);

    let prepared: ReturnType<typeof prepareCertificate>;
    try {
      prepared = prepareCertificate({ issuer, p12, password: password as string, key, now: clock() });
    } catch (e) {
      if (e instanceof Error && e.name === 'CertificateUploadError') {
        const code = String((e as Error & { code?: unknown }).code ?? 'invalid_file');
        logger.info({ issuer: issuer.rnc, code }, 'certificate upload refused');
        throw refused(code, code === 'wrong_password' ? 'password' : 'certificate', e.message);
      }
      throw e;
    }
    const updated = await issuers.updateIssuer(issuer.id, { certificate: prepared.certificate, certificateInfo: prepared.certificateInfo, signingMode: 'own' });
    const data = certificateStatus(updated, clock());
    logger.info({ issuer: issuer.rnc, serial: data.serial_number, validTo: data.valid_to, previousMode: issuer.signingMode }, 'certificate uploaded');
    return c.json({ status: 'success' as const, message: CERTIFICATE_MESSAGES.uploaded, data }, 200);
  });
}
