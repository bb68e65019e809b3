/**
 * XSD helpers for tests: one shared libxml2-backed validator over the official set (`xsdDir()`), and the
 * stand-in signature an unsigned e-CF needs before it can validate.
 */
import type { SchemaId, SchemaValidateOptions, SchemaValidator } from '../../../src/ecf/ports.js';
import type { SchemaValidationResult } from '../../../src/shared/ports.js';
import { createSchemaValidator } from '../../../src/ecf/xsd/index.js';
import { xsdDir } from './env.js';

/** Signing time written by the placeholder (the tests' fixed issue date, 10:00). */
export const PLACEHOLDER_SIGNING_TIME = '01-04-2026 10:00:00';

/**
 * The official e-CF XSDs end with `FechaHoraFirma` (required) and a required `xs:any` (the XMLDSig
 * `Signature`), so an unsigned e-CF never validates as built. Until the tests sign, this inserts a stand-in
 * for both just before `</ECF>`. Replace it here, in one place, with real signing when it lands.
 */
export function withPlaceholderSignature(xml: string): string {
  const end = xml.lastIndexOf('</ECF>');
  if (end < 0) throw new Error('withPlaceholderSignature: no </ECF> in the XML');
  return `${xml.slice(0, end)}<FechaHoraFirma>${PLACEHOLDER_SIGNING_TIME}</FechaHoraFirma><Signature/>${xml.slice(end)}`;
}

let validator: SchemaValidator | null = null;

/** The shared validator (schemas compile lazily, once per process). */
export function schemaValidator(): SchemaValidator {
  return (validator ??= createSchemaValidator(xsdDir()));
}

/** Schema id of an e-CF type: `'31'` → `'ECF-31'`. */
export function ecfSchema(tipo: string): SchemaId {
  return `ECF-${tipo}` as SchemaId;
}

/** Validates built (unsigned) e-CF XML of `tipo` against its official XSD, with the placeholder signature. */
export function validateEcfXsd(tipo: string, unsignedXml: string, options?: SchemaValidateOptions): SchemaValidationResult {
  return schemaValidator().validate(withPlaceholderSignature(unsignedXml), ecfSchema(tipo), options);
}

/** One line per violation, for assertion messages. */
export function formatViolations(r: SchemaValidationResult): string {
  return r.violations.map((v) => `${v.xpath ?? '?'}${v.line ? ` (line ${v.line})` : ''}: ${v.message.trim()}`).join('\n');
}
