/** The software security code (`sts:SoftwareSecurityCode`, payroll `ProveedorXML/@SoftwareSC`), dian-protocol.md §3.6. */
import { type HashedCode, hashText } from './inputs.js';
import { sha384Hex } from './sha384.js';

/** Input of {@link softwareSecurityCode}. */
export interface SoftwareSecurityCodeInput {
  /** The software's id registered with DIAN (`sts:SoftwareID`, payroll `ProveedorXML/@SoftwareID`). */
  softwareId: string;
  /** The software's PIN. */
  softwarePin: string;
  /** The document number: `cbc:ID` (invoices, notes, events) or `NumeroSecuenciaXML/@Numero` (payroll). */
  number: string;
}

/**
 * SHA-384(SoftwareID + PIN + document number).
 *
 * @throws EcfError `invalid_argument` for a missing or malformed field
 */
export function softwareSecurityCode(input: SoftwareSecurityCodeInput): HashedCode {
  const fn = 'softwareSecurityCode';
  const preimage = hashText(input.softwareId, fn, 'softwareId') + hashText(input.softwarePin, fn, 'softwarePin') + hashText(input.number, fn, 'number');
  return { hash: sha384Hex(preimage), preimage };
}
