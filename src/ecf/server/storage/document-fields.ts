/**
 * Values of an issued e-CF that the document list filters on, kept in their own columns (issue 16): the buyer's
 * RNC or cédula (Encabezado/Comprador/RNCComprador) and the issuer's own invoice number
 * (Encabezado/Emisor/NumeroFacturaInterna). Where they sit in the canonical JSON is read from the field table,
 * so the JSON mode, the passthrough and the migration's backfill (from the stored XML) agree.
 */
import { ECF_TABLE, parseEcfXml } from '../../index.js';

export interface ListedFields {
  rncComprador: string | null;
  numeroFacturaInterna: string | null;
}

function jsonPathOf(xmlPath: string): string[] {
  const row = ECF_TABLE.rows.find((r) => r.xml === xmlPath);
  if (!row?.json) throw new Error(`field table has no JSON path for ${xmlPath}`);
  return row.json.split('.');
}

const BUYER_RNC = jsonPathOf('Encabezado/Comprador/RNCComprador');
const INTERNAL_NUMBER = jsonPathOf('Encabezado/Emisor/NumeroFacturaInterna');

function valueAt(doc: unknown, path: readonly string[]): string | null {
  let node = doc;
  for (const k of path) {
    if (node === null || typeof node !== 'object' || Array.isArray(node) || !Object.hasOwn(node, k)) return null;
    node = (node as Record<string, unknown>)[k];
  }
  if (typeof node === 'number' && Number.isFinite(node)) return String(node);
  if (typeof node !== 'string') return null;
  const v = node.trim();
  return v === '' ? null : v;
}

/** The listed fields of a canonical JSON document (as sent, or as read from an e-CF XML). */
export function listedFieldsOf(doc: unknown): ListedFields {
  return { rncComprador: valueAt(doc, BUYER_RNC), numeroFacturaInterna: valueAt(doc, INTERNAL_NUMBER) };
}

/** The listed fields of a stored unsigned e-CF XML; both null when it cannot be read. */
export function listedFieldsOfXml(xml: string): ListedFields {
  try {
    return listedFieldsOf(parseEcfXml(xml).document);
  } catch {
    return { rncComprador: null, numeroFacturaInterna: null };
  }
}
