/** The server's storage: port types and both adapters. */
export type * from './types.js';
export { createSqliteStorage, type SqliteStorageOptions } from './sqlite.js';
export { createPostgresStorage, type PostgresStorageOptions } from './postgres.js';
export { openStorage, type OpenStorageOptions } from './open.js';
export { composeEncf, MAX_CONSECUTIVE, StorageConflictError, StorageNotFoundError } from './kysely.js';
export { MIGRATIONS } from './migrations.js';
export { isStorageUnavailable } from '../../../shared/server-kit/storage/errors.js';
