/** SemillaModel — the authentication seed DGII (or a receiver) hands out; the caller signs and returns it. */
import { SEMILLA_TABLE } from '../spec/other-tables.gen.js';
import { buildDocXml, parseDocXml, type ParsedDoc } from './generic.js';

export interface SemillaInput {
  valor: string;
  /** xs:dateTime, e.g. `2026-04-01T10:00:00.0000000-04:00`. */
  fecha: string;
}

/**
 * Builds a seed as DGII serves it (with its `xsi`/`xsd` namespace declarations, which matter for C14N).
 */
export function buildSemillaXml(input: SemillaInput): string {
  const xml = buildDocXml(SEMILLA_TABLE, { ...input });
  return xml.replace('<SemillaModel>', '<SemillaModel xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">');
}

export function parseSemillaXml(xml: string): ParsedDoc<SemillaInput> {
  return parseDocXml<SemillaInput>(SEMILLA_TABLE, xml);
}
