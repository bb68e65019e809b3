/**
 * Commercial approval (ACECF copy to DGII) and range voiding (ANECF): synchronous verdicts after the
 * schema, the signature and the checks against what DGII has received.
 */
import { cmp, parseDec } from '../../shared/money/decimal.js';
import { textAt } from '../derive/read-xml.js';
import { ACECF_TYPES, parseAcecfXml } from '../documents/acecf.js';
import { checkAnecfInput, composeEncf, parseAnecfXml } from '../documents/anecf.js';
import { verifyXml } from '../sign/verify-xml.js';
import { errorReply, msg, type RouteInput, type RouteResult, type SimContext } from './context.js';
import { consumes, decisive, sequenceOf } from './ledger.js';
import type { Reply } from './respond.js';
import { isAccepted } from './scenarios.js';
import { checkFileName, isUpload, readUpload, violationMessages } from './uploads.js';

const DETALLE = 'DetalleAprobacionComercial';

function approvalReply(mensajes: string[]): Reply {
  const ok = mensajes.length === 0;
  return {
    body: {
      mensaje: ok ? ['Aprobación comercial recibida.'] : mensajes,
      estado: ok ? 'Aprobación comercial aprobada' : 'Aprobación comercial rechazada',
      codigo: ok ? '1' : '2',
    },
    xmlRoot: 'RespuestaAprobacionComercial',
  };
}

/** `POST aprobacioncomercial/api/aprobacioncomercial` (multipart `xml` = ACECF, file `RNCComprador + e-NCF.xml`). */
export function receiveApproval(ctx: SimContext, input: RouteInput): RouteResult {
  const up = readUpload(input, 'ACECF');
  if (!isUpload(up)) return up;
  const at = (name: string) => textAt(up.doc, [DETALLE, name]);
  const rncEmisor = at('RNCEmisor') ?? '';
  const encf = at('eNCF') ?? '';
  const rncComprador = at('RNCComprador') ?? '';
  if (!rncComprador || !encf) return errorReply(400, [msg('La aprobación comercial no contiene RNCComprador y eNCF.')]);
  const badName = checkFileName(up.fileName, rncComprador, encf);
  if (badName) return badName;
  ctx.store.state.stats.approvals++;
  ctx.store.changed();

  const schema = ctx.schemas.validate(up.xml, 'ACECF');
  if (!schema.valid) return approvalReply(violationMessages(schema.violations).map((v) => `Estructura inválida (XSD): ${v}`));
  if (!verifyXml(up.xml).valid) return approvalReply(['La firma digital de la aprobación comercial no es válida.']);
  const errors = parseAcecfXml(up.xml)
    .issues.filter((i) => i.severity === 'error')
    .map((i) => i.message);
  if (errors.length) return approvalReply(errors);

  const tipo = encf.slice(1, 3);
  if (!(ACECF_TYPES as readonly string[]).includes(tipo))
    return approvalReply([`El tipo de e-CF ${tipo} no admite aprobación comercial (solo ${ACECF_TYPES.join(', ')}).`]);
  const ecf = decisive(ctx.store.submissionsOf(input.env, rncEmisor, encf));
  if (!ecf || !isAccepted(ecf.verdict) || !ecf.fields)
    return approvalReply([`El e-CF ${encf} del emisor ${rncEmisor} no existe o no ha sido aceptado por la DGII.`]);
  const problems: string[] = [];
  if (at('FechaEmision') !== ecf.fields.fechaEmision)
    problems.push(`FechaEmision (${at('FechaEmision')}) no coincide con la del e-CF (${ecf.fields.fechaEmision}).`);
  const a = parseDec(at('MontoTotal') ?? '');
  const b = parseDec(ecf.fields.montoTotal ?? '');
  if (a === null || b === null || cmp(a, b) !== 0) problems.push(`MontoTotal (${at('MontoTotal')}) no coincide con el del e-CF (${ecf.fields.montoTotal}).`);
  if (rncComprador !== ecf.fields.rncComprador)
    problems.push(`RNCComprador (${rncComprador}) no coincide con el comprador del e-CF (${ecf.fields.rncComprador ?? 'sin RNC'}).`);
  const state = ctx.store.state;
  if (state.approvals.some((x) => x.env === input.env && x.rncEmisor === rncEmisor && x.encf === encf)) {
    problems.push(`Ya existe una aprobación comercial para el e-CF ${encf}.`);
  }
  if (problems.length) return approvalReply(problems);
  state.approvals.push({ env: input.env, rncEmisor, encf, rncComprador, estado: at('Estado') ?? '', receivedAt: ctx.clock().toISOString() });
  return approvalReply([]);
}

function voidReply(rnc: string, mensajes: string[], accepted: boolean): Reply {
  return {
    body: { rnc, codigo: accepted ? '1' : '2', nombre: accepted ? 'Aceptado' : 'Rechazado', mensajes },
    xmlRoot: 'RespuestaAnulacionRangos',
  };
}

/** `POST anulacionrangos/api/operaciones/anularrango` (multipart `xml` = ANECF). */
export function receiveVoiding(ctx: SimContext, input: RouteInput): RouteResult {
  const up = readUpload(input, 'ANECF');
  if (!isUpload(up)) return up;
  const rnc = textAt(up.doc, ['Encabezado', 'RncEmisor']) ?? '';
  const state = ctx.store.state;
  state.stats.voids++;
  ctx.store.changed();
  const reject = (mensajes: string[]) => voidReply(rnc, mensajes, false);

  const schema = ctx.schemas.validate(up.xml, 'ANECF');
  if (!schema.valid) return reject(violationMessages(schema.violations).map((v) => `Estructura inválida (XSD): ${v}`));
  if (!verifyXml(up.xml).valid) return reject(['La firma digital de la anulación no es válida.']);
  const parsed = parseAnecfXml(up.xml);
  // Counts that do not add up, e-NCF of another type, inverted or overlapping ranges.
  const issues = [...parsed.issues, ...checkAnecfInput(parsed.data)].filter((i) => i.severity === 'error');
  if (issues.length) return reject(issues.map((i) => i.message));

  const problems: string[] = [];
  const ranges = parsed.data.anulaciones.flatMap((a) => a.rangos.map((r) => ({ tipo: a.tipo_ecf, ...r })));
  for (const r of ranges) {
    const label = `${composeEncf(r.tipo, r.desde)} – ${composeEncf(r.tipo, r.hasta)}`;
    if (state.voids.some((v) => v.env === input.env && v.rnc === rnc && v.tipo === r.tipo && v.desde <= r.hasta && r.desde <= v.hasta)) {
      problems.push(`El rango ${label} ya fue anulado total o parcialmente.`);
    }
    const used = [
      ...Object.values(state.submissions)
        .filter((s) => s.env === input.env && s.rnc === rnc && consumes(s.verdict))
        .map((s) => s.encf),
      ...state.rfce.filter((x) => x.env === input.env && x.rnc === rnc && consumes(x.verdict)).map((x) => x.encf),
    ].filter((encf) => encf.slice(1, 3) === r.tipo && (sequenceOf(encf) ?? -1) >= r.desde && (sequenceOf(encf) ?? -1) <= r.hasta);
    if (used.length) {
      problems.push(
        `El rango ${label} contiene e-NCF ya recibidos por la DGII (${[...new Set(used)].slice(0, 5).join(', ')}); no pueden anularse, emita notas de crédito.`,
      );
    }
  }
  if (problems.length) return reject(problems);
  const now = ctx.clock().toISOString();
  for (const r of ranges) state.voids.push({ env: input.env, rnc, tipo: r.tipo, desde: r.desde, hasta: r.hasta, voidedAt: now });
  return voidReply(rnc, [`Se anularon ${parsed.cantidad} e-NCF.`], true);
}
