/**
 * e-CF that other issuers sent to the caller: finding one, its commercial approval (ACECF) and its live
 * fiscal status at the authority, independent of HTTP.
 *
 * Commercial approval: the ACECF is built from the received e-CF's own values (emisor, e-NCF, FechaEmision,
 * MontoTotal, buyer), signed by the caller, recorded (one approval per document, also under concurrent
 * requests), then delivered to the issuer's approval service (its `urlAceptacion` in the directory) and
 * copied to the authority. Both outcomes are recorded and returned; repeating the same request resends
 * the same signed ACECF to the destinations that did not take it.
 */
import { z } from '@hono/zod-openapi';
import {
  ACECF_TYPES,
  buildAcecfXml,
  fileNameFor,
  formatDateTimeDO,
  isAuthorityError,
  isEcfError,
  isTransportError,
  securityCode,
  type SchemaValidator,
} from '../../index.js';
import type { AuthorityIdentity, AuthorityTransport, DirectoryEntry, FiscalStatus, ReceptorClient, XmlFile } from '../../dgii/index.js';
import { signXml } from '../../sign/index.js';
import { amountText } from '../app/record.js';
import { xmlValue } from '../inbound/xml.js';
import type { Issuer, ReceivedDocument, Storage } from '../storage/types.js';
import { invalidRequest, UseCaseError, withErrors } from './errors.js';
import { AUTHORITY_MESSAGES, authorityMessages } from './messages.js';
import type { IdentityOf, NowFn, UseCaseLogger } from './ports.js';

const BUYER_PATH = ['Encabezado', 'Comprador', 'RNCComprador'] as const;
const DATETIME = 'Fecha y hora dd-MM-yyyy HH:mm:ss (America/Santo_Domingo).';

// A receiver's answer is logged (never returned) for diagnosis, this long at most.
const MAX_ANSWER_CHARS = 200;
// An approval recorded this recently without an outcome is still being delivered by another request (or that
// request died; after this long a repeat may resend it). Real time: storage stamps `updatedAt` with it.
export const IN_FLIGHT_MS = 2 * 60_000;

export const APPROVAL_MESSAGES = {
  invalidApproval: 'La aprobación comercial no es válida: no se envió.',
} as const;

/** Outcome of the delivery to the issuer's approval service (stored, and returned as is). */
export const EmisorDeliverySchema = z
  .object({
    entregada: z.boolean().openapi({ description: 'true cuando el servicio del emisor respondió 2xx.' }),
    url: z.string().nullable().openapi({ description: 'URL de aprobación comercial del emisor (directorio).' }),
    http_status: z.number().int().nullable(),
    error: z.string().nullable(),
    fecha: z.string().openapi({ description: DATETIME }),
  })
  .openapi('ApprovalDeliveryToIssuer');

/** Outcome of the copy to the authority (stored, and returned as is). */
export const AuthorityDeliverySchema = z
  .object({
    entregada: z.boolean().openapi({ description: 'true cuando la autoridad respondió con código 1 (recibida).' }),
    codigo: z.string().nullable(),
    estado: z.string().nullable(),
    mensajes: z.array(z.string()),
    error: z.string().nullable(),
    fecha: z.string().openapi({ description: DATETIME }),
  })
  .openapi('ApprovalDeliveryToAuthority');

export type EmisorDelivery = z.infer<typeof EmisorDeliverySchema>;
export type AuthorityDelivery = z.infer<typeof AuthorityDeliverySchema>;
export interface ApprovalOutcome {
  emisor: EmisorDelivery | null;
  autoridad: AuthorityDelivery | null;
}

/** The stored outcome (JSON written by this module), read defensively. */
export function outcomeOf(raw: Record<string, unknown> | null): ApprovalOutcome | null {
  if (!raw) return null;
  const e = EmisorDeliverySchema.safeParse(raw.emisor);
  const a = AuthorityDeliverySchema.safeParse(raw.autoridad);
  return { emisor: e.success ? e.data : null, autoridad: a.success ? a.data : null };
}

/**
 * RNCComprador of a received e-CF, read from the parsed document (`ECF/Encabezado/Comprador/RNCComprador`), so
 * that a decoy in a comment, a CDATA section or a processing instruction is never taken for it.
 */
export function buyerOf(xml: string): string | null {
  return xmlValue(xml, BUYER_PATH);
}

/** A receiver's answer for the log: control characters removed, whitespace collapsed, bounded. */
function answerSummary(text: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = text
    .slice(0, MAX_ANSWER_CHARS * 4)
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > MAX_ANSWER_CHARS ? `${clean.slice(0, MAX_ANSWER_CHARS)}…` : clean;
}

/** Spanish reason of a failed delivery to another taxpayer's service. */
function deliveryFailure(e: unknown): string {
  if (isTransportError(e)) {
    if (e.code === 'network' && !e.retryable) return 'El servicio del emisor no es accesible: su dirección no es pública o la conexión segura falló.';
    const reasons: Record<string, string> = {
      network: 'la conexión falló',
      timeout: 'no respondió a tiempo',
      server_error: `respondió con un error HTTP ${e.status ?? '5xx'}`,
      rate_limited: 'pidió esperar (HTTP 429)',
      bad_response: 'respondió algo ilegible',
    };
    return `El servicio del emisor ${reasons[e.code] ?? 'no respondió correctamente'}.`;
  }
  // The receiver's own words never reach the caller (they are logged, bounded): only the status.
  if (isAuthorityError(e)) return `El servicio del emisor rechazó la solicitud (HTTP ${e.status ?? '4xx'}).`;
  if (isEcfError(e) && e.code === 'invalid_argument') return 'La URL de aprobación comercial publicada en el directorio no es válida (se exige https).';
  return 'No se pudo entregar al servicio del emisor.';
}

// ---------------------------------------------------------------------------------------------- finding one

/** What names a received document: the e-NCF as given, its normalized form (null when malformed), the emisor's RNC. */
export interface ReceivedRef {
  raw: string;
  encf: string | null;
  rncEmisor?: string | undefined;
}

/** The caller's received document: `not_found` unknown, `conflict` when several issuers sent that e-NCF. */
export async function findReceivedDocument(
  storage: Pick<Storage, 'getReceivedDocument' | 'listReceivedDocuments'>,
  issuer: Issuer,
  ref: ReceivedRef,
): Promise<ReceivedDocument> {
  const notFound = () =>
    new UseCaseError('not_found', `El emisor no recibió ningún e-CF con e-NCF ${ref.raw}${ref.rncEmisor ? ` del RNC ${ref.rncEmisor}` : ''}.`);
  if (ref.encf === null) throw notFound();
  if (ref.rncEmisor) {
    const d = await storage.getReceivedDocument(issuer.id, ref.encf, ref.rncEmisor);
    if (!d) throw notFound();
    return d;
  }
  const found = await storage.listReceivedDocuments(issuer.id, { encf: ref.encf, limit: 10 });
  if (found.length === 0) throw notFound();
  if (found.length > 1) {
    throw new UseCaseError(
      'conflict',
      `Varios emisores enviaron el e-NCF ${ref.encf} (RNC ${found.map((d) => d.emisorRnc).join(', ')}): indique cuál con ?rnc_emisor=.`,
    );
  }
  return found[0]!;
}

// ---------------------------------------------------------------------------------------------- approval

export interface CommercialApprovalDeps {
  storage: Pick<Storage, 'updateReceivedApproval'>;
  transport: Pick<AuthorityTransport, 'sendApproval'>;
  schemas: SchemaValidator;
  clock: NowFn;
  logger: UseCaseLogger;
  identity: IdentityOf;
  /** The authority's directory (the issuer's `urlAceptacion`). */
  directory: { entry(who: AuthorityIdentity, rnc: string): Promise<DirectoryEntry | null> };
  /** The client for other taxpayers' receiver services (made on first use by the caller). */
  receptor: () => Pick<ReceptorClient, 'urls' | 'sendApproval'>;
  /** Real time in ms (storage stamps `updatedAt` with it; default `Date.now`). */
  realNow?: () => number;
}

export interface ApprovalRequest {
  estado: 1 | 2;
  /** Trimmed reason, only with estado 2. */
  motivo: string | null;
}

/** A commercial approval sent (or resent): both deliveries, and when. */
export interface ApprovalResult {
  estado: 1 | 2;
  motivo: string | null;
  sentAt: number;
  emisor: EmisorDelivery;
  autoridad: AuthorityDelivery;
  /** True when both the issuer and the authority took it. */
  delivered: boolean;
}

/**
 * Sends (or resends) the commercial approval of received document `d`. Fails as `invalid` (a type without
 * approval, an e-CF answered as not received, an ACECF that does not validate), `conflict` (another approval
 * recorded, one in flight, already delivered, another buyer) before anything is sent.
 */
export async function sendCommercialApproval(
  deps: CommercialApprovalDeps,
  issuer: Issuer,
  d: ReceivedDocument,
  request: ApprovalRequest,
): Promise<ApprovalResult> {
  const { storage, transport, schemas, clock, logger } = deps;
  const { estado, motivo } = request;
  const realNow = deps.realNow ?? Date.now;
  if (!(ACECF_TYPES as readonly string[]).includes(d.tipo)) {
    throw invalidRequest(APPROVAL_MESSAGES.invalidApproval, {
      e_ncf: [`El tipo de e-CF ${d.tipo} no admite aprobación comercial (solo ${ACECF_TYPES.join(', ')}).`],
    });
  }
  if (d.estado !== 0) {
    throw invalidRequest(APPROVAL_MESSAGES.invalidApproval, {
      e_ncf: ['Este e-CF se respondió como no recibido (acuse de recibo estado 1): no admite aprobación comercial.'],
    });
  }

  /** The signed ACECF of `d` with the values of the received e-CF. */
  async function signedAcecf(who: AuthorityIdentity): Promise<string> {
    // The builder takes the amount as a number; a 2-decimal amount round-trips exactly, and the check below
    // refuses to sign anything whose MontoTotal differs from the received one.
    const monto = Number(d.montoTotal);
    if (!Number.isFinite(monto) || amountText(monto) !== amountText(d.montoTotal)) {
      throw new UseCaseError('invalid', `El MontoTotal del e-CF recibido (${d.montoTotal}) no puede expresarse con 2 decimales en la aprobación comercial.`);
    }
    // The reception service records only e-CF whose buyer is the receiving issuer; never sign for anyone else.
    const buyer = buyerOf(d.xml) ?? issuer.rnc;
    if (buyer !== issuer.rnc) {
      throw new UseCaseError('conflict', `El e-CF recibido no nombra como comprador al emisor ${issuer.rnc}: no se emite aprobación comercial.`);
    }
    const xml = buildAcecfXml({
      rnc_emisor: d.emisorRnc,
      encf: d.encf,
      fecha_emision: d.fechaEmision,
      monto_total: monto,
      rnc_comprador: buyer,
      estado: estado === 1 ? '1' : '2',
      ...(motivo !== null ? { detalle_motivo_rechazo: motivo } : {}),
      fecha_hora_aprobacion_comercial: formatDateTimeDO(clock()),
    });
    const signed = await signXml(xml, who.signer);
    const xsd = schemas.validate(signed, 'ACECF');
    if (!xsd.valid) {
      throw withErrors(
        'invalid',
        APPROVAL_MESSAGES.invalidApproval,
        xsd.violations.slice(0, 10).map((v) => `${v.xpath ?? '/ACECF'}: ${v.message.trim()}`),
      );
    }
    return signed;
  }

  async function deliverToIssuer(who: AuthorityIdentity, file: XmlFile): Promise<EmisorDelivery> {
    const fecha = formatDateTimeDO(clock());
    const failed = (error: string, url: string | null = null): EmisorDelivery => ({ entregada: false, url, http_status: null, error, fecha });
    let entry;
    try {
      entry = await deps.directory.entry(who, d.emisorRnc);
    } catch (e) {
      logger.warn(
        { emisor: d.emisorRnc, err: { name: (e as Error).name, message: (e as Error).message } },
        'directory lookup for a commercial approval failed',
      );
      return failed('No se pudo consultar el directorio de la autoridad tributaria para obtener la URL de aprobación comercial del emisor.');
    }
    if (!entry?.urlAceptacion)
      return failed(`El emisor ${d.emisorRnc} no publica una URL de aprobación comercial en el directorio de la autoridad tributaria.`);
    let url: string | null = null;
    try {
      url = deps.receptor().urls(entry).aprobacion;
      const r = await deps.receptor().sendApproval(entry, who, file);
      // The answer is the receiver's, not ours: a bounded, sanitized summary goes to the log only.
      logger.info({ emisor: d.emisorRnc, url, status: r.status, answer: answerSummary(r.body) }, 'commercial approval: issuer receiver answered');
      return {
        entregada: r.ok,
        url,
        http_status: r.status,
        error: r.ok ? null : `El servicio de aprobación comercial del emisor respondió HTTP ${r.status}.`,
        fecha,
      };
    } catch (e) {
      logger.warn(
        { emisor: d.emisorRnc, err: { name: (e as Error).name, message: (e as Error).message } },
        'commercial approval delivery to the issuer failed',
      );
      return failed(deliveryFailure(e), url);
    }
  }

  async function copyToAuthority(who: AuthorityIdentity, file: XmlFile): Promise<AuthorityDelivery> {
    const fecha = formatDateTimeDO(clock());
    try {
      const r = await transport.sendApproval(who, file);
      // DGII documents no code list; the simulator (and DGII's examples) answer codigo "1" when the copy is taken.
      return { entregada: r.codigo === '1', codigo: r.codigo, estado: r.estado, mensajes: r.mensajes, error: null, fecha };
    } catch (e) {
      logger.warn({ err: { name: (e as Error).name, message: (e as Error).message } }, 'commercial approval copy to the authority failed');
      if (isAuthorityError(e)) {
        return { entregada: false, codigo: null, estado: null, mensajes: authorityMessages(e.mensajes), error: AUTHORITY_MESSAGES.authorityRefused, fecha };
      }
      const message = isTransportError(e) && e.retryable ? AUTHORITY_MESSAGES.authorityUnavailable : AUTHORITY_MESSAGES.authorityBadGateway;
      return { entregada: false, codigo: null, estado: null, mensajes: [], error: message, fecha };
    }
  }

  const who = await deps.identity(issuer);
  let xml: string;
  let previous: ApprovalOutcome | null = null;
  if (d.approvalEstado !== null) {
    if (d.approvalEstado !== estado || (d.approvalMotivo ?? null) !== motivo || !d.approvalXml) {
      throw new UseCaseError('conflict', `Este e-CF ya tiene una aprobación comercial registrada (estado ${d.approvalEstado}); no puede cambiarse.`);
    }
    if (d.approvalOutcome === null && realNow() - d.updatedAt < IN_FLIGHT_MS) {
      throw new UseCaseError('conflict', 'La aprobación comercial de este e-CF se está enviando en este momento; consulte el documento en unos segundos.');
    }
    previous = outcomeOf(d.approvalOutcome);
    if (previous?.emisor?.entregada && previous.autoridad?.entregada) {
      throw new UseCaseError('conflict', 'La aprobación comercial de este e-CF ya fue entregada al emisor y a la autoridad tributaria.');
    }
    xml = d.approvalXml;
  } else {
    xml = await signedAcecf(who);
    // One approval per document: of concurrent requests only one records its ACECF.
    const claimed = await storage.updateReceivedApproval(
      d.id,
      { approvalEstado: estado, approvalMotivo: motivo, approvalXml: xml },
      { onlyIfUnapproved: true },
    );
    if (!claimed) throw new UseCaseError('conflict', 'Otra solicitud registró al mismo tiempo la aprobación comercial de este e-CF.');
  }

  const file: XmlFile = { fileName: fileNameFor(xml), xml };
  const [emisor, autoridad] = await Promise.all([
    previous?.emisor?.entregada ? Promise.resolve(previous.emisor) : deliverToIssuer(who, file),
    previous?.autoridad?.entregada ? Promise.resolve(previous.autoridad) : copyToAuthority(who, file),
  ]);
  const sentAt = clock().getTime();
  await storage.updateReceivedApproval(d.id, { approvalSentAt: sentAt, approvalOutcome: { emisor, autoridad } });
  logger.info(
    { issuer: issuer.rnc, emisor: d.emisorRnc, encf: d.encf, estado, toIssuer: emisor.entregada, toAuthority: autoridad.entregada },
    'commercial approval sent',
  );
  return { estado, motivo, sentAt, emisor, autoridad, delivered: emisor.entregada && autoridad.entregada };
}

// ---------------------------------------------------------------------------------------------- live status

export interface ReceivedStatusDeps {
  transport: Pick<AuthorityTransport, 'status'>;
  clock: NowFn;
  identity: IdentityOf;
}

/** The authority's fiscal status of a received e-CF (`conflict` when its signature is unreadable), and when it was asked. */
export async function receivedFiscalStatus(
  deps: ReceivedStatusDeps,
  issuer: Issuer,
  d: ReceivedDocument,
): Promise<{ status: FiscalStatus; consultedAt: string }> {
  let code: string;
  try {
    code = securityCode(d.xml);
  } catch {
    throw new UseCaseError('conflict', 'El XML recibido no tiene una firma legible: no se puede calcular su código de seguridad para consultarlo.');
  }
  const who = await deps.identity(issuer);
  const consultedAt = formatDateTimeDO(deps.clock());
  const status = await deps.transport.status(who, { rncEmisor: d.emisorRnc, encf: d.encf, rncComprador: buyerOf(d.xml), codigoSeguridad: code });
  return { status, consultedAt };
}
