/**
 * PDF entry (`ecf-kit/pdf`): the printed representation (RI) of signed e-CF with pdf-lib. Kept out of the
 * main entry so that embedders who only need XML do not load pdf-lib.
 */
export { renderPdf, type PdfDocumentInput, type RenderPdfOptions } from './render.js';
