/**
 * RFCE reception (`recepcionfc/api/recepcion/ecf` on the fc host): a synchronous verdict
 * `{codigo, estado, mensajes, encf, secuenciaUtilizada}`. The declared `CodigoSeguridadeCF` is kept: the
 * later queries (consultarfce, consultaestado, consultatimbrefc) only find the document with that code.
 */
import { cmp, parseDec } from '../../shared/money/decimal.js';
import { signatureValueOf } from '../derive/read-xml.js';
import type { AuthorityMessage } from '../dgii/types.js';
import { ECF_TYPE_INFO } from '../spec/doc-types.js';
import { parseEncf } from '../spec/encf.js';
import { isEcfType } from '../spec/model.js';
import { verifyXml } from '../sign/verify-xml.js';
import { errorReply, msg, type RouteInput, type RouteResult, type SimContext } from './context.js';
import { field, fiscalFields } from './fields.js';
import { acceptedRecord, voidingOf } from './ledger.js';
import type { Reply } from './respond.js';
import { forcedVerdict, suffixVerdict, verdict } from './scenarios.js';
import type { RfceRecord, Verdict } from './store.js';
import { checkFileName, isUpload, readUpload, violationMessages } from './uploads.js';

/** `POST recepcionfc/api/recepcion/ecf`. */
export function receiveRfce(ctx: SimContext, input: RouteInput): RouteResult {
  const up = readUpload(input, 'RFCE');
  if (!isUpload(up)) return up;
  const rnc = field(up.doc, 'rnc');
  const encf = field(up.doc, 'encf');
  if (!rnc || !encf) return errorReply(400, [msg('El RFCE no contiene RNCEmisor y eNCF.')]);
  const badName = checkFileName(up.fileName, rnc, encf);
  if (badName) return badName;
  if (!signatureValueOf(up.doc)) return errorReply(400, [msg('El RFCE no está firmado digitalmente.')]);

  const fields = fiscalFields(up.doc);
  const forced = forcedVerdict(ctx.scenarios, rnc, encf);
  const v = forced && forced.estado !== 'En Proceso' ? forced : evaluateRfce(ctx, input.env, rnc, encf, up.xml, fields.montoTotal, field(up.doc, 'tipo'));
  const record: RfceRecord = { env: input.env, rnc, encf, receivedAt: ctx.clock().toISOString(), verdict: v, fields };
  ctx.store.addRfce(record);
  const key = `${rnc}${encf}`;
  const { stats } = ctx.store.state;
  stats.rfce[key] = (stats.rfce[key] ?? 0) + 1;
  ctx.store.changed();
  return rfceReply(v, encf);
}

function rfceReply(v: Verdict, encf: string): Reply {
  return {
    body: { codigo: v.codigo, estado: v.estado, mensajes: v.mensajes, encf, secuenciaUtilizada: v.secuenciaUtilizada },
    xmlRoot: 'RespuestaRecepcionFC',
    xmlItems: { mensajes: 'Mensaje' },
  };
}

function rejected(secuenciaUtilizada: boolean, mensajes: AuthorityMessage[]): Verdict {
  return verdict('Rechazado', secuenciaUtilizada, mensajes);
}

function evaluateRfce(ctx: SimContext, env: string, rnc: string, encf: string, xml: string, montoTotal: string | null, tipo: string | null): Verdict {
  const schema = ctx.schemas.validate(xml, 'RFCE');
  if (!schema.valid)
    return rejected(
      false,
      violationMessages(schema.violations).map((v) => msg(`Estructura inválida (XSD): ${v}`)),
    );
  const signature = verifyXml(xml);
  if (!signature.valid)
    return rejected(false, [
      msg('La firma digital del RFCE no es válida: el documento fue alterado después de firmarlo o la firma no corresponde al certificado.'),
    ]);
  // Only a type with a summary threshold is summarised, and only below it.
  const threshold = tipo && isEcfType(tipo) ? ECF_TYPE_INFO[tipo].summaryThreshold : undefined;
  if (threshold === undefined || parseEncf(encf)?.tipo !== tipo) {
    return rejected(false, [msg(`El e-NCF ${encf} no corresponde a una factura de consumo resumible (TipoeCF ${tipo ?? '?'}).`)]);
  }
  const total = parseDec(montoTotal ?? '');
  if (total === null || cmp(total, parseDec(threshold)!) >= 0) {
    return rejected(false, [msg(`Las facturas de consumo de RD$${threshold} o más se envían completas a Recepción e-CF, no como resumen.`)]);
  }
  if (voidingOf(ctx.store.state.voids, env, rnc, encf)) return rejected(true, [msg(`El e-NCF ${encf} fue anulado y no puede utilizarse.`)]);
  if (acceptedRecord(ctx.store, env, rnc, encf))
    return rejected(true, [msg(`El e-NCF ${encf} ya fue aceptado anteriormente para el RNC ${rnc} (envío duplicado).`)]);
  return suffixVerdict(ctx.scenarios, encf) ?? verdict('Aceptado', true);
}
