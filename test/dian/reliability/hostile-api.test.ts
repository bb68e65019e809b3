/**
 * Hostile-input fuzzing of the DIAN service over every operation of its served OpenAPI document
 * (`GET /service/openapi.json`), in process (`app.request`) on SQLite with the in-process local DIAN: the
 * properties are in hostile/suite.ts. Reduced by default (a few cases per operation); `ECF_RELIABILITY=full`
 * runs many more. Seed fixed, printed, `FC_SEED` overrides. hostile-api-postgres.test.ts runs a smaller sample
 * on PostgreSQL.
 */
import { scale } from '../../ecf/reliability/mode.js';
import { defineHostileApiSuite } from './hostile/suite.js';

// DIAN_HOSTILE_RUNS sets the cases per operation for one run (a size between the two forms).
await defineHostileApiSuite({ engine: 'sqlite', runsPerOperation: Number(process.env.DIAN_HOSTILE_RUNS) || scale(8, 400) });
