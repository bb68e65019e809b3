/**
 * The DIAN service's HTTP app (hono): every document endpoint of dian-service.md plus `/service/invoice` and
 * `/service/credit-note`, one route per DIAN_KINDS row; a stored document by number or CUFE; the OpenAPI
 * document and its HTML page (`/service/docs`). Routes parse, call the use case and send its answer; nothing here knows a kind.
 *
 * Auth: `Authorization: Bearer <token>` names the company (tokens stored hashed). The published interface
 * writes `Authotization` on the payroll and mail endpoints; routes that take that spelling opt in
 * (`misspelt: true`): the mail routes (app/mail.ts) and the payroll routes (app/payrolls.ts) do.
 */
import { Hono, type Context } from 'hono';
import { DIAN_KINDS, type DianKindId } from '../../index.js';
import { ApiError, envelopeResponse } from '../../../shared/server-kit/envelope.js';
import { readLimited, utf8Text } from '../../../shared/server-kit/body.js';
import { isStorageUnavailable } from '../../../shared/server-kit/storage/errors.js';
import { hashToken } from '../../../shared/server-kit/tokens.js';
import type { CompanyRecord, DianStorage, DocumentRecord } from '../storage/types.js';
import { issueDocument } from '../use-cases/issue.js';
import type { DianUseCaseDeps, UseCaseAnswer } from '../use-cases/ports.js';
import { OPENAPI_DOCS_PAGE_CSP, openApiDocsPageHtml } from '../../../shared/server-kit/docs-page.js';
import { dianOpenApi } from './openapi.js';
import { KIND_USE_CASES, registerContingencyRoutes } from './contingency.js';
import { registerListRoutes } from './list.js';
import { registerTestSetRoutes } from './test-set.js';
import type { MailService } from '../../../shared/mail/index.js';
import type { EventUseCaseDeps } from '../use-cases/events.js';
import { registerEventRoutes } from './events.js';
import { registerMailRoutes } from './mail.js';
import { registerPayrollRoutes } from './payrolls.js';

export interface DianAppDeps extends DianUseCaseDeps {
  storage: DianStorage;
  /** Largest request body (bytes); default 2 MB. */
  maxBodyBytes?: number;
  /** Where unexpected errors are reported (default: nowhere; the client gets a 500 without details). */
  onError?: (e: unknown) => void;
  /** `send: true` on an accepted event (see EventUseCaseDeps). */
  notifyEventParties?: EventUseCaseDeps['notifyEventParties'];
  /** The mail service behind `/utilities/mail/…`; absent: no mail routes. */
  mail?: MailService;
}

type Env = { Variables: { company: CompanyRecord } };

/** `GET /service/docs`: the kit's OpenAPI page over `/service/openapi.json` (beside it). */
const DOCS_PAGE = openApiDocsPageHtml({
  title: 'ecf-kit: servicio de documentos electrónicos de Colombia (DIAN)',
  openApiUrl: 'openapi.json',
  openApiPath: '/service/openapi.json',
  auth: 'Authorization: Bearer <token>',
});

const BEARER = /^Bearer\s+(\S+)\s*$/i;

function send(a: UseCaseAnswer): Response {
  return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...(a.headers ?? {}) } });
}

function fail(status: 400 | 401 | 404 | 413 | 500 | 503, message: string, headers: Record<string, string> = {}): Response {
  return envelopeResponse(status, { status: 'error', message, document: null }, headers);
}

/** The company of the request's bearer token, or the 401 to answer. */
async function authenticate(c: Context, storage: DianStorage, misspelt: boolean): Promise<CompanyRecord | Response> {
  const header = c.req.header('Authorization') ?? (misspelt ? c.req.header('Authotization') : undefined);
  const m = header ? BEARER.exec(header) : null;
  const challenge = { 'WWW-Authenticate': 'Bearer' };
  if (!m) return fail(401, 'Falta el encabezado Authorization: Bearer <token>.', challenge);
  const company = await storage.companyByTokenHash(hashToken(m[1]!));
  if (!company) return fail(401, 'El token no es válido o fue revocado.', challenge);
  return company;
}

/** What GET answers about a stored document. */
function documentView(d: DocumentRecord) {
  const reply = d.response?.body as { document?: Record<string, unknown> } | undefined;
  return {
    status: 'success',
    document: {
      number: `${d.prefix}${d.number}`,
      kind: d.kind,
      path: DIAN_KINDS[d.kind].path,
      state: d.state,
      uuid: d.documentKey,
      createdAt: new Date(d.createdAt).toISOString(),
      updatedAt: new Date(d.updatedAt).toISOString(),
      answer: d.response ? { httpStatus: d.response.status, ...(reply?.document ?? {}) } : null,
    },
  };
}

/** Builds the app over its dependencies. */
export function createDianApp(deps: DianAppDeps): Hono<Env> {
  const app = new Hono<Env>();
  const limit = deps.maxBodyBytes ?? 2 * 1024 * 1024;

  app.onError((e) => {
    if (e instanceof ApiError) return envelopeResponse(e.status, { status: 'error', message: e.message, document: e.document }, e.headers);
    if (isStorageUnavailable(e)) return fail(503, 'El almacenamiento no está disponible en este momento; reintente en unos segundos.', { 'Retry-After': '5' });
    deps.onError?.(e);
    return fail(500, 'Error interno del servicio; el incidente quedó registrado.');
  });
  app.notFound(() => fail(404, 'Ruta no encontrada.'));

  app.get('/service/openapi.json', (c) => c.json(dianOpenApi()));
  app.get('/service/docs', (c) => c.html(DOCS_PAGE, 200, { 'Content-Security-Policy': OPENAPI_DOCS_PAGE_CSP }));

  const auth = (misspelt: boolean) => async (c: Context<Env>, next: () => Promise<void>) => {
    const r = await authenticate(c, deps.storage, misspelt);
    if (r instanceof Response) return r;
    c.set('company', r);
    await next();
  };

  registerContingencyRoutes(app, deps, auth(false));
  registerListRoutes(app, deps, auth(false));
  registerTestSetRoutes(app, deps, auth(false));

  for (const kind of Object.keys(DIAN_KINDS) as DianKindId[]) {
    const useCase = KIND_USE_CASES[kind] ?? issueDocument;
    app.post(DIAN_KINDS[kind].path, auth(false), async (c) => {
      const bytes = await readLimited(c.req.raw, limit);
      const text = utf8Text(bytes);
      let body: unknown;
      try {
        body = JSON.parse(text ?? '');
      } catch {
        return fail(400, 'El cuerpo de la solicitud no es JSON válido (UTF-8).');
      }
      return send(await useCase(deps, c.get('company'), kind, body));
    });
  }

  registerEventRoutes(app, deps, auth(false), limit);
  registerPayrollRoutes(app, deps, auth(true), limit);
  if (deps.mail) registerMailRoutes(app, deps.mail, auth(true), limit);

  app.get('/service/documents/:id', auth(false), async (c) => {
    const company = c.get('company');
    const id = c.req.param('id') ?? '';
    let doc: DocumentRecord | null = null;
    if (/^[0-9a-f]{96}$/i.test(id)) doc = await deps.storage.getDocumentByKey(company.id, id.toLowerCase());
    else {
      // `SETP990000001`: every split into a prefix and a number, shortest prefix first.
      for (let i = 0; i < id.length && !doc; i++) {
        const digits = id.slice(i);
        if (!/^\d{1,15}$/.test(digits)) continue;
        doc = await deps.storage.getDocumentByNumber(company.id, id.slice(0, i), Number(digits));
      }
    }
    if (!doc) return fail(404, `No existe un documento ${id} de esta empresa.`);
    return c.json(documentView(doc));
  });

  return app;
}
