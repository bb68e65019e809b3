/**
 * test/ecf/server/app/idempotency.test.ts run unchanged on the PostgreSQL adapter (issue 16: on both adapters).
 */
import { runOnPostgres } from './postgres.js';

runOnPostgres('idempotency');
await import('../app/idempotency.test.js');
