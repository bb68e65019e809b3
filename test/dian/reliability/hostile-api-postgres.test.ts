/**
 * The hostile-input fuzzing of hostile-api.test.ts on PostgreSQL (a private schema): a smaller sample per
 * operation, the same properties (hostile/suite.ts), the snapshot read with SQL from the schema's tables.
 */
import { scale } from '../../ecf/reliability/mode.js';
import { defineHostileApiSuite } from './hostile/suite.js';

await defineHostileApiSuite({ engine: 'postgres', runsPerOperation: scale(2, 100) });
