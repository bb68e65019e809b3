/**
 * e-CF reception (`recepcion/api/facturaselectronicas`): any well-formed, signed upload with a proper
 * file name gets a track id at once; the verdict comes after the processing delay, from the checks DGII
 * makes: schema, signature, e-NCF, voided or duplicate sequence, the consumer-summary threshold, the
 * referenced e-CF of notes (614), business rules (amounts beyond tolerance → Aceptado Condicional).
 */
import { randomUUID } from 'node:crypto';
import type { Document } from '@xmldom/xmldom';
import { parseDec, cmp } from '../../shared/money/decimal.js';
import { parseDocument, signatureValueOf } from '../derive/read-xml.js';
import type { AuthorityMessage } from '../dgii/types.js';
import { ECF_TYPE_INFO, REFERENCE_MUST_BE_ACCEPTED } from '../spec/doc-types.js';
import { parseEncf } from '../spec/encf.js';
import { isEcfType } from '../spec/model.js';
import { verifyXml } from '../sign/verify-xml.js';
import { safeValidateEcfJson } from '../validate/index.js';
import { parseEcfXml } from '../xml/ecf.js';
import { detectSchemaId } from '../xsd/detect.js';
import { errorReply, msg, type RouteInput, type RouteResult, type SimContext } from './context.js';
import { field, fiscalFields } from './fields.js';
import { acceptedRecord, voidingOf } from './ledger.js';
import { forcedVerdict, suffixVerdict, verdict } from './scenarios.js';
import type { EcfSubmission, FiscalFields, Verdict } from './store.js';
import { checkFileName, isUpload, readUpload, violationMessages } from './uploads.js';

/** Notes whose modified e-CF (series E) must already be accepted (DGII code 614; DT, BlueFireRD): the registry's rows. */
export { REFERENCE_MUST_BE_ACCEPTED };

const RECEPTION_ERROR = { trackId: null };

/** `POST recepcion/api/facturaselectronicas`. */
export function receiveEcf(ctx: SimContext, input: RouteInput): RouteResult {
  const up = readUpload(input, 'ECF', RECEPTION_ERROR);
  if (!isUpload(up)) return up;
  const rnc = field(up.doc, 'rnc');
  const encf = field(up.doc, 'encf');
  if (!rnc || !encf) return errorReply(400, [msg('El e-CF no contiene RNCEmisor y eNCF.')], RECEPTION_ERROR);
  const badName = checkFileName(up.fileName, rnc, encf, RECEPTION_ERROR);
  if (badName) return badName;
  if (!signatureValueOf(up.doc)) return errorReply(400, [msg('El e-CF no está firmado digitalmente.')], RECEPTION_ERROR);

  const sub: EcfSubmission = {
    trackId: randomUUID(),
    env: input.env,
    rnc,
    encf,
    receivedAt: ctx.clock().toISOString(),
    verdict: verdict('En Proceso', false),
    xml: up.xml,
  };
  ctx.store.addSubmission(sub);
  const key = `${rnc}${encf}`;
  const { stats } = ctx.store.state;
  stats.receptions[key] = (stats.receptions[key] ?? 0) + 1;
  ctx.store.changed();
  ctx.schedule(sub.trackId);
  return { body: { trackId: sub.trackId, error: null, mensaje: null }, xmlRoot: 'RespuestaRecepcion' };
}

/**
 * Gives an e-CF in process its verdict (called when its processing delay has passed). A scenario
 * forcing "En Proceso" leaves it in process; returns whether it was resolved.
 */
export function resolveSubmission(ctx: SimContext, trackId: string): boolean {
  const sub = ctx.store.state.submissions[trackId];
  if (!sub || sub.xml === undefined || sub.verdict.estado !== 'En Proceso') return false;
  const forced = forcedVerdict(ctx.scenarios, sub.rnc, sub.encf);
  if (forced?.estado === 'En Proceso') return false;
  const xml = sub.xml;
  let doc: Document | null = null;
  try {
    doc = parseDocument(xml);
  } catch {
    doc = null;
  }
  const fields: FiscalFields | undefined = doc ? fiscalFields(doc) : undefined;
  sub.verdict = forced ?? evaluateEcf(ctx, sub, xml, doc);
  if (fields) sub.fields = fields;
  delete sub.xml;
  ctx.store.changed();
  return true;
}

function rejected(secuenciaUtilizada: boolean, mensajes: AuthorityMessage[]): Verdict {
  return verdict('Rechazado', secuenciaUtilizada, mensajes);
}

/** The checks of DGII's processing, in order; the first failure decides. */
export function evaluateEcf(ctx: SimContext, sub: Pick<EcfSubmission, 'env' | 'rnc' | 'encf' | 'trackId'>, xml: string, doc: Document | null): Verdict {
  // Structure and signature failures leave the sequence reusable (secuenciaUtilizada false, DT).
  const schemaId = detectSchemaId(xml);
  const tipo = schemaId?.startsWith('ECF-') ? schemaId.slice(4) : null;
  if (!schemaId || !tipo || !isEcfType(tipo)) return rejected(false, [msg('TipoeCF ausente o no válido.')]);
  const schema = ctx.schemas.validate(xml, schemaId);
  if (!schema.valid)
    return rejected(
      false,
      violationMessages(schema.violations).map((v) => msg(`Estructura inválida (XSD): ${v}`)),
    );
  const signature = verifyXml(xml);
  if (!signature.valid)
    return rejected(false, [
      msg('La firma digital del e-CF no es válida: el documento fue alterado después de firmarlo o la firma no corresponde al certificado.'),
    ]);
  if (parseEncf(sub.encf)?.tipo !== tipo) {
    return rejected(false, [msg(`El e-NCF ${sub.encf} no es válido para el tipo de e-CF ${tipo}.`)]);
  }

  if (voidingOf(ctx.store.state.voids, sub.env, sub.rnc, sub.encf)) return rejected(true, [msg(`El e-NCF ${sub.encf} fue anulado y no puede utilizarse.`)]);
  const previous = acceptedRecord(ctx.store, sub.env, sub.rnc, sub.encf);
  if (previous && previous !== ctx.store.state.submissions[sub.trackId]) {
    return rejected(true, [msg(`El e-NCF ${sub.encf} ya fue aceptado anteriormente para el RNC ${sub.rnc} (envío duplicado).`)]);
  }

  let parsed;
  try {
    parsed = parseEcfXml(xml);
  } catch {
    return rejected(false, [msg('El e-CF no se puede interpretar.')]);
  }
  const threshold = ECF_TYPE_INFO[tipo].summaryThreshold;
  const total = parseDec((doc && field(doc, 'montoTotal')) ?? '');
  if (threshold !== undefined && total !== null && cmp(total, parseDec(threshold)!) < 0) {
    return rejected(false, [
      msg(`Las facturas de consumo menores a RD$${threshold} se envían como resumen (RFCE) al servicio de recepción FC, no a Recepción e-CF.`),
    ]);
  }

  if (REFERENCE_MUST_BE_ACCEPTED.includes(tipo)) {
    const ncf = doc ? field(doc, 'ncfModificado') : null;
    if (ncf?.startsWith('E') && !acceptedRecord(ctx.store, sub.env, sub.rnc, ncf)) {
      return rejected(true, [
        msg(`El NCFModificado ${ncf} no ha sido emitido o aceptado por la DGII; envíe la nota después de que el e-CF que modifica sea aceptado.`, '614'),
      ]);
    }
  }

  const rules = safeValidateEcfJson(tipo, parsed.document, { fechaEmision: parsed.context.fecha_emision });
  const amountIssues = rules.success ? [] : rules.issues.filter((i) => i.code === 'totals');
  const ruleErrors = rules.success ? [] : rules.issues.filter((i) => i.code !== 'totals');
  if (ruleErrors.length)
    return rejected(
      true,
      ruleErrors.slice(0, 20).map((i) => msg(i.path ? `${i.path}: ${i.message}` : i.message)),
    );

  const scenario = suffixVerdict(ctx.scenarios, sub.encf);
  if (scenario?.estado === 'Rechazado') return scenario;
  // Amounts beyond the tolerance do not reject: the e-CF is accepted conditionally (IT §12).
  if (amountIssues.length)
    return verdict(
      'Aceptado Condicional',
      true,
      amountIssues.slice(0, 20).map((i) => msg(`${i.path}: ${i.message}`)),
    );
  return scenario ?? verdict('Aceptado', true);
}
