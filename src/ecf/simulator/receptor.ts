/**
 * The simulator as a taxpayer's receptor (emisor–receptor standard, §2.12), under
 * `/{env}/emisorreceptor/fe/…`: e-CF reception answering a signed ARECF with the right state and reason,
 * and commercial approval of the e-CF it issued (HTTP 200/400). Seed and certificate validation are
 * auth.ts with the `receptor` audience.
 */
import { cmp, parseDec } from '../../shared/money/decimal.js';
import { textAt } from '../derive/read-xml.js';
import { buildArecfXml, type ArecfInput } from '../documents/arecf.js';
import { signXml } from '../sign/sign-xml.js';
import { verifyXml } from '../sign/verify-xml.js';
import { ANY_SERIES_ENCF_PATTERN } from '../spec/encf.js';
import { formatDateTimeDO } from '../time.js';
import { detectSchemaId } from '../xsd/detect.js';
import { errorReply, msg, type RouteInput, type RouteResult, type SimContext } from './context.js';
import { field, fiscalFields } from './fields.js';
import type { Reply } from './respond.js';
import { isReceptorType, SIMULATOR_RNC } from './samples.js';
import type { ReceivedEcf } from './store.js';
import { isUpload, readUpload } from './uploads.js';

const RNC = /^(?:\d{9}|\d{11})$/;

/** `POST emisorreceptor/fe/recepcion/api/ecf`: receives an e-CF and answers a signed ARECF. */
export async function receiveAtReceptor(ctx: SimContext, input: RouteInput): Promise<RouteResult> {
  const up = readUpload(input, 'ECF');
  if (!isUpload(up)) return up;
  const rncEmisor = field(up.doc, 'rnc');
  const encf = field(up.doc, 'encf');
  if (!rncEmisor || !RNC.test(rncEmisor) || !encf || !ANY_SERIES_ENCF_PATTERN.test(encf)) {
    return errorReply(400, [msg('El e-CF no contiene un RNCEmisor y un eNCF válidos; no se puede emitir el acuse de recibo.')]);
  }
  const fields = fiscalFields(up.doc);
  const state = ctx.store.state;
  let motivo: string | null = null;
  const forced = ctx.scenarios.receptorAcuse;
  if (forced) motivo = forced.estado === '1' ? forced.motivo : null;
  else {
    const schemaId = detectSchemaId(up.xml);
    const tipo = field(up.doc, 'tipo') ?? '';
    if (!schemaId || !isReceptorType(tipo) || !ctx.schemas.validate(up.xml, schemaId).valid) motivo = '1';
    else if (!verifyXml(up.xml).valid) motivo = '2';
    else if (state.receptor.received.some((r) => r.rncEmisor === rncEmisor && r.encf === encf && r.estado === '0')) motivo = '3';
    else if (fields.rncComprador !== SIMULATOR_RNC) motivo = '4';
  }
  const now = ctx.clock();
  const acuse: ArecfInput = {
    rnc_emisor: rncEmisor,
    rnc_comprador: SIMULATOR_RNC,
    encf,
    estado: motivo === null ? '0' : '1',
    ...(motivo === null ? {} : { codigo_motivo_no_recibido: motivo as ArecfInput['codigo_motivo_no_recibido'] }),
    fecha_hora_acuse_recibo: formatDateTimeDO(now),
  };
  const signed = await signXml(buildArecfXml(acuse), ctx.identity().signer);
  const received: ReceivedEcf = {
    rncEmisor,
    rncComprador: fields.rncComprador,
    encf,
    fechaEmision: fields.fechaEmision,
    montoTotal: fields.montoTotal,
    estado: acuse.estado,
    motivo,
    receivedAt: now.toISOString(),
  };
  state.receptor.received.push(received);
  state.stats.emisorReceptor.ecfReceived++;
  ctx.store.changed();
  return new Response(signed, { status: 200, headers: { 'content-type': 'application/xml; charset=utf-8' } });
}

/** `POST emisorreceptor/fe/aprobacioncomercial/api/ecf`: an ACECF for an e-CF the simulator issued; HTTP 200 or 400. */
export function approvalAtReceptor(ctx: SimContext, input: RouteInput): RouteResult {
  const up = readUpload(input, 'ACECF');
  if (!isUpload(up)) return up;
  const at = (name: string) => textAt(up.doc, ['DetalleAprobacionComercial', name]);
  const problems: string[] = [];
  if (!ctx.schemas.validate(up.xml, 'ACECF').valid) problems.push('La aprobación comercial no es válida según el esquema (XSD).');
  else if (!verifyXml(up.xml).valid) problems.push('La firma digital de la aprobación comercial no es válida.');
  else {
    const e = ctx.store.state.receptor.emitted.find((x) => x.encf === at('eNCF') && at('RNCEmisor') === SIMULATOR_RNC);
    if (!e) problems.push(`El simulador no emitió el e-CF ${at('eNCF')}.`);
    else {
      if (at('RNCComprador') !== e.rncComprador) problems.push('RNCComprador no coincide con el comprador del e-CF.');
      if (at('FechaEmision') !== e.fechaEmision) problems.push('FechaEmision no coincide con la del e-CF.');
      const a = parseDec(at('MontoTotal') ?? '');
      const b = parseDec(e.montoTotal);
      if (a === null || b === null || cmp(a, b) !== 0) problems.push('MontoTotal no coincide con el del e-CF.');
    }
  }
  const forced = ctx.scenarios.receptorApprovalStatus;
  const accepted = forced ? forced === 200 : problems.length === 0;
  const state = ctx.store.state;
  state.receptor.approvalsReceived.push({
    rncEmisor: at('RNCEmisor') ?? '',
    encf: at('eNCF') ?? '',
    rncComprador: at('RNCComprador') ?? '',
    estado: at('Estado') ?? '',
    accepted,
    receivedAt: ctx.clock().toISOString(),
  });
  state.stats.emisorReceptor.approvalsReceived++;
  ctx.store.changed();
  const reply: Reply = {
    status: accepted ? 200 : 400,
    body: { estado: accepted ? 'OK' : 'Error', mensajes: accepted ? [] : problems },
    xmlRoot: 'RespuestaAprobacionComercial',
  };
  return reply;
}
