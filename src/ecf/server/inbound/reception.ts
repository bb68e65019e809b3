/**
 * `POST /fe/recepcion/api/ecf`: another issuer delivers an e-CF to one of our issuers (DT p. 56). The
 * answer is always the signed ARECF of the receiving issuer: Estado 0 when recorded, otherwise Estado 1
 * with the reason (ARF p. 5). Only when no issuer of ours can be identified to sign as (no tenant prefix
 * and a buyer RNC that is not ours) does it answer a plain 400.
 *
 * Checks, in order: the bearer token acts for the RNCEmisor (else 401, before anything is signed);
 * well-formed (no DOCTYPE) with root ECF, a type that travels emisor → receptor and an e-NCF of that type,
 * at most `maxStoredBytes` without comments, the official XSD of the type (motivo 1); the XMLDSig
 * signature, a signer certificate we trust (`ctx.trust`) that acts for the RNCEmisor (motivo 2); the buyer
 * is the receiving issuer (motivo 4); the sender's quota (429, nothing signed); not already received
 * (motivo 3, decided by the storage's unique key, so two concurrent deliveries cannot both be recorded).
 * Only accepted documents are recorded, without their comments, with the signer certificate's fingerprint:
 * an unverified sender never occupies the (issuer, RNCEmisor, e-NCF) key. Refusals are logged.
 */
import { buildArecfXml, ECF_TYPES, formatDateTimeDO, parseEncf, RECEPTOR_TYPES, isEcfType, type ArecfInput, type EcfType, type SchemaId } from '../../index.js';
import { signXml } from '../../sign/index.js';
import type { Issuer, ReceiptReason } from '../storage/types.js';
import type { Caller, InboundContext, Route } from './context.js';
import { readXmlUpload } from './multipart.js';
import { failure, formatOf, xmlDocument } from './respond.js';
import { checkSigner } from './trust.js';
import { parseUntrustedXml, rootName, scrapeText, stripComments, textAt, XmlInputError } from './xml.js';
import type { Document } from '@xmldom/xmldom';

/** e-CF types a receptor accepts (the type table's `sentToReceptor`). */
export const RECEIVED_TYPES: readonly EcfType[] = RECEPTOR_TYPES;

/** e-CF types that never travel emisor → receptor (DT p. 42/45). */
export const NOT_RECEIVED_TYPES: readonly EcfType[] = ECF_TYPES.filter((t) => !RECEPTOR_TYPES.includes(t));

/** Where each value sits below `ECF`. */
const PATHS = {
  rncEmisor: ['Encabezado', 'Emisor', 'RNCEmisor'],
  razonSocialEmisor: ['Encabezado', 'Emisor', 'RazonSocialEmisor'],
  fechaEmision: ['Encabezado', 'Emisor', 'FechaEmision'],
  tipo: ['Encabezado', 'IdDoc', 'TipoeCF'],
  encf: ['Encabezado', 'IdDoc', 'eNCF'],
  rncComprador: ['Encabezado', 'Comprador', 'RNCComprador'],
  montoTotal: ['Encabezado', 'Totales', 'MontoTotal'],
  totalItbis: ['Encabezado', 'Totales', 'TotalITBIS'],
} as const;
type FieldName = keyof typeof PATHS;

const REASONS: Record<ReceiptReason, string> = {
  1: 'error de especificación',
  2: 'error de firma digital',
  3: 'envío duplicado',
  4: 'RNC Comprador no corresponde',
};

const DAY_MS = 86_400_000;

export async function receiveEcf(ctx: InboundContext, req: Request, route: Route, body: Uint8Array, caller: Caller = null): Promise<Response> {
  const format = formatOf(req);
  const upload = readXmlUpload(req.headers.get('content-type'), body);
  if (!upload) return failure(400, ['Multipart cannot be empty: envíe el e-CF en la parte "xml" del formulario (multipart/form-data).'], format);
  const xml = upload.xml;

  let doc: Document | null = null;
  let specProblem: string | null = null;
  try {
    doc = parseUntrustedXml(xml);
    if (rootName(doc) !== 'ECF') specProblem = `Se esperaba un e-CF (ECF); el elemento raíz es ${rootName(doc)}.`;
  } catch (e) {
    if (!(e instanceof XmlInputError)) throw e;
    specProblem = e.message;
  }
  // From a document that did not parse, values are scraped, only to address the acknowledgment.
  const field = (name: FieldName): string | null => (doc && !specProblem ? textAt(doc, PATHS[name]) : scrapeText(xml, PATHS[name].at(-1)!));
  const rncEmisor = field('rncEmisor');
  const encf = field('encf');
  const rncComprador = field('rncComprador');
  const tipo = field('tipo');

  // A token acts only for the RNCs of the certificate it was obtained with: nobody delivers in another's name.
  if (caller && rncEmisor && !(caller.principals ?? []).includes(rncEmisor)) {
    ctx.log.warn({ rncEmisor, encf, subject: caller.subject, principals: caller.principals ?? [] }, 'inbound e-CF refused: token not issued to the RNCEmisor');
    return failure(401, ['No autorizado: el token fue obtenido con un certificado que no corresponde al RNCEmisor del e-CF.'], format, {
      'www-authenticate': 'Bearer',
    });
  }

  const buyer = rncComprador ? await ctx.storage.getIssuerByRnc(rncComprador) : null;
  const receiver: Issuer | null = route.tenant ?? buyer;
  if (!receiver) {
    ctx.log.warn({ rncEmisor, encf, rncComprador }, 'inbound e-CF refused: buyer is not one of our issuers');
    return failure(
      400,
      [`El RNCComprador ${rncComprador ?? '(ausente)'} no corresponde a ningún receptor de este servicio; no se emite acuse de recibo.`],
      format,
    );
  }

  let motivo: ReceiptReason | null = null;
  let detail = '';
  let stored = xml;
  let senderFingerprint: string | null = null;
  const now = ctx.clock();
  if (!specProblem) {
    // What we verify and store: the text without comments (the signature's C14N ignores them).
    stored = stripComments(xml);
  }
  const storedBytes = Buffer.byteLength(stored, 'utf8');
  if (specProblem) {
    motivo = 1;
    detail = specProblem;
  } else if (!isEcfType(tipo) || !RECEIVED_TYPES.includes(tipo)) {
    motivo = 1;
    detail = `El tipo de e-CF ${tipo ?? '(ausente)'} no se envía de emisor a receptor (solo ${RECEIVED_TYPES.join(', ')}).`;
  } else if (!encf || parseEncf(encf, { anySeries: true })?.tipo !== tipo) {
    motivo = 1;
    detail = `El eNCF ${encf ?? '(ausente)'} no corresponde al tipo ${tipo}.`;
  } else if (storedBytes > ctx.maxStoredBytes) {
    motivo = 1;
    detail = `El e-CF ocupa ${storedBytes} bytes sin comentarios; este receptor almacena como máximo ${ctx.maxStoredBytes} bytes por documento.`;
  } else {
    const schema = await ctx.offload.validate(stored, `ECF-${tipo}` as SchemaId, undefined, 'request');
    if (!schema.valid) {
      motivo = 1;
      detail = `No es válido según el esquema ECF-${tipo}: ${schema.violations
        .slice(0, 3)
        .map((v) => `${v.xpath ?? ''} ${v.message.trim()}`.trim())
        .join('; ')}`;
    } else {
      const signature = await ctx.offload.verify(stored, 'request');
      const signer = signature.valid ? checkSigner(ctx.trust, signature.certificate, now) : null;
      if (!signature.valid) {
        motivo = 2;
        detail = signature.reason ?? 'firma inválida';
      } else if (!signer!.ok) {
        motivo = 2;
        detail = `signer not trusted: ${signer!.reason}`;
      } else if (!rncEmisor || !signer!.identity.principals.includes(rncEmisor)) {
        motivo = 2;
        detail = `the signer certificate (${signer!.identity.subject}) does not act for RNCEmisor ${rncEmisor ?? '(absent)'}`;
      } else if (rncComprador !== receiver.rnc) {
        motivo = 4;
        detail = `El RNCComprador ${rncComprador ?? '(ausente)'} no es el receptor ${receiver.rnc}.`;
      } else {
        senderFingerprint = signer!.identity.fingerprint;
        if (ctx.senderQuota > 0 && (await ctx.storage.countReceivedFromSender(rncEmisor, now.getTime() - DAY_MS)) >= ctx.senderQuota) {
          ctx.log.warn({ receiver: receiver.rnc, rncEmisor, encf, quota: ctx.senderQuota }, 'inbound e-CF refused: sender quota exhausted');
          return failure(
            429,
            [`El emisor ${rncEmisor} alcanzó el máximo de ${ctx.senderQuota} e-CF recibidos en 24 horas por este receptor; intente más tarde.`],
            format,
            { 'retry-after': '3600' },
          );
        }
        if (await ctx.storage.getReceivedDocument(receiver.id, encf, rncEmisor)) {
          motivo = 3;
          detail = 'El e-CF ya había sido recibido.';
        }
      }
    }
  }

  const acuse = (estado: '0' | '1', reason: ReceiptReason | null): ArecfInput => ({
    rnc_emisor: rncEmisor ?? '',
    rnc_comprador: receiver.rnc,
    encf: encf ?? '',
    estado,
    ...(reason === null ? {} : { codigo_motivo_no_recibido: String(reason) as ArecfInput['codigo_motivo_no_recibido'] }),
    fecha_hora_acuse_recibo: formatDateTimeDO(now),
  });
  let unsigned: string;
  try {
    unsigned = buildArecfXml(acuse(motivo === null ? '0' : '1', motivo));
  } catch {
    // RNCEmisor or eNCF missing or unusable: an ARECF cannot name the document.
    ctx.log.warn({ receiver: receiver.rnc, rncEmisor, encf, motivo, detail }, 'inbound e-CF refused: no usable RNCEmisor/eNCF');
    return failure(400, [`El e-CF no contiene un RNCEmisor y un eNCF válidos; no se puede emitir el acuse de recibo.${detail ? ` ${detail}` : ''}`], format);
  }

  let sign: (arecf: string) => Promise<string>;
  try {
    const signer = await ctx.signers.signerFor(receiver);
    sign = (arecf) => signXml(arecf, signer);
  } catch (err) {
    ctx.log.error({ err, receiver: receiver.rnc }, 'inbound e-CF: no signer for the receiving issuer');
    return failure(
      503,
      [`El receptor ${receiver.rnc} no puede firmar el acuse de recibo en este momento: ${err instanceof Error ? err.message : String(err)}`],
      format,
    );
  }

  if (motivo === null) {
    const arecfXml = await sign(unsigned);
    const recorded = await ctx.storage.addReceivedDocument(receiver.id, {
      emisorRnc: rncEmisor!,
      emisorName: field('razonSocialEmisor'),
      encf: encf!,
      tipo: tipo as EcfType,
      fechaEmision: field('fechaEmision') ?? '',
      montoTotal: field('montoTotal') ?? '',
      totalItbis: field('totalItbis'),
      xml: stored,
      arecfXml,
      estado: 0,
      motivo: null,
      receivedAt: now.getTime(),
      senderFingerprint,
    });
    if (recorded) {
      ctx.log.info({ receiver: receiver.rnc, rncEmisor, encf, tipo, id: recorded.id }, 'inbound e-CF received');
      return xmlDocument(arecfXml);
    }
    // Another delivery of the same document was recorded between the check and the insert.
    motivo = 3;
    detail = 'El e-CF ya había sido recibido.';
    unsigned = buildArecfXml(acuse('1', 3));
  }
  ctx.log.warn({ receiver: receiver.rnc, rncEmisor, encf, tipo, motivo, reason: REASONS[motivo], detail }, 'inbound e-CF not received');
  return xmlDocument(await sign(unsigned));
}
