/** StorageLifecycle over Kysely: the schema (migrations) and releasing the connection(s). */
import { runMigrations } from '../../../../shared/server-kit/storage/migrations.js';
import { MIGRATIONS } from '../migrations.js';
import type { StorageLifecycle } from '../types.js';
import type { KyselyContext, KyselyStorageOptions } from './core.js';

export function createLifecycle(ctx: KyselyContext, options: Pick<KyselyStorageOptions, 'schema' | 'destroy'>): StorageLifecycle {
  let closed = false;
  return {
    async migrate() {
      await ctx.db.connection().execute((q) => runMigrations(q, ctx.dialect, MIGRATIONS, { schema: options.schema, now: ctx.now }));
    },

    async close() {
      if (closed) return;
      closed = true;
      await options.destroy();
    },
  };
}
