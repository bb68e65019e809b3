/**
 * `ecf-kit/dgii`: DGII's web services over HTTP (Node; undici, TLS 1.2+).
 *
 * - `createDgiiClient`: the AuthorityTransport port (seed authentication with a per-instance token
 *   cache, e-CF / RFCE reception, result, status and track-id queries, commercial approvals, range
 *   voiding, directory, service status), crash-safe retries.
 * - `createReceptorClient`: issuer → receiver delivery (e-CF → ARECF, ACECF → 200/400).
 * - Endpoint table and pure response parsers, for those who bring their own HTTP.
 *
 * Deliberately not exported: the HTTP core (`../../shared/http/core.ts`, generic; DGII's answer interpreter in
 * `./http.ts`) and the token cache (`./auth.ts`).
 *
 * @example
 * import { createDgiiClient } from 'ecf-kit/dgii';
 * const dgii = createDgiiClient({ environment: 'certecf' });
 * const receipt = await dgii.sendEcf({ rnc, signer }, { fileName, xml: signedXml });
 * //=> { trackId: '…', mensaje: null }
 */
export { createDgiiClient, type DgiiClient, type DgiiClientOptions } from './client.js';
export {
  createReceptorClient,
  receptorUrls,
  type ReceptorClient,
  type ReceptorClientOptions,
  type ReceptorTarget,
  type ReceptorUrls,
  type EcfDelivery,
  type ApprovalDelivery,
  RECEIVER_MAX_RESPONSE_BYTES,
} from './receptor-client.js';
export {
  checkAllowAddresses,
  LOOPBACK_RANGES,
  receiverAddressProblem,
  ReceiverAddressError,
  type ReceiverPolicy,
  type ReceiverResolver,
} from './receiver-guard.js';
export type { HttpOptions, DgiiLogger } from './http.js';
export { dgiiEndpoints, isDgiiEnvironment, DGII_ENVIRONMENTS, type DgiiEndpoints, type DgiiService } from './endpoints.js';
export { multipartFileName } from './multipart.js';
export {
  toAuthorityMessages,
  parseDgiiDate,
  parseAuthToken,
  parseSeed,
  parseReceptionReceipt,
  parseTrackResult,
  parseFiscalStatus,
  parseTrackIds,
  parseApprovalReceipt,
  parseVoidingReceipt,
  parseDirectory,
  parseServiceStatus,
} from './parse.js';
export type {
  AuthorityMessage,
  DgiiEnvironmentName,
  AuthorityIdentity,
  XmlFile,
  AuthToken,
  AuthorityState,
  AuthorityStateCode,
  ReceptionReceipt,
  TrackResult,
  StatusQuery,
  FiscalStatus,
  TrackIdEntry,
  ApprovalReceipt,
  VoidingReceipt,
  DirectoryEntry,
  ServiceAvailability,
  AuthorityTransport,
} from './types.js';
export { TransportError, AuthorityError, isTransportError, isAuthorityError } from '../../shared/errors/index.js';
export type { TransportErrorCode, AuthorityErrorCode } from '../../shared/errors/index.js';
