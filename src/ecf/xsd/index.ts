/**
 * `ecf-kit/xsd`: validation against the official DGII XSD set (libxml2 via libxmljs) and installation of that set.
 * This is an adapter (it reads files and loads a native addon); the core package does not depend on it.
 */
export { createSchemaValidator, type XsdSchemaValidator } from './validator.js';
export { loadXsdSet, assertXsdDir, type LoadedXsd, type XsdSet } from './load.js';
export type { XsdFix, XsdFixKind } from './fixes.js';
export { RELAXED32_MAX_LINES } from './relax32.js';
export { detectSchemaId, rootElementName } from './detect.js';
export {
  installXsd,
  verifyXsdDir,
  XsdInstallError,
  type InstallXsdOptions,
  type InstallXsdResult,
  type XsdFileCheck,
  type XsdDirCheck,
} from './install.js';
export { PINNED_XSD_SHA256, PINNED_XSD_SET_DATE } from './pinned.js';
export { SCHEMA_IDS, SCHEMA_FILES, XSD_FILE_NAMES, isSchemaId } from './schemas.js';
export { SchemaError, isSchemaError } from '../../shared/errors/index.js';
export type { SchemaViolation, SchemaValidationResult } from '../../shared/ports.js';
export type { SchemaId, SchemaValidator, SchemaValidateOptions } from '../ports.js';
