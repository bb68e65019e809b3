/**
 * test/ecf/server/app/passthrough.test.ts run unchanged on the PostgreSQL adapter: every harness of that file opens a
 * fresh schema instead of in-memory SQLite (issue 6: the API tests pass on both adapters).
 */
import { runOnPostgres } from './postgres.js';

runOnPostgres('passthrough');
await import('../app/passthrough.test.js');
