/**
 * ecf-kit/dian/pdf — the printed representation (representación gráfica) of DIAN documents with pdf-lib, A4 or an
 * 80 mm POS strip. Kept out of `ecf-kit/dian` so that code that only builds XML never loads pdf-lib. Pure: no
 * Node built-in module.
 */

/** Any DIAN invoice, note, support document or POS document's XML → PDF bytes and its print model; errors as values. */
export { dianPdf, type DianPdfOptions, type DianPdfReadOptions, type DianPdfResult, type DianPdfFormat } from './render.js';
/** A print model → PDF bytes, A4 or the 80 mm receipt strip. */
export { renderDianPdf } from './render.js';
/** A zlib-format deflater for the pages' content streams (`options.deflate`; on Node, `node:zlib`'s `deflateSync`). */
export type { PdfDeflate as DianPdfDeflate } from '../../shared/pdf/document.js';
/** Where the QR goes on the A4 page (lower-left of the last page, sizes in millimetres). */
export { DIAN_QR_LAYOUT } from './render.js';
/** A request body + context + codes → the print model (data only: sections, lines, totals, amount in words, codes). */
export { dianPdfModel, type DianPdfInput, type DianPdfCodes, type DianPrintModel } from './model.js';
/** A DIAN document's XML → the print model's input (request, context, CUFE/CUDE/CUDS, QR text, signing time). */
export { readDianPdfInput, type DianPdfInputResult, type DianPdfFailure } from './read.js';
