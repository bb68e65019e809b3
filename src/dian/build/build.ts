/**
 * Canonical request JSON + context → UBL 2.1 tree and XML, by applying the mapping of
 * src/dian/spec/ubl-map.ts for the kind's rows (no per-kind template). Amounts become exact decimals at this
 * boundary and are written rounded half-to-even to 2 decimals (the XML rounding point; the hash truncation point
 * is in src/dian/codes/). The document's code (CUFE, CUDE or CUDS), the software security code and the QR URL are
 * computed from the built tree, as a receiver recomputes them from the file, then written into it.
 *
 * Pure: no I/O; the clock comes in through the context.
 */
import { fromNumber, numberText, parseDec, roundHalfEven, toFixed, toText, add, type Dec, ZERO } from '../../shared/money/decimal.js';
import { formatWallClock } from '../../shared/time/fixed-offset.js';
import type { Issue } from '../../shared/issues.js';
import { BOGOTA_OFFSET, BOGOTA_OFFSET_MINUTES, TAX_NAMES, TRANSMISSION_NAMES } from '../spec/codes.js';
import { COUNTRIES, DEPARTMENTS, MUNICIPALITIES } from '../spec/places.gen.js';
import { DIAN_KINDS, DOCUMENT_TYPES, type DianKind, type DianKindId, type DocumentTypeRow } from '../spec/kinds.js';
import type { CalcId, MapGroup, ValueFormat } from '../spec/ubl-map.js';
import { planFor, type PlanGroup, type PlanItem, type PlanRow } from '../spec/plan.js';
import { atSteps, child, el, textAt, type UblNode } from '../ubl/tree.js';
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
  if (ctx.company.nit !== undefined && String(request.identification_number) !== ctx.company.nit) {
    return fail('identification_number', `El NIT ${String(request.identification_number)} no es el del emisor configurado (${ctx.company.nit}).`);
  }
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
  const lines = request[kind.linesField];
  large = Array.isArray(lines) && lines.length > LARGE_LINES;
  try {
    apply(planFor(kind.id), { node: root, value: request, path: '', index: 1, items: [request] }, st);
  } finally {
    large = false;
  }
  if (issues.length > 0) return { ok: false, issues };

  const codes = codesFromTree(root, ctx);
  if (!codes.ok) return { ok: false, issues: [{ code: 'rule', path: '', message: codes.message, severity: 'error' }] };
  for (const d of st.deferred) {
    d.node.text = d.calc === 'uuid' ? codes.value.hash : d.calc === 'securityCode' ? codes.value.securityCode : codes.value.qrUrl;
  }
  return { ok: true, xml: writeUbl(root), root, codes: codes.value, issueDate, issueTime };
}

function apply(items: readonly PlanItem[], scope: Scope, st: State): void {
  for (const item of items) {
    if (item.kind === 'group') applyGroup(item, scope, st);
    else applyRow(item, scope, st);
  }
}

function get(value: unknown, keys: readonly string[]): unknown {
  let cur = value;
  for (const k of keys) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = Object.hasOwn(cur, k) ? (cur as Json)[k] : undefined;
  }
  return cur;
}

/**
 * Elements start with one shared, frozen empty attribute list and get their own on the first attribute: most UBL
 * elements have none, and fewer allocations per node keep a large document from making V8 pretenure the
 * builder's allocations (which then slows every later small document).
 */
const NO_ATTRS: [string, string][] = Object.freeze([]) as unknown as [string, string][];
/** Likewise for children: a leaf (most elements) never allocates its list. */
const NO_CHILDREN: UblNode[] = Object.freeze([]) as unknown as UblNode[];
/**
 * A large document's nodes come from other allocation sites than a small one's. V8 decides per allocation site
 * whether to allocate straight into old space ("pretenuring"): a document of a thousand lines keeps its tree alive
 * across many young-generation collections, V8 then pretenures the sites, and with one shared site every later
 * small document paid old-space collection (a 10-line invoice after a 1,000-line one: 8,900 → 5,300 builds/s).
 * Two sites per kind of allocation keep that decision to the large documents. Set per build (`large`).
 */
let large = false;
const LARGE_LINES = 100;
const bareSmall = (name: string): UblNode => ({ name, attrs: NO_ATTRS, text: undefined, children: NO_CHILDREN });
const bareLarge = (name: string): UblNode => ({ name, attrs: NO_ATTRS, text: undefined, children: NO_CHILDREN });
const bare = (name: string): UblNode => (large ? bareLarge(name) : bareSmall(name));
const oneSmall = <T>(x: T): T[] => [x];
const oneLarge = <T>(x: T): T[] => [x];

function addChild(parent: UblNode, node: UblNode): void {
  if (parent.children === NO_CHILDREN) parent.children = large ? oneLarge(node) : oneSmall(node);
  else parent.children.push(node);
}

function attrIndex(node: UblNode, name: string): number {
  const a = node.attrs;
  for (let i = 0; i < a.length; i++) if (a[i]![0] === name) return i;
  return -1;
}

function setAttr(node: UblNode, name: string, value: string): void {
  if (node.attrs === NO_ATTRS) {
    node.attrs = large ? oneLarge<[string, string]>([name, value]) : oneSmall<[string, string]>([name, value]);
    return;
  }
  const i = attrIndex(node, name);
  if (i >= 0) node.attrs[i] = [name, value];
  else node.attrs.push([name, value]);
}

/** The node at `steps` below `from`, creating each missing step (an existing child of that name is reused). */
function ensure(from: UblNode, steps: readonly string[]): UblNode {
  let cur = from;
  for (const step of steps) {
    let next = child(cur, step);
    if (!next) {
      next = bare(step);
      addChild(cur, next);
    }
    cur = next;
  }
  return cur;
}

interface Entry {
  v: unknown;
  path: string;
}

function applyGroup(g: PlanGroup, scope: Scope, st: State): void {
  const raw = g.each === null ? scope.value : get(scope.value, g.each);
  if (raw === undefined || raw === null) return;
  let list: unknown[];
  if (g.each === null) list = [raw];
  else if (g.group.split !== undefined && typeof raw === 'string') list = raw.split(g.group.split);
  else list = Array.isArray(raw) ? raw : [raw];
  const base = g.eachKey === null ? scope.path : scope.path === '' ? g.eachKey : `${scope.path}.${g.eachKey}`;
  const isArray = Array.isArray(raw);
  const kept: Entry[] = [];
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (g.ifPath && get(v, g.ifPath) === undefined) continue;
    kept.push({ v, path: isArray ? `${base}.${i}` : base });
  }
  if (kept.length === 0) return;

  // Grouped elements (one per distinct value of `groupBy`), each with one `sub` child per item.
  let buckets: Entry[][];
  if (g.groupBy) {
    buckets = [];
    const byKey = new Map<string, Entry[]>();
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
  } else buckets = kept.map((e) => [e]);

  const parent = ensure(scope.node, g.shared);
  for (let n = 0; n < buckets.length; n++) {
    const bucket = buckets[n]!;
    const first = bucket[0]!;
    const node = bare(g.name);
    addChild(parent, node);
    const s: Scope = { node, value: first.v, path: first.path, index: n + 1, items: bucket.length === 1 ? [first.v] : bucket.map((e) => e.v), group: g.group };
    apply(g.items, s, st);
    if (g.pairs && g.pairsAt) {
      const at = ensure(node, g.pairsAt);
      for (const [label, f] of g.pairs) {
        const v = get(first.v, f);
        if (v === undefined || v === null) continue;
        addChild(at, el('Name', label));
        addChild(at, el('Value', String(v)));
      }
    }
    if (g.sub) {
      const sub = g.sub;
      for (const e of bucket) {
        const subNode = bare(sub.name);
        addChild(ensure(node, sub.shared), subNode);
        apply(sub.items, { node: subNode, value: e.v, path: e.path, index: 1, items: [e.v], group: sub.group }, st);
      }
    }
  }
}

function applyRow(p: PlanRow, scope: Scope, st: State): void {
  const row = p.row;
  if (p.ifPath && get(scope.value, p.ifPath) === undefined) return;
  if (p.unlessPath && get(scope.value, p.unlessPath) !== undefined) return;
  let raw: unknown;
  switch (p.source) {
    case 'field':
      raw = get(scope.value, p.field!);
      break;
    case 'ctx':
      raw = get(st.ctx, p.ctx!);
      break;
    case 'lit':
      raw = (row.from as { lit: string }).lit;
      break;
    case 'index':
      raw = String(scope.index);
      break;
    case 'calc': {
      const id = (row.from as { calc: CalcId }).calc;
      raw = calc(id, scope, st, p.steps.length === 0 ? scope.node : atSteps(scope.node, p.parentSteps));
      if (raw === DEFERRED) {
        const node = ensure(scope.node, p.steps);
        node.text = '';
        st.deferred.push({ node, calc: id as 'uuid' | 'securityCode' | 'qrCode' });
        return;
      }
    }
  }
  if ((raw === undefined || raw === null) && row.default !== undefined) raw = row.default;
  if (raw === undefined || raw === null) return;
  const text = format(raw, row.format ?? 'text');
  if (text === null) {
    const where = p.fieldKey === undefined ? scope.path : scope.path === '' ? p.fieldKey : `${scope.path}.${p.fieldKey}`;
    st.issues.push({ code: 'invalid_type', path: where, message: `Valor no válido para ${describe(row.format ?? 'text')}.`, severity: 'error' });
    return;
  }
  const node = ensure(scope.node, p.steps);
  const attribute = p.attribute;
  if (attribute) {
    setAttr(node, attribute, text);
    return;
  }
  node.text = text;
  if (row.format === 'amount' && attrIndex(node, 'currencyID') < 0) setAttr(node, 'currencyID', String(st.req.currency_type_code ?? 'COP'));
}

const DEFERRED = Symbol('deferred');
const TAX_AMOUNT = ['tax_amount'];
const PAID_AMOUNT = ['paid_amount'];
const ALGORITHM = ['algorithm'];

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
      return COUNTRIES[textAt(parent, 'cbc:IdentificationCode') ?? ''];
    case 'departmentCode':
    case 'cityName':
    case 'departmentName': {
      // The parent is the address: its DANE municipality code, in Colombia, gives the department and the names.
      const m = textAt(parent, 'cbc:ID');
      if (textAt(parent, 'cac:Country/cbc:IdentificationCode') !== 'CO' || !m || !/^\d{5}$/.test(m)) return undefined;
      if (id === 'departmentCode') return m.slice(0, 2);
      return id === 'cityName' ? MUNICIPALITIES[m] : DEPARTMENTS[m.slice(0, 2)];
    }
    case 'transmissionName':
      return TRANSMISSION_NAMES[textAt(parent, 'cbc:DescriptionCode') ?? ''];
    case 'taxTotalAmount': {
      let total: Dec = ZERO;
      for (const it of scope.items) {
        const v = get(it, TAX_AMOUNT);
        const d = typeof v === 'number' ? fromNumber(v) : null;
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
        const v = get(p, PAID_AMOUNT);
        const d = typeof v === 'number' ? fromNumber(v) : null;
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
      return get(scope.value, ALGORITHM) ?? defaultReferenceScheme(st.kind, scope.group?.has);
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

/** A plain decimal text with at most 2 decimals: integer part, then the decimals. */
const TWO_DECIMALS = /^(-?\d+)(?:\.(\d{1,2}))?$/;
/** The same with up to 8 decimals (quantities and rates are written exactly, with at least 2 decimals). */
const UP_TO_EIGHT = /^(-?\d+)(?:\.(\d{1,8}))?$/;

/** An amount as an exact decimal: a JSON number, decimal text, or already a decimal. */
function toDec(raw: unknown): Dec | null {
  return typeof raw === 'bigint' ? (raw as Dec) : typeof raw === 'number' ? fromNumber(raw) : typeof raw === 'string' ? parseDec(raw) : null;
}

/** The text of a value in a format, or null when the value does not fit it. */
function format(raw: unknown, f: ValueFormat): string | null {
  switch (f) {
    case 'text':
      return typeof raw === 'string' ? raw : typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : null;
    case 'amount':
    case 'percent': {
      // Fast path, exact: a JSON number whose shortest text has at most 2 decimals needs only padding.
      if (typeof raw === 'number') {
        const t = numberText(raw);
        const m = t === null ? null : TWO_DECIMALS.exec(t);
        if (m) return m[2] === undefined ? `${m[1]}.00` : m[2].length === 1 ? `${t}0` : t;
      }
      const d = toDec(raw);
      return d === null ? null : toFixed(roundHalfEven(d, 2), 2);
    }
    case 'decimal': {
      // Fast path, exact: a JSON number's shortest text, padded to 2 decimals, when it has at most 8.
      if (typeof raw === 'number') {
        const t = numberText(raw);
        const m = t === null ? null : UP_TO_EIGHT.exec(t);
        if (m) return m[2] === undefined ? `${m[1]}.00` : m[2].length === 1 ? `${t}0` : t;
      }
      const d = toDec(raw);
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
