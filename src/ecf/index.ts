/**
 * ecf-kit — Dominican e-CF for TypeScript. Public API of the core entry point (`ecf-kit`): pure functions,
 * no filesystem, network, environment or clock access. Other entry points: `ecf-kit/xsd` (official-XSD
 * validation, Node), `ecf-kit/sign` (certificates and XMLDSig, Node).
 *
 * Deliberately not exported yet: the generic table walkers (`src/ecf/spec/tree.ts`), the rule registry
 * internals, and the CLI.
 */

// Types and the type registry
export { ECF_TYPES, isEcfType } from './spec/model.js';
export type { EcfType, FieldRow, DocTable, Facets, JsonKind, Source } from './spec/model.js';
export { ECF_TYPE_INFO, RECEPTOR_TYPES } from './spec/doc-types.js';
export type { EcfTypeInfo } from './spec/doc-types.js';
export { ECF_TABLE } from './spec/ecf-table.gen.js';
// Typed canonical JSON per type, generated from the same table. The per-group interfaces (EcfIdDoc31, …) are not
// exported by name (their variant suffixes follow the XSDs); reach them as EcfDocument<'31'>['id_doc'], EcfItem<'31'>.
export type {
  EcfDocument,
  EcfDocumentMap,
  EcfDocument31,
  EcfDocument32,
  EcfDocument33,
  EcfDocument34,
  EcfDocument41,
  EcfDocument43,
  EcfDocument44,
  EcfDocument45,
  EcfDocument46,
  EcfDocument47,
} from './spec/ecf-types.gen.js';
export type { EcfItem, EcfDraft } from './spec/documents.js';

// Validation
export { validateEcf, safeValidateEcf, validateEcfJson, safeValidateEcfJson } from './validate/index.js';
export type { ValidateOptions, SafeValidateResult } from './validate/index.js';
export type { Rule, RuleInput } from './validate/rule.js';
export { toIssueReport } from '../shared/issues.js';
export type { Issue, IssueCode, IssueReport } from '../shared/issues.js';

// XML
export { buildEcfXml, buildEcfXmlFromJson, renderEcfXml, parseEcfXml, checkContext } from './xml/ecf.js';
export type { BuildContext, IssuerProfile, CanonicalDocument, ParsedEcf } from './xml/ecf.js';
export { prescanXml, DGII_XML_LIMITS, MAX_XML_ATTRIBUTES, TOO_MANY_ATTRIBUTES_MESSAGE, type XmlLimits, type PrescanRefusal } from './xml/prescan.js';
export { parseXmlStrictly, firstProblem, type StrictParseOptions, type StrictParseResult } from '../shared/xml/strict-parser.js';

// Money (exact decimals; totals as a pure calculation)
export { computeTotals, fillTotals, lineAmount, totalesKeys, ITBIS_RATES } from './calc/totals.js';
export type { ComputedTotals } from './calc/totals.js';

// Derived values (pure): security code, timbre/QR URL, DGII file names
export { securityCode, qrUrl, qrUrlFromSignedXml, dgiiFileName, fileNameFor } from './derive/index.js';
export type { QrFields, QrUrlOptions, DgiiEnvironment } from './derive/index.js';
export { DGII_ENVIRONMENTS, isDgiiEnvironment } from './spec/environments.js';

// Reading XML the kit wrote or received (strict parse, root element, text at a path of element names) and
// DGII's dd-mm-yyyy dates; the `ecf` CLI uses them, embedders may too.
export { parseDocument, rootName, textAt } from './derive/read-xml.js';
export { parseDate } from './spec/formats.js';

// Other DGII documents: consumer summary (RFCE), receipt acknowledgment (ARECF), commercial approval
// (ACECF), range voiding (ANECF), authentication seed
export { deriveRfceXml, isBelowSummaryThreshold } from './rfce/derive.js';
export { buildArecfXml, parseArecfXml, ARECF_MOTIVOS } from './documents/arecf.js';
export type { ArecfInput, ArecfEstado, ArecfMotivo } from './documents/arecf.js';
export { buildAcecfXml, parseAcecfXml, ACECF_TYPES } from './documents/acecf.js';
export type { AcecfInput } from './documents/acecf.js';
export { buildAnecfXml, parseAnecfXml, checkAnecfInput, checkAnecfRanges, MAX_ANECF_TYPES, MAX_ANECF_RANGES } from './documents/anecf.js';
export { composeEncf, parseEncf, ENCF_PATTERN, MAX_CONSECUTIVE, type EncfParts } from './spec/encf.js';
export type { AnecfInput, AnecfRange, AnecfRangeFinding } from './documents/anecf.js';
export { buildSemillaXml, parseSemillaXml } from './documents/semilla.js';
export type { SemillaInput } from './documents/semilla.js';

// Time (Dominican, fixed UTC−4)
export { formatDateDO, formatDateTimeDO, formatTicksDO } from './time.js';

// Errors
export {
  EcfError,
  isEcfError,
  EcfValidationError,
  isEcfValidationError,
  SchemaError,
  isSchemaError,
  CertificateError,
  isCertificateError,
  SigningError,
  isSigningError,
  TransportError,
  isTransportError,
  AuthorityError,
  isAuthorityError,
} from '../shared/errors/index.js';
export type { CertificateErrorCode, SigningErrorCode, TransportErrorCode, AuthorityErrorCode, AuthorityMessage } from '../shared/errors/index.js';

// Ports
export type { Clock, Logger, Signer, SchemaViolation, SchemaValidationResult } from '../shared/ports.js';
export type { SchemaId, SchemaValidator, SchemaValidateOptions } from './ports.js';
