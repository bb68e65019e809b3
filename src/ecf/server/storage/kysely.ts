/**
 * The query layer both adapters share. An adapter (sqlite.ts, postgres.ts) supplies a Kysely instance, its
 * dialect and a clock; the storage is composed from one query module per port (kysely/issuers.ts,
 * sequences.ts, documents.ts, voiding.ts, inbound.ts, lifecycle.ts) over a shared core (kysely/core.ts:
 * transactions, engine encodings, clock, errors; kysely/schema.ts: tables; kysely/rows.ts: row mappers).
 */
import type { Storage } from './types.js';
import { createContext, type KyselyStorageOptions } from './kysely/core.js';
import { createDocumentQueries } from './kysely/documents.js';
import { createIdempotencyQueries } from './kysely/idempotency.js';
import { createInboundQueries } from './kysely/inbound.js';
import { createIssuerQueries } from './kysely/issuers.js';
import { createLifecycle } from './kysely/lifecycle.js';
import { createSequenceQueries } from './kysely/sequences.js';
import { createVoidingQueries } from './kysely/voiding.js';

export { composeEncf, MAX_CONSECUTIVE, StorageConflictError, StorageNotFoundError, type KyselyStorageOptions } from './kysely/core.js';
export type { Database } from './kysely/schema.js';

/**
 * Builds the Storage over a Kysely instance. Returns a plain object of functions (not a class instance),
 * so callers may wrap it with `{ ...storage, method }`.
 */
export function createKyselyStorage(options: KyselyStorageOptions): Storage {
  const ctx = createContext(options);
  return {
    ...createLifecycle(ctx, options),
    ...createIssuerQueries(ctx),
    ...createSequenceQueries(ctx),
    ...createDocumentQueries(ctx),
    ...createVoidingQueries(ctx),
    ...createInboundQueries(ctx),
    ...createIdempotencyQueries(ctx),
  };
}
