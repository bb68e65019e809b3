/**
 * The contingency routes: the use case of `/service/contingency-invoice` (in place of the plain issuing one)
 * and `GET /service/contingency/pending`, the company's documents issued in contingency and not transmitted
 * yet, with the hours left before their deadline.
 */
import type { Context, Hono } from 'hono';
import type { DianKindId } from '../../index.js';
import type { CompanyRecord } from '../storage/types.js';
import { type ContingencyDeps, issueContingency, listPendingContingency } from '../use-cases/contingency.js';
import type { UseCaseAnswer } from '../use-cases/ports.js';

type Deps = ContingencyDeps;
type Env = { Variables: { company: CompanyRecord } };
type Middleware = (c: Context<Env>, next: () => Promise<void>) => Promise<Response | undefined>;

/** Document kinds whose endpoint runs another use case than issueDocument. */
export const KIND_USE_CASES: Partial<Record<DianKindId, (deps: Deps, company: CompanyRecord, kind: DianKindId, request: unknown) => Promise<UseCaseAnswer>>> = {
  'contingency-invoice': issueContingency,
};

/** Registers `GET /service/contingency/pending`. */
export function registerContingencyRoutes(app: Hono<Env>, deps: Deps, auth: Middleware): void {
  app.get('/service/contingency/pending', auth, async (c) => {
    const a = await listPendingContingency(deps, c.get('company'));
    return c.json(a.body as object, a.status as 200);
  });
}
