/**
 * Linear pre-scan of untrusted XML, run before any parser (xmldom, libxml2) sees it (issue 13 item 3): the
 * kit's scanner (src/shared/xml/prescan.ts) with the limits of DGII documents, derived here from the
 * generated field tables, and the DGII wording of its refusals.
 *
 * One pass over the string, a handful of counters and a stack as deep as the document may be: no regular
 * expression, no DOM. It refuses what no DGII document can be and what makes parsers and libxml2's schema
 * validation slow or memory-hungry (a text value of 2.3 million `&amp;` took 36 s of XSD validation,
 * quadratic in the count; millions of empty elements or deep nesting 13–16 s and 2.5–3.4 GB):
 *
 * - a DOCTYPE or ENTITY declaration (no entity is ever expanded or fetched; the one place that refuses them);
 * - a text value (all text and CDATA of one element, comments in between included) or an attribute value
 *   longer than the longest value the official XSDs allow (the largest `maxLength`, or `totalDigits` plus
 *   sign and decimal point, over every simple type of the generated field tables: 1,000 characters). A
 *   character or entity reference counts as the one character it stands for, so a value can never hold
 *   more references than that length either;
 * - nesting deeper than the schemas need (the deepest element path of the tables, or of the XMLDSig
 *   `Signature` the documents carry, whichever is deeper);
 * - more elements than the document type can hold (each element's maxOccurs multiplied along its path and
 *   summed, for the root's table, the most over the e-CF types and the relaxed 32 with 10,000 lines), plus
 *   the `Signature`'s elements;
 * - more child elements under one element than any element of the tables can have (the sum of its
 *   children's maxOccurs: 10,000 `Item` under `DetallesItems` of the relaxed 32, and of 33 and 34);
 * - more than {@link MAX_XML_ATTRIBUTES} attributes on one element (libxml2's validation is quadratic in them).
 *
 * It is not a full well-formedness check (what it lets through is parsed, and the parser decides), but an
 * end tag that does not close the open element is refused here as not well-formed.
 */
import { ECF_TABLE } from '../spec/ecf-table.gen.js';
import type { DocTable, Facets } from '../spec/model.js';
import { ACECF_TABLE, ANECF_TABLE, ARECF_TABLE, RFCE_TABLE, SEMILLA_TABLE } from '../spec/other-tables.gen.js';
import {
  MAX_SIGNATURE_DEPTH,
  MAX_XML_ATTRIBUTES,
  prescanXml as scanXml,
  TOO_MANY_ATTRIBUTES_MESSAGE,
  type PrescanMessages,
  type PrescanRefusal,
  type XmlLimits,
} from '../../shared/xml/prescan.js';

export {
  DOCTYPE_MESSAGE,
  MAX_SIGNATURE_TEXT,
  MAX_XML_ATTRIBUTES,
  TOO_MANY_ATTRIBUTES_MESSAGE,
  type PrescanRefusal,
  type XmlLimits,
} from '../../shared/xml/prescan.js';

/** The kit's Signature depth below the document element, where DGII's profile puts it. */
const SIGNATURE_DEPTH = MAX_SIGNATURE_DEPTH + 1;
/** Elements a `Signature` may hold (the verifier refuses more: src/ecf/sign/verify-xml.ts). */
const SIGNATURE_ELEMENTS = 64;

function valueLength(f: Facets | undefined): number {
  if (!f) return 0;
  let n = f.maxLength ?? 0;
  if (f.totalDigits !== undefined) n = Math.max(n, f.totalDigits + 2); // sign and decimal point
  for (const e of f.enumeration ?? []) n = Math.max(n, [...e].length);
  return n;
}

function tableLimits(table: DocTable, relaxed: Readonly<Record<string, number>> = {}): { value: number; depth: number; elements: number; children: number } {
  let value = 0;
  let depth = 1;
  const tipos = new Set<string>();
  for (const r of table.rows) for (const k of Object.keys(r.occurs)) tipos.add(k);
  for (const t of Object.values(table.simpleTypes)) value = Math.max(value, valueLength(t));
  for (const variants of Object.values(table.simpleTypeOverrides ?? {})) for (const t of Object.values(variants)) value = Math.max(value, valueLength(t));
  for (const r of table.rows) depth = Math.max(depth, r.xml.split('/').length + 1);
  const byPath = new Map(table.rows.map((r) => [r.xml, r]));
  let elements = 1;
  let children = 0;
  for (const tipo of tipos) {
    const perParent = new Map<string, number>();
    for (const r of table.rows) {
      const occurs = r.occurs[tipo];
      if (!occurs) continue;
      const parent = r.xml.includes('/') ? r.xml.slice(0, r.xml.lastIndexOf('/')) : '';
      const max = Math.max(occurs[1], relaxed[`${tipo}:${r.xml}`] ?? 0);
      perParent.set(parent, (perParent.get(parent) ?? 0) + max);
    }
    for (const c of perParent.values()) children = Math.max(children, c);
    let count = 1;
    for (const r of table.rows) {
      const parts = r.xml.split('/');
      let product = 1;
      for (let i = 1; i <= parts.length && product > 0; i++) {
        const path = parts.slice(0, i).join('/');
        const occurs = byPath.get(path)?.occurs[tipo];
        product *= occurs ? Math.max(occurs[1], relaxed[`${tipo}:${path}`] ?? 0) : 0;
      }
      count += product;
    }
    elements = Math.max(elements, count);
  }
  return { value, depth, elements, children };
}

function deriveLimits(): XmlLimits {
  // The relaxed type 32 (src/ecf/xsd/relax32.ts): up to 10,000 lines and pages.
  const relaxed32 = { '32:DetallesItems/Item': 10_000, '32:Paginacion/Pagina': 10_000 };
  const tables: Array<[string, ReturnType<typeof tableLimits>]> = [
    [ECF_TABLE.root, tableLimits(ECF_TABLE, relaxed32)],
    ...[RFCE_TABLE, ARECF_TABLE, ACECF_TABLE, ANECF_TABLE, SEMILLA_TABLE].map((t) => [t.root, tableLimits(t)] as [string, ReturnType<typeof tableLimits>]),
  ];
  const maxElements: Record<string, number> = {};
  for (const [root, l] of tables) maxElements[root] = l.elements + SIGNATURE_ELEMENTS;
  maxElements['*'] = Math.max(...Object.values(maxElements));
  return {
    maxValueLength: Math.max(...tables.map(([, l]) => l.value)),
    maxDepth: Math.max(SIGNATURE_DEPTH, ...tables.map(([, l]) => l.depth)),
    maxElements,
    maxChildren: Math.max(SIGNATURE_ELEMENTS, ...tables.map(([, l]) => l.children + 1)), // + the Signature
    maxAttributes: MAX_XML_ATTRIBUTES,
  };
}

/** The limits for DGII documents (e-CF, RFCE, ARECF, ACECF, ANECF, seed), derived from the official XSDs. */
export const DGII_XML_LIMITS: XmlLimits = deriveLimits();

/** The DGII wording of the limit refusals (what existing clients receive). */
const DGII_PRESCAN_MESSAGES: PrescanMessages = {
  valueTooLong: (what, path, limit) =>
    `El XML excede los límites de los documentos DGII: ${what} de ${path} tiene más de ${limit} caracteres (el máximo que permiten los XSD oficiales).`,
  tooManyElements: (limit, root) =>
    `El XML excede los límites de los documentos DGII: tiene más de ${limit} elementos (el máximo que permiten los XSD oficiales para <${root}>).`,
  tooDeep: (path, limit) =>
    `El XML excede los límites de los documentos DGII: ${path} está anidado a más de ${limit} niveles (el máximo que requieren los XSD oficiales).`,
  tooManyChildren: (path, limit) =>
    `El XML excede los límites de los documentos DGII: ${path} tiene más de ${limit} elementos hijos (el máximo que permiten los XSD oficiales).`,
  // Names MAX_XML_ATTRIBUTES whatever `limits.maxAttributes` says, as it always did (they are equal for DGII_XML_LIMITS).
  tooManyAttributes: () => TOO_MANY_ATTRIBUTES_MESSAGE,
};

/**
 * Scans `xml` once and returns why it must be refused, or null when the parser may see it: the kit's scanner
 * with DGII limits (or `limits`) and the DGII wording.
 *
 * @example
 * prescanXml(`<ECF><A>${'&amp;'.repeat(2000)}</A></ECF>`)?.message
 * //=> 'El XML excede los límites de los documentos DGII: el valor de /ECF/A tiene más de 1000 caracteres …'
 */
export function prescanXml(xml: string, limits: XmlLimits = DGII_XML_LIMITS): PrescanRefusal | null {
  return scanXml(xml, limits, DGII_PRESCAN_MESSAGES);
}
