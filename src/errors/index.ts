export { EcfError, isEcfError } from './ecf-error.js';
export { EcfValidationError } from './validation-error.js';
export { SchemaError } from './schema-error.js';
