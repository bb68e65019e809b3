/**
 * UBL → canonical request JSON: the builder's mapping (src/dian/spec/ubl-map.ts) read backwards, with the request
 * description (src/dian/spec/fields.ts) deciding each value's JSON type. `parse(build(x))` gives back `x` for every
 * field the mapping writes (amounts with at most 2 decimals, quantities with at most 8); what the XML says about
 * the issuer (company profile, software, numbering resolution, environment) comes back as a context.
 *
 * It reads DIAN's own sample documents too: elements outside the mapping are ignored, values keep their text.
 * Pure: no I/O. Never throws for bad input.
 */
import { parseDec, toNumber } from '../../shared/money/decimal.js';
import { DIAN_FIELDS, fieldAt, type FieldDef } from '../spec/fields.js';
import { DIAN_KINDS, DIAN_KIND_IDS, ROOT_NAMES, type DianKind, type DianKindId } from '../spec/kinds.js';
import type { MapGroup, ValueFormat } from '../spec/ubl-map.js';
import { planFor, type PlanGroup, type PlanItem, type PlanRow } from '../spec/plan.js';
import { defaultReferenceScheme } from '../build/build.js';
import { readUbl } from '../ubl/read.js';
import { at, atSteps, attr, childrenNamed, textAt, type UblNode } from '../ubl/tree.js';

type Json = Record<string, unknown>;

export type DianParseResult =
  | {
      ok: true;
      kind: DianKindId;
      /** The request body the document corresponds to. */
      request: Json;
      /** What the document says about the issuer: `company`, `software`, `resolution`, `environment`. */
      context: Json;
      /** The document's code (`cbc:UUID`) and its scheme, as written. */
      uuid?: string;
      uuidScheme?: string;
    }
  | { ok: false; message: string };

/** The kind a document is, from its root and type code (a DebitNote has none: it is a debit note). */
export function detectDianKind(root: UblNode): DianKind | null {
  const typeElement = ROOT_NAMES[root.name as keyof typeof ROOT_NAMES]?.typeCode;
  if (typeElement === undefined) return null;
  const code = typeElement === null ? '92' : textAt(root, typeElement);
  for (const id of DIAN_KIND_IDS) {
    const k = DIAN_KINDS[id];
    if (k.root === root.name && code !== undefined && k.typeCodes.includes(code)) return k;
  }
  return null;
}

/** Parses a DIAN invoice, credit note or debit note (text or tree) into its request and context. */
export function parseDianDocument(input: string | UblNode): DianParseResult {
  let root: UblNode;
  if (typeof input === 'string') {
    const r = readUbl(input);
    if (!r.ok) return r;
    root = r.root;
  } else root = input;
  const kind = detectDianKind(root);
  if (!kind)
    return {
      ok: false,
      message: `El documento no es de un tipo que se pueda leer (raíz ${root.name}, tipo ${textAt(root, 'cbc:InvoiceTypeCode') ?? textAt(root, 'cbc:CreditNoteTypeCode') ?? 'ausente'}).`,
    };
  const request: Json = {};
  const context: Json = {};
  const st: State = { kind, context, root };
  read(planFor(kind.id), { node: root, obj: request, defs: DIAN_FIELDS }, st);
  if (request.document_type_code === undefined) request.document_type_code = kind.typeCodes[0];
  const uuidNode = root.children.find((c) => c.name === 'cbc:UUID');
  return { ok: true, kind: kind.id, request, context, uuid: uuidNode?.text?.trim(), uuidScheme: attr(uuidNode, 'schemeName') };
}

interface State {
  kind: DianKind;
  context: Json;
  root: UblNode;
}

interface Scope {
  node: UblNode;
  obj: Json;
  /** Field definitions of the scope's object. */
  defs: readonly FieldDef[];
  group?: MapGroup;
}

function set(obj: Json, path: string, value: unknown): void {
  const keys = path.split('.');
  let cur = obj;
  for (const k of keys.slice(0, -1)) {
    const next = cur[k];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) cur[k] = {};
    cur = cur[k] as Json;
  }
  cur[keys.at(-1)!] = value;
}

function getIn(obj: Json, path: string): unknown {
  let cur: unknown = obj;
  for (const k of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Json)[k];
  }
  return cur;
}

function read(items: readonly PlanItem[], scope: Scope, st: State): void {
  for (const item of items) {
    if (item.kind === 'group') readGroup(item, scope, st);
    else readRow(item, scope, st);
  }
}

/** The JSON value of an element's text, by the row's format and the field's declared type. */
function convert(text: string, format: ValueFormat, def: FieldDef | undefined): unknown {
  const t = format === 'text' ? text : text.trim();
  const numeric = def?.type === 'number' || def?.type === 'integer';
  switch (format) {
    case 'amount':
    case 'decimal':
    case 'percent': {
      const d = parseDec(t);
      return d === null ? t : toNumber(d);
    }
    case 'integer':
    case 'code2':
      return numeric && /^-?\d+$/.test(t) ? Number(t) : t;
    case 'boolean':
      return t === 'true' ? true : t === 'false' ? false : t;
    case 'time':
      return t.replace(/(?:[+-]\d{2}:\d{2}|Z)$/, '');
    case 'date':
      return t;
    case 'text': {
      if (numeric) {
        const d = parseDec(t.trim());
        return d === null ? t : toNumber(d);
      }
      return t;
    }
  }
}

function readRow(p: PlanRow, scope: Scope, st: State): void {
  const row = p.row;
  if (row.copy) return;
  if (row.unless !== undefined && getIn(scope.obj, row.unless) !== undefined) return;
  const from = row.from;
  if ('lit' in from || 'index' in from) return;
  const node = atSteps(scope.node, p.steps);
  if (!node) return;
  const raw = p.attribute ? attr(node, p.attribute) : node.text;
  if (raw === undefined || (row.default !== undefined && raw.trim() === row.default)) return;
  if ('field' in from) {
    set(scope.obj, from.field, convert(raw, row.format ?? 'text', fieldAt(from.field, scope.defs)));
    return;
  }
  if ('ctx' in from) {
    set(st.context, from.ctx, row.format === 'text' || row.format === undefined ? raw : raw.trim());
    return;
  }
  const value = raw.trim();
  switch (from.calc) {
    case 'documentId': {
      // The prefix is the resolution's when the document states it, else what precedes the final digits.
      const prefix = textAt(
        st.root,
        'ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/sts:DianExtensions/sts:InvoiceControl/sts:AuthorizedInvoices/sts:Prefix',
      );
      const m =
        prefix !== undefined && value.startsWith(prefix) && /^\d+$/.test(value.slice(prefix.length))
          ? [value, prefix, value.slice(prefix.length)]
          : /^(.*?)(\d+)$/.exec(value);
      if (!m) {
        set(scope.obj, 'number', value);
        return;
      }
      if (m[1]) set(scope.obj, 'prefix', m[1]);
      set(scope.obj, 'number', Number(m[2]));
      return;
    }
    case 'issueDate':
      set(scope.obj, 'date', value);
      return;
    case 'issueTime':
      set(scope.obj, 'time', convert(value, 'time', undefined));
      return;
    case 'typeCode':
      set(scope.obj, 'document_type_code', value);
      return;
    case 'referenceScheme':
      if (fieldAt('algorithm', scope.defs) && value !== defaultReferenceScheme(st.kind, scope.group?.has)) set(scope.obj, 'algorithm', value);
      return;
    default:
      return; // computed from other values (names, totals, codes): nothing of the request's own
  }
}

function readGroup(g: PlanGroup, scope: Scope, st: State): void {
  const parent = atSteps(scope.node, g.shared);
  if (!parent) return;
  const has = g.group.has;
  let elements = childrenNamed(parent, g.name);
  if (has) elements = elements.filter((e) => at(e, has) !== undefined);
  if (elements.length === 0) return;

  const eachPath = g.eachKey;
  if (eachPath === null) {
    readElement(g, elements[0]!, scope.obj, scope.defs, st);
    return;
  }
  const def = fieldAt(eachPath, scope.defs);
  if (!def) return;
  const itemDefs = def.fields ?? [];

  const split = g.group.split;
  if (split !== undefined) {
    set(scope.obj, eachPath, elements.map((e) => e.text ?? '').join(split));
    return;
  }
  if (def.type === 'object') {
    const obj = (getIn(scope.obj, eachPath) as Json | undefined) ?? {};
    readElement(g, elements[0]!, obj, itemDefs, st);
    if (Object.keys(obj).length > 0) set(scope.obj, eachPath, obj);
    return;
  }
  const joinOn = g.group.joinOn;
  if (joinOn) {
    const list = getIn(scope.obj, eachPath);
    if (!Array.isArray(list)) return;
    const joined = new Set<number>();
    // The join key is the items' own field: not read again from the joining element.
    const others: PlanGroup = { ...g, items: g.items.filter((r) => r.kind === 'group' || r.fieldKey !== joinOn.field) };
    for (const e of elements) {
      // Joined by the key when the element states it; else (DIAN's samples do not) the next item in order.
      const key = textAt(e, joinOn.at);
      const i = list.findIndex((it, n) => !joined.has(n) && (key === undefined || String((it as Json)[joinOn.field]) === key));
      if (i < 0) continue;
      joined.add(i);
      readElement(others, e, list[i] as Json, itemDefs, st);
    }
    return;
  }
  const items: Json[] = [];
  for (const e of elements) {
    if (g.sub) {
      const sub = g.sub;
      const subs = childrenNamed(atSteps(e, sub.shared), sub.name);
      if (subs.length === 0) {
        const obj: Json = {};
        readElement(g, e, obj, itemDefs, st);
        items.push(obj);
      }
      for (const [i, s] of subs.entries()) {
        const obj: Json = {};
        if (i === 0) readElement(g, e, obj, itemDefs, st);
        read(sub.items, { node: s, obj, defs: itemDefs, group: sub.group }, st);
        items.push(obj);
      }
      continue;
    }
    const obj: Json = {};
    readElement(g, e, obj, itemDefs, st);
    items.push(obj);
  }
  set(scope.obj, eachPath, items);
}

/** The group's rows and pairs, read from one of its elements into `obj`. */
function readElement(g: PlanGroup, e: UblNode, obj: Json, defs: readonly FieldDef[], st: State): void {
  read(g.items, { node: e, obj, defs, group: g.group }, st);
  const pairs = g.group.pairs;
  if (pairs && g.pairsAt) {
    const holder = atSteps(e, g.pairsAt);
    if (!holder) return;
    const kids = holder.children;
    for (let i = 0; i + 1 < kids.length; i++) {
      if (kids[i]!.name !== 'Name' || kids[i + 1]!.name !== 'Value') continue;
      const label = kids[i]!.text?.trim();
      const pair = pairs.list.find(([l]) => l === label);
      if (pair) obj[pair[1]] = kids[i + 1]!.text ?? '';
      i++;
    }
  }
}
