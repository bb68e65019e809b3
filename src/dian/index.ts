/**
 * ecf-kit/dian — Colombian DIAN electronic documents. Public API of the DIAN core entry point: pure
 * functions, no filesystem, network, environment or clock access, and no Node built-in module (it runs in
 * browsers and edge runtimes too). It holds the document codes and hashes (CUFE, CUDE, CUDS, CUNE, QR) and DIAN's
 * business rules as a pre-flight check (docs/dian.md, "Codes and hashes", "DIAN rules"). XSD validation reads
 * files and loads libxml2, so it is a separate adapter entry, src/dian/xsd (docs/dian.md, "XSD set").
 */

/** The CUFE of invoices 01, 02 and 04 (SHA-384 with the numbering range's technical key). */
export { cufe } from './codes/invoice.js';
/** The CUDE of notes 91 and 92, contingency invoice 03 and POS documents 20, 93, 94 (SHA-384 with the software PIN). */
export { cude } from './codes/invoice.js';
/** The CUDS of support document 05 and its adjustment note 95 (only the IVA pair). */
export { cuds } from './codes/invoice.js';
/** Inputs of the invoice-like codes: the document values as in the built XML, amounts as exact decimals. */
export type { InvoiceCodeFields, CufeInput, CudeInput, CudsInput } from './codes/invoice.js';
/** The CUDE of a RADIAN event (ApplicationResponse 030–034). */
export { eventCude, type EventCudeInput } from './codes/event.js';
/** The CUNE of payroll documents 102 and 103. */
export { cune, type CuneInput } from './codes/payroll.js';
/** The software security code: SHA-384(SoftwareID + PIN + document number). */
export { softwareSecurityCode, type SoftwareSecurityCodeInput } from './codes/security-code.js';
/** The QR search URL per environment, and the text lines printed with the QR of invoices and support documents. */
export { qrUrl, invoiceQrText, supportDocumentQrText, type InvoiceQrTextInput, type SupportDocumentQrTextInput } from './codes/qr.js';
/** Which code a UBL document carries and the exact values its formula reads from the tree (errors as values). */
export { documentCodeInputs } from './codes/from-tree.js';
/** A document's code recomputed from its tree and compared with its `cbc:UUID` and `sts:SoftwareSecurityCode`. */
export { computeDocumentCodes } from './codes/from-tree.js';
/** Kinds, inputs, keys and outcomes of the codes computed from a tree. */
export type {
  DocumentCodeKind,
  DocumentCodeScheme,
  DocumentCodeInputs,
  DocumentCodeInputsResult,
  DocumentCodeKeys,
  DocumentCodeProblem,
  DocumentCodes,
  DocumentCodesResult,
  SecurityCodeCheck,
} from './codes/from-tree.js';
/** XML text → UBL tree (canonical prefixes, DIAN's limits); never throws, a bad file is a value with a Spanish message. */
export { readUbl, type UblReadResult } from './ubl/read.js';
/** The UBL document tree shared by the builder, the reader and everything that reads documents. */
export type { UblNode } from './ubl/tree.js';
/** A code with its pre-image; an amount (decimal text or exact decimal); the environment (`1` production, `2` habilitación). */
export type { HashedCode, Amount, DianEnvironment } from './codes/inputs.js';
/** SHA-384 of a text's UTF-8 bytes as lower-case hex, without Node built-ins. */
export { sha384Hex } from './codes/sha384.js';
/** An exact decimal (bigint scaled by 10^8), accepted wherever an `Amount` is. */
export type { Dec } from '../shared/money/decimal.js';
/** The base class of every error ecf-kit throws (codes here throw it with code `invalid_argument`), and its guard. */
export { EcfError, isEcfError } from '../shared/errors/ecf-error.js';
/** DIAN's business rules as a pre-flight check on a UBL tree: every finding, Rechazo as `error`, Notificación as informative `warning`. */
export { checkDianRules, type DianRuleFinding, type DianRuleOptions } from './rules/check.js';
/** The same check on XML text; a text that cannot be read is one `ZB01` Rechazo finding. */
export { checkDianRulesXml } from './rules/check.js';
/** A finding in DIAN's answer form: `Regla: FAU04, Rechazo: <text>`. */
export { formatDianFinding } from './rules/check.js';
/** The read-only rule table (code per document kind, kind, text, condition, tolerance, confidence) for docs and the simulator. */
export { DIAN_RULES, type DianRule, type DianRuleKind, type DianRuleConfidence } from './rules/table.js';
/** The document kind of a UBL root (from root and type code) that selects the rule codes. */
export { documentKind, type DianDocumentKind } from './rules/kind.js';
/** Validates a DIAN document request body for a kind: generic checks from DIAN_FIELDS plus the spec's conditional rules; never throws. */
export { validateDianRequest, type DianValidationOptions, type DianValidationResult } from './validate/request.js';
/** The service's 422 body for its own validations (`statusCode` 13, `errors`, `detailedErrors`). */
export { toDianValidationBody, type DianValidationBody } from './validate/request.js';
/** The conditional rules of the request validation (ruleId → what it checks), and their ids. */
export { DIAN_REQUEST_RULES, type DianRequestRuleId } from './validate/request.js';
/** The request body type of each DIAN document endpoint (generated from DIAN_FIELDS). */
export type {
  DianInvoiceRequest,
  DianExportInvoiceRequest,
  DianContingencyInvoiceRequest,
  DianCreditNoteRequest,
  DianDebitNoteRequest,
  DianSupportInvoiceRequest,
  DianNoteSupportInvoiceRequest,
  DianPosRequest,
  DianCreditNoteEquivalentRequest,
  DianRequestByKind,
  DianRequest,
} from './spec/types.gen.js';
/** One row per service endpoint (root, lines and totals fields, type codes) and one per document type code. */
export { DIAN_KINDS, DOCUMENT_TYPES, type DianKind, type DianKindId, type DocumentTypeRow } from './spec/kinds.js';
/** The declarative description of the request bodies (fields with per-kind availability and requirement), and its lookups. */
export { DIAN_FIELDS, fieldOn, fieldRequired, fieldsOn, type FieldDef, type FieldType } from './spec/fields.js';
/** Validates a request body of a kind and builds its UBL document (codes computed from the built XML), with DIAN's rule findings. */
export { buildDianXml, type BuildDianXmlOptions, type BuildDianXmlResult } from './build/document.js';
/** The builder alone (a request already validated): request + context → UBL tree and XML. */
export { buildDianDocument, type DianBuildResult } from './build/build.js';
/** The codes written into a built document. */
export type { BuiltCodes } from './build/codes.js';
/** What the client does not send: the issuing company, the software, the numbering resolution, the environment and the clock. */
export type { DianContext, DianCompany, DianSoftware, DianResolution } from './build/context.js';
/** UBL → request body and context (the builder's mapping read backwards); reads DIAN's own samples too. */
export { parseDianDocument, detectDianKind, type DianParseResult } from './parse/parse.js';
/** Which request fields the XML carries for a kind, and which it does not (accepted, validated, not written). */
export { writtenFields, unwrittenFields } from './spec/coverage.js';
/** A UBL tree as XML text, children in the order of the XSD sequences (or as built, with `keepOrder`); `cdata` nodes as CDATA. */
export { writeUbl, type WriteUblOptions } from './ubl/write.js';
/** Text as CDATA sections that read back byte for byte (`]]>` split, carriage returns as `&#13;`). */
export { cdataText } from './ubl/write.js';
/** The AttachedDocument container for the buyer: the signed document and DIAN's ApplicationResponse as CDATA (unsigned; errors as values). */
export { buildAttachedDocument, type AttachedDocumentInput, type AttachedDocumentResult } from './attached/attached.js';
/** The AttachedDocument literals: CustomizationID, ProfileID, DocumentType and the default ValidatorID. */
export {
  ATTACHED_CUSTOMIZATION_ID,
  ATTACHED_PROFILE_ID,
  ATTACHED_DOCUMENT_TYPE,
  ATTACHED_SOURCES,
  type AttachedSource,
  DIAN_VALIDATOR_NAME,
} from './attached/attached.js';
/** The XML and zip file names DIAN expects for a document (prefix, NIT, provider, year, counter; errors as values). */
export { dianFileNames, DIAN_FILE_PREFIXES, DIAN_COUNTER_MAX } from './zip/names.js';
/** Kinds, inputs and outcome of `dianFileNames`. */
export type { DianFileKind, DianCounterFormat, DianFileNameInput, DianFileNames, DianFileNamesResult } from './zip/names.js';
/** A deterministic zip (deflate, fixed DOS timestamp, no extra fields) of one or more entries; errors as values. */
export { type DianDeflate, dianZip, type DianZipEntry, type DianZipOptions, type DianZipResult } from './zip/zip.js';
/** One signed document zipped for SendBillSync / SendNominaSync, with its names. */
export { dianDocumentZip, type DianDocumentZipInput, type DianDocumentZipResult } from './zip/document.js';
/** The RADIAN events 030–034 as rows (name, description, sender, receiver, note and concept requirements), the 031 claim concepts and DIAN as a party. */
export { DIAN_EVENTS, DIAN_EVENT_CODES, DIAN_CLAIM_CONCEPTS, DIAN_PARTY, type DianEventCode, type DianEventRow, type DianEventRole } from './events/table.js';
/** The event literals: a default sworn-statement note for 034, CustomizationID, ProfileID and the referenced document type. */
export { TACIT_ACCEPTANCE_NOTE, EVENT_CUSTOMIZATION_ID, EVENT_PROFILE_ID, EVENT_DOCUMENT_TYPE_CODE } from './events/table.js';
/** Validates an event request and builds its unsigned ApplicationResponse with its CUDE (errors as values, with the 422 body). */
export { buildDianEvent, type BuildDianEventOptions, type BuildDianEventResult } from './events/build.js';
/** Validates an event request alone (collected Spanish issues with field paths), its 422 body and the event rules. */
export { validateDianEvent, toDianEventValidationBody, DIAN_EVENT_RULES, type DianEventValidationBody } from './events/build.js';
/** The event request (the service's event payload plus the event code) and its parties. */
export type { DianEventRequest, DianEventParty, DianEventPerson } from './events/build.js';
/** The event request's JSON Schema, generated from the fields and rows validateDianEvent checks with (per route with a code). */
export { dianEventRequestJsonSchema, DIAN_EVENT_FIELDS, type EventField } from './events/fields.js';
/** An event ApplicationResponse (ours or DIAN's samples) read back into its request, code and CUDE. */
export { parseDianEvent, parseDianEventTree, type DianEventParseResult } from './events/parse.js';
/** DIAN's own ApplicationResponse as data: valid or not, the document answered, and its messages (`Regla: X, Rechazo: …`). */
export { parseDianApplicationResponse, type DianApplicationResponse, type DianApplicationResponseResult } from './events/response.js';
/** Splits one DIAN rule message (`Regla: FAU04, Rechazo: …`) into rule, kind and text, and writes it back. */
export { parseDianRuleMessage, formatDianRuleMessage, ruleMessageKind, type DianRuleMessage, type DianRuleMessageKind } from './rules/message.js';
/** The messages of DIAN's ApplicationResponse and how they are classed. */
export type { DianResponseMessage, DianMessageKind } from './events/response.js';
/** The check digit (DV) of a NIT (DIAN's modulo 11). */
export { nitCheckDigit } from './codes/nit.js';
/** Validates and builds an individual payroll (102) or adjustment note (103) in XSD order with its CUNE, security code and QR (errors as values). */
export { buildDianPayroll, type PayrollContext, type PayrollBuildResult, type PayrollBuiltCodes } from './payroll/build.js';
/** Validates a payroll request alone: collected Spanish issues with field paths, DIAN's ±2.00 tolerance on the totals. */
export { validateDianPayroll, type PayrollRequest, type PayrollValidationResult } from './payroll/validate.js';
/** A payroll document (ours or DIAN's samples) read back into its kind, request, context and declared codes. */
export { parseDianPayroll, type PayrollParseResult } from './payroll/parse.js';
/** The CUNE's inputs read from a payroll tree, and the CUNE and security code recomputed and compared. */
export { payrollCuneInputs, computePayrollCodes, type PayrollCuneInputs, type PayrollCodes } from './payroll/codes.js';
/** The payroll kinds and adjustment note types as rows, the request keys of the XSD names, and the payroll rules. */
export {
  PAYROLL_KINDS,
  PAYROLL_NOTE_TYPES,
  PAYROLL_RULES,
  PAYROLL_ELEMENT_KEYS,
  PAYROLL_ATTRIBUTE_KEYS,
  type PayrollKindId,
  type PayrollRuleId,
} from './payroll/table.js';
/** The JSON Schema (2020-12) of a payroll request body (102, or 103 with one branch per note type), generated from the payroll description. */
export { payrollRequestJsonSchema } from './payroll/json-schema.js';
/** DIAN's payroll XSDs as an element tree (generated), the description the payroll builder, parser and validator walk. */
export { PAYROLL_XSD } from './spec/payroll-schema.gen.js';
/** The payroll schema tree's node and value types. */
export type { PayrollXsdNode, PayrollXsdType } from './spec/payroll-xsd.js';

/** The JSON Schema (2020-12) of an endpoint's request body, as in schemas/dian-<kind>.schema.json. */
export { dianRequestJsonSchema } from './validate/json-schema.js';
