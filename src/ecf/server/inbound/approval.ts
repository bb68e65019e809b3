/**
 * `POST /fe/aprobacioncomercial/api/ecf`: a buyer approves (1) or rejects (2) commercially an e-CF one of
 * our issuers sent it (ACF). Answer HTTP 200 when recorded, 400 with the reasons otherwise (DT p. 57; CERT
 * step 11 expects plain "OK" / "Error").
 *
 * Checks: the bearer token acts for the RNCComprador (401); well-formed ACECF of at most
 * {@link ACECF_MAX_STORED_BYTES} without comments, its XSD, its signature, by a certificate we trust
 * (`ctx.trust`) that acts for the RNCComprador it names: the buyer itself or its configured delegate. Then
 * what depends on stored data: RNCEmisor is one of our issuers (the tenant of the prefix, if any) and the
 * e-NCF one of its documents; the type admits commercial approval (ACECF_TYPES); the document was not
 * definitively rejected; RNCComprador, FechaEmision and MontoTotal match the document. Every one of those
 * refusals gets the same answer ({@link NOT_MATCHED}), which reveals nothing stored; the details are logged.
 *
 * One approval per (document, buyer), by the storage's unique key: the first valid decision is final; the
 * same decision sent again (same Estado and reason) answers the same 200 without recording it twice; a
 * different later decision is refused with 409. The ACECF is stored without its comments.
 */
import { ACECF_TYPES } from '../../index.js';
import type { ApprovalState } from '../storage/types.js';
import type { Caller, InboundContext, Route } from './context.js';
import { readXmlUpload } from './multipart.js';
import { failure, formatOf, reply } from './respond.js';
import { checkSigner } from './trust.js';
import { parseUntrustedXml, rootName, sameAmount, stripComments, textAt, XmlInputError } from './xml.js';
import type { Document } from '@xmldom/xmldom';

const DETAIL = 'DetalleAprobacionComercial';

/** Largest ACECF stored, in bytes without comments (a signed ACECF with its certificate is a few KB). */
export const ACECF_MAX_STORED_BYTES = 64 * 1024;

/** The one answer to every refusal that depends on what we store (unknown e-NCF, another issuer's, wrong values). */
export const NOT_MATCHED =
  'La aprobación comercial no corresponde a un e-CF emitido por este servicio al comprador que la firma, o sus datos (RNCEmisor, eNCF, FechaEmision, MontoTotal) no coinciden con los del e-CF.';

export async function receiveApproval(ctx: InboundContext, req: Request, route: Route, body: Uint8Array, caller: Caller = null): Promise<Response> {
  const format = formatOf(req);
  const bad = (reasons: string[], extra: Record<string, unknown> = {}) => {
    ctx.log.warn({ scope: route.scope, reasons, ...extra }, 'inbound commercial approval refused');
    return failure(400, reasons, format);
  };
  const upload = readXmlUpload(req.headers.get('content-type'), body);
  if (!upload) return bad(['Multipart cannot be empty: envíe la aprobación comercial en la parte "xml" del formulario (multipart/form-data).']);
  let doc: Document;
  try {
    doc = parseUntrustedXml(upload.xml);
  } catch (e) {
    if (e instanceof XmlInputError) return bad([e.message]);
    throw e;
  }
  if (rootName(doc) !== 'ACECF') return bad([`Se esperaba una aprobación comercial (ACECF); el elemento raíz es ${rootName(doc)}.`]);
  const at = (name: string) => textAt(doc, [DETAIL, name]);
  const rncEmisor = at('RNCEmisor') ?? '';
  const encf = at('eNCF') ?? '';
  const rncComprador = at('RNCComprador') ?? '';
  const ids = { rncEmisor, encf, rncComprador };
  if (caller && !(caller.principals ?? []).includes(rncComprador)) {
    ctx.log.warn(
      { ...ids, subject: caller.subject, principals: caller.principals ?? [] },
      'inbound commercial approval refused: token not issued to the RNCComprador',
    );
    return failure(401, ['No autorizado: el token fue obtenido con un certificado que no corresponde al RNCComprador de la aprobación comercial.'], format, {
      'www-authenticate': 'Bearer',
    });
  }
  // What we verify and store: the text without comments (the signature's C14N ignores them).
  const xml = stripComments(upload.xml);
  const bytes = Buffer.byteLength(xml, 'utf8');
  if (bytes > ACECF_MAX_STORED_BYTES)
    return bad([`La aprobación comercial ocupa ${bytes} bytes sin comentarios; el máximo es ${ACECF_MAX_STORED_BYTES}.`], ids);
  const schema = await ctx.offload.validate(xml, 'ACECF', undefined, 'request');
  if (!schema.valid) {
    return bad([
      `La aprobación comercial no es válida según el esquema ACECF: ${schema.violations
        .slice(0, 3)
        .map((v) => `${v.xpath ?? ''} ${v.message.trim()}`.trim())
        .join('; ')}`,
    ]);
  }
  const signature = await ctx.offload.verify(xml, 'request');
  if (!signature.valid) return bad([`La firma digital de la aprobación comercial no es válida (${signature.code}).`]);
  const now = ctx.clock();
  const signer = checkSigner(ctx.trust, signature.certificate, now);
  if (!signer.ok) {
    return bad(
      ['El certificado que firmó la aprobación comercial no es válido o no fue emitido por una entidad de certificación reconocida por este servicio.'],
      { ...ids, reason: signer.reason },
    );
  }
  if (!signer.identity.principals.includes(rncComprador)) {
    return bad([`El certificado que firmó la aprobación comercial no corresponde al RNCComprador ${rncComprador} ni a un delegado suyo.`], {
      ...ids,
      subject: signer.identity.subject,
      principals: signer.identity.principals,
    });
  }

  // From here every refusal depends on stored data: one answer for all, the details in the log only.
  const notMatched = (why: string) => {
    ctx.log.warn({ scope: route.scope, ...ids, why }, 'inbound commercial approval refused: does not match a document of ours');
    return failure(400, [NOT_MATCHED], format);
  };
  if (route.tenant && route.tenant.rnc !== rncEmisor) return notMatched(`RNCEmisor is not the tenant of the prefix ${route.tenant.rnc}`);
  const issuer = route.tenant ?? (await ctx.storage.getIssuerByRnc(rncEmisor));
  if (!issuer) return notMatched('RNCEmisor is not one of our issuers');
  const document = await ctx.storage.getDocumentByEncf(issuer.id, encf);
  if (!document) return notMatched('the e-NCF was not issued by that issuer here');
  if (!(ACECF_TYPES as readonly string[]).includes(document.tipo)) return notMatched(`type ${document.tipo} admits no commercial approval`);
  if (document.status === 'rejected_authority' || document.status === 'rejected_validation')
    return notMatched(`the document was rejected (${document.status})`);
  let ourBuyer: string | null = null;
  try {
    ourBuyer = textAt(parseUntrustedXml(document.signedXml ?? document.unsignedXml), ['Encabezado', 'Comprador', 'RNCComprador']);
  } catch {
    ourBuyer = null;
  }
  if (rncComprador !== ourBuyer) return notMatched(`RNCComprador differs from the document's buyer (${ourBuyer ?? 'none'})`);
  const fecha = at('FechaEmision') ?? '';
  if (fecha !== document.issuedAt) return notMatched(`FechaEmision ${fecha} differs from the document's (${document.issuedAt})`);
  const monto = at('MontoTotal') ?? '';
  if (!sameAmount(monto, document.totalAmount)) return notMatched(`MontoTotal ${monto} differs from the document's (${document.totalAmount})`);

  const estado = Number(at('Estado')) as ApprovalState;
  const motivo = at('DetalleMotivoRechazo');
  const { approval, created } = await ctx.storage.addDocumentApproval(document.id, {
    estado,
    motivo,
    rncComprador,
    acecfXml: xml,
    receivedAt: now.getTime(),
    signerFingerprint: signer.identity.fingerprint,
  });
  if (!created && (approval.estado !== estado || (approval.motivo ?? null) !== (motivo ?? null))) {
    ctx.log.warn(
      { issuer: issuer.rnc, encf, rncComprador, estado, recorded: approval.estado, id: approval.id },
      'inbound commercial approval refused: the buyer already decided otherwise',
    );
    return failure(
      409,
      [
        `El comprador ${rncComprador} ya registró una aprobación comercial distinta (${approval.estado === 1 ? 'aceptado' : 'rechazado'}) para el e-CF ${encf}; la primera decisión es definitiva.`,
      ],
      format,
    );
  }
  ctx.log.info({ issuer: issuer.rnc, encf, rncComprador, estado, id: approval.id, repeated: !created }, 'inbound commercial approval received');
  return reply(
    200,
    {
      estado: 'OK',
      mensaje: estado === 1 ? 'Aprobación comercial recibida (aceptado).' : 'Aprobación comercial recibida (rechazado).',
      mensajes: [],
    },
    'RespuestaAprobacionComercial',
    format,
  );
}
