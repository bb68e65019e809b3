/**
 * The kit's migration runner with a made-up migration list (DDL steps and a data step in code), on a real SQLite file in a temp dir and
 * on the local PostgreSQL (a fresh schema per test): list order, idempotence, recorded versions, atomicity.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { quoteIdent, runMigrations, type Dialect, type Migration } from '../../../../src/shared/server-kit/storage/migrations.js';
import { openPostgresConnection } from '../../../../src/shared/server-kit/storage/postgres.js';
import { openSqliteConnection } from '../../../../src/shared/server-kit/storage/sqlite.js';
import { admin, DATABASE_URL, schemaNames } from './pg.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const newSchema = schemaNames('migr');

/** Which migration's statements were asked for, in order. */
let calls: string[] = [];

const NOTES: Migration = {
  version: 1,
  name: 'notes',
  statements(dialect) {
    calls.push(`1:${dialect}`);
    return [`CREATE TABLE notes (id ${dialect === 'postgres' ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT'}, body TEXT NOT NULL)`];
  },
};
/** Needs the table of step 1: run out of order, it fails. */
const TAGS: Migration = {
  version: 2,
  name: 'note tags and a first note',
  statements(dialect) {
    calls.push(`2:${dialect}`);
    return ['ALTER TABLE notes ADD COLUMN tag TEXT', `INSERT INTO notes (body, tag) VALUES ('first', 'seed')`];
  },
};
const INDEX: Migration = {
  version: 3,
  name: 'tag index',
  statements(dialect) {
    calls.push(`3:${dialect}`);
    return ['CREATE INDEX notes_tag ON notes (tag)'];
  },
};
const BROKEN: Migration = {
  version: 2,
  name: 'broken',
  statements() {
    return ['ALTER TABLE notes ADD COLUMN tag TEXT', 'INSERT INTO no_such_table VALUES (1)'];
  },
};

/** A data step in code after its DDL: fills the new column from the rows (step 2's seed note). */
const UPPER: Migration = {
  version: 3,
  name: 'upper-case copy of each body, filled in code',
  statements() {
    return ['ALTER TABLE notes ADD COLUMN shout TEXT'];
  },
  async run(db) {
    const rows = await sql<{ id: number; body: string }>`SELECT id, body FROM notes`.execute(db);
    for (const r of rows.rows) await sql`UPDATE notes SET shout = ${r.body.toUpperCase()} WHERE id = ${r.id}`.execute(db);
  },
};
/** A data step that fails after its DDL ran. */
const UPPER_BROKEN: Migration = {
  ...UPPER,
  async run() {
    throw new Error('data step failed');
  },
};

interface Engine {
  dialect: Dialect;
  db: Kysely<any>;
  schema?: string;
  /** A second, independent connection to the same database (and schema). */
  other(): Kysely<any>;
  close(): Promise<void>;
}

async function sqliteEngine(): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'kit-migr-'));
  dirs.push(dir);
  const file = join(dir, 'kit.sqlite');
  const held = [openSqliteConnection<any>({ file })];
  return {
    dialect: 'sqlite',
    db: held[0]!.db,
    other() {
      const c = openSqliteConnection<any>({ file });
      held.push(c);
      return c.db;
    },
    close: async () => {
      for (const c of held) await c.release();
    },
  };
}

async function postgresEngine(): Promise<Engine> {
  const schema = newSchema();
  const held = [openPostgresConnection<any>({ connectionString: DATABASE_URL, schema, maxConnections: 2 })];
  return {
    dialect: 'postgres',
    db: held[0]!,
    schema,
    other() {
      const db = openPostgresConnection<any>({ connectionString: DATABASE_URL, schema, maxConnections: 2 });
      held.push(db);
      return db;
    },
    close: async () => {
      for (const db of held) await db.destroy();
    },
  };
}

function migrate(e: Engine, list: readonly Migration[], now: () => number, db: Kysely<any> = e.db): Promise<number[]> {
  return db.connection().execute((q) => runMigrations(q, e.dialect, list, { schema: e.schema, now }));
}

async function recorded(e: Engine): Promise<Array<{ version: number; name: string; applied_at: number }>> {
  const r = await sql<{ version: number; name: string; applied_at: number }>`SELECT version, name, applied_at FROM schema_migrations ORDER BY version`.execute(
    e.db,
  );
  return r.rows.map((x) => ({ version: Number(x.version), name: x.name, applied_at: Number(x.applied_at) }));
}

for (const [label, open] of [
  ['SQLite file', sqliteEngine],
  ['PostgreSQL', postgresEngine],
] as const) {
  describe(`runMigrations on ${label}`, () => {
    it('applies the list in order, records each version with its name and time, and a second run applies nothing', async () => {
      const e = await open();
      try {
        calls = [];
        let t = 1_000;
        expect(await migrate(e, [NOTES, TAGS], () => t++)).toEqual([1, 2]);
        expect(calls).toEqual([`1:${e.dialect}`, `2:${e.dialect}`]);
        expect(await recorded(e)).toEqual([
          { version: 1, name: 'notes', applied_at: 1_000 },
          { version: 2, name: 'note tags and a first note', applied_at: 1_001 },
        ]);

        calls = [];
        expect(await migrate(e, [NOTES, TAGS], () => 9_999)).toEqual([]);
        expect(calls).toEqual([]); // not even asked for their statements
        expect(await recorded(e)).toHaveLength(2);
        const notes = await sql<{ body: string; tag: string }>`SELECT body, tag FROM notes`.execute(e.db);
        expect(notes.rows).toEqual([{ body: 'first', tag: 'seed' }]); // step 2's INSERT ran once
      } finally {
        await e.close();
      }
    });

    it('a longer list later applies only the new step', async () => {
      const e = await open();
      try {
        await migrate(e, [NOTES, TAGS], () => 1);
        calls = [];
        expect(await migrate(e, [NOTES, TAGS, INDEX], () => 2)).toEqual([3]);
        expect(calls).toEqual([`3:${e.dialect}`]);
        expect((await recorded(e)).map((r) => [r.version, r.applied_at])).toEqual([
          [1, 1],
          [2, 1],
          [3, 2],
        ]);
      } finally {
        await e.close();
      }
    });

    it('a failing step rolls the whole run back: nothing is recorded, and the next run starts from the first step', async () => {
      const e = await open();
      try {
        await expect(migrate(e, [NOTES, BROKEN], () => 1)).rejects.toThrow();
        calls = [];
        expect(await migrate(e, [NOTES, TAGS], () => 2)).toEqual([1, 2]);
        expect(calls).toEqual([`1:${e.dialect}`, `2:${e.dialect}`]);
      } finally {
        await e.close();
      }
    });

    it('a data step in code runs after its statements, once, in the same transaction (its failure undoes the DDL too)', async () => {
      const e = await open();
      try {
        await migrate(e, [NOTES, TAGS], () => 1);
        await expect(migrate(e, [NOTES, TAGS, UPPER_BROKEN], () => 2)).rejects.toThrow('data step failed');
        expect((await recorded(e)).map((r) => r.version)).toEqual([1, 2]);
        // The ALTER of the failed step was rolled back with it: the good step can add the column again.
        expect(await migrate(e, [NOTES, TAGS, UPPER], () => 3)).toEqual([3]);
        const notes = await sql<{ body: string; shout: string }>`SELECT body, shout FROM notes`.execute(e.db);
        expect(notes.rows).toEqual([{ body: 'first', shout: 'FIRST' }]);
        expect(await migrate(e, [NOTES, TAGS, UPPER], () => 4)).toEqual([]);
      } finally {
        await e.close();
      }
    });

    it('two connections migrating at once apply each step once', async () => {
      const e = await open();
      try {
        const results = await Promise.all([migrate(e, [NOTES, TAGS], () => 1), migrate(e, [NOTES, TAGS], () => 1, e.other())]);
        expect(results.map((r) => r.join(',')).sort()).toEqual(['', '1,2']);
        expect((await recorded(e)).map((r) => r.version)).toEqual([1, 2]);
      } finally {
        await e.close();
      }
    });
  });
}

describe('runMigrations on PostgreSQL with a schema', () => {
  it('creates the schema and keeps every table in it', async () => {
    const e = await postgresEngine();
    try {
      expect(await migrate(e, [NOTES], () => 5)).toEqual([1]);
      const tables = await admin((c) => c.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`, [e.schema]));
      expect(tables.rows.map((r) => r.table_name)).toEqual(['notes', 'schema_migrations']);
    } finally {
      await e.close();
    }
  });
});

describe('quoteIdent', () => {
  it('quotes plain names and refuses anything else', () => {
    expect(quoteIdent('tenant_1')).toBe('"tenant_1"');
    expect(quoteIdent('_x')).toBe('"_x"');
    expect(quoteIdent('a'.repeat(63))).toBe(`"${'a'.repeat(63)}"`);
    for (const bad of ['', '1abc', 'a-b', 'a"b', 'a b', 'a;DROP', 'a'.repeat(64)]) {
      expect(() => quoteIdent(bad)).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
    }
  });
});
