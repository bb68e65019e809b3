/**
 * `GET /service/documents` (beyond the spec): the company's documents, newest first, filtered by `kind`,
 * `state`, `from`/`to` (creation time, ISO date or instant; a bare `to` date includes that whole day, UTC),
 * `number` (`SETP990000001` or the digits alone), at most `limit` (1–100, default 50) per page; `cursor` is
 * the opaque `nextCursor` of the previous page (base64url of the last row's creation time and id).
 */
import type { Context, Hono } from 'hono';
import { DIAN_KINDS, type DianKindId } from '../../index.js';
import type { DocumentListFilter, DocumentListItem, DocumentListStore } from '../storage/types.js';
import type { CompanyRecord, DocumentState } from '../storage/types.js';

type Deps = { storage: DocumentListStore };
type Env = { Variables: { company: CompanyRecord } };
type Middleware = (c: Context<Env>, next: () => Promise<void>) => Promise<Response | undefined>;

const STATES: readonly DocumentState[] = ['building', 'sending', 'accepted', 'rejected', 'contingency_pending', 'test_set_pending'];
const MAX_LIMIT = 100;

/** The opaque cursor after `row`. */
export function encodeCursor(row: { createdAt: number; id: number }): string {
  return Buffer.from(JSON.stringify([row.createdAt, row.id]), 'utf8').toString('base64url');
}

function decodeCursor(s: string): { createdAt: number; id: number } | null {
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && v.every((n) => Number.isSafeInteger(n) && n >= 0)) return { createdAt: v[0], id: v[1] };
  } catch {
    // not a cursor
  }
  return null;
}

/** An ISO date (`yyyy-MM-dd`, start of day UTC, or end of day when `end`) or instant → epoch ms. */
function parseTime(s: string, end: boolean): number | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) {
    const t = Date.parse(`${s}T00:00:00Z`);
    return Number.isNaN(t) ? null : end ? t + 86_400_000 - 1 : t;
  }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(s)) return null;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : t;
}

/** The query → a filter, or the problems (path and Spanish message) to answer 400 with. */
export function parseListQuery(q: Record<string, string | undefined>): { filter: DocumentListFilter } | { problems: { path: string; message: string }[] } {
  const problems: { path: string; message: string }[] = [];
  const filter: DocumentListFilter = { limit: 50 };
  if (q.kind !== undefined) {
    if (q.kind in DIAN_KINDS) filter.kind = q.kind as DianKindId;
    else problems.push({ path: 'kind', message: `Tipo de documento desconocido "${q.kind}" (${Object.keys(DIAN_KINDS).join(', ')}).` });
  }
  if (q.state !== undefined) {
    if ((STATES as readonly string[]).includes(q.state)) filter.state = q.state as DocumentState;
    else problems.push({ path: 'state', message: `Estado desconocido "${q.state}": debe ser uno de ${STATES.join(', ')}.` });
  }
  for (const key of ['from', 'to'] as const) {
    const v = q[key];
    if (v === undefined) continue;
    const t = parseTime(v, key === 'to');
    if (t === null) problems.push({ path: key, message: `"${key}" debe ser una fecha (aaaa-MM-dd) o un instante ISO 8601, no "${v}".` });
    else filter[key] = t;
  }
  if (q.number !== undefined) {
    const m = /^([A-Za-z]*)(\d{1,15})$/.exec(q.number);
    if (!m) problems.push({ path: 'number', message: `"number" debe ser un número de documento (por ejemplo SETP990000001), no "${q.number}".` });
    else {
      if (m[1]) filter.prefix = m[1];
      filter.number = Number(m[2]);
    }
  }
  if (q.limit !== undefined) {
    const n = /^\d{1,3}$/.test(q.limit) ? Number(q.limit) : Number.NaN;
    if (!(n >= 1 && n <= MAX_LIMIT)) problems.push({ path: 'limit', message: `"limit" debe ser un entero entre 1 y ${MAX_LIMIT}.` });
    else filter.limit = n;
  }
  if (q.cursor !== undefined) {
    const c = decodeCursor(q.cursor);
    if (!c) problems.push({ path: 'cursor', message: 'El cursor no es válido; use el valor nextCursor de la página anterior.' });
    else filter.before = c;
  }
  return problems.length ? { problems } : { filter };
}

function itemView(d: DocumentListItem) {
  return {
    number: `${d.prefix}${d.number}`,
    kind: d.kind,
    state: d.state,
    uuid: d.documentKey,
    createdAt: new Date(d.createdAt).toISOString(),
    updatedAt: new Date(d.updatedAt).toISOString(),
  };
}

/** Registers `GET /service/documents`. */
export function registerListRoutes(app: Hono<Env>, deps: Deps, auth: Middleware): void {
  app.get('/service/documents', auth, async (c) => {
    const parsed = parseListQuery(c.req.query());
    if ('problems' in parsed) {
      const message = parsed.problems.map((p) => `${p.path}: ${p.message}`).join(' ');
      return c.json({ status: 'error', message, document: null, errors: parsed.problems }, 400);
    }
    // One row more than asked tells whether another page follows.
    const rows = await deps.storage.listDocuments(c.get('company').id, { ...parsed.filter, limit: parsed.filter.limit + 1 });
    const page = rows.slice(0, parsed.filter.limit);
    const last = page[page.length - 1];
    return c.json({ status: 'success', documents: page.map(itemView), nextCursor: rows.length > page.length && last ? encodeCursor(last) : null });
  });
}
