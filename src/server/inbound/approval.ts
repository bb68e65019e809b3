/**
 * `POST /fe/aprobacioncomercial/api/ecf`: a buyer approves (1) or rejects (2) commercially an e-CF one of
 * our issuers sent it (ACF). Answer HTTP 200 when recorded, 400 with the reasons otherwise (DT p. 57; CERT
 * step 11 expects plain "OK" / "Error").
 *
 * Checks: well-formed ACECF, its XSD, its signature; RNCEmisor is one of our issuers (the tenant of the
 * prefix, if any) and the e-NCF one of its documents; the type admits commercial approval (ACECF_TYPES);
 * the document was not definitively rejected; RNCComprador, FechaEmision and MontoTotal match the document.
 */
import { ACECF_TYPES } from '../../index.js';
import type { ApprovalState } from '../storage/types.js';
import type { InboundContext, Route } from './context.js';
import { readXmlUpload } from './multipart.js';
import { failure, formatOf, reply } from './respond.js';
import { parseUntrustedXml, rootName, sameAmount, textAt, XmlInputError } from './xml.js';
import type { Document } from '@xmldom/xmldom';

const DETAIL = 'DetalleAprobacionComercial';

export async function receiveApproval(ctx: InboundContext, req: Request, route: Route, body: Uint8Array): Promise<Response> {
  const format = formatOf(req);
  const bad = (reasons: string[], extra: Record<string, unknown> = {}) => {
    ctx.log.warn({ scope: route.scope, reasons, ...extra }, 'inbound commercial approval refused');
    return failure(400, reasons, format);
  };
  const upload = readXmlUpload(req.headers.get('content-type'), body);
  if (!upload) return bad(['Multipart cannot be empty: envíe la aprobación comercial en la parte "xml" del formulario (multipart/form-data).']);
  const xml = upload.xml;
  let doc: Document;
  try {
    doc = parseUntrustedXml(xml);
  } catch (e) {
    if (e instanceof XmlInputError) return bad([e.message]);
    throw e;
  }
  if (rootName(doc) !== 'ACECF') return bad([`Se esperaba una aprobación comercial (ACECF); el elemento raíz es ${rootName(doc)}.`]);
  const schema = await ctx.offload.validate(xml, 'ACECF', undefined, 'request');
  if (!schema.valid) {
    return bad([`La aprobación comercial no es válida según el esquema ACECF: ${schema.violations.slice(0, 3).map((v) => `${v.xpath ?? ''} ${v.message.trim()}`.trim()).join('; ')}`]);
  }
  const signature = await ctx.offload.verify(xml, 'request');
  if (!signature.valid) return bad([`La firma digital de la aprobación comercial no es válida (${signature.code}).`]);

  const at = (name: string) => textAt(doc, [DETAIL, name]);
  const rncEmisor = at('RNCEmisor') ?? '';
  const encf = at('eNCF') ?? '';
  const rncComprador = at('RNCComprador') ?? '';
  const ids = { rncEmisor, encf, rncComprador };

  if (route.tenant && route.tenant.rnc !== rncEmisor) {
    return bad([`El RNCEmisor ${rncEmisor} no corresponde al emisor de esta dirección (${route.tenant.rnc}).`], ids);
  }
  const issuer = route.tenant ?? (await ctx.storage.getIssuerByRnc(rncEmisor));
  if (!issuer) return bad([`El RNCEmisor ${rncEmisor} no corresponde a ningún emisor de este servicio.`], ids);
  const document = await ctx.storage.getDocumentByEncf(issuer.id, encf);
  if (!document) return bad([`El e-CF ${encf} no fue emitido por ${rncEmisor} en este servicio.`], ids);

  const problems: string[] = [];
  if (!(ACECF_TYPES as readonly string[]).includes(document.tipo)) {
    problems.push(`El tipo de e-CF ${document.tipo} no admite aprobación comercial (solo ${ACECF_TYPES.join(', ')}).`);
  }
  if (document.status === 'rejected_authority' || document.status === 'rejected_validation') {
    problems.push(`El e-CF ${encf} fue rechazado y no tiene validez fiscal; no admite aprobación comercial.`);
  }
  let ourBuyer: string | null = null;
  try {
    ourBuyer = textAt(parseUntrustedXml(document.signedXml ?? document.unsignedXml), ['Encabezado', 'Comprador', 'RNCComprador']);
  } catch {
    ourBuyer = null;
  }
  if (rncComprador !== ourBuyer) problems.push(`RNCComprador ${rncComprador} no coincide con el comprador del e-CF (${ourBuyer ?? 'sin RNC'}).`);
  const fecha = at('FechaEmision') ?? '';
  if (fecha !== document.issuedAt) problems.push(`FechaEmision ${fecha} no coincide con la del e-CF (${document.issuedAt}).`);
  const monto = at('MontoTotal') ?? '';
  if (!sameAmount(monto, document.totalAmount)) problems.push(`MontoTotal ${monto} no coincide con el del e-CF (${document.totalAmount}).`);
  if (problems.length > 0) return bad(problems, ids);

  const estado = Number(at('Estado')) as ApprovalState;
  const motivo = at('DetalleMotivoRechazo');
  const approval = await ctx.storage.addDocumentApproval(document.id, {
    estado, motivo, rncComprador, acecfXml: xml, receivedAt: ctx.clock().getTime(),
  });
  ctx.log.info({ issuer: issuer.rnc, encf, rncComprador, estado, id: approval.id }, 'inbound commercial approval received');
  return reply(200, {
    estado: 'OK',
    mensaje: estado === 1 ? 'Aprobación comercial recibida (aceptado).' : 'Aprobación comercial recibida (rechazado).',
    mensajes: [],
  }, 'RespuestaAprobacionComercial', format);
}
