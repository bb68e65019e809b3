/**
 * `GET /service/test-set` (beyond the spec): the token's company's habilitación test set (`testSetId`, null outside
 * test-set mode) and, per test set it sent documents to, the counts of those documents by DIAN's verdict
 * (`accepted`, `rejected`, `pending`), from this service's own records (DIAN's own tally is seen in its portal).
 */
import type { Context, Hono } from 'hono';
import type { CompanyRecord, TestSetStore } from '../storage/types.js';

type Env = { Variables: { company: CompanyRecord } };
type Middleware = (c: Context<Env>, next: () => Promise<void>) => Promise<Response | undefined>;

/** Registers `GET /service/test-set`. */
export function registerTestSetRoutes(app: Hono<Env>, deps: { storage: TestSetStore }, auth: Middleware): void {
  app.get('/service/test-set', auth, async (c) => {
    const company = c.get('company');
    return c.json({ status: 'success', testSetId: company.testSetId ?? null, testSets: await deps.storage.testSetProgress(company.id) });
  });
}
