/**
 * The DIAN service under hostile input, driven by its own OpenAPI document: the operations are read from
 * `GET /service/openapi.json` of the running app (so a route added later is fuzzed without a new case), each
 * with its documented statuses, response schemas, request schema and a valid base request (the OpenAPI
 * `example`, else examples/dian/<last path segment>.json, else one synthesised from the schema).
 *
 * `snapshot()` reads every table of the service's stores (the DIAN tables and the mail outbox) directly, not
 * through the storage port: a second read-only SQLite connection, or plain SQL on the PostgreSQL schema.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import Ajv2020 from 'ajv/dist/2020.js';
import { repoRoot } from '../../helpers/env.js';
import { PG_URL, type Harness, startHarness } from '../../server/helpers.js';
import type { DianServerOptions } from '../../../../src/dian/server/index.js';

export type Schema = Record<string, any>;

export interface Operation {
  method: string;
  /** The OpenAPI template, `/service/documents/{id}`. */
  template: string;
  re: RegExp;
  /** Documented statuses. */
  codes: Set<number>;
  responses: Record<string, Schema | null>;
  requestSchema: Schema | null;
  /** Valid request bodies to mutate (empty for operations without a body). */
  bases: unknown[];
  pathParams: string[];
  queryParams: string[];
  /** Header names of the token the operation documents besides `Authorization` (`Authotization`). */
  extraAuthHeaders: string[];
  /** `security: []`: the operation takes no token (and so serves no company's data). */
  public: boolean;
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
  json: any;
}

export interface World {
  h: Harness;
  engine: 'sqlite' | 'postgres';
  openapi: Schema;
  operations: Operation[];
  request(path: string, init: RequestInit): Promise<Answer>;
  /** Row count and a digest of every table (the DIAN tables and the mail outbox). */
  snapshot(): Promise<Record<string, string>>;
  /** Checks a body against the operation's documented response schema for that status. */
  validResponse(op: Operation, a: Answer): string | null;
  close(): Promise<void>;
}

/** `$ref` resolution inside the OpenAPI document. */
export function deref(doc: Schema, s: Schema | undefined | null): Schema | null {
  let x = s ?? null;
  for (let i = 0; x && typeof x.$ref === 'string' && i < 20; i++) {
    x = x.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((o: any, k: string) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return x;
}

/** The sub-schema at a JSON path (properties, items, the first branch of anyOf/oneOf/allOf). */
export function schemaAt(doc: Schema, root: Schema | null, path: (string | number)[]): Schema | null {
  let s = deref(doc, root);
  for (const k of path) {
    if (!s) return null;
    for (const comb of ['allOf', 'anyOf', 'oneOf']) {
      const branches: Schema[] | undefined = s?.[comb];
      if (s && Array.isArray(branches) && !s.properties && !s.items)
        s = deref(doc, branches.find((b) => deref(doc, b)?.properties || deref(doc, b)?.items) ?? branches[0]);
    }
    if (!s) return null;
    if (typeof k === 'number') s = deref(doc, Array.isArray(s.prefixItems) ? (s.prefixItems[k] ?? s.items) : s.items);
    else s = deref(doc, s.properties?.[k] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : null));
  }
  return s;
}

/** A minimal value of a schema: its example, default, const, first enum value, or the required members. */
export function synthesise(doc: Schema, s0: Schema | null, depth = 0): unknown {
  const s = deref(doc, s0);
  if (!s || depth > 12) return null;
  if (s.example !== undefined) return structuredClone(s.example);
  if (Array.isArray(s.examples) && s.examples.length) return structuredClone(s.examples[0]);
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return structuredClone(s.default);
  if (Array.isArray(s.enum)) return s.enum[0];
  for (const comb of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(s[comb])) return synthesise(doc, s[comb][0], depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const k of s.required ?? []) o[k] = synthesise(doc, s.properties?.[k] ?? {}, depth + 1);
      return o;
    }
    case 'array':
      return Array.from({ length: s.minItems ?? 1 }, () => synthesise(doc, s.items ?? {}, depth + 1));
    case 'integer':
      return s.minimum ?? 1;
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return false;
    case 'string':
      return s.format === 'email' ? 'a@example.com' : 'x'.repeat(Math.max(1, s.minLength ?? 1));
    default:
      return null;
  }
}

/**
 * examples/dian files for a path: the name without `.json` and a `.min`/`.max` (or `-min`/`-max`) size is the last
 * segment, `event-<segment>`, the segment in the singular (`payrolls` → `payroll-min.json`), or starts with the
 * previous segment in the singular and this one (`/payrolls/adjustment` → `payroll-adjustment-replace.json`).
 */
function repoExamples(template: string): unknown[] {
  const segs = template.split('/').filter(Boolean);
  const seg = segs[segs.length - 1] ?? '';
  if (seg.startsWith('{')) return [];
  const singular = (x: string) => x.replace(/s$/, '');
  const names = new Set([seg, `event-${seg}`, singular(seg)]);
  const compound = segs.length > 2 ? `${singular(segs[segs.length - 2]!)}-${seg}` : null;
  const dir = join(repoRoot, 'examples/dian');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .filter((f) => {
      const name = f.replace(/\.json$/, '').replace(/[.-](min|max)$/, '');
      return names.has(name) || (compound !== null && (name === compound || name.startsWith(`${compound}-`)));
    })
    .sort()
    .map((f) => {
      const body = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      // examples/dian/README.md: the contingency example is shown with `send_dian: false`; sent, it is the same request.
      if (body.send_dian === false) body.send_dian = true;
      return body;
    });
}

export function operationsOf(doc: Schema): Operation[] {
  const ops: Operation[] = [];
  for (const [template, methods] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    const re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, op] of Object.entries(methods)) {
      const responses: Record<string, Schema | null> = {};
      for (const [code, r] of Object.entries(op.responses ?? {})) responses[code] = deref(doc, deref(doc, r as Schema)?.content?.['application/json']?.schema);
      const media = deref(doc, op.requestBody)?.content?.['application/json'];
      const requestSchema = media ? deref(doc, media.schema) : null;
      let bases: unknown[] = [];
      if (media) {
        if (media.example !== undefined) bases = [media.example];
        else if (media.examples) bases = Object.values(media.examples as Record<string, { value: unknown }>).map((e) => e.value);
        if (bases.length === 0) bases = repoExamples(template);
        if (bases.length === 0) bases = [synthesise(doc, requestSchema)];
      }
      const params = (op.parameters ?? []).map((p: Schema) => deref(doc, p)!);
      ops.push({
        method: method.toUpperCase(),
        template,
        re,
        codes: new Set(Object.keys(op.responses ?? {}).map(Number)),
        responses,
        requestSchema,
        bases,
        pathParams: params.filter((p: Schema) => p.in === 'path').map((p: Schema) => p.name),
        queryParams: params.filter((p: Schema) => p.in === 'query').map((p: Schema) => p.name),
        extraAuthHeaders: params.filter((p: Schema) => p.in === 'header' && /^auth/i.test(p.name)).map((p: Schema) => p.name),
        public: Array.isArray(op.security) && op.security.length === 0,
      });
    }
  }
  return ops;
}

export async function read(res: Response): Promise<Answer> {
  // SQLite is synchronous: yield so the runner's own messages get through a long chain of in-process requests.
  await new Promise((r) => setImmediate(r));
  const contentType = res.headers.get('content-type') ?? '';
  const text = new TextDecoder().decode(new Uint8Array(await res.arrayBuffer()));
  let json: any = null;
  if (contentType.includes('json') && text !== '') json = JSON.parse(text);
  return { status: res.status, contentType, text, json };
}

const digest = (rows: unknown[]) => createHash('sha256').update(JSON.stringify(rows)).digest('hex').slice(0, 16);

/** A DIAN server (harness: two companies, resolutions, a contingency window) fuzzed through its own OpenAPI. */
export async function createWorld(engine: 'sqlite' | 'postgres', extra: Partial<DianServerOptions> = {}): Promise<World> {
  const h = await startHarness(engine, extra);
  const request = async (path: string, init: RequestInit) => read(await h.server.app.request(path, init));
  const openapi = (await request('/service/openapi.json', { method: 'GET' })).json as Schema;
  const operations = operationsOf(openapi);
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  ajv.addSchema({ $id: 'openapi', components: openapi.components }, 'openapi');
  const validators = new Map<string, ReturnType<typeof ajv.compile>>();
  const rebase = (s: unknown): unknown =>
    JSON.parse(JSON.stringify(s), (k, v) => (k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `openapi${v}` : v));

  let snapshot: () => Promise<Record<string, string>>;
  let closeSnapshot = async () => {};
  if (engine === 'sqlite') {
    const files = ['dian.sqlite', 'mail.sqlite'].map((f) => join(h.dataDir, f)).filter((f) => existsSync(f));
    const dbs = files.map((f) => new Database(f, { readonly: true, fileMustExist: true }));
    snapshot = async () => {
      const out: Record<string, string> = {};
      for (const [i, db] of dbs.entries()) {
        const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[];
        for (const { name } of tables) {
          const cols = db.prepare(`PRAGMA table_info("${name}")`).all() as { name: string }[];
          // Every column, each cut to its first 64 characters (the files are large; their rows' other columns say enough).
          const rows = db
            .prepare(`SELECT ${cols.map((c) => `substr(CAST("${c.name}" AS TEXT), 1, 64)`).join(', ')} FROM "${name}" ORDER BY rowid`)
            .raw()
            .all();
          out[`${files[i]!.split('/').pop()}:${name}`] = `${rows.length} ${digest(rows)}`;
        }
      }
      return out;
    };
    closeSnapshot = async () => {
      for (const db of dbs) db.close();
    };
  } else {
    const schema = h.schema!;
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    snapshot = async () => {
      const out: Record<string, string> = {};
      const tables = (await client.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name', [schema])).rows as {
        table_name: string;
      }[];
      for (const { table_name } of tables) {
        const r = await client.query(
          `SELECT count(*)::int AS n, md5(coalesce(string_agg(left(t::text, 4000), '|' ORDER BY t::text), '')) AS d FROM "${schema}"."${table_name}" t`,
        );
        out[table_name] = `${r.rows[0].n} ${String(r.rows[0].d).slice(0, 16)}`;
      }
      return out;
    };
    closeSnapshot = async () => {
      await client.end();
    };
  }

  return {
    h,
    engine,
    openapi,
    operations,
    request,
    snapshot,
    validResponse(op, a) {
      const schema = op.responses[String(a.status)];
      if (!schema) return null;
      const key = `${op.method} ${op.template} ${a.status}`;
      let v = validators.get(key);
      if (!v) {
        v = ajv.compile(rebase(schema) as object);
        validators.set(key, v);
      }
      if (a.json === null) return `${key}: the body is not JSON (${a.contentType})`;
      return v(a.json) ? null : `${key}: ${ajv.errorsText(v.errors)}`;
    },
    async close() {
      await closeSnapshot();
      await h.cleanup();
    },
  };
}
