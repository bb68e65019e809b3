export { EcfError, isEcfError, isNamedEcfError } from './ecf-error.js';
export { EcfValidationError, isEcfValidationError } from './validation-error.js';
export { SchemaError, isSchemaError } from './schema-error.js';
export { CertificateError, isCertificateError, type CertificateErrorCode } from './certificate-error.js';
export { SigningError, isSigningError, type SigningErrorCode } from './signing-error.js';
export { TransportError, isTransportError, type TransportErrorCode } from './transport-error.js';
export { AuthorityError, isAuthorityError, type AuthorityErrorCode, type AuthorityMessage } from './authority-error.js';
