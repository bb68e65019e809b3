/** The shape of the generated field tables (`*.gen.ts`). Pure data types; no logic. */

export const ECF_TYPES = ['31', '32', '33', '34', '41', '43', '44', '45', '46', '47'] as const;
/** e-CF type code (`TipoeCF`). */
export type EcfType = (typeof ECF_TYPES)[number];

export function isEcfType(v: unknown): v is EcfType {
  return typeof v === 'string' && (ECF_TYPES as readonly string[]).includes(v);
}

/**
 * How a value is written in the canonical JSON.
 * - `string`: free text; `code`: catalog code as a string (leading zeros kept)
 * - `integer`: JSON integer (indicators, rates, counters)
 * - `amount`: JSON number, at most the row's decimals (2 for money)
 * - `digits`: a string of digits too long for a JSON number (20-digit references)
 * - `date`: `dd-MM-yyyy`; `datetime`: `dd-MM-yyyy HH:mm:ss`
 * - `country`: in JSON an ISO 3166-1 alpha-2 code (written as its Spanish name in XML) or a country name (written as
 *   given); in XML a country name (a name in the table reads back as its code)
 */
export type JsonKind = 'string' | 'code' | 'integer' | 'amount' | 'digits' | 'date' | 'datetime' | 'country';

/**
 * Where a value comes from when building:
 * - `doc`: the request JSON; `issuer`: the issuer profile (`context.emisor`);
 * - `context`: other build context (`encf`, `fecha_emision`, `fecha_vencimiento_secuencia`);
 * - `fixed`: a constant (`Version`) or the type itself (`TipoeCF`);
 * - `derived`: computed by the builder (line numbers);
 * - `signature`: written at signing time (`FechaHoraFirma`).
 */
export type Source = 'doc' | 'issuer' | 'context' | 'fixed' | 'derived' | 'signature';

/** [minOccurs, maxOccurs]; absent from the record = element not allowed for that type. */
export type Occurs = readonly [number, number];

export interface Facets {
  base: 'string' | 'decimal' | 'integer';
  enumeration?: readonly string[];
  /** XSD pattern(s), verbatim. */
  pattern?: readonly string[];
  /** The same patterns translated to anchored JavaScript regular expressions (flag `u`). */
  jsPattern?: readonly string[];
  minLength?: number;
  maxLength?: number;
  minInclusive?: string;
  maxInclusive?: string;
  minExclusive?: string;
  maxExclusive?: string;
  totalDigits?: number;
  fractionDigits?: number;
}

export interface FieldRow {
  /** Element path below the root, e.g. `Encabezado/IdDoc/TipoeCF`. Rows are in XSD order. */
  xml: string;
  /** Element name. */
  name: string;
  /** Group (has children) or value. Transparent wrappers (`TablaFormasPago`) are groups with `json: null`. */
  kind: 'group' | 'value';
  /**
   * Dotted JSON path relative to the source object; `[]` marks arrays: `items[].retencion.indicador`.
   * `null` for XML-only wrappers whose repeated child carries the array name.
   */
  json: string | null;
  source: Source;
  /** Simple type name (values). */
  type: string | null;
  jsonKind: JsonKind | null;
  /** Occurrence per e-CF type (for other documents, under the key `'*'`). */
  occurs: Readonly<Record<string, Occurs>>;
  /** Per-type simple type, where a type's XSD uses another one. */
  typeByTipo?: Readonly<Record<string, string>>;
  /** Per-type JSON name (the spec wins: `isr_retenido` on 47). */
  jsonByTipo?: Readonly<Record<string, string>>;
}

export interface DocTable {
  /** Root element name: `ECF`, `RFCE`, `ARECF`, … */
  root: string;
  /** Trailing `xs:any` minOccurs of the root (the signature slot). */
  signatureMin: number;
  rows: readonly FieldRow[];
  /** Simple types (default variant). */
  simpleTypes: Readonly<Record<string, Facets>>;
  /** Per-type variants of simple types that differ between the ten XSDs. */
  simpleTypeOverrides?: Readonly<Record<string, Readonly<Record<string, Facets>>>>;
  /** Source XSD files and their SHA-256. */
  sources: Readonly<Record<string, string>>;
}
