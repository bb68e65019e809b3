/**
 * `renderPdf`: the printed representation (representación impresa, RI) of a signed e-CF, as PDF bytes. The
 * e-CF entry: it resolves the input, builds the print model (`model.ts`), chooses every e-CF text and the QR
 * placement, and hands a product-neutral `PrintedDocument` to `document.ts`.
 *
 * Pure: no file system, no clock, no network. Fonts and the logo come in as bytes; the PDF's creation and
 * modification dates are the document's `FechaHoraFirma` (or absent), so the same input always gives the
 * same bytes.
 */
import { qrUrl, qrUrlFromSignedXml, type DgiiEnvironment, type QrUrlOptions } from '../derive/qr-url.js';
import { isDgiiEnvironment } from '../spec/environments.js';
import { securityCode } from '../derive/security-code.js';
import { EcfError } from '../../shared/errors/ecf-error.js';
import { isEcfType, type EcfType } from '../spec/model.js';
import { parseEcfXml, type BuildContext } from '../xml/ecf.js';
import { toFixed } from '../../shared/money/decimal.js';
import { dec, signingInstant } from './format.js';
import { renderDocument, type Block, type Caption, type PrintedDocument, type QrSymbol } from '../../shared/pdf/document.js';
import { INK } from '../../shared/pdf/layout.js';
import { buildPrintModel, type PrintModel } from './model.js';
import type { QrErrorCorrection } from '../../shared/pdf/qr.js';

/** A parsed e-CF (as `parseEcfXml` returns it) plus what only the signature gives: the security code. */
export interface PdfDocumentInput {
  tipo: EcfType | string;
  /** Canonical JSON of the document. */
  document: Record<string, unknown>;
  /** Issuer profile, e-NCF, issue date and sequence expiry. */
  context: BuildContext;
  /** `FechaHoraFirma` (`dd-MM-yyyy HH:mm:ss`). Printed as "Fecha de Firma Digital"; required for the ConsultaTimbre URL. */
  fecha_hora_firma?: string;
  /** First six characters of the SignatureValue (`securityCode(signedXml)`). */
  securityCode: string;
  /**
   * Timbre URL to encode in the QR. Default: built with `qrUrl` from the document (MontoTotal written with two
   * decimals, as ecf-kit's XML writer does). Pass `qrUrlFromSignedXml(signed, …)` when the XML came from elsewhere.
   */
  qrUrl?: string;
}

export interface RenderPdfOptions {
  /** DGII environment of the timbre (QR) URL: `testecf`, `certecf` or `ecf` (production). */
  environment: DgiiEnvironment;
  /** Casing and hosts of the timbre URL (see `qrUrl`). */
  qrUrl?: Omit<QrUrlOptions, 'environment'>;
  /** QR symbol: error-correction level (default `L`, see qr.ts) and minimum version (default 8, DGII). */
  qr?: { errorCorrection?: QrErrorCorrection; minVersion?: number };
  /** Paper size. Default `letter` (216 × 279 mm, the usual size in the Dominican Republic); `a4` also accepted. */
  pageSize?: 'letter' | 'a4';
  /** Issuer logo, PNG or JPEG bytes; drawn top-left, at most 34 × 20 mm, aspect ratio kept. */
  logo?: Uint8Array;
  /**
   * TrueType/OpenType fonts instead of Helvetica (for characters outside Windows-1252). Requires a fontkit
   * instance (`import fontkit from '@pdf-lib/fontkit'`). The fonts are subset-embedded under fixed names.
   */
  fonts?: { regular: Uint8Array; bold?: Uint8Array; fontkit: unknown };
}

const PAGE_SIZES: Record<'letter' | 'a4', [number, number]> = { letter: [612, 792], a4: [595.28, 841.89] };

/** Placement of the QR (IT §17.2.3): lower-left of the last page, ≥ 20 mm from the edges, ≥ 22 mm wide, 3 mm clear margin. */
export const QR_LAYOUT = {
  /** Minimum distance of the symbol from the left and bottom edges. */
  edgeMm: 20,
  /** Minimum side of the symbol. */
  minSideMm: 22,
  /** Side used when the modules allow (≥ 0.4 mm per module). */
  sideMm: 25,
  /** Blank margin around the symbol. */
  quietMm: 3,
} as const;

interface Resolved {
  model: PrintModel;
  signedAt?: Date;
}

function resolveInput(input: string | PdfDocumentInput, options: RenderPdfOptions): Resolved {
  const urlOptions: QrUrlOptions = { ...(options.qrUrl ?? {}), environment: options.environment };
  if (typeof input === 'string') {
    const parsed = parseEcfXml(input);
    if (!parsed.signed) {
      throw new EcfError('renderPdf prints signed e-CF only: the XML has no signature (sign it with signEcf first).', { code: 'not_signed' });
    }
    // The security code and the timbre URL read the header, FechaHoraFirma and the signature only: give them
    // the document without its detail lines so that a 10,000-line e-CF is not parsed three more times.
    const header = withoutDetail(input);
    const code = securityCode(header);
    const url = qrUrlFromSignedXml(header, urlOptions);
    const model = buildPrintModel(parsed, { code, qrUrl: url });
    const signedAt = signingInstant(parsed.fecha_hora_firma);
    return { model, ...(signedAt ? { signedAt } : {}) };
  }
  if (!isEcfType(input.tipo)) {
    throw new EcfError(`renderPdf: unknown e-CF type "${String(input.tipo)}".`, { code: 'invalid_argument' });
  }
  if (typeof input.securityCode !== 'string' || input.securityCode.length !== 6) {
    throw new EcfError('renderPdf: securityCode must be the six characters from securityCode(signedXml).', { code: 'invalid_argument' });
  }
  // biome-ignore lint/suspicious/noExplicitAny: a canonical JSON document, already checked against the field table before this point
  const doc = input.document as Record<string, any>;
  const total = dec(doc.totales?.monto_total);
  if (total === null) throw new EcfError('renderPdf: document.totales.monto_total is missing.', { code: 'missing_field' });
  const url =
    input.qrUrl ??
    qrUrl(
      {
        rncEmisor: input.context.emisor.rnc,
        rncComprador: doc.comprador?.rnc ?? null,
        encf: input.context.encf,
        tipoeCF: input.tipo,
        fechaEmision: input.context.fecha_emision,
        montoTotal: toFixed(total, 2),
        fechaFirma: input.fecha_hora_firma ?? null,
        codigoSeguridad: input.securityCode,
      },
      urlOptions,
    );
  const model = buildPrintModel({ ...input, tipo: input.tipo, document: doc }, { code: input.securityCode, qrUrl: url });
  const signedAt = signingInstant(input.fecha_hora_firma);
  return { model, ...(signedAt ? { signedAt } : {}) };
}

/** The XML without `<DetallesItems>…</DetallesItems>` (unchanged when the element is not found). */
function withoutDetail(xml: string): string {
  const open = '<DetallesItems>';
  const close = '</DetallesItems>';
  const start = xml.indexOf(open);
  const end = xml.lastIndexOf(close);
  return start >= 0 && end > start ? xml.slice(0, start) + xml.slice(end + close.length) : xml;
}

/**
 * Renders the printed representation of a signed e-CF.
 *
 * - `input`: the signed XML (parsed here; the security code and the timbre URL are read from it), or a parsed
 *   document plus its security code (`PdfDocumentInput`).
 * - Layout: issuer and document box, buyer block, detail table (repeated header, carried "Van / Vienen"
 *   totals, wrapped descriptions), sections present in the document (subtotals, global discounts and
 *   surcharges, reference, payment forms, customs, transport, other currency), and on the last page the QR,
 *   "Código de Seguridad", "Fecha de Firma Digital" (lower-left) and the totals (lower-right).
 *
 * @example
 * const pdf = await renderPdf(signedXml, { environment: 'ecf' });
 * await writeFile('E310000000001.pdf', pdf);
 */
export async function renderPdf(input: string | PdfDocumentInput, options: RenderPdfOptions): Promise<Uint8Array> {
  if (!options || !isDgiiEnvironment(options.environment)) {
    throw new EcfError('renderPdf: options.environment must be testecf, certecf or ecf (it selects the QR URL).', { code: 'invalid_argument' });
  }
  const { model, signedAt } = resolveInput(input, options);
  const size = PAGE_SIZES[options.pageSize ?? 'letter'] ?? PAGE_SIZES.letter;
  // DGII asks for QR version 8 (DT). Version 8 holds at most 192 bytes at level L (152 at M), while a
  // ConsultaTimbre URL is 180–230 bytes (RNC lengths, amount, percent-encoded date and code; DGII's own example
  // is 205 bytes and needs version 9 even with optimal mixed-mode segments). So: level L by default (it keeps
  // the most URLs at version 8), version 8 when the URL fits, otherwise the smallest larger version. The
  // ConsultaTimbreFC URL (~125 bytes) is always version 8.
  const qr = { text: model.security.qrUrl, errorCorrection: options.qr?.errorCorrection ?? 'L', minVersion: options.qr?.minVersion ?? 8 };
  return renderDocument(printedDocument(model, qr, signedAt), {
    size,
    caller: 'renderPdf',
    ...(options.logo ? { logo: options.logo } : {}),
    ...(options.fonts ? { fonts: { ...options.fonts, names: { regular: 'EcfKitRegular', bold: 'EcfKitBold' } } } : {}),
  });
}

/** The e-CF print model in the product-neutral document shape: every e-CF text and placement rule is chosen here. */
function printedDocument(model: PrintModel, qr: QrSymbol, signedAt: Date | undefined): PrintedDocument {
  const body: Block[] = [];
  if (model.counterparty) body.push({ section: model.counterparty, gapAfter: 6 });
  body.push({ section: model.items, untitled: true, carry: { out: 'Van', in: 'Vienen' } });
  for (const section of model.sections) body.push({ section, gapBefore: 8 });
  const captions: Caption[] = [
    { text: `Código de Seguridad: ${model.security.code}`, style: { font: 'bold', size: 8, color: INK } },
    ...(model.security.signedAt
      ? [{ text: `Fecha de Firma Digital: ${model.security.signedAt}`, style: { font: 'regular', size: 7.5, color: INK } as const, clean: false }]
      : []),
  ];
  return {
    header: { party: model.issuer, box: { title: model.typeName, idLabel: 'e-NCF: ', id: model.encf, pairs: model.docInfo } },
    continuation: { left: model.issuerName, right: `${model.typeName}  ·  e-NCF ${model.encf}` },
    body,
    closing: { qr, placement: QR_LAYOUT, captions, totals: model.totals },
    footer: {
      text: `${model.typeName} · ${model.encf} · Representación impresa`,
      pageText: (index, count) => `Página ${index + 1} de ${count}`,
    },
    metadata: {
      title: `${model.typeName} ${model.encf}`,
      author: model.issuerName,
      subject: `Representación impresa del e-CF ${model.encf}`,
      keywords: ['e-CF', model.encf, `tipo ${model.tipo}`, 'DGII'],
      creator: 'ecf-kit',
      producer: 'ecf-kit (pdf-lib)',
      language: 'es-DO',
      ...(signedAt ? { date: signedAt } : {}),
    },
  };
}
