/**
 * PDF entry (`ecf-kit/pdf`): the printed representation (RI) of signed e-CF with pdf-lib. Kept out of the
 * main entry so that embedders who only need XML do not load pdf-lib.
 */
export { renderPdf, QR_LAYOUT, type PdfDocumentInput, type RenderPdfOptions } from './render.js';
export { buildPrintModel, type PrintModel, type ModelInput } from './model.js';
export { qrMatrix, type QrMatrix, type QrErrorCorrection } from '../../shared/pdf/qr.js';
