/**
 * Canonical request JSON + context → UBL 2.1 tree and XML, by applying the mapping of
 * src/dian/spec/ubl-map.ts for the kind's rows (no per-kind template). Amounts become exact decimals at this
 * boundary and are written rounded half-to-even to 2 decimals (the XML rounding point; the hash truncation point
 * is in src/dian/codes/). The document's code (CUFE, CUDE or CUDS), the software security code and the QR URL are
 * computed from the built tree, as a receiver recomputes them from the file, then written into it.
 *
 * Pure: no I/O; the clock comes in through the context.
 */
import { fromNumber, parseDec, roundHalfEven, toFixed, toText, add, type Dec, ZERO } from '../../shared/money/decimal.js';
import { formatWallClock } from '../../shared/time/fixed-offset.js';
import type { Issue } from '../../shared/issues.js';
import { BOGOTA_OFFSET, BOGOTA_OFFSET_MINUTES, COUNTRY_NAMES, TAX_NAMES, TRANSMISSION_NAMES } from '../spec/codes.js';
import { DIAN_KINDS, DOCUMENT_TYPES, type DianKind, type DianKindId, type DocumentTypeRow } from '../spec/kinds.js';
import { UBL_MAP, isGroup, resolvePath, type CalcId, type MapGroup, type MapItem, type MapRow, type ValueFormat } from '../spec/ubl-map.js';
import { child, el, textAt, type UblNode } from '../ubl/tree.js';
import { writeUbl } from '../ubl/write.js';
import type { DianContext } from './context.js';
import { codesFromTree, type BuiltCodes } from './codes.js';

export type DianBuildResult =
  | { ok: true; xml: string; root: UblNode; codes: BuiltCodes; issueDate: string; issueTime: string }
  | { ok: false; issues: Issue[] };

type Json = Record<string, unknown>;

interface State {
  kind: DianKind;
  type: DocumentTypeRow;
  req: Json;
  ctx: DianContext;
  issueDate: string;
  issueTime: string;
  issues: Issue[];
  /** Nodes whose value is known only once the tree is complete. */
  deferred: { node: UblNode; calc: 'uuid' | 'securityCode' | 'qrCode' }[];
}

interface Scope {
  node: UblNode;
  value: unknown;
  /** Dotted request path of the scope, for issues. */
  path: string;
  index: number;
  /** The items of a grouped element (`groupBy`), else the scope's value alone. */
  items: unknown[];
  group?: MapGroup;
}

/** Builds the UBL document of `kind` from a validated request (see `validateDianRequest`) and the context. */
export function buildDianDocument(kindId: DianKindId, request: Json, ctx: DianContext): DianBuildResult {
  const kind = DIAN_KINDS[kindId];
  const issues: Issue[] = [];
  const fail = (path: string, message: string): DianBuildResult => ({ ok: false, issues: [{ code: 'required', path, message, severity: 'error' }] });
  if (!kind) return fail('', `Tipo de documento desconocido: ${String(kindId)}.`);
  const typeCode = typeof request.document_type_code === 'string' ? request.document_type_code : kind.typeCodes[0]!;
  const type = DOCUMENT_TYPES[typeCode];
  if (!type || !kind.typeCodes.includes(typeCode)) {
    return fail('document_type_code', `El tipo de documento ${typeCode} no corresponde a ${kind.name} (admitidos: ${kind.typeCodes.join(', ')}).`);
  }
  if (kind.invoiceControl && !ctx.resolution) return fail('resolution_number', 'Falta la resolución de numeración en el contexto del emisor.');
  let issueDate = typeof request.date === 'string' ? request.date : undefined;
  let issueTime = typeof request.time === 'string' ? request.time : undefined;
  if (issueDate === undefined || issueTime === undefined) {
    if (!ctx.now) return fail(issueDate === undefined ? 'date' : 'time', 'Indique la fecha y la hora de emisión, o configure un reloj.');
    const now = ctx.now();
    issueDate ??= formatWallClock(now, BOGOTA_OFFSET_MINUTES, 'yyyy-MM-dd');
    issueTime ??= formatWallClock(now, BOGOTA_OFFSET_MINUTES, 'HH:mm:ss');
  }
  const st: State = { kind, type, req: request, ctx, issueDate, issueTime, issues, deferred: [] };
  const root = el(kind.root);
  apply(UBL_MAP, { node: root, value: request, path: '', index: 1, items: [request] }, st);
  if (issues.length > 0) return { ok: false, issues };

  const codes = codesFromTree(root, type, ctx);
  if (!codes.ok) return { ok: false, issues: [{ code: 'rule', path: '', message: codes.message, severity: 'error' }] };
  for (const d of st.deferred) {
    d.node.text = d.calc === 'uuid' ? codes.value.hash : d.calc === 'securityCode' ? codes.value.securityCode : codes.value.qrUrl;
  }
  return { ok: true, xml: writeUbl(root), root, codes: codes.value, issueDate, issueTime };
}

function apply(items: readonly MapItem[], scope: Scope, st: State): void {
  for (const item of items) {
    if (item.kinds && !item.kinds.includes(st.kind.id)) continue;
    if (isGroup(item)) applyGroup(item, scope, st);
    else applyRow(item, scope, st);
  }
}

function get(value: unknown, path: string): unknown {
  let cur = value;
  for (const k of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = Object.hasOwn(cur, k) ? (cur as Json)[k] : undefined;
  }
  return cur;
}

/** The node at `path` below `from`, creating each missing step (an existing child of that name is reused). */
function ensure(from: UblNode, path: string): UblNode {
  let cur = from;
  for (const step of path.split('/')) {
    if (step === '') continue;
    let next = child(cur, step);
    if (!next) {
      next = el(step);
      cur.children.push(next);
    }
    cur = next;
  }
  return cur;
}

function applyGroup(g: MapGroup, scope: Scope, st: State): void {
  const path = resolvePath(g.group, st.kind);
  const cut = path.lastIndexOf('/');
  const shared = cut < 0 ? '' : path.slice(0, cut);
  const name = cut < 0 ? path : path.slice(cut + 1);
  const eachPath = g.each === null ? null : resolvePath(g.each, st.kind);
  const raw = eachPath === null ? scope.value : get(scope.value, eachPath);
  if (raw === undefined || raw === null) return;
  let list: unknown[];
  if (eachPath === null) list = [raw];
  else if (g.split !== undefined && typeof raw === 'string') list = raw.split(g.split);
  else list = Array.isArray(raw) ? raw : [raw];
  const base = eachPath === null ? scope.path : scope.path === '' ? eachPath : `${scope.path}.${eachPath}`;
  const entries = list.map((v, i) => ({ v, i, path: Array.isArray(raw) ? `${base}.${i}` : base }));
  const kept = g.if ? entries.filter((e) => get(e.v, g.if!) !== undefined) : entries;
  if (kept.length === 0) return;

  // Grouped elements (one per distinct value of `groupBy`), each with one `sub` child per item.
  const buckets: (typeof kept)[] = [];
  if (g.groupBy) {
    const byKey = new Map<string, typeof kept>();
    for (const e of kept) {
      const key = String(get(e.v, g.groupBy));
      const b = byKey.get(key);
      if (b) b.push(e);
      else {
        const nb = [e];
        byKey.set(key, nb);
        buckets.push(nb);
      }
    }
  } else for (const e of kept) buckets.push([e]);

  const parent = ensure(scope.node, shared);
  for (const [n, bucket] of buckets.entries()) {
    const first = bucket[0]!;
    const node = el(name);
    parent.children.push(node);
    const s: Scope = { node, value: first.v, path: first.path, index: n + 1, items: bucket.map((e) => e.v), group: g };
    apply(g.rows, s, st);
    if (g.pairs) {
      const at = ensure(node, g.pairs.at);
      for (const [label, f] of g.pairs.list) {
        const v = get(first.v, f);
        if (v === undefined || v === null) continue;
        at.children.push(el('Name', label), el('Value', String(v)));
      }
    }
    if (g.sub) {
      for (const e of bucket) applyGroup({ ...g.sub, each: null }, { node, value: e.v, path: e.path, index: 1, items: [e.v] }, st);
    }
  }
}

function applyRow(row: MapRow, scope: Scope, st: State): void {
  if (row.if !== undefined && get(scope.value, row.if) === undefined) return;
  if (row.unless !== undefined && get(scope.value, row.unless) !== undefined) return;
  const [path, attribute] = resolvePath(row.at, st.kind).split('@') as [string, string | undefined];
  const from = row.from;
  let raw: unknown;
  let where = scope.path;
  if ('field' in from) {
    raw = get(scope.value, from.field);
    where = scope.path === '' ? from.field : `${scope.path}.${from.field}`;
  } else if ('ctx' in from) raw = get(st.ctx, from.ctx);
  else if ('lit' in from) raw = from.lit;
  else if ('index' in from) raw = String(scope.index);
  else {
    const target = path === '' ? scope.node : ensurePeek(scope.node, path);
    raw = calc(from.calc, scope, st, target);
    if (raw === DEFERRED) {
      const node = ensure(scope.node, path);
      node.text = '';
      st.deferred.push({ node, calc: from.calc as 'uuid' | 'securityCode' | 'qrCode' });
      return;
    }
  }
  if ((raw === undefined || raw === null) && row.default !== undefined) raw = row.default;
  if (raw === undefined || raw === null) return;
  const text = format(raw, row.format ?? 'text');
  if (text === null) {
    st.issues.push({ code: 'invalid_type', path: where, message: `Valor no válido para ${describe(row.format ?? 'text')}.`, severity: 'error' });
    return;
  }
  const node = ensure(scope.node, path);
  if (attribute) {
    const i = node.attrs.findIndex(([k]) => k === attribute);
    if (i >= 0) node.attrs[i] = [attribute, text];
    else node.attrs.push([attribute, text]);
    return;
  }
  node.text = text;
  if (row.format === 'amount' && !node.attrs.some(([k]) => k === 'currencyID')) node.attrs.push(['currencyID', String(st.req.currency_type_code ?? 'COP')]);
}

/** The parent (already built) of the element at `path`, for calculations that read their siblings. */
function ensurePeek(from: UblNode, path: string): UblNode | undefined {
  const steps = path.split('/').filter((s) => s !== '');
  let cur: UblNode | undefined = from;
  for (const s of steps.slice(0, -1)) cur = child(cur, s);
  return cur;
}

const DEFERRED = Symbol('deferred');

function calc(id: CalcId, scope: Scope, st: State, parent: UblNode | undefined): unknown {
  const req = st.req;
  switch (id) {
    case 'documentId':
      return `${typeof req.prefix === 'string' ? req.prefix : ''}${String(req.number)}`;
    case 'profileId':
      return st.type.profileId;
    case 'issueDate':
      return st.issueDate;
    case 'issueTime':
      return `${st.issueTime}${BOGOTA_OFFSET}`;
    case 'typeCode':
      return st.type.code;
    case 'lineCount': {
      const lines = req[st.kind.linesField];
      return Array.isArray(lines) ? String(lines.length) : undefined;
    }
    case 'taxName':
      return TAX_NAMES[textAt(parent, 'cbc:ID') ?? ''];
    case 'countryName':
      return COUNTRY_NAMES[textAt(parent, 'cbc:IdentificationCode') ?? ''];
    case 'departmentCode': {
      const m = textAt(parent, 'cbc:ID');
      return textAt(parent, 'cac:Country/cbc:IdentificationCode') === 'CO' && m && /^\d{5}$/.test(m) ? m.slice(0, 2) : undefined;
    }
    case 'transmissionName':
      return TRANSMISSION_NAMES[textAt(parent, 'cbc:DescriptionCode') ?? ''];
    case 'taxTotalAmount': {
      let total: Dec = ZERO;
      for (const it of scope.items) {
        const d = typeof get(it, 'tax_amount') === 'number' ? fromNumber(get(it, 'tax_amount') as number) : null;
        if (d === null) return undefined;
        total = add(total, roundHalfEven(d, 2));
      }
      return total;
    }
    case 'prepaidAmount': {
      const list = req.prepaid_payments;
      if (!Array.isArray(list) || list.length === 0) return undefined;
      let total: Dec = ZERO;
      for (const p of list) {
        const d = typeof get(p, 'paid_amount') === 'number' ? fromNumber(get(p, 'paid_amount') as number) : null;
        if (d === null) return undefined;
        total = add(total, roundHalfEven(d, 2));
      }
      return total;
    }
    case 'uuid':
    case 'securityCode':
    case 'qrCode':
      return DEFERRED;
    case 'uuidScheme':
      return st.type.uuidScheme;
    case 'referenceScheme':
      return get(scope.value, 'algorithm') ?? defaultReferenceScheme(st.kind, scope.group?.has);
    case 'item':
      return scope.value;
    case 'currency':
      return req.currency_type_code;
  }
}

/** The UUID scheme of a referenced document when the request does not say: by what the kind references. */
export function defaultReferenceScheme(kind: DianKind, has: string | undefined): string {
  if (has === 'cac:CreditNoteDocumentReference' || has === 'cac:DebitNoteDocumentReference') return 'CUDE-SHA384';
  if (kind.id === 'note-support-invoice') return 'CUDS-SHA384';
  if (kind.id === 'credit-note-equivalent') return 'CUDE-SHA384';
  return 'CUFE-SHA384';
}

function describe(f: ValueFormat): string {
  return {
    text: 'un texto',
    code2: 'un código',
    amount: 'un valor',
    decimal: 'una cantidad',
    percent: 'un porcentaje',
    integer: 'un entero',
    boolean: 'un booleano',
    date: 'una fecha',
    time: 'una hora',
  }[f];
}

/** The text of a value in a format, or null when the value does not fit it. */
function format(raw: unknown, f: ValueFormat): string | null {
  const dec = (): Dec | null =>
    typeof raw === 'bigint' ? (raw as Dec) : typeof raw === 'number' ? fromNumber(raw) : typeof raw === 'string' ? parseDec(raw) : null;
  switch (f) {
    case 'text':
      return typeof raw === 'string' ? raw : typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : null;
    case 'amount':
    case 'percent': {
      const d = dec();
      return d === null ? null : toFixed(roundHalfEven(d, 2), 2);
    }
    case 'decimal': {
      const d = dec();
      return d === null ? null : toText(d, 2, 8);
    }
    case 'integer':
      return typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : typeof raw === 'string' && /^\d+$/.test(raw) ? raw : null;
    case 'boolean':
      return typeof raw === 'boolean' ? String(raw) : null;
    case 'date':
      return typeof raw === 'string' ? raw : null;
    case 'time':
      return typeof raw === 'string' ? `${raw}${BOGOTA_OFFSET}` : null;
    case 'code2':
      return typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0 ? String(raw).padStart(2, '0') : typeof raw === 'string' ? raw : null;
  }
}
