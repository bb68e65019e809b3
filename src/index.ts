/**
 * ecf-kit — Dominican e-CF for TypeScript. Public API of the core entry point (`ecf-kit`): pure functions,
 * no filesystem, network, environment or clock access. Other entry points: `ecf-kit/xsd` (official-XSD
 * validation, Node), `ecf-kit/sign` (certificates and XMLDSig, Node).
 *
 * Deliberately not exported yet: the generic table walkers (`src/spec/tree.ts`), the rule registry
 * internals, and the CLI.
 */

// Types and the type registry
export { ECF_TYPES, isEcfType } from './spec/model.js';
export type { EcfType, FieldRow, DocTable, Facets, JsonKind, Source } from './spec/model.js';
export { ECF_TYPE_INFO } from './spec/doc-types.js';
export type { EcfTypeInfo } from './spec/doc-types.js';
export { ECF_TABLE } from './spec/ecf-table.gen.js';
export { COUNTRY_NAMES } from './spec/countries.gen.js';

// Validation
export { validateEcf, safeValidateEcf } from './validate/index.js';
export type { ValidateOptions, SafeValidateResult } from './validate/index.js';
export { RULES } from './validate/rules/index.js';
export type { Rule, RuleInput } from './validate/rule.js';
export { toIssueReport } from './issues.js';
export type { Issue, IssueCode, IssueReport } from './issues.js';

// XML
export { buildEcfXml, renderEcfXml, parseEcfXml, checkContext } from './xml/ecf.js';
export type { BuildContext, IssuerProfile, CanonicalDocument, ParsedEcf } from './xml/ecf.js';

// Money
export { computeTotals } from './calc/totals.js';

// Time (Dominican, fixed UTC−4)
export { formatDateDO, formatDateTimeDO } from './time.js';

// Errors
export { EcfError, isEcfError, EcfValidationError, SchemaError } from './errors/index.js';

// Ports
export type { Clock, SchemaId, SchemaValidator, SchemaViolation, SchemaValidationResult, SchemaValidateOptions } from './ports.js';
