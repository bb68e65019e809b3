/**
 * `ecf-kit/dian/transport`: the client of DIAN's `WcfDianCustomerServices` (SOAP 1.2, WS-Addressing,
 * WS-Security signed on the kit's XMLDSig core), the envelope and answer readers it is made of, and the
 * operations table. A Node entry (node:crypto, undici); the DIAN core does not depend on it.
 */
/** A client of DIAN's web service: every operation as a method, GetStatus polling through `98`. */
export { createDianClient, DianClient, type DianClientOptions, type PollOptions } from './client.js';
/** The operations DIAN's service answers, as rows (request fields, result, answer type, idempotence), and its endpoints. */
export { DIAN_OPERATIONS, DIAN_ENDPOINTS, WCF_NS, ACTION_PREFIX, isDianOperation } from './operations.js';
export type { DianOperation, DianOperationParams, DianOperationRow, DianAnswerType, DianRequestField } from './operations.js';
/** The signed request envelope (for a local DIAN, a proxy or a contract test) and its verification. */
export { unsignedDianEnvelope, signDianEnvelope, verifyDianEnvelope, wsSecurityProfile, envelopeIds } from './envelope.js';
export type { EnvelopeIds, EnvelopeOptions, EnvelopeVerifyResult } from './envelope.js';
/** DIAN's answers read into typed results, and one `Regla: X, Rechazo: …` message split. */
export { readDianAnswer } from './answer.js';
export { parseDianRuleMessage, type DianRuleMessage, type DianRuleMessageKind } from '../rules/message.js';
export type {
  DianAnswer,
  DianAnswerTypes,
  DianResponse,
  DianUploadResponse,
  DianUploadItem,
  DianNumberingRanges,
  DianNumberingRange,
  DianEventResponse,
  DianFault,
  ReadAnswer,
} from './answer.js';
/** The errors the client throws, with their guards. */
export { AuthorityError, isAuthorityError } from '../../shared/errors/authority-error.js';
export { TransportError, isTransportError } from '../../shared/errors/transport-error.js';
