/**
 * The payroll routes (beyond the spec, which shows only the status query): `POST /service/payrolls` (individual
 * payroll 102) and `POST /service/payrolls/adjustment` (adjustment note 103, replace or delete by `note_type`), one
 * route per PAYROLL_KINDS row; `GET /service/payrolls/{payrollId}` answers the spec's payroll status record. The
 * published interface spells the header `Authotization` here, so `auth` must accept it. Nothing here knows a kind.
 */
import type { Context, Hono } from 'hono';
import type { PayrollKindId } from '../../index.js';
import { readLimited, utf8Text } from '../../../shared/server-kit/body.js';
import { envelopeResponse } from '../../../shared/server-kit/envelope.js';
import type { CompanyRecord } from '../storage/types.js';
import { type PayrollUseCaseDeps, payrollStatus, submitPayroll } from '../use-cases/payrolls.js';

type Env = { Variables: { company: CompanyRecord } };
type Middleware = (c: Context<Env>, next: () => Promise<void>) => Promise<Response | undefined>;

/** The path of each payroll kind. */
export const PAYROLL_PATHS: Readonly<Record<PayrollKindId, string>> = {
  payroll: '/service/payrolls',
  'payroll-adjustment': '/service/payrolls/adjustment',
};

function send(a: { status: number; body: unknown; headers?: Record<string, string> }): Response {
  return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...(a.headers ?? {}) } });
}

/** Adds the payroll routes to `app`. */
export function registerPayrollRoutes(app: Hono<Env>, deps: PayrollUseCaseDeps, auth: Middleware, limit: number): void {
  for (const [kind, path] of Object.entries(PAYROLL_PATHS) as [PayrollKindId, string][]) {
    app.post(path, auth, async (c) => {
      const text = utf8Text(await readLimited(c.req.raw, limit));
      let body: unknown;
      try {
        body = JSON.parse(text ?? '');
      } catch {
        return envelopeResponse(400, { status: 'error', message: 'El cuerpo de la solicitud no es JSON válido (UTF-8).', document: null });
      }
      return send(await submitPayroll(deps, c.get('company'), kind, body));
    });
  }
  app.get('/service/payrolls/:payrollId', auth, async (c) => {
    const id = c.req.param('payrollId') ?? '';
    const found = await payrollStatus(deps, c.get('company'), id);
    if (!found) return envelopeResponse(404, { status: 'error', message: `No existe una nómina ${id} de esta empresa.`, document: null });
    return send(found);
  });
}
