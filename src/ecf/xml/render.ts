/**
 * Table-driven XML writer. Walks the XML tree of a type (never the input object), so element order is the
 * XSD's by construction; writes compact UTF-8 XML with no empty tags (except a group the XSD requires whose
 * children are all optional, e.g. `Comprador` of a 32 with no buyer data), escaped text and amounts
 * formatted per their facets. Pure: same input, same bytes.
 *
 * Measured (design notes): a direct writer takes 0.08 ms for 10 lines vs 1.1 ms with xmlbuilder2, so
 * xmlbuilder2 is not used here.
 */
import { fromNumber, toFixed, toText } from '../../shared/money/decimal.js';
import { COUNTRY_NAMES } from '../spec/countries.gen.js';
import { escapeXml } from '../spec/formats.js';
import type { DocTable } from '../spec/model.js';
import { xmlTree, type XmlNode } from '../spec/tree.js';

/** Where values that are not in the document come from. */
export interface RenderSources {
  /** Fields with source `issuer` (keyed by their JSON name). */
  issuer?: Record<string, unknown>;
  /** Fields with source `context`. */
  context?: Record<string, unknown>;
  /** Value of the type-code row (`TipoeCF`). */
  tipo?: string;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';

/** Renders `doc` as the table's root element, preceded by the XML declaration. */
export function renderXml(table: DocTable, tipo: string, doc: Record<string, unknown>, sources: RenderSources = {}): string {
  const out: string[] = [XML_DECLARATION, `<${table.root}>`];
  renderNodes(xmlTree(table, tipo), doc, out, sources, 0);
  out.push(`</${table.root}>`);
  return out.join('');
}

function renderNodes(nodes: readonly XmlNode[], obj: Record<string, unknown>, out: string[], src: RenderSources, index: number): void {
  for (const n of nodes) {
    if (n.children) {
      if (n.key === null) {
        renderGroup(n, obj, out, src, index);
      } else if (n.max > 1) {
        const arr = obj[n.key];
        if (!Array.isArray(arr)) continue;
        for (let i = 0; i < arr.length; i++) renderGroup(n, (arr[i] ?? {}) as Record<string, unknown>, out, src, i);
      } else {
        const v = obj[n.key];
        renderGroup(n, (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>, out, src, index);
      }
      continue;
    }
    if (n.max > 1) {
      const arr = fieldValue(n, obj, src, index);
      if (!Array.isArray(arr)) continue;
      for (const v of arr) {
        const text = formatValue(n, v);
        if (text !== null) out.push(`<${n.name}>${text}</${n.name}>`);
      }
      continue;
    }
    const text = formatValue(n, fieldValue(n, obj, src, index));
    if (text !== null) out.push(`<${n.name}>${text}</${n.name}>`);
  }
}

function renderGroup(n: XmlNode, obj: Record<string, unknown>, out: string[], src: RenderSources, index: number): void {
  const mark = out.length;
  out.push(`<${n.name}>`);
  renderNodes(n.children!, obj, out, src, index);
  if (out.length === mark + 1 && n.min === 0) {
    out.length = mark; // nothing inside an optional group: omit it (no empty tags)
    return;
  }
  out.push(`</${n.name}>`);
}

function fieldValue(n: XmlNode, obj: Record<string, unknown>, src: RenderSources, index: number): unknown {
  switch (n.source) {
    case 'doc':
      return obj[n.key!];
    case 'issuer':
      return src.issuer?.[n.key!];
    case 'context':
      return src.context?.[n.key!];
    case 'fixed':
      return n.facets?.enumeration?.length === 1 ? n.facets.enumeration[0] : src.tipo;
    case 'derived':
      return index + 1;
    case 'signature':
      return src.context?.[n.key!];
  }
}

/** Formats a JSON value as XML text for its row; null when there is nothing to write. */
export function formatValue(n: XmlNode, v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  switch (n.jsonKind) {
    case 'amount': {
      const d = typeof v === 'number' ? fromNumber(v) : null;
      if (d === null) return escapeXml(String(v));
      const fd = n.facets?.fractionDigits ?? 2;
      return fd <= 2 ? toFixed(d, fd) : toText(d, 2, fd);
    }
    case 'country':
      return escapeXml(COUNTRY_NAMES[String(v)] ?? String(v));
    default:
      return escapeXml(String(v));
  }
}
