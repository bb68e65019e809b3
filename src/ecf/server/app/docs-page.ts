/**
 * `GET /api/v1/docs`: the kit's OpenAPI documentation page (src/shared/server-kit/docs-page.ts) over
 * `openapi.json` (same directory).
 */
import { OPENAPI_DOCS_PAGE_CSP, openApiDocsPageHtml } from '../../../shared/server-kit/docs-page.js';

export const DOCS_PAGE_HTML = openApiDocsPageHtml({
  title: 'ecf-kit — API de emisión de e-CF',
  openApiUrl: 'openapi.json',
  openApiPath: '/api/v1/openapi.json',
  auth: 'Authorization: Bearer <token>',
});

/** Only the inline script and style of this page may run; data comes from the same origin. */
export const DOCS_PAGE_CSP = OPENAPI_DOCS_PAGE_CSP;
