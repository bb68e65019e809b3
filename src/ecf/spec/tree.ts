/**
 * Turns the flat, ordered field table into per-type trees: the XML tree (render / parse order) and the
 * canonical JSON tree (validation, JSON Schema, docs). Built once per type and cached.
 */
import type { DocTable, Facets, FieldRow, JsonKind, Source } from './model.js';

export interface XmlNode {
  row: FieldRow;
  name: string;
  min: number;
  max: number;
  /** JSON key of this node in its parent JSON object (type-specific name resolved); null for wrappers. */
  key: string | null;
  /** Full JSON path pattern: `items[].retencion.indicador`. */
  json: string | null;
  source: Source;
  facets: Facets | null;
  jsonKind: JsonKind | null;
  children: XmlNode[] | null;
}

/** Resolves a row's facets for a type (per-type simple type and per-type facet variants). */
export function facetsFor(table: DocTable, row: FieldRow, tipo: string): Facets | null {
  const type = row.typeByTipo?.[tipo] ?? row.type;
  if (!type) return null;
  return table.simpleTypeOverrides?.[type]?.[tipo] ?? table.simpleTypes[type] ?? fallbackFacets(type);
}

function fallbackFacets(type: string): Facets {
  // Built-in XSD types used directly (Semilla: xs:string, xs:dateTime).
  return { base: type === 'xs:decimal' ? 'decimal' : type === 'xs:integer' ? 'integer' : 'string' };
}

function lastKey(json: string): string {
  return json.replace(/\[\]$/, '').split('.').pop()!.replace(/\[\]$/, '');
}

/** Resolves the JSON path of a row for a type (`jsonByTipo` replaces the last key). */
export function jsonPathFor(row: FieldRow, tipo: string): string | null {
  if (row.json === null) return null;
  const alt = row.jsonByTipo?.[tipo];
  if (!alt) return row.json;
  const arr = row.json.endsWith('[]');
  const base = row.json.replace(/\[\]$/, '');
  const i = base.lastIndexOf('.');
  return (i >= 0 ? base.slice(0, i + 1) : '') + alt + (arr ? '[]' : '');
}

const xmlCache = new WeakMap<DocTable, Map<string, XmlNode[]>>();

/** The XML tree for one type (`'*'` for single-type documents): children of the root, in XSD order. */
export function xmlTree(table: DocTable, tipo: string): XmlNode[] {
  let perType = xmlCache.get(table);
  if (!perType) xmlCache.set(table, (perType = new Map()));
  const hit = perType.get(tipo);
  if (hit) return hit;
  const top: XmlNode[] = [];
  const byPath = new Map<string, XmlNode>();
  for (const row of table.rows) {
    const occ = row.occurs[tipo];
    if (!occ) continue;
    const json = jsonPathFor(row, tipo);
    const node: XmlNode = {
      row,
      name: row.name,
      min: occ[0],
      max: occ[1],
      key: json === null ? null : lastKey(json),
      json,
      source: row.source,
      facets: facetsFor(table, row, tipo),
      jsonKind: row.jsonKind,
      children: row.kind === 'group' ? [] : null,
    };
    byPath.set(row.xml, node);
    const slash = row.xml.lastIndexOf('/');
    if (slash < 0) top.push(node);
    else {
      const parent = byPath.get(row.xml.slice(0, slash));
      if (!parent?.children) throw new Error(`table: parent of ${row.xml} missing for type ${tipo}`);
      parent.children.push(node);
    }
  }
  perType.set(tipo, top);
  return top;
}

/** A node of the canonical JSON shape (objects, arrays, values), derived from the XML tree. */
export interface JsonField {
  key: string;
  /** Dotted path pattern with `[]` for arrays. */
  json: string;
  xml: XmlNode;
  array: boolean;
  /** For arrays: item count bounds. */
  minItems: number;
  maxItems: number;
  /** Required whenever its parent object is present. */
  required: boolean;
  /** Object fields (null for values). */
  fields: JsonField[] | null;
}

function effectiveMin(n: XmlNode): number {
  return n.min;
}

/**
 * JSON fields for a source (`doc` = the request body; `issuer` = the issuer profile). Wrappers are
 * transparent: their repeated child becomes an array field that is required when the wrapper is.
 */
export function jsonFields(nodes: readonly XmlNode[], source: Source): JsonField[] {
  const out: JsonField[] = [];
  const add = (n: XmlNode, wrapperMin: number | null) => {
    if (n.key === null) {
      // Transparent wrapper (or Encabezado): lift its children.
      for (const c of n.children ?? []) add(c, n.children!.length === 1 && c.max > 1 ? effectiveMin(n) : null);
      return;
    }
    const fields = n.children ? jsonFields(n.children, source) : null;
    if (n.children && fields!.length === 0) return;
    if (!n.children && n.source !== source) return;
    const array = n.max > 1;
    const min = wrapperMin ?? n.min;
    out.push({
      key: n.key,
      json: n.json!,
      xml: n,
      array,
      minItems: array ? Math.max(1, n.min) : 0,
      maxItems: array ? n.max : 1,
      required: source === 'doc' ? min > 0 && hasRequiredDocContent(n) : min > 0,
      fields,
    });
  };
  for (const n of nodes) add(n, null);
  return out;
}

/** A group is required in JSON only if something inside it must come from the request. */
function hasRequiredDocContent(n: XmlNode): boolean {
  if (!n.children) return n.source === 'doc';
  return n.children.some((c) => c.min > 0 && hasRequiredDocContent(c));
}
