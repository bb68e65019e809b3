/**
 * CUFE, CUDE and CUDS: the `cbc:UUID` of invoices, notes, support documents and POS documents
 * (dian-protocol.md §3.1–§3.3). Each returns the hash and its pre-image.
 */
import { type Amount, type DianEnvironment, type HashedCode, hashAmount, hashDate, hashEnvironment, hashText, hashTime, optionalHashAmount } from './inputs.js';
import { sha384Hex } from './sha384.js';

/** The document values every invoice-like code hashes, as they appear in the built XML. */
export interface InvoiceCodeFields {
  /** `cbc:ID`: prefix and consecutive number, e.g. `SETP990000002`. */
  id: string;
  /** `cbc:IssueDate`, `yyyy-MM-dd`. */
  issueDate: string;
  /** `cbc:IssueTime` with its offset, `HH:mm:ss-05:00`. */
  issueTime: string;
  /** `LegalMonetaryTotal/LineExtensionAmount` (`RequestedMonetaryTotal` in a debit note). */
  lineExtensionAmount: Amount;
  /** Document-level `TaxTotal/TaxAmount` of tax scheme `01` (IVA); absent: `0.00`. */
  ivaTaxAmount?: Amount | null;
  /** Document-level `TaxTotal/TaxAmount` of tax scheme `04` (INC); absent: `0.00`. */
  incTaxAmount?: Amount | null;
  /** Document-level `TaxTotal/TaxAmount` of tax scheme `03` (ICA); absent: `0.00`. */
  icaTaxAmount?: Amount | null;
  /** `LegalMonetaryTotal/PayableAmount` (`RequestedMonetaryTotal` in a debit note). */
  payableAmount: Amount;
  /** `AccountingSupplierParty/Party/PartyTaxScheme/CompanyID`: the issuer's NIT, without check digit. */
  supplierCompanyId: string;
  /** `AccountingCustomerParty/Party/PartyTaxScheme/CompanyID`: the buyer's document number (`222222222222` for a final consumer). */
  customerCompanyId: string;
  /** `cbc:ProfileExecutionID`: `1` production, `2` habilitación. */
  environment: DianEnvironment;
}

/** Input of {@link cufe}: the document values and the numbering range's technical key. */
export interface CufeInput extends InvoiceCodeFields {
  /** ClTec: the technical key of the numbering range (from `GetNumberingRange`; never written in the XML). */
  technicalKey: string;
}

/** Input of {@link cude}: the document values and the software PIN. */
export interface CudeInput extends InvoiceCodeFields {
  /** The PIN of the software registered with DIAN (for POS documents, the PIN of the POS software). */
  softwarePin: string;
}

/** Input of {@link cuds}: like CUDE, but only the IVA pair enters the hash. */
export interface CudsInput extends Omit<InvoiceCodeFields, 'incTaxAmount' | 'icaTaxAmount' | 'supplierCompanyId' | 'customerCompanyId'> {
  /** `AccountingSupplierParty/…/CompanyID`: the seller, who is not obliged to invoice. */
  supplierCompanyId: string;
  /** `AccountingCustomerParty/…/CompanyID`: the buyer, who issues the support document. */
  customerCompanyId: string;
  /** The PIN of the software registered with DIAN. */
  softwarePin: string;
}

/** ID + IssueDate + IssueTime + LineExtensionAmount: the head every invoice-like pre-image starts with. */
function head(fn: string, x: InvoiceCodeFields | Omit<CudsInput, 'softwarePin'>): string {
  return (
    hashText(x.id, fn, 'id') +
    hashDate(x.issueDate, fn, 'issueDate') +
    hashTime(x.issueTime, fn, 'issueTime') +
    hashAmount(x.lineExtensionAmount, fn, 'lineExtensionAmount')
  );
}

/** The CUFE/CUDE pre-image up to (and without) the key: … + "01" + IVA + "04" + INC + "03" + ICA + PayableAmount + NITs. */
function invoicePreimage(fn: string, x: InvoiceCodeFields, key: string): string {
  return (
    head(fn, x) +
    `01${optionalHashAmount(x.ivaTaxAmount, fn, 'ivaTaxAmount')}` +
    `04${optionalHashAmount(x.incTaxAmount, fn, 'incTaxAmount')}` +
    `03${optionalHashAmount(x.icaTaxAmount, fn, 'icaTaxAmount')}` +
    hashAmount(x.payableAmount, fn, 'payableAmount') +
    hashText(x.supplierCompanyId, fn, 'supplierCompanyId') +
    hashText(x.customerCompanyId, fn, 'customerCompanyId') +
    key +
    hashEnvironment(x.environment, fn)
  );
}

/**
 * The CUFE of a sales invoice (01), export invoice (02) or DIAN-side contingency invoice (04):
 * SHA-384(ID + IssueDate + IssueTime + LineExtensionAmount + "01" + IVA + "04" + INC + "03" + ICA +
 * PayableAmount + supplier NIT + customer id + technical key + ProfileExecutionID), amounts truncated to 2
 * decimals.
 *
 * @throws EcfError `invalid_argument` for a missing, negative or non-decimal amount, or a malformed field
 * @example
 * cufe({ id: '323200000129', issueDate: '2019-01-16', issueTime: '10:53:10-05:00', lineExtensionAmount: '1500000.00',
 *   ivaTaxAmount: '285000.00', payableAmount: '1785000.00', supplierCompanyId: '700085371', customerCompanyId: '800199436',
 *   technicalKey: '693ff6f2a553c3646a063436fd4dd9ded0311471', environment: '1' }).hash //=> '8bb918b1…d9b4'
 */
export function cufe(input: CufeInput): HashedCode {
  return cufeOf(input, input.technicalKey);
}

/** {@link cufe} with the technical key apart from the document values (no merged input object to build). */
export function cufeOf(fields: InvoiceCodeFields, technicalKey: string): HashedCode {
  const preimage = invoicePreimage('cufe', fields, hashText(technicalKey, 'cufe', 'technicalKey'));
  return { hash: sha384Hex(preimage), preimage };
}

/**
 * The CUDE of a credit note (91), debit note (92), issuer-side contingency invoice (03) or POS document
 * (20) and its notes (93, 94): the CUFE formula with the software PIN in place of the technical key.
 *
 * @throws EcfError `invalid_argument` for a missing, negative or non-decimal amount, or a malformed field
 */
export function cude(input: CudeInput): HashedCode {
  return cudeOf(input, input.softwarePin);
}

/** {@link cude} with the PIN apart from the document values (no merged input object to build). */
export function cudeOf(fields: InvoiceCodeFields, softwarePin: string): HashedCode {
  const preimage = invoicePreimage('cude', fields, hashText(softwarePin, 'cude', 'softwarePin'));
  return { hash: sha384Hex(preimage), preimage };
}

/**
 * The CUDS of a support document (05) or its adjustment note (95): SHA-384(ID + IssueDate + IssueTime +
 * LineExtensionAmount + "01" + IVA + PayableAmount + seller id + buyer NIT + PIN + ProfileExecutionID);
 * only the IVA pair, amounts truncated to 2 decimals.
 *
 * @throws EcfError `invalid_argument` for a missing, negative or non-decimal amount, or a malformed field
 */
export function cuds(input: CudsInput): HashedCode {
  return cudsOf(input, input.softwarePin);
}

/** {@link cuds} with the PIN apart from the document values (no merged input object to build). */
export function cudsOf(input: Omit<CudsInput, 'softwarePin'>, softwarePin: string): HashedCode {
  const fn = 'cuds';
  const preimage =
    head(fn, input) +
    `01${optionalHashAmount(input.ivaTaxAmount, fn, 'ivaTaxAmount')}` +
    hashAmount(input.payableAmount, fn, 'payableAmount') +
    hashText(input.supplierCompanyId, fn, 'supplierCompanyId') +
    hashText(input.customerCompanyId, fn, 'customerCompanyId') +
    hashText(softwarePin, fn, 'softwarePin') +
    hashEnvironment(input.environment, fn);
  return { hash: sha384Hex(preimage), preimage };
}
