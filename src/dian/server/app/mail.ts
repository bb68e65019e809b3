/**
 * The mail routes over the kernel's mail service (src/shared/mail, docs/mail.md): `POST /utilities/mail/send`
 * (202 or 422 exactly as the service gives them) and, beyond the spec, `GET /utilities/mail/{message_id}` (the
 * mail's messages and events). The company of the token is the tenant; the header may be spelled `Authotization`
 * as the published interface writes it (the routes opt in).
 */
import type { Context, Hono } from 'hono';
import type { MailService } from '../../../shared/mail/index.js';
import { readLimited, utf8Text } from '../../../shared/server-kit/body.js';
import type { CompanyRecord } from '../storage/types.js';

type Env = { Variables: { company: CompanyRecord } };
type Middleware = (c: Context<Env>, next: () => Promise<void>) => Promise<Response | undefined>;

/** The mail tenant of a company (its outbox rows are found with it only). */
export function mailTenant(company: CompanyRecord): string {
  return `dian-company-${company.id}`;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
}

/** Adds the mail routes to `app`; `auth` must accept the `Authotization` spelling. */
export function registerMailRoutes(app: Hono<Env>, mail: MailService, auth: Middleware, limit: number): void {
  app.post('/utilities/mail/send', auth, async (c) => {
    const text = utf8Text(await readLimited(c.req.raw, limit));
    let body: unknown;
    try {
      body = JSON.parse(text ?? '');
    } catch {
      return json(400, { errors: [{ message: 'El cuerpo de la solicitud no es JSON válido (UTF-8).', field: '', help: null }] });
    }
    const r = await mail.accept(body, mailTenant(c.get('company')));
    return json(r.status, r.body);
  });
  app.get('/utilities/mail/:message_id', auth, async (c) => {
    const id = c.req.param('message_id') ?? '';
    const found = await mail.events(id, mailTenant(c.get('company')));
    if (!found) return json(404, { errors: [{ message: `No existe un correo ${id} de esta empresa.`, field: 'message_id', help: null }] });
    return json(200, found);
  });
}
