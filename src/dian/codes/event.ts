/** The CUDE of a RADIAN event (ApplicationResponse 030–034), dian-protocol.md §3.5. */
import { type HashedCode, hashDate, hashText, hashTime } from './inputs.js';
import { sha384Hex } from './sha384.js';

/** The event values the CUDE hashes, as in the built `ApplicationResponse`. */
export interface EventCudeInput {
  /** `cbc:ID` of the event. */
  id: string;
  /** `cbc:IssueDate`, `yyyy-MM-dd`. */
  issueDate: string;
  /** `cbc:IssueTime` with its offset, `HH:mm:ss-05:00`. */
  issueTime: string;
  /** `SenderParty/PartyTaxScheme/CompanyID`. */
  senderCompanyId: string;
  /** `ReceiverParty/PartyTaxScheme/CompanyID`. */
  receiverCompanyId: string;
  /** `DocumentResponse/Response/ResponseCode`: the event code, `030` … `034`. */
  responseCode: string;
  /** `DocumentResponse/DocumentReference/ID`: the number of the invoice the event is about. */
  documentReferenceId: string;
  /** `DocumentResponse/DocumentReference/DocumentTypeCode` (e.g. `01`). */
  documentReferenceTypeCode: string;
  /** The PIN of the software registered with DIAN. */
  softwarePin: string;
}

/**
 * The CUDE of an event: SHA-384(ID + IssueDate + IssueTime + sender id + receiver id + ResponseCode +
 * referenced document ID + its DocumentTypeCode + PIN). No amounts and no environment suffix.
 *
 * @throws EcfError `invalid_argument` for a missing or malformed field
 */
export function eventCude(input: EventCudeInput): HashedCode {
  const fn = 'eventCude';
  const preimage =
    hashText(input.id, fn, 'id') +
    hashDate(input.issueDate, fn, 'issueDate') +
    hashTime(input.issueTime, fn, 'issueTime') +
    hashText(input.senderCompanyId, fn, 'senderCompanyId') +
    hashText(input.receiverCompanyId, fn, 'receiverCompanyId') +
    hashText(input.responseCode, fn, 'responseCode') +
    hashText(input.documentReferenceId, fn, 'documentReferenceId') +
    hashText(input.documentReferenceTypeCode, fn, 'documentReferenceTypeCode') +
    hashText(input.softwarePin, fn, 'softwarePin');
  return { hash: sha384Hex(preimage), preimage };
}
