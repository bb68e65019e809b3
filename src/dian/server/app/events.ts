/**
 * The event routes: `POST /v1/{code}` for every DIAN_EVENTS row (the spec shows `/v1/031` and `/v1/034`; 030, 032
 * and 033 are the same rows, beyond the spec). Routes parse and call the use case; nothing here knows an event.
 */
import type { Context, Hono } from 'hono';
import { DIAN_EVENT_CODES } from '../../index.js';
import { readLimited, utf8Text } from '../../../shared/server-kit/body.js';
import { envelopeResponse } from '../../../shared/server-kit/envelope.js';
import type { CompanyRecord } from '../storage/types.js';
import { type EventUseCaseDeps, sendEvent } from '../use-cases/events.js';

type Env = { Variables: { company: CompanyRecord } };
type Middleware = (c: Context<Env>, next: () => Promise<void>) => Promise<Response | undefined>;

/** Adds `POST /v1/{code}` per event row to `app`. */
export function registerEventRoutes(app: Hono<Env>, deps: EventUseCaseDeps, auth: Middleware, limit: number): void {
  for (const code of DIAN_EVENT_CODES) {
    app.post(`/v1/${code}`, auth, async (c) => {
      const text = utf8Text(await readLimited(c.req.raw, limit));
      let body: unknown;
      try {
        body = JSON.parse(text ?? '');
      } catch {
        return envelopeResponse(400, { status: 'error', message: 'El cuerpo de la solicitud no es JSON válido (UTF-8).', document: null });
      }
      const a = await sendEvent(deps, c.get('company'), code, body);
      return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...(a.headers ?? {}) } });
    });
  }
}
