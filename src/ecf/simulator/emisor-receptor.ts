/**
 * DGII's emisor–receptor test service (`/{env}/emisorreceptor/api/emision/…`, §2.6 last row): the
 * simulator, as issuer, builds and signs an e-CF for a taxpayer (`emisioncomprobantes`), logs in to the
 * taxpayer's receptor when it declares authentication, delivers the e-CF and checks the signed ARECF it
 * gets back (`consultaacuserecibo` shows it); as buyer, it sends ACECF for e-CF it received at its own
 * receptor (`envioaprobacioncomercial`, see receptor.ts). Outbound calls are real HTTP (outbound.ts).
 */
import { EcfError } from '../../shared/errors/ecf-error.js';
import { parseDec } from '../../shared/money/decimal.js';
import { parseDocument } from '../derive/read-xml.js';
import { buildAcecfXml } from '../documents/acecf.js';
import { parseArecfXml } from '../documents/arecf.js';
import { composeEncf } from '../documents/anecf.js';
import { signEcf, signXml } from '../sign/sign-xml.js';
import { verifyXml } from '../sign/verify-xml.js';
import { formatDateDO, formatDateTimeDO } from '../time.js';
import { errorReply, msg, type RouteInput, type RouteResult, type SimContext } from './context.js';
import { fiscalFields } from './fields.js';
import { authenticate, endpoint, extractDocument, isHttpUrl, postXml } from './outbound.js';
import { buildSampleEcf, isReceptorType, RECEPTOR_TYPES, SIMULATOR_RNC } from './samples.js';
import type { EmittedEcf } from './store.js';

const RNC = /^(?:\d{9}|\d{11})$/;

/** JSON body with case-insensitive keys (DGII's .NET binding ignores casing). */
function jsonBody(input: RouteInput): Map<string, unknown> | null {
  try {
    const v = JSON.parse(Buffer.from(input.body).toString('utf8')) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
    return new Map(Object.entries(v).map(([k, x]) => [k.toLowerCase(), x]));
  } catch {
    return null;
  }
}

function str(v: unknown): string {
  return typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
}

/** `POST emisorreceptor/api/emision/emisioncomprobantes` `{rnc, tipoEncf, urlRecepcion, urlAutenticacion}`. */
export async function emitToReceptor(ctx: SimContext, input: RouteInput): Promise<RouteResult> {
  const b = jsonBody(input);
  if (!b) return errorReply(400, [msg('El cuerpo debe ser JSON: {rnc, tipoEncf, urlRecepcion, urlAutenticacion}.')]);
  const rnc = str(b.get('rnc'));
  const tipo = str(b.get('tipoencf')).replace(/^E/i, '');
  const urlRecepcion = str(b.get('urlrecepcion'));
  const urlAutenticacion = str(b.get('urlautenticacion'));
  const problems: string[] = [];
  if (!RNC.test(rnc)) problems.push('rnc debe tener 9 u 11 dígitos.');
  if (!isReceptorType(tipo)) problems.push(`tipoEncf debe ser uno de ${RECEPTOR_TYPES.join(', ')} (los tipos que se envían de emisor a receptor).`);
  if (!isHttpUrl(urlRecepcion)) problems.push('urlRecepcion debe ser una URL http(s).');
  if (urlAutenticacion !== '' && !isHttpUrl(urlAutenticacion)) problems.push('urlAutenticacion debe ser una URL http(s).');
  if (problems.length || !isReceptorType(tipo))
    return errorReply(
      400,
      problems.map((p) => msg(p)),
    );

  const state = ctx.store.state;
  const seq = (state.receptor.sequence[tipo] ?? 0) + 1;
  state.receptor.sequence[tipo] = seq;
  const now = ctx.clock();
  const fechaEmision = formatDateDO(now);
  const encf = composeEncf(tipo, seq);
  const identity = ctx.identity();
  const signed = await signEcf(
    buildSampleEcf(tipo, { buyer: rnc, encf, fechaEmision, fechaVencimiento: formatDateDO(new Date(now.getTime() + 365 * 86_400_000)) }),
    identity.signer,
    ctx.clock,
  );
  const record: EmittedEcf = {
    rncComprador: rnc,
    encf,
    tipo,
    fechaEmision,
    montoTotal: fiscalFields(parseDocument(signed)).montoTotal ?? '',
    sentAt: now.toISOString(),
    delivered: false,
    acuse: null,
    mensajes: [],
  };
  state.receptor.emitted.push(record);
  state.stats.emisorReceptor.ecfSent++;
  ctx.store.changed();

  try {
    const token = urlAutenticacion ? await authenticate(ctx, urlAutenticacion) : null;
    const res = await postXml(endpoint(urlRecepcion, '/fe/recepcion', '/api/ecf'), `${SIMULATOR_RNC}${encf}.xml`, signed, token);
    const text = await res.text();
    if (!res.ok) throw new EcfError(`el receptor respondió HTTP ${res.status}: ${text.slice(0, 300)}`, { code: 'receiver_failed' });
    const arecf = extractDocument(text, 'ARECF');
    if (!arecf) throw new EcfError('la respuesta del receptor no contiene un ARECF.', { code: 'receiver_failed' });
    const parsed = parseArecfXml(arecf);
    record.acuse = {
      estado: String(parsed.data.estado ?? ''),
      codigoMotivoNoRecibido: parsed.data.codigo_motivo_no_recibido ?? null,
      fechaHoraAcuseRecibo: parsed.data.fecha_hora_acuse_recibo ?? null,
      firmaValida: verifyXml(arecf).valid,
    };
    record.delivered = true;
    if (!record.acuse.firmaValida) record.mensajes.push('La firma digital del acuse de recibo no es válida.');
    if (parsed.data.encf !== encf || parsed.data.rnc_emisor !== SIMULATOR_RNC)
      record.mensajes.push('El acuse de recibo no corresponde al e-CF enviado (RNCEmisor o eNCF).');
    if (parsed.data.rnc_comprador !== rnc) record.mensajes.push(`El acuse de recibo indica RNCComprador ${parsed.data.rnc_comprador}; se esperaba ${rnc}.`);
  } catch (e) {
    record.mensajes.push(`No se pudo entregar el e-CF: ${e instanceof Error ? e.message : String(e)}`);
  }
  ctx.store.changed();
  return {
    status: record.delivered ? 200 : 502,
    body: { rnc, encf, tipoEncf: tipo, estado: record.delivered ? 'Enviado' : 'Error', acuse: record.acuse, mensajes: record.mensajes },
    xmlRoot: 'RespuestaEmisionComprobante',
  };
}

/** `GET emisorreceptor/api/emision/consultaacuserecibo?Rnc=&Encf=`: the ARECF of an e-CF the simulator delivered. */
export function receiptOf(ctx: SimContext, input: RouteInput): RouteResult {
  const rnc = input.query.get('rnc') ?? '';
  const encf = (input.query.get('encf') ?? '').toUpperCase();
  const e = [...ctx.store.state.receptor.emitted].reverse().find((x) => x.rncComprador === rnc && x.encf === encf);
  if (!e)
    return {
      body: { rnc, encf, estado: 'No encontrado', codigoMotivoNoRecibido: null, fechaHoraAcuseRecibo: null, firmaValida: false, mensajes: [] },
      xmlRoot: 'RespuestaAcuseRecibo',
    };
  const estado = !e.acuse ? 'Sin acuse' : e.acuse.estado === '0' ? 'Recibido' : 'No Recibido';
  return {
    body: {
      rnc,
      encf,
      estado,
      codigoMotivoNoRecibido: e.acuse?.codigoMotivoNoRecibido ?? null,
      fechaHoraAcuseRecibo: e.acuse?.fechaHoraAcuseRecibo ?? null,
      firmaValida: e.acuse?.firmaValida ?? false,
      mensajes: e.mensajes,
    },
    xmlRoot: 'RespuestaAcuseRecibo',
  };
}

/** `POST emisorreceptor/api/emision/envioaprobacioncomercial` `{urlAprobacionComercial, urlAutenticacion, rnc, encf, estadoAprobacion}`. */
export async function sendApproval(ctx: SimContext, input: RouteInput): Promise<RouteResult> {
  const b = jsonBody(input);
  if (!b) return errorReply(400, [msg('El cuerpo debe ser JSON: {urlAprobacionComercial, urlAutenticacion, rnc, encf, estadoAprobacion}.')]);
  const url = str(b.get('urlaprobacioncomercial'));
  const urlAutenticacion = str(b.get('urlautenticacion'));
  const rnc = str(b.get('rnc'));
  const encf = str(b.get('encf')).toUpperCase();
  const estado = str(b.get('estadoaprobacion'));
  const problems: string[] = [];
  if (!isHttpUrl(url)) problems.push('urlAprobacionComercial debe ser una URL http(s).');
  if (urlAutenticacion !== '' && !isHttpUrl(urlAutenticacion)) problems.push('urlAutenticacion debe ser una URL http(s).');
  if (estado !== '1' && estado !== '2') problems.push('estadoAprobacion debe ser 1 (aprobado) o 2 (rechazado).');
  const received = [...ctx.store.state.receptor.received].reverse().find((r) => r.rncEmisor === rnc && r.encf === encf && r.estado === '0');
  if (!received) problems.push(`El simulador no ha recibido el e-CF ${encf} del emisor ${rnc}; envíelo primero a /fe/recepcion/api/ecf.`);
  if (problems.length || !received)
    return errorReply(
      400,
      problems.map((p) => msg(p)),
    );

  const monto = parseDec(received.montoTotal ?? '');
  const acecf = await signXml(
    buildAcecfXml({
      rnc_emisor: rnc,
      encf,
      fecha_emision: received.fechaEmision ?? '',
      monto_total: monto === null ? 0 : Number(received.montoTotal),
      rnc_comprador: SIMULATOR_RNC,
      estado: estado as '1' | '2',
      ...(estado === '2' ? { detalle_motivo_rechazo: 'Rechazo comercial de prueba del simulador.' } : {}),
      fecha_hora_aprobacion_comercial: formatDateTimeDO(ctx.clock()),
    }),
    ctx.identity().signer,
  );
  ctx.store.state.stats.emisorReceptor.approvalsSent++;
  ctx.store.changed();
  try {
    const token = urlAutenticacion ? await authenticate(ctx, urlAutenticacion) : null;
    const res = await postXml(endpoint(url, '/fe/aprobacioncomercial', '/api/ecf'), `${SIMULATOR_RNC}${encf}.xml`, acecf, token);
    const text = await res.text();
    return {
      status: res.ok ? 200 : 502,
      body: {
        rnc,
        encf,
        estado: res.ok ? 'Enviado' : 'Error',
        httpStatus: res.status,
        mensajes: res.ok ? [] : [`El emisor respondió HTTP ${res.status}: ${text.slice(0, 300)}`],
      },
      xmlRoot: 'RespuestaEnvioAprobacionComercial',
    };
  } catch (e) {
    return {
      status: 502,
      body: {
        rnc,
        encf,
        estado: 'Error',
        httpStatus: null,
        mensajes: [`No se pudo entregar la aprobación comercial: ${e instanceof Error ? e.message : String(e)}`],
      },
      xmlRoot: 'RespuestaEnvioAprobacionComercial',
    };
  }
}
