/**
 * Product-neutral renderer of a receipt strip (a till roll, e.g. 80 mm wide): one narrow column, the page as tall
 * as its content. Header lines centred, then blocks in order (pairs in one column, tables with their header), the
 * totals (label left, amount right), the QR symbol centred with its captions, and closing lines. A strip longer
 * than `maxHeight` continues on further pages of that height with the table header repeated and "x/y" in the
 * continuation line.
 *
 * A product supplies every text; this module knows no product. Pure: the same input gives the same bytes.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { EcfError } from '../errors/ecf-error.js';
import { type PdfDeflate, type PrintedDocument, type QrSymbol, savePdf } from './document.js';
import {
  drawLines,
  drawQr,
  flowPairs,
  flowTable,
  hline,
  INK,
  layoutRuns,
  lineHeight,
  linesHeight,
  Flow,
  MM,
  MUTED,
  type Geometry,
  type Line,
} from './layout.js';
import { qrMatrix } from './qr.js';
import type { Run, Section, TotalLine } from './sections.js';
import { TextKit, type TextStyle } from './text.js';

export interface PrintedReceipt {
  /** Centred lines at the top (name first). */
  header: Run[];
  /** Blocks in order: pairs print in one column. */
  body: Section[];
  totals: TotalLine[];
  qr: QrSymbol;
  /** Centred lines under the QR symbol. */
  captions: Run[];
  /** Continuation line of later pages (only when the strip is paged). */
  continuation: string;
  metadata: PrintedDocument['metadata'];
}

export interface RenderReceiptOptions {
  /** Strip width in millimetres (default 80). */
  widthMm?: number;
  /** Side margins in millimetres (default 4). */
  marginMm?: number;
  /** Tallest page in points before the strip continues on another page (default 14,400, PDF's largest). */
  maxHeight?: number;
  /** QR side in millimetres (default 32). */
  qrSideMm?: number;
  /** Name of the public function, for error messages. */
  caller: string;
  /** The page content streams' deflater (see `PdfDeflate`); default pdf-lib's own. */
  deflate?: PdfDeflate;
}

const PAD = 4 * MM;

/** Renders a receipt strip as PDF bytes. */
export async function renderReceipt(doc: PrintedReceipt, options: RenderReceiptOptions): Promise<Uint8Array> {
  const width = (options.widthMm ?? 80) * MM;
  const marginX = (options.marginMm ?? 4) * MM;
  const maxHeight = options.maxHeight ?? 14_400;
  if (!(width > 2 * marginX + 100) || !(maxHeight >= 200 && maxHeight <= 14_400)) {
    throw new EcfError(`${options.caller}: a receipt needs a width above ${Math.ceil((2 * marginX + 100) / MM)} mm and a page height of 200–14,400 pt.`, {
      code: 'invalid_argument',
    });
  }
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const fonts = { regular: await pdf.embedFont(StandardFonts.Helvetica), bold: await pdf.embedFont(StandardFonts.HelveticaBold) };
  const kit = new TextKit(fonts);
  const geo: Geometry = { width, height: maxHeight, marginX, marginTop: PAD, marginBottom: PAD };
  const contStyle: TextStyle = { font: 'bold', size: 7, color: MUTED };
  const contH = lineHeight(contStyle) + 4;
  const flow = new Flow(
    geo,
    kit,
    (f) => {
      const top = f.y;
      const left = f.left;
      const text = kit.clean(doc.continuation, 'bold');
      f.op((c) => drawLines(c, [{ segs: [{ text: `${text}  ${c.index + 1}/${c.count}`, style: contStyle, dx: 0 }], h: lineHeight(contStyle) }], left, top));
    },
    contH,
  );
  flow.newPage();

  // Header, centred.
  place(flow, layoutRuns(kit, doc.header, flow.contentWidth, 'center'));
  flow.gap(4);
  for (const section of doc.body) {
    flow.gap(4);
    if (section.kind === 'table') flowTable(flow, section, { title: section.title });
    else flowPairs(flow, section, 1);
  }

  // Totals: label left, amount right.
  flow.gap(6);
  for (const t of doc.totals) {
    const st: TextStyle = t.strong ? { font: 'bold', size: 9, color: INK } : { font: 'regular', size: 8, color: INK };
    const value = kit.clean(t.value, st.font);
    const vw = kit.width(value, st);
    const labels = kit.wrap(t.label, st, Math.max(40, flow.contentWidth - vw - 6));
    const lines: Line[] = labels.map((text, i) => ({
      segs:
        i === 0
          ? [
              { text, style: st, dx: 0 },
              { text: value, style: st, dx: flow.contentWidth - vw },
            ]
          : [{ text, style: st, dx: 0 }],
      h: lineHeight(st) + 1,
    }));
    if (t.strong) {
      flow.ensure(linesHeight(lines) + 2);
      const top = flow.y;
      const { left, right } = flow;
      flow.op((c) => hline(c, left, right, top, INK, 0.6));
      flow.y += 2;
    }
    place(flow, lines);
  }

  // QR, centred, then its captions.
  flow.gap(8);
  const qr = qrMatrix(doc.qr.text, doc.qr.errorCorrection, doc.qr.minVersion);
  const side = Math.min((options.qrSideMm ?? 32) * MM, flow.contentWidth);
  const module = side / qr.size;
  const captions = layoutRuns(kit, doc.captions, flow.contentWidth, 'center');
  flow.ensure(side + 4);
  const qrTop = flow.y;
  const qrX = flow.left + (flow.contentWidth - side) / 2;
  flow.op((c) => drawQr(c, qr, qrX, qrTop, module));
  flow.y += side + 4;
  place(flow, captions);

  const count = flow.pages.length;
  const lastHeight = Math.min(maxHeight, Math.ceil(flow.y + PAD));
  flow.pages.forEach((ops, index) => {
    const page = pdf.addPage([width, index === count - 1 ? lastHeight : maxHeight]);
    for (const op of ops) op({ page, fonts, index, count });
  });

  return savePdf(pdf, doc.metadata, options.deflate);
}

/** Places lines one by one, breaking the page between lines when needed. */
function place(flow: Flow, lines: readonly Line[]): void {
  for (const line of lines) {
    if (!flow.fits(line.h)) flow.newPage();
    const top = flow.y;
    const left = flow.left;
    flow.op((c) => drawLines(c, [line], left, top));
    flow.y += line.h;
  }
}
