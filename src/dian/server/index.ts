/**
 * `ecf-kit/dian/server`: the Colombian documents service (dian-service.md) as its own app: storage ports and
 * adapters (SQLite, PostgreSQL), the issuing use case, the hono routes and `startDianServer`.
 */
/** The storage ports and records. */
export type * from './storage/types.js';
/** Opening the storage: SQLite (embedded default), PostgreSQL (schema `dian`). */
export { openDianStorage, createDianSqliteStorage, createDianPostgresStorage, DIAN_PG_SCHEMA, type OpenDianStorageOptions } from './storage/open.js';
/** The schema migrations of the DIAN tables. */
export { DIAN_MIGRATIONS } from './storage/migrations.js';
