/**
 * `ecf-kit/dian/server`: the Colombian documents service (dian-service.md) as its own app: storage ports and
 * adapters (SQLite, PostgreSQL), the issuing use case, the hono routes and `startDianServer`.
 */
/** The storage ports and records. */
export type * from './storage/types.js';
/** Opening the storage: SQLite (embedded default), PostgreSQL (schema `dian`). */
export { openDianStorage, createDianSqliteStorage, createDianPostgresStorage, DIAN_PG_SCHEMA, type OpenDianStorageOptions } from './storage/open.js';
/** The schema migrations of the DIAN tables. */
export { DIAN_MIGRATIONS } from './storage/migrations.js';
/** The issuing use case, its ports and the canonical JSON its idempotency hash is taken over. */
export { issueDocument, canonicalJson, CONTINGENCY_PATH } from './use-cases/issue.js';
/** The ports of the use cases: DIAN as a gateway, the company's signer, the clock. */
export type { DianGateway, DianUseCaseDeps, UseCaseAnswer, CustomerNotice } from './use-cases/ports.js';
/** The event use case (`/v1/030` … `/v1/034`), its ports and what `send: true` on an event hands over. */
export { sendEvent, type EventUseCaseDeps, type EventNotice } from './use-cases/events.js';
/** The payroll use cases (`/service/payrolls…`), their ports and the record's status integers. */
export { submitPayroll, payrollStatus, payrollRecord, PAYROLL_STATUS, type PayrollUseCaseDeps } from './use-cases/payrolls.js';
/** The events table's migration and store (spread into the Kysely storage). */
export { DIAN_EVENT_MIGRATION, createDianEventStore } from './storage/events.js';
/** The payrolls table's migration and store (spread into the Kysely storage). */
export { DIAN_PAYROLL_MIGRATION, createDianPayrollStore } from './storage/payrolls.js';
/** `send: true` through the mail service: the document and event notifiers. */
export { mailNotices, type MailNoticeOptions } from './mail-notices.js';
/** The mail routes' tenant of a company. */
export { mailTenant } from './app/mail.js';
/** The HTTP app (hono) over its dependencies. */
export { createDianApp, type DianAppDeps } from './app/index.js';
/** The OpenAPI document served at /service/openapi.json. */
export { dianOpenApi } from './app/openapi.js';
/** Companies' identities sealed at rest, the sealing key, per-company signers. */
export { loadDianCertificateKey, sealIdentity, unsealIdentity, sealedDevIdentity, companySigners, DIAN_DEV_KEY_FILE } from './certificates.js';
/** The operator's operations (what `ecf dian admin` runs). */
export {
  addCompany,
  addToken,
  addResolution,
  addContingencyWindow,
  setCompanyCertificate,
  fetchResolutions,
  type NumberingRangeSource,
  type FetchedResolutions,
  type SkippedRange,
  CERTIFICATE_EXPIRY_WARNING_DAYS,
  type CertificateSummary,
  type CertificateWarning,
  generateDianToken,
  DianAdminError,
  DIAN_TOKEN_PREFIX,
  type AddCompanyInput,
} from './admin.js';
/** Habilitación's test-set mode: the operator's switch, its store and migration, the polling defaults. */
export { setCompanyTestSet } from './admin-test-set.js';
export { TEST_SET_MIGRATION, createDianTestSetStore, testSetIdProblem } from './storage/test-set.js';
export { DEFAULT_TEST_SET_POLLING } from './use-cases/test-set.js';
export type { TestSetPolling } from './use-cases/ports.js';
/** Starts the service (embedded local DIAN by default). */
export { startDianServer, simulatorCompany, type DianServerOptions, type DianServer } from './start.js';
/** Contingency: issuing without transmission, pending documents and their deadlines. */
export {
  issueContingency,
  listPendingContingency,
  contingencyNearDeadline,
  CONTINGENCY_DEADLINE_HOURS,
  CONTINGENCY_WARNING_HOURS,
} from './use-cases/contingency.js';
