/** SemillaModel — the authentication seed DGII (or a receiver) hands out; the caller signs and returns it. */
import type { Issue } from '../../shared/issues.js';
import { SEMILLA_TABLE } from '../spec/other-tables.gen.js';
import { buildDocXml, parseDocXml, type ParsedDoc } from './generic.js';

export interface SemillaInput {
  valor: string;
  /** xs:dateTime, e.g. `2026-04-01T10:00:00.0000000-04:00`. */
  fecha: string;
}

/** xs:dateTime lexical form (the seed XSD types `fecha` as xs:dateTime). */
const XS_DATE_TIME = /^-?\d{4,}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-](0\d|1[0-3]):[0-5]\d|[+-]14:00)?$/;

/**
 * Builds a compact seed as DGII serves it (with its `xsi`/`xsd` namespace declarations, which matter
 * for C14N). Signing it takes the general path (the root has attributes).
 *
 * @throws EcfValidationError when `valor` is empty or `fecha` is not an xs:dateTime
 * @example
 * buildSemillaXml({ valor: 'abc…', fecha: '2026-04-01T10:00:00.0000000-04:00' })
 * //=> '<?xml version="1.0" encoding="utf-8"?><SemillaModel xmlns:xsi="…" xmlns:xsd="…"><valor>abc…</valor><fecha>…</fecha></SemillaModel>'
 */
export function buildSemillaXml(input: SemillaInput): string {
  const extra: Issue[] = [];
  if (typeof input.fecha === 'string' && !XS_DATE_TIME.test(input.fecha)) {
    extra.push({ code: 'date', path: 'fecha', message: 'Fecha inválida: debe ser xs:dateTime, p. ej. 2026-04-01T10:00:00.0000000-04:00.', severity: 'error' });
  }
  const xml = buildDocXml(SEMILLA_TABLE, { ...input }, extra);
  return xml.replace('<SemillaModel>', '<SemillaModel xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">');
}

/** Parses a seed, signed or not, compact or pretty-printed as DGII serves it. */
export function parseSemillaXml(xml: string): ParsedDoc<SemillaInput> {
  return parseDocXml<SemillaInput>(SEMILLA_TABLE, xml);
}
