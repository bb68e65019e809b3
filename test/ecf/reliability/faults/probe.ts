/**
 * Read-only look at the documents table that the server and the workers share, from the test process:
 * status counts while the run goes on, every row at the end. Plain SQL over the schema of
 * src/ecf/server/storage/migrations.ts (booleans normalised). On PostgreSQL a query that meets a restart is
 * retried; on SQLite a read-only WAL connection never blocks the writers.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { sleep } from './processes.js';

export interface Row {
  id: number;
  encf: string;
  tipo: string;
  consecutive: number;
  status: string;
  authorityState: string | null;
  transmission: string;
  summary: boolean;
  sendAttempts: number;
  nextAttemptAt: number | null;
  leaseOwner: string | null;
  trackId: string | null;
  sequenceReusable: boolean | null;
  unsignedXml: string;
}

export interface Probe {
  counts(): Promise<Record<string, number>>;
  /** Documents leased by `owner` and not finished, and those of them in `sending`. */
  heldBy(owner: string): Promise<{ held: number; sending: number }>;
  rows(): Promise<Row[]>;
  /** (document id, kind) of every recorded submission. */
  submissions(): Promise<{ documentId: number; kind: string; trackId: string | null }[]>;
  close(): Promise<void>;
}

const HELD = `SELECT count(*) AS held, coalesce(sum(CASE WHEN transmission = 'sending' THEN 1 ELSE 0 END), 0) AS sending
  FROM documents WHERE lease_owner = $1 AND next_attempt_at IS NOT NULL`;

const ROWS = `SELECT id, encf, tipo, consecutive, status, authority_state, transmission, summary, send_attempts,
  next_attempt_at, lease_owner, track_id, sequence_reusable, unsigned_xml FROM documents ORDER BY id`;

const SUBMISSIONS = 'SELECT document_id, kind, track_id FROM submissions ORDER BY id';

type Raw = Record<string, unknown>;

function toSubmission(r: Raw): { documentId: number; kind: string; trackId: string | null } {
  return { documentId: Number(r.document_id), kind: String(r.kind), trackId: (r.track_id as string | null) ?? null };
}
const bool = (v: unknown): boolean | null => (v === null || v === undefined ? null : v === true || v === 1 || v === '1' || v === 't');
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function toRow(r: Raw): Row {
  return {
    id: Number(r.id),
    encf: String(r.encf),
    tipo: String(r.tipo),
    consecutive: Number(r.consecutive),
    status: String(r.status),
    authorityState: (r.authority_state as string | null) ?? null,
    transmission: String(r.transmission),
    summary: bool(r.summary) === true,
    sendAttempts: Number(r.send_attempts),
    nextAttemptAt: num(r.next_attempt_at),
    leaseOwner: (r.lease_owner as string | null) ?? null,
    trackId: (r.track_id as string | null) ?? null,
    sequenceReusable: bool(r.sequence_reusable),
    unsignedXml: String(r.unsigned_xml),
  };
}

export function sqliteProbe(file: string): Probe {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  return {
    async counts() {
      const out: Record<string, number> = {};
      const rows = db.prepare('SELECT status, count(*) AS n FROM documents GROUP BY status').all() as { status: string; n: number }[];
      for (const r of rows) out[r.status] = r.n;
      return out;
    },
    async heldBy(owner) {
      const r = db.prepare(HELD.replace('$1', '?')).get(owner) as Raw;
      return { held: Number(r.held), sending: Number(r.sending) };
    },
    rows: async () => (db.prepare(ROWS).all() as Raw[]).map(toRow),
    submissions: async () => (db.prepare(SUBMISSIONS).all() as Raw[]).map(toSubmission),
    async close() {
      db.close();
    },
  };
}

export function postgresProbe(url: string): Probe {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => undefined); // idle clients cut by a restart are replaced
  /** Retries while the database restarts (bounded). */
  const query = async (text: string, values: unknown[] = []): Promise<Raw[]> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return (await pool.query(text, values)).rows as Raw[];
      } catch (e) {
        if (attempt >= 100) throw e;
        await sleep(200);
      }
    }
  };
  return {
    async counts() {
      const out: Record<string, number> = {};
      for (const r of await query('SELECT status, count(*) AS n FROM documents GROUP BY status')) out[String(r.status)] = Number(r.n);
      return out;
    },
    async heldBy(owner) {
      const [r] = await query(HELD, [owner]);
      return { held: Number(r!.held), sending: Number(r!.sending) };
    },
    rows: async () => (await query(ROWS)).map(toRow),
    submissions: async () => (await query(SUBMISSIONS)).map(toSubmission),
    close: () => pool.end(),
  };
}
