/**
 * Queries: result by track id, fiscal status (consultaestado), track ids of an e-NCF, RFCE status
 * (consultarfce) and the public timbre (QR) checks. A wrong security code finds nothing, as at DGII.
 */
import { cmp, parseDec } from '../../shared/money/decimal.js';
import type { RouteInput, RouteResult, SimContext } from './context.js';
import { decisive } from './ledger.js';
import { isAccepted } from './scenarios.js';
import { escapeXml, usDate, type Reply } from './respond.js';
import type { FiscalFields, Verdict } from './store.js';

const MENSAJES = { mensajes: 'Mensaje' };

/** `GET consultaresultado/api/consultas/estado?trackid=`. */
export function resultByTrackId(ctx: SimContext, input: RouteInput): RouteResult {
  const trackId = input.query.get('trackid') ?? '';
  const sub = ctx.store.state.submissions[trackId] ?? ctx.store.state.submissions[trackId.toLowerCase()];
  const body =
    sub && sub.env === input.env
      ? {
          trackId: sub.trackId,
          codigo: sub.verdict.codigo,
          estado: sub.verdict.estado,
          rnc: sub.rnc,
          encf: sub.encf,
          secuenciaUtilizada: sub.verdict.secuenciaUtilizada,
          fechaRecepcion: usDate(new Date(sub.receivedAt)),
          mensajes: sub.verdict.mensajes,
        }
      : { trackId, codigo: 0, estado: 'No encontrado', rnc: null, encf: null, secuenciaUtilizada: false, fechaRecepcion: null, mensajes: [] };
  return { body, xmlRoot: 'RespuestaConsultaTrackId', xmlItems: MENSAJES };
}

/** `GET consultatrackids/api/trackids/consulta?rncemisor=&encf=`: every submission of the e-NCF. */
export function trackIds(ctx: SimContext, input: RouteInput): RouteResult {
  const rnc = input.query.get('rncemisor') ?? '';
  const encf = (input.query.get('encf') ?? '').toUpperCase();
  const list = ctx.store.submissionsOf(input.env, rnc, encf).map((s) => ({
    trackId: s.trackId,
    estado: s.verdict.estado,
    fechaRecepcion: usDate(new Date(s.receivedAt)),
  }));
  return { body: list, xmlRoot: 'ArrayOfRespuestaConsultaTrackIds', xmlItems: { $root: 'RespuestaConsultaTrackIds' } };
}

/** A document as the status queries see it: its decisive verdict and fields. */
interface Found {
  verdict: Verdict;
  fields: FiscalFields;
}

function findDocument(ctx: SimContext, env: string, rnc: string, encf: string, codigoSeguridad: string, sources: ('ecf' | 'rfce')[]): Found | null {
  const candidates: Found[] = [];
  if (sources.includes('ecf')) {
    const s = decisive(ctx.store.submissionsOf(env, rnc, encf));
    if (s?.fields) candidates.push({ verdict: s.verdict, fields: s.fields });
  }
  if (sources.includes('rfce')) {
    const r = decisive(ctx.store.rfceOf(env, rnc, encf));
    if (r) candidates.push(r);
  }
  // The code must be the one the document carries (DGII answers "No encontrado" otherwise); an accepted
  // record (an RFCE) answers before a rejected one (the same 32 sent whole to Recepción by mistake).
  const matching = candidates.filter((c) => codigoSeguridad !== '' && c.fields.codigoSeguridad === codigoSeguridad);
  return matching.find((c) => isAccepted(c.verdict)) ?? matching[0] ?? null;
}

/** `GET consultaestado/api/consultas/estado?rncemisor=&ncfelectronico=&rnccomprador=&codigoseguridad=`. */
export function fiscalStatus(ctx: SimContext, input: RouteInput): RouteResult {
  const q = input.query;
  const rnc = q.get('rncemisor') ?? '';
  const encf = (q.get('ncfelectronico') ?? '').toUpperCase();
  const comprador = q.get('rnccomprador') ?? '';
  const found = findDocument(ctx, input.env, rnc, encf, q.get('codigoseguridad') ?? '', ['ecf', 'rfce']);
  const buyerOk = !found || comprador === '' || found.fields.rncComprador === null || found.fields.rncComprador === comprador;
  const body =
    found && buyerOk
      ? {
          codigo: found.verdict.codigo,
          estado: found.verdict.estado,
          rncEmisor: rnc,
          ncfElectronico: encf,
          ...found.fields,
        }
      : {
          codigo: 0,
          estado: 'No encontrado',
          rncEmisor: null,
          ncfElectronico: null,
          montoTotal: null,
          totalITBIS: null,
          fechaEmision: null,
          fechaFirma: null,
          rncComprador: null,
          codigoSeguridad: null,
          idExtranjero: null,
        };
  return { body, xmlRoot: 'RespuestaConsultaEstado' };
}

/** `GET consultarfce/api/consultas/consulta?RNC_Emisor=&ENCF=&Cod_Seguridad_eCF=` (fc host). */
export function rfceStatus(ctx: SimContext, input: RouteInput): RouteResult {
  const q = input.query;
  const rnc = q.get('rnc_emisor') ?? q.get('rncemisor') ?? '';
  const encf = (q.get('encf') ?? '').toUpperCase();
  const found = findDocument(ctx, input.env, rnc, encf, q.get('cod_seguridad_ecf') ?? q.get('codigoseguridad') ?? '', ['rfce']);
  const body = found
    ? {
        rnc,
        encf,
        secuenciaUtilizada: found.verdict.secuenciaUtilizada,
        codigo: found.verdict.codigo,
        estado: found.verdict.estado,
        mensajes: found.verdict.mensajes,
      }
    : { rnc, encf, secuenciaUtilizada: false, codigo: 0, estado: 'No encontrado', mensajes: [] };
  return { body, xmlRoot: 'RespuestaConsultaRFCE', xmlItems: MENSAJES };
}

function sameAmount(a: string | null | undefined, b: string | null | undefined): boolean {
  const x = parseDec(a ?? '');
  const y = parseDec(b ?? '');
  return x !== null && y !== null && cmp(x, y) === 0;
}

/**
 * `GET consultatimbre?…` and (fc host) `consultatimbrefc?…`: what a scanned QR shows. Public (no token).
 * JSON with `Accept: application/json`; otherwise a small HTML page, as DGII serves a page.
 */
export function timbre(ctx: SimContext, input: RouteInput, fc: boolean): RouteResult {
  const q = input.query;
  const rnc = q.get('rncemisor') ?? '';
  const encf = (q.get('encf') ?? '').toUpperCase();
  const found = findDocument(ctx, input.env, rnc, encf, q.get('codigoseguridad') ?? '', fc ? ['rfce'] : ['ecf']);
  const f = found?.fields;
  const matches =
    !!found &&
    sameAmount(q.get('montototal'), f?.montoTotal) &&
    (fc ||
      ((q.get('fechaemision') ?? '') === (f?.fechaEmision ?? '') &&
        (q.get('fechafirma') ?? '') === (f?.fechaFirma ?? '') &&
        (q.get('rnccomprador') ?? '') === (f?.rncComprador ?? '')));
  const estado = matches ? found!.verdict.estado : 'No encontrado';
  const body = {
    estado,
    codigo: matches ? found!.verdict.codigo : 0,
    rncEmisor: rnc,
    encf,
    montoTotal: matches ? f!.montoTotal : null,
    codigoSeguridad: matches ? f!.codigoSeguridad : null,
  };
  if (input.json) return { body, xmlRoot: 'RespuestaConsultaTimbre' } satisfies Reply;
  const html = `<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><title>Consulta de timbre</title></head><body><h1>Consulta de timbre${fc ? ' FC' : ''}</h1><dl><dt>RNC Emisor</dt><dd>${escapeXml(rnc)}</dd><dt>e-NCF</dt><dd>${escapeXml(encf)}</dd><dt>Estado</dt><dd id="estado">${escapeXml(estado)}</dd></dl></body></html>`;
  return new Response(html, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } });
}
