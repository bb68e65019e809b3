/**
 * test/ecf/server/app/list-filters.test.ts run unchanged on the PostgreSQL adapter (issue 16: on both adapters).
 */
import { runOnPostgres } from './postgres.js';

runOnPostgres('list_filters');
await import('../app/list-filters.test.js');
