/**
 * `ecf-kit/dian/xsd`: validation against the DIAN XSD set (UBL 2.1 as the DIAN
 * toolboxes ship it, plus payroll; libxml2 via libxmljs) and installation of that set. This is an adapter (it
 * reads files and loads a native addon); the DIAN core does not depend on it.
 */
export { createDianSchemaValidator, type DianXsdSchemaValidator, type DianXsdFix } from './validator.js';
export { detectDianSchemaId, xmlRoot, type XmlRoot } from './detect.js';
export { fillEmptyUblExtensions, UNSIGNED_PLACEHOLDER_NAMESPACE } from './placeholder.js';
/** Zero-pads `X509SerialNumber` integers longer than libxml2's 24 digits (the validator does it before validating). */
export { relaxLongSerials, LIBXML_INTEGER_DIGITS } from './serials.js';
export {
  installDianXsd,
  verifyDianXsdDir,
  XsdInstallError,
  type InstallXsdOptions,
  type InstallXsdResult,
  type XsdFileCheck,
  type XsdDirCheck,
} from './install.js';
export { DIAN_XSD_MANIFEST, DIAN_XSD_SHA256, DIAN_XSD_SET_DATE, DIAN_XSD_FILE_NAMES } from './pinned.js';
export {
  DIAN_SCHEMA_IDS,
  DIAN_SCHEMA_FILES,
  DIAN_SCHEMA_NAMESPACES,
  isDianSchemaId,
  type DianSchemaId,
  type DianSchemaValidateOptions,
} from './schemas.js';
export { SchemaError, isSchemaError } from '../../shared/errors/index.js';
export type { SchemaViolation, SchemaValidationResult, SchemaValidator } from '../../shared/ports.js';
