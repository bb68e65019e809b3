/**
 * The reference server's HTTP app (hono + @hono/zod-openapi). `createApp(deps)` returns an OpenAPIHono whose
 * `fetch` / `request` is the Request → Response handler; `@hono/node-server` serves it (main.ts), tests call
 * it in process.
 *
 * Routes are declared with createRoute (routes.ts) and registered in the OpenAPI registry; handlers parse
 * parameters with the same zod schemas, so `GET /api/v1/openapi.json` describes exactly what runs. Bodies of
 * `POST /documents/{tipo}` are read and validated here (not by zod): the spec fixes their 413/415/422 answers.
 */
import { OpenAPIHono, type z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import pino from 'pino';
import { dgiiFileName, formatDateTimeDO, type EcfType, type SchemaValidator } from '../../index.js';
import type { AuthorityIdentity, AuthorityTransport } from '../../dgii/index.js';
import type { SignerProvider } from '../signers.js';
import type { DocumentRecord, DocumentStore, Issuer, IssuerStore, Storage } from '../storage/types.js';
import { hashToken } from '../../../shared/server-kit/tokens.js';
import { STATUSES } from '../statuses.js';
import { bodyKind, bodyRateOf, DEFAULT_LIMITS, readLimited, setBodyRate, utf8Text, type BodyLimits } from './body.js';
import { DOCS_PAGE_CSP, DOCS_PAGE_HTML } from './docs-page.js';
import { ApiError, errorResponse, toErrorEnvelope, unauthorized } from './errors.js';
import { invalidTipo, ISSUE_MESSAGES, issueDocument, rejected, type IssueDeps } from '../use-cases/issuing.js';
import { createIdempotencyPurge, IDEMPOTENCY_HEADER, parseIdempotencyKey, REPLAYED_HEADER, requestFingerprint } from '../use-cases/idempotency.js';
import { dateTimeDO, doToIso, fiscalStatusBody, isRealDate, issuedBody, recordBody, warningBody } from './record.js';
import { authorityStatusRoute, docsRoute, getRoute, issueRoute, listRoute, openApiRoute, pdfRoute, statusesRoute, trackIdsRoute, xmlRoute } from './routes.js';
import { DEFAULT_LIST_LIMIT, EcfTypeSchema, EncfParams, ListQuery } from './schemas.js';
import { registerCertificate } from './certificate.js';
import { registerDirectory } from './directory.js';
import { registerReceived } from './received.js';
import type { RouteContext } from './route-context.js';
import { registerVoiding } from './voiding.js';
import { createInboundHandler, seedKeyFrom } from '../inbound/index.js';
import { SecretKey } from '../secrets.js';
import { createPdfCache, inlineOffload, isOffloadError } from '../offload/index.js';
import { documentLiveStatus, documentTrackIds } from '../use-cases/authority-queries.js';

export { DEFAULT_LIMITS, type BodyLimits } from './body.js';
export { ApiError, toErrorEnvelope } from './errors.js';

export type { AppDeps, AppEnv, AuthorityEnvironment } from './deps.js';
import type { AppDeps, AppEnv } from './deps.js';

export type App = OpenAPIHono<AppEnv>;

/** Top-level members of the OpenAPI document (paths and components come from the routes). */
const OPENAPI_OBJECT = {
  openapi: '3.0.3',
  info: {
    title: 'ecf-kit — servicio de emisión de e-CF',
    version: '1.0.0',
    description:
      'Emisión de comprobantes fiscales electrónicos (e-CF) de la República Dominicana: JSON canónico o XML sin firmar → firma, ' +
      'transmisión a la autoridad tributaria y seguimiento del estado. Todas las rutas salvo la documentación exigen `Authorization: Bearer <token>`. ' +
      'Todo error responde `{status: "error", message, document}` con el mensaje en español.',
    license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
  },
  servers: [{ url: '/' }],
  security: [{ bearerAuth: [] }],
};

const PUBLIC_PATHS = new Set<string>([openApiRoute.path, docsRoute.path]);

/** Zod issues → `{errors, detailed_errors}` with Spanish messages from the schemas. */
function zodReport(issues: readonly z.core.$ZodIssue[]) {
  const errors: string[] = [];
  const detailed: Record<string, string[]> = {};
  for (const i of issues) {
    const path = i.path.map(String).join('.') || '_';
    errors.push(`${path}: ${i.message}`);
    (detailed[path] ??= []).push(i.message);
  }
  return { errors, detailed_errors: detailed };
}

export function createApp(deps: AppDeps): App {
  const { storage, transport, signers, schemas } = deps;
  const logger = deps.logger ?? pino({ level: 'silent' });
  const clock = deps.clock ?? (() => new Date());
  const limits: BodyLimits = { ...DEFAULT_LIMITS, ...(deps.limits ?? {}) };
  const offload = deps.offload ?? inlineOffload(schemas);
  const pdfCache = deps.pdfCache ?? createPdfCache();
  const issueDeps: IssueDeps = { storage, schemas, clock, offload };
  const purgeIdempotencyKeys = createIdempotencyPurge(storage, clock, (err) => logger.warn({ err }, 'purging expired idempotency keys failed'));
  // What this module's own middleware and handlers use (issuing and inbound get the whole storage for now).
  const tokens: Pick<IssuerStore, 'findToken'> = storage;
  const documents: Pick<DocumentStore, 'getDocumentByEncf' | 'listDocuments' | 'getDocumentApprovals' | 'listSubmissions'> = storage;
  const app = new OpenAPIHono<AppEnv>();

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'Token de API del emisor (`Authorization: Bearer <token>`). Cada token pertenece a un solo RNC.',
  });

  app.onError((err) => errorResponse(err, logger));
  app.notFound((c) => errorResponse(new ApiError(404, `Recurso no encontrado: ${c.req.method} ${c.req.path}.`), logger));

  // Access log: method, path, status and time only (never headers or bodies: tokens and documents stay out of logs).
  const bodyRate = bodyRateOf(limits);
  app.use('*', async (c, next) => {
    const t0 = performance.now();
    // Every body reader of this request (API and inbound services) refuses a body slower than this.
    setBodyRate(c.req.raw, bodyRate);
    await next();
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    // Answers carry tenant data and tokens (validacioncertificado): no cache, shared or private, keeps them.
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
    logger.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - t0) }, 'request');
  });

  if (deps.inbound !== false) {
    // Seeds are MACed under a key derived from the certificate key (and its previous keys, during a rotation),
    // so every process sharing the database accepts them; without one, a random key for this process.
    const certKey = deps.certificateKey;
    const seedKey = certKey ? [certKey, ...(certKey instanceof SecretKey ? certKey.previous : [])].map(seedKeyFrom) : undefined;
    const inbound = createInboundHandler({
      storage,
      signers,
      schemas,
      offload,
      clock,
      logger,
      maxBodyBytes: limits.xmlBytes,
      ...(seedKey ? { seedKey } : {}),
      ...(deps.inbound ?? {}),
    });
    app.use('*', async (c, next) => {
      if (c.req.path.startsWith('/api/')) return next();
      const res = await inbound(c.req.raw);
      if (res) return res;
      await next();
    });
  }

  app.use('/api/v1/*', async (c, next) => {
    if (PUBLIC_PATHS.has(c.req.path)) return next();
    const m = /^bearer[ \t]+([^\s]+)[ \t]*$/i.exec(c.req.header('authorization') ?? '');
    if (!m) throw unauthorized();
    const found = await tokens.findToken(hashToken(m[1]!));
    if (!found) throw unauthorized();
    c.set('issuer', found.issuer);
    await next();
  });

  type Handler = (c: Context<AppEnv>) => Response | Promise<Response>;
  const add = (
    route: { method: string; path: string; getRoutingPath(): string } & Parameters<typeof app.openAPIRegistry.registerPath>[0],
    handler: Handler,
  ) => {
    app.openAPIRegistry.registerPath(route);
    app.on(route.method.toUpperCase(), route.getRoutingPath(), handler);
  };

  const json = (c: Context<AppEnv>, body: unknown, status: 200 | 202 = 200) => c.json(body as object, status);

  /** The caller's document by e-NCF; 404 for a malformed e-NCF, an unknown one, or another issuer's. */
  const findDocument = async (c: Context<AppEnv>): Promise<DocumentRecord> => {
    const raw = c.req.param('eNCF') ?? '';
    const parsed = EncfParams.safeParse({ eNCF: raw.toUpperCase() });
    const issuer = c.get('issuer');
    const d = parsed.success ? await documents.getDocumentByEncf(issuer.id, parsed.data.eNCF) : null;
    if (!d) throw new ApiError(404, `No existe el e-NCF ${raw} para este emisor.`);
    return d;
  };

  /** The identity the transport authenticates as: the issuer's RNC and its signer. */
  const identity = async (issuer: Issuer): Promise<AuthorityIdentity> => {
    try {
      return { rnc: issuer.rnc, signer: await signers.signerFor(issuer) };
    } catch (e) {
      logger.warn({ issuer: issuer.rnc, err: { name: (e as Error).name, message: (e as Error).message } }, 'no signer for an authority query');
      const detail = e instanceof Error && e.name === 'SignerUnavailableError' ? ` ${e.message}` : '';
      throw new ApiError(409, `No se puede autenticar ante la autoridad tributaria: el emisor no tiene un certificado de firma utilizable.${detail}`);
    }
  };

  // ------------------------------------------------------------------------------------------- issue

  add(issueRoute, async (c) => {
    const issuer = c.get('issuer');
    const tipoParsed = EcfTypeSchema.safeParse(c.req.param('tipo'));
    if (!tipoParsed.success) throw invalidTipo(c.req.param('tipo') ?? '');
    const tipo: EcfType = tipoParsed.data;
    const contentType = c.req.header('content-type');
    const kind = bodyKind(contentType);
    const key = parseIdempotencyKey(c.req.header(IDEMPOTENCY_HEADER));
    const bytes = await readLimited(c.req.raw, kind === 'json' ? limits.jsonBytes : limits.xmlBytes);
    if (key !== undefined) await purgeIdempotencyKeys();
    const idem = key === undefined ? undefined : { key, fingerprint: requestFingerprint(tipo, contentType ?? '', bytes) };
    const text = utf8Text(bytes);
    if (text === null) throw rejected(ISSUE_MESSAGES.invalidUtf8, [ISSUE_MESSAGES.invalidUtf8]);
    const { record, replayed, warnings } = await issueDocument(issueDeps, issuer, tipo, kind, text, idem);
    if (replayed) {
      logger.info({ issuer: issuer.rnc, encf: record.encf, tipo, documentId: record.id }, 'idempotent replay');
      c.header(REPLAYED_HEADER, 'true');
    } else {
      logger.info({ issuer: issuer.rnc, encf: record.encf, tipo, source: record.source, documentId: record.id }, 'document received');
      try {
        deps.onReceived?.(record);
      } catch (e) {
        logger.warn({ err: e }, 'onReceived hook failed');
      }
    }
    const warned = warnings.length ? { warnings: warnings.map(warningBody) } : {};
    return json(c, { status: 'success', message: ISSUE_MESSAGES.received, document: issuedBody(record), ...warned }, 202);
  });

  // ------------------------------------------------------------------------------------------- queries

  add(listRoute, async (c) => {
    const q = ListQuery.safeParse(c.req.query());
    if (!q.success) throw new ApiError(422, 'Parámetros de consulta inválidos.', { document: zodReport(q.error.issues) });
    const { status, tipo, desde, hasta, cursor, rnc_comprador, numero_factura_interna } = q.data;
    const bad: Record<string, string[]> = {};
    if (desde && !isRealDate(desde)) bad.desde = [`Fecha inexistente: ${desde}.`];
    if (hasta && !isRealDate(hasta)) bad.hasta = [`Fecha inexistente: ${hasta}.`];
    if (!bad.desde && !bad.hasta && desde && hasta && doToIso(desde) > doToIso(hasta)) bad.desde = ['desde no puede ser posterior a hasta.'];
    if (Object.keys(bad).length) {
      throw new ApiError(422, 'Parámetros de consulta inválidos.', {
        document: { errors: Object.entries(bad).flatMap(([k, v]) => v.map((m) => `${k}: ${m}`)), detailed_errors: bad },
      });
    }
    const limit = q.data.limit ? Number(q.data.limit) : DEFAULT_LIST_LIMIT;
    const rows = await documents.listDocuments(c.get('issuer').id, {
      ...(status ? { status } : {}),
      ...(tipo ? { tipo } : {}),
      ...(desde ? { issuedFrom: doToIso(desde) } : {}),
      ...(hasta ? { issuedTo: doToIso(hasta) } : {}),
      ...(rnc_comprador ? { rncComprador: rnc_comprador } : {}),
      ...(numero_factura_interna ? { numeroFacturaInterna: numero_factura_interna } : {}),
      ...(cursor ? { cursor: Number(cursor) } : {}),
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const next = rows.length > limit ? String(page[page.length - 1]!.id) : null;
    return json(c, { status: 'success', message: `${page.length} documento(s).`, data: { items: page.map(recordBody), next_cursor: next } });
  });

  add(getRoute, async (c) => {
    const d = await findDocument(c);
    const approvals = await documents.getDocumentApprovals(d.id);
    const commercial_approvals = approvals.map((a) => ({
      estado: a.estado,
      motivo_rechazo: a.motivo,
      rnc_comprador: a.rncComprador,
      received_at: dateTimeDO(a.receivedAt),
    }));
    return json(c, { status: 'success', message: 'Documento encontrado.', document: { ...recordBody(d), commercial_approvals } });
  });

  add(trackIdsRoute, async (c) => {
    const issuer = c.get('issuer');
    const d = await findDocument(c);
    const { submissions, authority } = await documentTrackIds({ storage, transport, identity }, issuer, d);
    const envios = submissions.map((s) => ({ tipo_envio: s.kind, track_id: s.trackId, estado: s.state, fecha: dateTimeDO(s.at) }));
    const autoridad = authority.consulted
      ? {
          consultada: true,
          track_ids: authority.trackIds.map((t) => ({
            track_id: t.trackId,
            estado: t.estado,
            fecha_recepcion: t.fechaRecepcion ? formatDateTimeDO(t.fechaRecepcion) : null,
          })),
          error: null,
        }
      : { consultada: false, track_ids: [], error: toErrorEnvelope(authority.error, logger).body.message };
    return json(c, { status: 'success', message: 'Envíos del e-NCF.', data: { e_ncf: d.encf, envios, autoridad } });
  });

  add(authorityStatusRoute, async (c) => {
    const d = await findDocument(c);
    const live = await documentLiveStatus({ transport, clock, identity }, c.get('issuer'), d);
    const consultado_en = live.consultedAt;
    let data;
    if (live.service === 'resumen_rfce') {
      const r = live.result;
      data = {
        e_ncf: d.encf,
        servicio: 'resumen_rfce' as const,
        codigo: r.codigo,
        estado: r.estado,
        valido_fiscalmente: r.codigo === 1 || r.codigo === 4,
        rnc_emisor: r.rnc,
        rnc_comprador: null,
        id_extranjero: null,
        monto_total: null,
        total_itbis: null,
        fecha_emision: null,
        fecha_firma: null,
        codigo_seguridad: null,
        track_id: r.trackId,
        secuencia_utilizada: r.secuenciaUtilizada,
        mensajes: r.mensajes.map((m) => ({ codigo: m.codigo, valor: m.valor })),
        consultado_en,
      };
    } else {
      data = fiscalStatusBody(d.encf, live.result, consultado_en);
    }
    return json(c, { status: 'success', message: 'Estado consultado a la autoridad tributaria.', data });
  });

  add(xmlRoute, async (c) => {
    const issuer = c.get('issuer');
    const d = await findDocument(c);
    if (!d.signedXml) {
      throw new ApiError(409, 'El documento aún no ha sido firmado; el XML firmado estará disponible cuando se firme.', { document: recordBody(d) });
    }
    return c.body(d.signedXml, 200, {
      'Content-Type': 'application/xml; charset=utf-8',
      'Content-Disposition': `inline; filename="${dgiiFileName(issuer.rnc, d.encf)}"`,
    });
  });

  add(pdfRoute, async (c) => {
    const issuer = c.get('issuer');
    const d = await findDocument(c);
    if (d.status !== 'accepted_authority' || !d.signedXml) {
      throw new ApiError(
        409,
        `La representación impresa está disponible solo para documentos aceptados por la autoridad tributaria (estado actual: ${d.status}).`,
        {
          document: recordBody(d),
        },
      );
    }
    // An accepted document's signed XML never changes: one render per document (and environment), cached;
    // the render itself runs in the offload pool, off the event loop.
    const signedXml = d.signedXml;
    const key = `${d.id}:${d.status}:${d.updatedAt}:${deps.environment}`;
    let pdf: Uint8Array;
    try {
      pdf = await pdfCache.get(key, () => offload.renderPdf(signedXml, deps.environment, 'request'));
    } catch (e) {
      if (isOffloadError(e) && e.code === 'timeout') {
        throw new ApiError(503, 'La representación impresa no pudo generarse dentro del tiempo permitido. Intente nuevamente más tarde.', {
          headers: { 'Retry-After': '30' },
        });
      }
      throw e;
    }
    return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `inline; filename="${issuer.rnc}${d.encf}.pdf"`,
    });
  });

  add(statusesRoute, (c) => json(c, { status: 'success', message: 'Catálogo de estados internos.', data: STATUSES }));

  // ------------------------------------------------------------------------------------------- voiding, certificate, directory, received

  const routeContext: RouteContext = { deps, clock, logger, limits, add, identity };
  registerVoiding(routeContext);
  registerCertificate(routeContext);
  const directory = registerDirectory(routeContext);
  registerReceived(routeContext, directory);

  // ------------------------------------------------------------------------------------------- documentation

  let openApiDocument: unknown = null;
  const document = () => (openApiDocument ??= app.getOpenAPIDocument(OPENAPI_OBJECT));

  add(openApiRoute, (c) => c.json(document() as object, 200));
  add(docsRoute, (c) => c.html(DOCS_PAGE_HTML, 200, { 'Content-Security-Policy': DOCS_PAGE_CSP }));

  return app;
}

/**
 * The OpenAPI document without a running server (for `ecf serve --print-openapi` and schemas/openapi.json):
 * building the app only declares routes, so inert dependencies suffice.
 */
export function openApiDocument(): Record<string, unknown> {
  const inert = <T extends object>(name: string) =>
    new Proxy({} as T, {
      get() {
        throw new Error(`${name} is not available while generating the OpenAPI document`);
      },
    });
  const app = createApp({
    storage: inert<Storage>('storage'),
    transport: inert<AuthorityTransport>('transport'),
    signers: inert<SignerProvider>('signers'),
    schemas: inert<SchemaValidator>('schemas'),
    environment: 'testecf',
  });
  return app.getOpenAPIDocument(OPENAPI_OBJECT) as unknown as Record<string, unknown>;
}
