/**
 * DIAN's `WcfDianCustomerServices` (dian-protocol.md §5.1, §5.3) as data: one row per operation, with its
 * request children (all in `http://wcf.dian.colombia`, in WSDL order), its result element, the answer type
 * the client parses, and whether resending it is safe. The envelope builder, the client and the simulator
 * read the rows; no operation is special-cased in code.
 */

/** The service's target namespace (request and response elements). */
export const WCF_NS = 'http://wcf.dian.colombia';
/** `wsa:Action` of an operation is this prefix plus the operation name; the answer's adds `Response`. */
export const ACTION_PREFIX = 'http://wcf.dian.colombia/IWcfDianCustomerServices/';

/** DIAN's endpoints: habilitación (`2`) and production (`1`), as `ProfileExecutionID` names the environments. */
export const DIAN_ENDPOINTS = {
  '1': 'https://vpfe.dian.gov.co/WcfDianCustomerServices.svc',
  '2': 'https://vpfe-hab.dian.gov.co/WcfDianCustomerServices.svc',
} as const;

/** The answer types of §5.4. */
export type DianAnswerType = 'DianResponse' | 'ArrayOfDianResponse' | 'UploadDocumentResponse' | 'NumberRangeResponseList' | 'EventResponse';

/** One operation of the service. */
export interface DianOperationRow {
  /** Request children, in order; every one optional and nillable in the WSDL, so the client sends what it is given. */
  request: readonly DianRequestField[];
  /** The result element inside `<Operation>Response`. */
  result: string;
  answer: DianAnswerType;
  /**
   * Whether sending twice is harmless (a query). Uploads are not: when their answer is lost the outcome is
   * unknown and the caller asks GetStatus / GetStatusZip before any resend.
   */
  idempotent: boolean;
}

/** A request child: its name and whether it carries base64 (a zip). */
export type DianRequestField = 'fileName' | 'contentFile' | 'testSetId' | 'trackId' | 'accountCode' | 'accountCodeT' | 'softwareCode';

/** Every operation the client speaks (WSDL of dian-protocol.md §5.3). */
export const DIAN_OPERATIONS = {
  SendBillSync: { request: ['fileName', 'contentFile'], result: 'SendBillSyncResult', answer: 'DianResponse', idempotent: false },
  SendBillAsync: { request: ['fileName', 'contentFile'], result: 'SendBillAsyncResult', answer: 'UploadDocumentResponse', idempotent: false },
  SendTestSetAsync: {
    request: ['fileName', 'contentFile', 'testSetId'],
    result: 'SendTestSetAsyncResult',
    answer: 'UploadDocumentResponse',
    idempotent: false,
  },
  GetStatus: { request: ['trackId'], result: 'GetStatusResult', answer: 'DianResponse', idempotent: true },
  GetStatusZip: { request: ['trackId'], result: 'GetStatusZipResult', answer: 'ArrayOfDianResponse', idempotent: true },
  GetStatusEvent: { request: ['trackId'], result: 'GetStatusEventResult', answer: 'DianResponse', idempotent: true },
  SendEventUpdateStatus: { request: ['contentFile'], result: 'SendEventUpdateStatusResult', answer: 'DianResponse', idempotent: false },
  SendNominaSync: { request: ['contentFile'], result: 'SendNominaSyncResult', answer: 'DianResponse', idempotent: false },
  GetNumberingRange: {
    request: ['accountCode', 'accountCodeT', 'softwareCode'],
    result: 'GetNumberingRangeResult',
    answer: 'NumberRangeResponseList',
    idempotent: true,
  },
  GetXmlByDocumentKey: { request: ['trackId'], result: 'GetXmlByDocumentKeyResult', answer: 'EventResponse', idempotent: true },
  GetReferenceNotes: { request: ['trackId'], result: 'GetReferenceNotesResult', answer: 'DianResponse', idempotent: true },
} as const satisfies Record<string, DianOperationRow>;

/** The name of an operation the client speaks. */
export type DianOperation = keyof typeof DIAN_OPERATIONS;

/** The request values of an operation: its fields, each a string (`contentFile` is the zip's base64). */
export type DianOperationParams<Op extends DianOperation> = { [F in (typeof DIAN_OPERATIONS)[Op]['request'][number]]?: string };

/** Whether `name` is an operation of the table. */
export function isDianOperation(name: string): name is DianOperation {
  return Object.hasOwn(DIAN_OPERATIONS, name);
}
