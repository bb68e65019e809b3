/**
 * The printed representation of a DIAN document as PDF bytes: `renderDianPdf(model, options)` lays a print model
 * out on A4 pages (the kernel's `renderDocument`: repeated table header and compact header on continuation pages,
 * "Página x de y") or on an 80 mm receipt strip (the kernel's `renderReceipt`); `dianPdf(xml, options)` reads any
 * DIAN document's XML and does both steps.
 *
 * Pure: no file system, no clock, no network. The PDF's creation date is the document's signing time, else its
 * issue date and time: the same input always gives the same bytes.
 */
import { EcfError } from '../../shared/errors/ecf-error.js';
import { renderDocument, type Block, type Caption, type PdfDeflate, type PrintedDocument, type QrPlacement } from '../../shared/pdf/document.js';
import { INK, MUTED } from '../../shared/pdf/layout.js';
import type { QrErrorCorrection } from '../../shared/pdf/qr.js';
import { renderReceipt, type PrintedReceipt } from '../../shared/pdf/receipt.js';
import type { PairsSection, Section, TableSection } from '../../shared/pdf/sections.js';
import { dianPdfModel, type DianPrintModel } from './model.js';
import { readDianPdfInput, type DianPdfFailure } from './read.js';
import type { UblNode } from '../ubl/tree.js';

export type DianPdfFormat = 'a4' | 'receipt80';

export interface DianPdfOptions {
  /** `a4` (default) or `receipt80`, the 80 mm POS strip (a request's `pos_pdf: true` asks for it). */
  format?: DianPdfFormat;
  /** Issuer logo, PNG or JPEG bytes (A4 only); drawn top-left, at most 34 × 20 mm. */
  logo?: Uint8Array;
  /** TrueType/OpenType fonts instead of Helvetica (A4 only), with an `@pdf-lib/fontkit` instance. */
  fonts?: { regular: Uint8Array; bold?: Uint8Array; fontkit: unknown };
  /** QR error-correction level (default `M`). */
  qrErrorCorrection?: QrErrorCorrection;
  /**
   * The deflater of the pages' content streams, zlib format (RFC 1950); default pdf-lib's (pako, pure JS). On Node,
   * pass `node:zlib`'s `deflateSync` (about 3× faster on a page; the service and the CLI do): same text, other bytes.
   */
  deflate?: PdfDeflate;
}

export interface DianPdfReadOptions extends DianPdfOptions {
  /** The technology provider's name, printed next to its NIT (the XML carries only the NIT). */
  providerName?: string;
}

export type DianPdfResult = { ok: true; pdf: Uint8Array; model: DianPrintModel } | { ok: false; code: DianPdfFailure; message: string };

const A4: readonly [number, number] = [595.28, 841.89];
/** Lower-left of the last page: at least 25 mm, 0.4 mm modules, 2 mm clear margin. */
export const DIAN_QR_LAYOUT: QrPlacement = { edgeMm: 15, minSideMm: 25, sideMm: 30, quietMm: 2 };

/** The PDF's date: the signing time, else the issue date and time (both carry their offset). */
function documentDate(model: DianPrintModel): Date | undefined {
  for (const text of [model.signingTime, model.issuedAt]) {
    if (!text || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/.test(text)) continue;
    const d = new Date(text);
    if (!Number.isNaN(d.getTime())) return d;
  }
  return undefined;
}

function metadata(model: DianPrintModel): PrintedDocument['metadata'] {
  const date = documentDate(model);
  return {
    title: `${model.title} ${model.number}`,
    author: model.issuerName,
    subject: `Representación gráfica de ${model.title.toLowerCase()} ${model.number}`,
    keywords: ['DIAN', model.number, model.typeCode, model.code.label],
    creator: 'ecf-kit',
    producer: 'ecf-kit (pdf-lib)',
    language: 'es-CO',
    ...(date ? { date } : {}),
  };
}

/** The code and signature rows as a table, so that the 96-character code stays on one line. */
function validationTable(model: DianPrintModel, section: PairsSection): TableSection {
  return {
    kind: 'table',
    title: section.title,
    columns: [
      { header: 'Dato', width: 100, align: 'left' },
      { header: 'Valor', width: 0, flex: true, align: 'left' },
    ],
    rows: section.pairs.map((p) => ({
      cells: [[{ text: p.label, role: 'strong' }], [{ text: p.value, role: p.label === model.code.label ? 'small' : 'normal' }]],
    })),
  };
}

function a4Document(model: DianPrintModel, ecc: QrErrorCorrection): PrintedDocument {
  const body: Block[] = [{ section: model.counterparty, gapAfter: 6 }];
  for (const s of model.before) body.push({ section: s, gapAfter: 6 });
  body.push({ section: model.lines, carry: { out: 'Van', in: 'Vienen' } });
  for (const s of model.after) {
    const section: Section = s.kind === 'pairs' && s.pairs.some((p) => p.label === model.code.label) ? validationTable(model, s) : s;
    body.push({ section, gapBefore: 8 });
  }
  const captions: Caption[] = [
    { text: `${model.code.label}: consulte en la DIAN`, style: { font: 'bold', size: 7.5, color: INK } },
    ...(model.signingTime
      ? [{ text: `Firma: ${model.signingTime.slice(0, 19).replace('T', ' ')}`, style: { font: 'regular' as const, size: 7, color: MUTED } }]
      : []),
  ];
  return {
    header: { party: model.issuer, box: { title: model.title, idLabel: 'No. ', id: model.number, pairs: model.docInfo } },
    continuation: { left: model.issuerName, right: `${model.title}  ·  No. ${model.number}` },
    body,
    closing: { qr: { text: model.qrText, errorCorrection: ecc, minVersion: 1 }, placement: DIAN_QR_LAYOUT, captions, totals: model.totals },
    footer: { text: model.footer, pageText: (index, count) => `Página ${index + 1} de ${count}` },
    metadata: metadata(model),
  };
}

/** The narrow forms of the model's tables (description, quantity, total; tax, rate, value). */
function receiptDocument(model: DianPrintModel, ecc: QrErrorCorrection): PrintedReceipt {
  const lines: TableSection = {
    kind: 'table',
    title: model.lines.title,
    columns: [
      { header: 'Descripción', width: 0, flex: true, align: 'left' },
      { header: 'Cant.', width: 30, align: 'right' },
      { header: 'Total', width: 56, align: 'right' },
    ],
    rows: model.lines.rows.map((r) => ({
      cells: [
        [...(r.cells[1]?.[0]?.text ? [{ text: r.cells[1][0].text, role: 'muted' as const }] : []), ...(r.cells[2] ?? [])],
        r.cells[3] ?? [],
        r.cells[8] ?? [],
      ],
    })),
  };
  const narrow = (s: TableSection | PairsSection): Section => {
    if (s.kind === 'pairs') return s;
    const n = s.columns.length;
    return { ...s, columns: s.columns.map((c, i) => (c.flex ? c : { ...c, width: i === n - 1 ? 54 : 48 })) };
  };
  const body: Section[] = [
    ...(model.pos.length ? [{ kind: 'pairs' as const, title: 'Caja', pairs: model.pos }] : []),
    model.counterparty,
    ...model.before,
    lines,
    ...model.after.filter((s) => !(s.kind === 'table' && s.title === 'Anticipos')).map(narrow),
  ];
  return {
    header: [
      ...model.issuer,
      { text: model.title, role: 'heading' },
      { text: `No. ${model.number}`, role: 'heading' },
      ...model.docInfo.map((p) => ({ text: `${p.label}: ${p.value}` })),
    ],
    body,
    totals: model.totals,
    qr: { text: model.qrText, errorCorrection: ecc, minVersion: 1 },
    captions: [{ text: 'Representación gráfica del documento electrónico', role: 'small' }],
    continuation: `${model.title} No. ${model.number}`,
    metadata: metadata(model),
  };
}

/** Renders a print model (`dianPdfModel`) as PDF bytes. @throws EcfError `invalid_argument` for an unknown format. */
export async function renderDianPdf(model: DianPrintModel, options: DianPdfOptions = {}): Promise<Uint8Array> {
  const format = options.format ?? 'a4';
  const ecc = options.qrErrorCorrection ?? 'M';
  const deflate = options.deflate ? { deflate: options.deflate } : {};
  if (format === 'receipt80') return renderReceipt(receiptDocument(model, ecc), { caller: 'renderDianPdf', widthMm: 80, ...deflate });
  if (format !== 'a4') throw new EcfError(`renderDianPdf: format must be "a4" or "receipt80", got "${String(format)}".`, { code: 'invalid_argument' });
  return renderDocument(a4Document(model, ecc), {
    size: A4,
    caller: 'renderDianPdf',
    ...deflate,
    ...(options.logo ? { logo: options.logo } : {}),
    ...(options.fonts ? { fonts: { ...options.fonts, names: { regular: 'EcfKitRegular', bold: 'EcfKitBold' } } } : {}),
  });
}

/**
 * The printed representation of a DIAN document's XML (ours or anyone's, signed or not): reads it
 * (`readDianPdfInput`), builds the print model and renders it. Bad input is a value, never a throw.
 *
 * @example
 * const r = await dianPdf(signedXml, { format: request.pos_pdf ? 'receipt80' : 'a4' });
 * if (r.ok) await writeFile('SETP990000101.pdf', r.pdf);
 */
export async function dianPdf(xml: string | UblNode, options: DianPdfReadOptions = {}): Promise<DianPdfResult> {
  const format = options.format ?? 'a4';
  if (format !== 'a4' && format !== 'receipt80') {
    return { ok: false, code: 'invalid_option', message: `El formato debe ser "a4" o "receipt80", no "${String(format)}".` };
  }
  const read = readDianPdfInput(xml, options.providerName ? { providerName: options.providerName } : {});
  if (!read.ok) return read;
  const model = dianPdfModel(read.input);
  return { ok: true, pdf: await renderDianPdf(model, options), model };
}
