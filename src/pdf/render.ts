/**
 * `renderPdf`: the printed representation (representación impresa, RI) of a signed e-CF, as PDF bytes.
 *
 * Pure: no file system, no clock, no network. Fonts and the logo come in as bytes; the PDF's creation and
 * modification dates are the document's `FechaHoraFirma` (or absent), so the same input always gives the
 * same bytes.
 */
import { PDFDocument, StandardFonts, type PDFImage } from 'pdf-lib';
import { qrUrl, qrUrlFromSignedXml, type DgiiEnvironment, type QrUrlOptions } from '../derive/qr-url.js';
import { isDgiiEnvironment } from '../spec/environments.js';
import { securityCode } from '../derive/security-code.js';
import { EcfError } from '../errors/ecf-error.js';
import { isEcfType, type EcfType } from '../spec/model.js';
import { parseEcfXml, type BuildContext } from '../xml/ecf.js';
import { toFixed } from '../calc/decimal.js';
import { dec, signingInstant } from './format.js';
import {
  ACCENT, color, drawLines, flowPairs, flowTable, hline, INK, layoutPair, layoutRuns, lineHeight, Flow, linesHeight, MM,
  MUTED, rect, SHADE, type DrawCtx, type Geometry, type Line,
} from './layout.js';
import { buildPrintModel, type PrintModel } from './model.js';
import { darkRuns, qrMatrix, type QrErrorCorrection, type QrMatrix } from './qr.js';
import { TextKit, type Fonts, type TextStyle } from './text.js';

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
  const doc = input.document as Record<string, any>;
  const total = dec(doc.totales?.monto_total);
  if (total === null) throw new EcfError('renderPdf: document.totales.monto_total is missing.', { code: 'missing_field' });
  const url = input.qrUrl ?? qrUrl({
    rncEmisor: input.context.emisor.rnc,
    rncComprador: doc.comprador?.rnc ?? null,
    encf: input.context.encf,
    tipoeCF: input.tipo,
    fechaEmision: input.context.fecha_emision,
    montoTotal: toFixed(total, 2),
    fechaFirma: input.fecha_hora_firma ?? null,
    codigoSeguridad: input.securityCode,
  }, urlOptions);
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

async function embedFonts(pdf: PDFDocument, options: RenderPdfOptions): Promise<Fonts> {
  if (!options.fonts) {
    return { regular: await pdf.embedFont(StandardFonts.Helvetica), bold: await pdf.embedFont(StandardFonts.HelveticaBold) };
  }
  const { regular, bold, fontkit } = options.fonts;
  if (!fontkit) throw new EcfError('renderPdf: options.fonts needs a fontkit instance (@pdf-lib/fontkit).', { code: 'invalid_argument' });
  pdf.registerFontkit(fontkit as Parameters<PDFDocument['registerFontkit']>[0]);
  const r = await pdf.embedFont(regular, { subset: true, customName: 'EcfKitRegular' });
  const b = bold ? await pdf.embedFont(bold, { subset: true, customName: 'EcfKitBold' }) : r;
  return { regular: r, bold: b };
}

async function embedLogo(pdf: PDFDocument, bytes: Uint8Array | undefined): Promise<PDFImage | null> {
  if (!bytes) return null;
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return pdf.embedPng(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return pdf.embedJpg(bytes);
  throw new EcfError('renderPdf: the logo must be PNG or JPEG bytes.', { code: 'invalid_argument' });
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
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const fonts = await embedFonts(pdf, options);
  const logo = await embedLogo(pdf, options.logo);
  const kit = new TextKit(fonts);
  const [width, height] = PAGE_SIZES[options.pageSize ?? 'letter'] ?? PAGE_SIZES.letter;
  const geo: Geometry = { width, height, marginX: 15 * MM, marginTop: 14 * MM, marginBottom: 15 * MM };
  const qr = qrMatrix(model.security.qrUrl, options.qr?.errorCorrection ?? 'L', options.qr?.minVersion ?? 8);

  const flow = new Flow(geo, kit, (f) => continuationHeader(f, model), CONTINUATION_HEADER_H);
  flow.newPage();
  firstPageHeader(flow, model, logo);
  if (model.counterparty) {
    flowPairs(flow, model.counterparty);
    flow.gap(6);
  }
  const cols = model.items.columns;
  flowTable(flow, model.items, {
    carry: { labelColumn: cols.findIndex((c) => c.flex), amountColumn: cols.length - 1 },
  });
  for (const section of model.sections) {
    flow.gap(8);
    if (section.kind === 'table') flowTable(flow, section, { title: section.title });
    else flowPairs(flow, section);
  }
  closingBand(flow, model, qr);

  const count = flow.pages.length;
  const footer = footerLines(kit, model);
  flow.pages.forEach((ops, index) => {
    const page = pdf.addPage([width, height]);
    const ctx: DrawCtx = { page, fonts, index, count };
    for (const op of ops) op(ctx);
    drawFooter(ctx, kit, geo, footer);
  });

  pdf.setTitle(`${model.typeName} ${model.encf}`, { showInWindowTitleBar: true });
  pdf.setAuthor(model.issuerName);
  pdf.setSubject(`Representación impresa del e-CF ${model.encf}`);
  pdf.setKeywords(['e-CF', model.encf, `tipo ${model.tipo}`, 'DGII']);
  pdf.setCreator('ecf-kit');
  pdf.setProducer('ecf-kit (pdf-lib)');
  pdf.setLanguage('es-DO');
  if (signedAt) {
    pdf.setCreationDate(signedAt);
    pdf.setModificationDate(signedAt);
  }
  return pdf.save({ useObjectStreams: true });
}

function firstPageHeader(flow: Flow, model: PrintModel, logo: PDFImage | null): void {
  const { kit } = flow;
  const top = flow.y;
  const boxW = 218;
  const gap = 14;
  const leftW = flow.contentWidth - boxW - gap;
  let textX = flow.left;
  let logoBox: { w: number; h: number } | null = null;
  if (logo) {
    const maxW = 34 * MM;
    const maxH = 20 * MM;
    const s = Math.min(maxW / logo.width, maxH / logo.height);
    logoBox = { w: logo.width * s, h: logo.height * s };
    textX += logoBox.w + 8;
  }
  const issuerW = flow.left + leftW - textX;
  const issuer = layoutRuns(kit, model.issuer, issuerW);
  const leftH = Math.max(linesHeight(issuer), logoBox?.h ?? 0);

  // Document box: type name, e-NCF, dates and conditions.
  const pad = 7;
  const inner = boxW - 2 * pad;
  const typeStyle: TextStyle = { font: 'bold', size: 10, color: [1, 1, 1] };
  const typeLines: Line[] = kit.wrap(model.typeName, typeStyle, inner).map((t) => ({
    segs: [{ text: t, style: typeStyle, dx: (inner - kit.width(t, typeStyle)) / 2 }],
    h: lineHeight(typeStyle),
  }));
  const bandH = linesHeight(typeLines) + 2 * 5;
  const encfStyle: TextStyle = { font: 'bold', size: 11, color: INK };
  const encf: Line[] = [{
    segs: [
      { text: 'e-NCF: ', style: { ...encfStyle, font: 'regular', size: 9 }, dx: 0 },
      { text: model.encf, style: encfStyle, dx: kit.width('e-NCF: ', { ...encfStyle, font: 'regular', size: 9 }) },
    ],
    h: lineHeight(encfStyle) + 2,
  }];
  const info = model.docInfo.flatMap((p) => layoutPair(kit, p.label, p.value, inner));
  const boxH = bandH + pad + linesHeight(encf) + linesHeight(info) + pad;
  const boxX = flow.right - boxW;
  const left = flow.left;

  flow.op((c) => {
    if (logo && logoBox) c.page.drawImage(logo, { x: left, y: c.page.getHeight() - top - logoBox.h, width: logoBox.w, height: logoBox.h });
    drawLines(c, issuer, textX, top);
    rect(c, boxX, top, boxW, boxH, undefined, ACCENT, 0.8);
    rect(c, boxX, top, boxW, bandH, ACCENT);
    drawLines(c, typeLines, boxX + pad, top + 5);
    drawLines(c, encf, boxX + pad, top + bandH + pad);
    drawLines(c, info, boxX + pad, top + bandH + pad + linesHeight(encf));
  });
  flow.y = top + Math.max(leftH, boxH) + 10;
}

const CONTINUATION_NAME: TextStyle = { font: 'bold', size: 9, color: INK };
/** Height of the compact header of continuation pages (one 9 pt line, rule, gap). */
const CONTINUATION_HEADER_H = lineHeight(CONTINUATION_NAME) + 8;

function continuationHeader(flow: Flow, model: PrintModel): void {
  const { kit } = flow;
  const top = flow.y;
  const nameStyle = CONTINUATION_NAME;
  const docStyle: TextStyle = { font: 'bold', size: 9, color: ACCENT };
  const right = `${model.typeName}  ·  e-NCF ${model.encf}`;
  const rightText = kit.clean(right, 'bold');
  const rw = kit.width(rightText, docStyle);
  const name = kit.wrap(model.issuerName, nameStyle, Math.max(60, flow.contentWidth - rw - 20))[0] ?? '';
  const { left, right: r } = flow;
  flow.op((c) => {
    drawLines(c, [{ segs: [{ text: name, style: nameStyle, dx: 0 }], h: lineHeight(nameStyle) }], left, top);
    drawLines(c, [{ segs: [{ text: rightText, style: docStyle, dx: 0 }], h: lineHeight(docStyle) }], r - rw, top);
    hline(c, left, r, top + lineHeight(nameStyle) + 2, ACCENT, 0.7);
  });
}

const VALUE_W = 100;

/** The last page's closing band: QR + security code + signing date (lower-left), totals (lower-right). */
function closingBand(flow: Flow, model: PrintModel, qr: QrMatrix): void {
  const { kit } = flow;
  const module = Math.max((QR_LAYOUT.sideMm * MM) / qr.size, (0.4 * MM));
  const side = Math.max(module * qr.size, QR_LAYOUT.minSideMm * MM);
  const moduleSize = side / qr.size;
  const quiet = QR_LAYOUT.quietMm * MM;
  const qrX = Math.max(flow.left + quiet, QR_LAYOUT.edgeMm * MM);

  const codeStyle: TextStyle = { font: 'bold', size: 8, color: INK };
  const dateStyle: TextStyle = { font: 'regular', size: 7.5, color: INK };
  const under: Line[] = [
    { segs: [{ text: kit.clean(`Código de Seguridad: ${model.security.code}`, 'bold'), style: codeStyle, dx: 0 }], h: lineHeight(codeStyle) },
    ...(model.security.signedAt
      ? [{ segs: [{ text: `Fecha de Firma Digital: ${model.security.signedAt}`, style: dateStyle, dx: 0 }], h: lineHeight(dateStyle) }]
      : []),
  ];
  const leftH = quiet + side + quiet + linesHeight(under);
  const leftW = Math.max(side + quiet, ...under.map((l) => kit.width(l.segs[0]!.text, l.segs[0]!.style))) + quiet;

  // Totals, right-aligned box.
  const totalsW = Math.min(250, flow.contentWidth - (qrX - flow.left) - leftW - 10);
  const rows = model.totals.map((t) => {
    const st: TextStyle = t.strong ? { font: 'bold', size: 9.5, color: INK } : { font: 'regular', size: 8, color: INK };
    const size = kit.fitSize(t.value, st, VALUE_W, 5) ?? 5;
    const vs: TextStyle = { ...st, size };
    const vt = kit.clean(t.value, st.font);
    const value: Line[] = [{ segs: [{ text: vt, style: vs, dx: VALUE_W - kit.width(vt, vs) }], h: lineHeight(st) }];
    const lbl = kit.wrap(t.label, st, totalsW - VALUE_W - 12);
    const h = Math.max(lbl.length * lineHeight(st), linesHeight(value)) + 3;
    return { t, st, lbl, value, h };
  });
  const totalsH = rows.reduce((s, r) => s + r.h, 0) + 4;
  const bandH = Math.max(leftH, totalsH);

  if (!flow.fits(bandH + 6)) flow.newPage();
  const bandTop = flow.bottom - bandH;
  const totalsX = flow.right - totalsW;
  flow.op((c) => {
    // QR symbol: one filled path of horizontal runs (no seams between modules).
    const qrTop = flow.bottom - linesHeight(under) - quiet - side;
    const path = darkRuns(qr).map(([r, col, len]) => `M${col} ${r}h${len}v1h${-len}z`).join('');
    c.page.drawSvgPath(path, { x: qrX, y: c.page.getHeight() - qrTop, scale: moduleSize, color: color(INK), borderWidth: 0 });
    drawLines(c, under, qrX, qrTop + side + quiet);
    // Totals.
    let y = bandTop + (bandH - totalsH);
    rect(c, totalsX, y, totalsW, totalsH, undefined, [0.8, 0.81, 0.84], 0.5);
    y += 2;
    for (const r of rows) {
      if (r.t.strong) rect(c, totalsX + 0.5, y, totalsW - 1, r.h, SHADE);
      drawLines(c, r.lbl.map((text) => ({ segs: [{ text, style: r.st, dx: 0 }], h: lineHeight(r.st) })), totalsX + 6, y + 1.5);
      drawLines(c, r.value, totalsX + totalsW - VALUE_W - 6, y + 1.5);
      y += r.h;
    }
  });
  flow.y = flow.bottom;
}

interface FooterParts {
  left: string;
  style: TextStyle;
}

function footerLines(kit: TextKit, model: PrintModel): FooterParts {
  return { left: kit.clean(`${model.typeName} · ${model.encf} · Representación impresa`, 'regular'), style: { font: 'regular', size: 7, color: MUTED } };
}

function drawFooter(c: DrawCtx, kit: TextKit, geo: Geometry, f: FooterParts): void {
  const top = geo.height - 11.5 * MM;
  const pageText = `Página ${c.index + 1} de ${c.count}`;
  const ps: TextStyle = { font: 'bold', size: 7.5, color: INK };
  hline(c, geo.marginX, geo.width - geo.marginX, top - 2, [0.85, 0.86, 0.88], 0.4);
  drawLines(c, [{ segs: [{ text: f.left, style: f.style, dx: 0 }], h: lineHeight(ps) }], geo.marginX, top);
  drawLines(c, [{ segs: [{ text: pageText, style: ps, dx: 0 }], h: lineHeight(ps) }], geo.width - geo.marginX - kit.width(pageText, ps), top);
}
