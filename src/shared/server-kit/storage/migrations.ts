/**
 * The versioned schema migration runner of the kit, for SQLite and PostgreSQL. A product gives its migration
 * list; each applied version is recorded in `schema_migrations`; `runMigrations` applies the missing ones in
 * order inside one transaction that is serialised across processes (PostgreSQL: a transaction-scoped
 * advisory lock; SQLite: `BEGIN IMMEDIATE`, the database write lock), so several processes may call it at once.
 *
 * Kernel material (server kit): no product's tables here, only the runner, the dialect and identifier quoting.
 */
import { sql, type Kysely } from 'kysely';
import { EcfError } from '../../errors/ecf-error.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Migration {
  version: number;
  name: string;
  /** DDL statements, per dialect. */
  statements(dialect: Dialect): string[];
  /**
   * A data step in code, run after the statements in the same transaction (e.g. filling new columns from
   * data the statements cannot read). It must use `db`, the migration's connection.
   */
  // biome-ignore lint/suspicious/noExplicitAny: the kernel runs any product's schema; each product types its own tables
  run?(db: Kysely<any>, dialect: Dialect): Promise<void>;
}

/** A fixed advisory-lock key for migrations ("ecfmigr" folded into a signed 32-bit integer). */
const PG_MIGRATION_LOCK = 0x65636d67;

/**
 * Applies the migrations of `migrations` not recorded yet, in list order, and returns their versions. `db`
 * must be a single-connection Kysely (from `db.connection()`), because the transaction is driven with raw
 * BEGIN/COMMIT. `schema` (PostgreSQL) is created first if missing; `now` (epoch ms, the storage's clock)
 * stamps each applied migration.
 */
export async function runMigrations(
  // biome-ignore lint/suspicious/noExplicitAny: the kernel runs any product's schema; each product types its own tables
  db: Kysely<any>,
  dialect: Dialect,
  migrations: readonly Migration[],
  options: { schema?: string; now: () => number },
): Promise<number[]> {
  const applied: number[] = [];
  await sql.raw(dialect === 'postgres' ? 'BEGIN' : 'BEGIN IMMEDIATE').execute(db);
  try {
    if (dialect === 'postgres') {
      await sql`SELECT pg_advisory_xact_lock(${PG_MIGRATION_LOCK})`.execute(db);
      if (options.schema) await sql.raw(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(options.schema)}`).execute(db);
    }
    await sql
      .raw(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at BIGINT NOT NULL
    )`)
      .execute(db);
    const done = await sql<{ version: number }>`SELECT version FROM schema_migrations`.execute(db);
    const have = new Set(done.rows.map((r) => Number(r.version)));
    for (const m of migrations) {
      if (have.has(m.version)) continue;
      for (const stmt of m.statements(dialect)) await sql.raw(stmt).execute(db);
      if (m.run) await m.run(db, dialect);
      await sql`INSERT INTO schema_migrations (version, name, applied_at) VALUES (${m.version}, ${m.name}, ${options.now()})`.execute(db);
      applied.push(m.version);
    }
    await sql.raw('COMMIT').execute(db);
  } catch (e) {
    await sql
      .raw('ROLLBACK')
      .execute(db)
      .catch(() => undefined);
    throw e;
  }
  return applied;
}

const IDENT_RE = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Quotes a PostgreSQL identifier; only plain names are accepted (schema names come from configuration). */
export function quoteIdent(name: string): string {
  if (!IDENT_RE.test(name)) throw new EcfError(`invalid schema name: ${JSON.stringify(name)} (letters, digits and _ only)`, { code: 'invalid_argument' });
  return `"${name}"`;
}
