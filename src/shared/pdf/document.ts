/**
 * Product-neutral renderer of a printed document described in the section model (`sections.ts`): first-page
 * header (party block with an optional logo, document box), blocks in order (pairs and tables, one of which may
 * carry its running total between pages), a closing band on the last page (QR symbol with captions lower-left,
 * totals lower-right), a compact header on continuation pages and a footer with "page x of y" on every page.
 *
 * A product supplies every text (labels, titles, page wording) and the QR symbol; this module knows no product.
 * Pure: no file system, no clock, no network; the same input gives the same bytes.
 */
import { PDFContentStream, PDFDocument, PDFName, PDFRawStream, StandardFonts, type PDFImage } from 'pdf-lib';
import type { Dec } from '../money/decimal.js';
import { EcfError } from '../errors/ecf-error.js';
import {
  ACCENT,
  drawLines,
  drawQr,
  flowPairs,
  flowTable,
  hline,
  INK,
  layoutPair,
  layoutRuns,
  lineHeight,
  Flow,
  linesHeight,
  MM,
  MUTED,
  rect,
  SHADE,
  type DrawCtx,
  type Geometry,
  type Line,
} from './layout.js';
import { qrMatrix, type QrErrorCorrection, type QrMatrix } from './qr.js';
import type { Pair, Run, Section, TotalLine } from './sections.js';
import { TextKit, type Fonts, type TextStyle } from './text.js';

/** One block of the body, placed in order after the first-page header. */
export interface Block {
  section: Section;
  /** Vertical space before / after the block (points). */
  gapBefore?: number;
  gapAfter?: number;
  /** Tables only: print without the section title. */
  untitled?: boolean;
  /**
   * Tables only: carry the running total of `row.carry` between pages, label in the flexible column, amount in
   * the last; `out` / `in` label the carried rows (foot of a page / head of the next).
   */
  carry?: { out: string; in: string; format?: (amount: Dec) => string };
}

/** Placement of the QR symbol in the closing band, in millimetres. */
export interface QrPlacement {
  /** Minimum distance of the symbol from the left and bottom edges. */
  readonly edgeMm: number;
  /** Minimum side of the symbol. */
  readonly minSideMm: number;
  /** Side used when the modules allow (at least `minModuleMm` per module). */
  readonly sideMm: number;
  /** Blank margin around the symbol. */
  readonly quietMm: number;
  /** Smallest module side (default 0.4 mm). */
  readonly minModuleMm?: number;
}

/** The QR symbol: `text` encoded in byte mode at `errorCorrection`, version ≥ `minVersion` (see qr.ts). */
export interface QrSymbol {
  text: string;
  errorCorrection: QrErrorCorrection;
  minVersion: number;
}

/** A caption line under the QR symbol. `clean: false` draws the text as given (no font sanitising). */
export interface Caption {
  text: string;
  style: TextStyle;
  clean?: boolean;
}

export interface PrintedDocument {
  /** First page: party block (left, after the logo) and the document box (right: title band, id line, pairs). */
  header: { party: Run[]; box: { title: string; idLabel: string; id: string; pairs: Pair[] } };
  /** Compact header of continuation pages: a name on the left, the document on the right. */
  continuation: { left: string; right: string };
  body: Block[];
  /** Closing band of the last page. */
  closing: { qr: QrSymbol; placement: QrPlacement; captions: Caption[]; totals: TotalLine[] };
  /** Footer of every page: a text on the left, the page number on the right. */
  footer: { text: string; pageText: (index: number, count: number) => string };
  metadata: {
    title: string;
    author: string;
    subject: string;
    keywords: string[];
    creator: string;
    producer: string;
    language: string;
    /** Creation and modification date; absent → none written (so the bytes do not depend on the clock). */
    date?: Date;
  };
}

export interface RenderDocumentOptions {
  /** Page size in points. */
  size: readonly [number, number];
  /** Logo bytes (PNG or JPEG), drawn top-left at most 34 × 20 mm. */
  logo?: Uint8Array;
  /** TrueType/OpenType fonts instead of Helvetica, with a fontkit instance; subset-embedded under fixed names. */
  fonts?: { regular: Uint8Array; bold?: Uint8Array; fontkit: unknown; names?: { regular: string; bold: string } };
  /** Name of the public function, for error messages (`renderPdf: …`). */
  caller: string;
  /** The pages' content streams' deflater (see `PdfDeflate`); default pdf-lib's own (pako, pure JS). */
  deflate?: PdfDeflate;
}

/**
 * A zlib-format deflater (RFC 1950: header, DEFLATE data, Adler-32), as a PDF's `FlateDecode` filter reads. Given to
 * a renderer, it compresses the pages' content streams (most of the file and, with pdf-lib's pure-JavaScript pako,
 * a sixth of the rendering time) in place of pdf-lib; the small object and cross-reference streams stay pdf-lib's.
 * On Node, `node:zlib`'s `deflateSync` is about 3× faster than pako on an invoice's page.
 */
export type PdfDeflate = (data: Uint8Array) => Uint8Array;

async function embedFonts(pdf: PDFDocument, options: RenderDocumentOptions): Promise<Fonts> {
  if (!options.fonts) {
    return { regular: await pdf.embedFont(StandardFonts.Helvetica), bold: await pdf.embedFont(StandardFonts.HelveticaBold) };
  }
  const { regular, bold, fontkit, names } = options.fonts;
  if (!fontkit) throw new EcfError(`${options.caller}: options.fonts needs a fontkit instance (@pdf-lib/fontkit).`, { code: 'invalid_argument' });
  pdf.registerFontkit(fontkit as Parameters<PDFDocument['registerFontkit']>[0]);
  const r = await pdf.embedFont(regular, { subset: true, customName: names?.regular ?? 'EcfKitRegular' });
  const b = bold ? await pdf.embedFont(bold, { subset: true, customName: names?.bold ?? 'EcfKitBold' }) : r;
  return { regular: r, bold: b };
}

async function embedLogo(pdf: PDFDocument, bytes: Uint8Array | undefined, caller: string): Promise<PDFImage | null> {
  if (!bytes) return null;
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return pdf.embedPng(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return pdf.embedJpg(bytes);
  throw new EcfError(`${caller}: the logo must be PNG or JPEG bytes.`, { code: 'invalid_argument' });
}

/** Renders `doc` as PDF bytes. */
export async function renderDocument(doc: PrintedDocument, options: RenderDocumentOptions): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const fonts = await embedFonts(pdf, options);
  const logo = await embedLogo(pdf, options.logo, options.caller);
  const kit = new TextKit(fonts);
  const [width, height] = options.size;
  const geo: Geometry = { width, height, marginX: 15 * MM, marginTop: 14 * MM, marginBottom: 15 * MM };
  const qr = qrMatrix(doc.closing.qr.text, doc.closing.qr.errorCorrection, doc.closing.qr.minVersion);

  const flow = new Flow(geo, kit, (f) => continuationHeader(f, doc.continuation), CONTINUATION_HEADER_H);
  flow.newPage();
  firstPageHeader(flow, doc.header, logo);
  for (const block of doc.body) {
    if (block.gapBefore) flow.gap(block.gapBefore);
    const { section } = block;
    if (section.kind === 'table') {
      const cols = section.columns;
      flowTable(flow, section, {
        ...(block.carry ? { carry: { labelColumn: cols.findIndex((c) => c.flex), amountColumn: cols.length - 1, ...block.carry } } : {}),
        ...(block.untitled ? {} : { title: section.title }),
      });
    } else flowPairs(flow, section);
    if (block.gapAfter) flow.gap(block.gapAfter);
  }
  closingBand(flow, doc.closing, qr);

  const count = flow.pages.length;
  const footer: FooterParts = { left: kit.clean(doc.footer.text, 'regular'), style: { font: 'regular', size: 7, color: MUTED } };
  flow.pages.forEach((ops, index) => {
    const page = pdf.addPage([width, height]);
    const ctx: DrawCtx = { page, fonts, index, count };
    for (const op of ops) op(ctx);
    drawFooter(ctx, kit, geo, footer, doc.footer.pageText(index, count));
  });

  return savePdf(pdf, doc.metadata, options.deflate);
}

const FLATE_DECODE = PDFName.of('FlateDecode');

/** Replaces every page content stream that pdf-lib would deflate by one already deflated with `deflate`. */
function deflateContentStreams(pdf: PDFDocument, deflate: PdfDeflate): void {
  const { context } = pdf;
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFContentStream) || object.dict.get(PDFName.of('Filter')) !== FLATE_DECODE) continue;
    context.assign(ref, PDFRawStream.of(object.dict, deflate(object.getUnencodedContents())));
  }
}

/**
 * Writes the document's metadata (title shown in the window bar, fixed dates when given, so the bytes depend on
 * the input only) and saves with object streams: the last step of every renderer. With `deflate`, the pages'
 * content streams are compressed by it rather than by pdf-lib.
 */
export function savePdf(pdf: PDFDocument, m: PrintedDocument['metadata'], deflate?: PdfDeflate): Promise<Uint8Array> {
  pdf.setTitle(m.title, { showInWindowTitleBar: true });
  pdf.setAuthor(m.author);
  pdf.setSubject(m.subject);
  pdf.setKeywords(m.keywords);
  pdf.setCreator(m.creator);
  pdf.setProducer(m.producer);
  pdf.setLanguage(m.language);
  if (m.date) {
    pdf.setCreationDate(m.date);
    pdf.setModificationDate(m.date);
  }
  if (deflate) deflateContentStreams(pdf, deflate);
  return pdf.save({ useObjectStreams: true });
}

function firstPageHeader(flow: Flow, header: PrintedDocument['header'], logo: PDFImage | null): void {
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
  const partyW = flow.left + leftW - textX;
  const party = layoutRuns(kit, header.party, partyW);
  const leftH = Math.max(linesHeight(party), logoBox?.h ?? 0);

  // Document box: title band, id line, pairs.
  const { box } = header;
  const pad = 7;
  const inner = boxW - 2 * pad;
  const titleStyle: TextStyle = { font: 'bold', size: 10, color: [1, 1, 1] };
  const titleLines: Line[] = kit.wrap(box.title, titleStyle, inner).map((t) => ({
    segs: [{ text: t, style: titleStyle, dx: (inner - kit.width(t, titleStyle)) / 2 }],
    h: lineHeight(titleStyle),
  }));
  const bandH = linesHeight(titleLines) + 2 * 5;
  const idStyle: TextStyle = { font: 'bold', size: 11, color: INK };
  const id: Line[] = [
    {
      segs: [
        { text: box.idLabel, style: { ...idStyle, font: 'regular', size: 9 }, dx: 0 },
        { text: box.id, style: idStyle, dx: kit.width(box.idLabel, { ...idStyle, font: 'regular', size: 9 }) },
      ],
      h: lineHeight(idStyle) + 2,
    },
  ];
  const info = box.pairs.flatMap((p) => layoutPair(kit, p.label, p.value, inner));
  const boxH = bandH + pad + linesHeight(id) + linesHeight(info) + pad;
  const boxX = flow.right - boxW;
  const left = flow.left;

  flow.op((c) => {
    if (logo && logoBox) c.page.drawImage(logo, { x: left, y: c.page.getHeight() - top - logoBox.h, width: logoBox.w, height: logoBox.h });
    drawLines(c, party, textX, top);
    rect(c, boxX, top, boxW, boxH, undefined, ACCENT, 0.8);
    rect(c, boxX, top, boxW, bandH, ACCENT);
    drawLines(c, titleLines, boxX + pad, top + 5);
    drawLines(c, id, boxX + pad, top + bandH + pad);
    drawLines(c, info, boxX + pad, top + bandH + pad + linesHeight(id));
  });
  flow.y = top + Math.max(leftH, boxH) + 10;
}

const CONTINUATION_NAME: TextStyle = { font: 'bold', size: 9, color: INK };
/** Height of the compact header of continuation pages (one 9 pt line, rule, gap). */
const CONTINUATION_HEADER_H = lineHeight(CONTINUATION_NAME) + 8;

function continuationHeader(flow: Flow, texts: PrintedDocument['continuation']): void {
  const { kit } = flow;
  const top = flow.y;
  const nameStyle = CONTINUATION_NAME;
  const docStyle: TextStyle = { font: 'bold', size: 9, color: ACCENT };
  const rightText = kit.clean(texts.right, 'bold');
  const rw = kit.width(rightText, docStyle);
  const name = kit.wrap(texts.left, nameStyle, Math.max(60, flow.contentWidth - rw - 20))[0] ?? '';
  const { left, right: r } = flow;
  flow.op((c) => {
    drawLines(c, [{ segs: [{ text: name, style: nameStyle, dx: 0 }], h: lineHeight(nameStyle) }], left, top);
    drawLines(c, [{ segs: [{ text: rightText, style: docStyle, dx: 0 }], h: lineHeight(docStyle) }], r - rw, top);
    hline(c, left, r, top + lineHeight(nameStyle) + 2, ACCENT, 0.7);
  });
}

const VALUE_W = 100;

/** The last page's closing band: QR + captions (lower-left), totals (lower-right). */
function closingBand(flow: Flow, closing: PrintedDocument['closing'], qr: QrMatrix): void {
  const { kit } = flow;
  const { placement } = closing;
  const module = Math.max((placement.sideMm * MM) / qr.size, (placement.minModuleMm ?? 0.4) * MM);
  const side = Math.max(module * qr.size, placement.minSideMm * MM);
  const moduleSize = side / qr.size;
  const quiet = placement.quietMm * MM;
  const qrX = Math.max(flow.left + quiet, placement.edgeMm * MM);

  const under: Line[] = closing.captions.map((cap) => ({
    segs: [{ text: cap.clean === false ? cap.text : kit.clean(cap.text, cap.style.font), style: cap.style, dx: 0 }],
    h: lineHeight(cap.style),
  }));
  const leftH = quiet + side + quiet + linesHeight(under);
  const leftW = Math.max(side + quiet, ...under.map((l) => kit.width(l.segs[0]!.text, l.segs[0]!.style))) + quiet;

  // Totals, right-aligned box.
  const totalsW = Math.min(250, flow.contentWidth - (qrX - flow.left) - leftW - 10);
  const rows = closing.totals.map((t) => {
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
    // QR symbol: one filled path of horizontal runs.
    const qrTop = flow.bottom - linesHeight(under) - quiet - side;
    drawQr(c, qr, qrX, qrTop, moduleSize);
    drawLines(c, under, qrX, qrTop + side + quiet);
    // Totals.
    let y = bandTop + (bandH - totalsH);
    rect(c, totalsX, y, totalsW, totalsH, undefined, [0.8, 0.81, 0.84], 0.5);
    y += 2;
    for (const r of rows) {
      if (r.t.strong) rect(c, totalsX + 0.5, y, totalsW - 1, r.h, SHADE);
      drawLines(
        c,
        r.lbl.map((text) => ({ segs: [{ text, style: r.st, dx: 0 }], h: lineHeight(r.st) })),
        totalsX + 6,
        y + 1.5,
      );
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

function drawFooter(c: DrawCtx, kit: TextKit, geo: Geometry, f: FooterParts, pageText: string): void {
  const top = geo.height - 11.5 * MM;
  const ps: TextStyle = { font: 'bold', size: 7.5, color: INK };
  hline(c, geo.marginX, geo.width - geo.marginX, top - 2, [0.85, 0.86, 0.88], 0.4);
  drawLines(c, [{ segs: [{ text: f.left, style: f.style, dx: 0 }], h: lineHeight(ps) }], geo.marginX, top);
  drawLines(c, [{ segs: [{ text: pageText, style: ps, dx: 0 }], h: lineHeight(ps) }], geo.width - geo.marginX - kit.width(pageText, ps), top);
}
