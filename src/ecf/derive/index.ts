/** Values derived from signed documents: security code, timbre (QR) URL, DGII file names. Pure, browser-safe. */
export { securityCode, securityCodeFromSignatureValue } from './security-code.js';
export { qrUrl, qrUrlFromSignedXml, type QrFields, type QrUrlOptions, type DgiiEnvironment } from './qr-url.js';
export { dgiiFileName, fileNameFor } from './file-name.js';
