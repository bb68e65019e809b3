export { EcfError, isEcfError } from './ecf-error.js';
export { EcfValidationError } from './validation-error.js';
export { SchemaError } from './schema-error.js';
export { CertificateError, type CertificateErrorCode } from './certificate-error.js';
export { SigningError, type SigningErrorCode } from './signing-error.js';
export { TransportError, type TransportErrorCode } from './transport-error.js';
export { AuthorityError, type AuthorityErrorCode, type AuthorityMessage } from './authority-error.js';
