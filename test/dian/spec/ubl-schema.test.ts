/**
 * The UBL schema reader the DIAN generator stands on (scripts/dian/ubl-schema.ts) reads the official DIAN set in
 * ../shared/dian-xsd (DIAN_XSD_DIR) and gives back the XSD sequences. The expected orders below are written out
 * from dian-protocol.md §1.2 and §1.4, which were checked there against the same files with xmllint.
 */
import { describe, expect, it } from 'vitest';
import { readUblSchema, type ChildRef, type UblSchema } from '../../../scripts/dian/ubl-schema.js';
import { dianXsdDir } from '../helpers/env.js';

const schema: UblSchema = readUblSchema(dianXsdDir());

/** `Name`, `Name!` (required), `Name*` (repeatable), `Name!*`: the notation of dian-protocol.md §1.2. */
const marked = (refs: ChildRef[]) => refs.map((c) => `${c.element.split(':')[1]}${c.min > 0 ? '!' : ''}${c.max === null ? '*' : ''}`);
const split = (s: string) => s.split(', ');

describe('UBL schema reader', () => {
  it('reads the five document schemas, DIAN structures and the common modules they import, and nothing else', () => {
    expect(schema.files.filter((f) => f.startsWith('maindoc/'))).toEqual([
      'maindoc/DIAN_UBL_Structures.xsd',
      'maindoc/UBL-ApplicationResponse-2.1.xsd',
      'maindoc/UBL-AttachedDocument-2.1.xsd',
      'maindoc/UBL-CreditNote-2.1.xsd',
      'maindoc/UBL-DebitNote-2.1.xsd',
      'maindoc/UBL-Invoice-2.1.xsd',
    ]);
    expect(schema.files.some((f) => f.startsWith('payroll/'))).toBe(false);
    expect(schema.files).toContain('common/UBL-XAdESv141-2.1.xsd');
  });

  it('gives the Invoice sequence of §1.2, occurrences included', () => {
    expect(marked(schema.childrenOf('inv:Invoice'))).toEqual(
      split(
        'UBLExtensions, UBLVersionID, CustomizationID, ProfileID, ProfileExecutionID, ID!, CopyIndicator, UUID, IssueDate!, IssueTime, DueDate, InvoiceTypeCode, Note*, TaxPointDate, DocumentCurrencyCode, TaxCurrencyCode, PricingCurrencyCode, PaymentCurrencyCode, PaymentAlternativeCurrencyCode, AccountingCostCode, AccountingCost, LineCountNumeric, BuyerReference, InvoicePeriod*, OrderReference, BillingReference*, DespatchDocumentReference*, ReceiptDocumentReference*, StatementDocumentReference*, OriginatorDocumentReference*, ContractDocumentReference*, AdditionalDocumentReference*, ProjectReference*, Signature*, AccountingSupplierParty!, AccountingCustomerParty!, PayeeParty, BuyerCustomerParty, SellerSupplierParty, TaxRepresentativeParty, Delivery*, DeliveryTerms, PaymentMeans*, PaymentTerms*, PrepaidPayment*, AllowanceCharge*, TaxExchangeRate, PricingExchangeRate, PaymentExchangeRate, PaymentAlternativeExchangeRate, TaxTotal*, WithholdingTaxTotal*, LegalMonetaryTotal!, InvoiceLine!*',
      ),
    );
  });

  it('gives the CreditNote and DebitNote differences of §1.2', () => {
    const cn = marked(schema.childrenOf('cn:CreditNote'));
    expect(cn).not.toContain('DueDate');
    expect(cn.indexOf('CreditNoteTypeCode')).toBe(cn.indexOf('TaxPointDate') + 1);
    expect(cn.indexOf('DiscrepancyResponse*')).toBe(cn.indexOf('InvoicePeriod*') + 1);
    expect(cn).not.toContain('PrepaidPayment*');
    expect(cn).not.toContain('WithholdingTaxTotal*');
    expect(cn.indexOf('AllowanceCharge*')).toBeGreaterThan(cn.indexOf('PaymentAlternativeExchangeRate'));
    expect(cn.slice(-2)).toEqual(['LegalMonetaryTotal!', 'CreditNoteLine!*']);

    const dn = marked(schema.childrenOf('dn:DebitNote'));
    expect(dn.some((n) => /TypeCode/.test(n) && !/Currency/.test(n))).toBe(false);
    expect(dn.indexOf('DiscrepancyResponse*')).toBe(dn.indexOf('InvoicePeriod*') + 1);
    expect(dn.indexOf('PrepaidPayment*')).toBeLessThan(dn.indexOf('Delivery*'));
    expect(dn.indexOf('AllowanceCharge*')).toBeLessThan(dn.indexOf('Delivery*'));
    expect(dn.slice(-2)).toEqual(['RequestedMonetaryTotal!', 'DebitNoteLine!*']);
  });

  it('gives the ApplicationResponse and AttachedDocument sequences of §1.2', () => {
    expect(marked(schema.childrenOf('ar:ApplicationResponse'))).toEqual(
      split(
        'UBLExtensions, UBLVersionID, CustomizationID, ProfileID, ProfileExecutionID, ID!, UUID, IssueDate!, IssueTime, ResponseDate, ResponseTime, Note*, VersionID, Signature*, SenderParty!, ReceiverParty!, DocumentResponse*',
      ),
    );
    expect(marked(schema.childrenOf('ad:AttachedDocument'))).toEqual(
      split(
        'UBLExtensions, UBLVersionID, CustomizationID, ProfileID, ProfileExecutionID, ID!, UUID, IssueDate!, IssueTime, Note*, DocumentTypeCode, DocumentType, ParentDocumentID!, ParentDocumentTypeCode, ParentDocumentVersionID, Signature*, SenderParty!, ReceiverParty!, Attachment!, ParentDocumentLineReference*',
      ),
    );
  });

  it("reads DIAN's own structures, declared locally, in the order of §1.4", () => {
    const dian = schema.childrenOf('sts:DianExtensions').map((c) => c.element);
    expect(dian.slice(0, 6)).toEqual([
      'sts:InvoiceControl',
      'sts:InvoiceSource',
      'sts:SoftwareProvider',
      'sts:SoftwareSecurityCode',
      'sts:AuthorizationProvider',
      'sts:QRCode',
    ]);
    const control = schema.childrenOf('sts:DianExtensions')[0]!;
    expect(schema.childrenOf(control).map((c) => c.element)).toEqual(['sts:InvoiceAuthorization', 'sts:AuthorizationPeriod', 'sts:AuthorizedInvoices']);
  });

  it('follows simple content down to the UBL data type that decides how a value is written, with its attributes', () => {
    expect(schema.valueTypeOf('cbc:PayableAmount')).toBe('udt:AmountType');
    expect(schema.valueTypeOf('cbc:IssueDate')).toBe('udt:DateType');
    expect(schema.valueTypeOf('cbc:IssueTime')).toBe('udt:TimeType');
    expect(schema.valueTypeOf('cbc:ID')).toBe('udt:IdentifierType');
    expect(schema.valueTypeOf('cac:AccountingSupplierParty')).toBeNull();
    const amount = schema.attributesOf('cbc:PayableAmount');
    expect(amount.find((a) => a.name === 'currencyID')).toMatchObject({ required: true });
    expect(schema.attributesOf('cbc:ID').map((a) => a.name)).toEqual(expect.arrayContaining(['schemeID', 'schemeName', 'schemeAgencyID']));
  });

  it('keeps extension content open (the signature and DIAN extensions go there) and refuses unknown elements', () => {
    const content = schema.complexTypes.get(schema.elements.get('ext:ExtensionContent')!);
    expect(content?.any).toBe(true);
    expect(() => schema.childrenOf('cbc:NoSuchThing')).toThrow(/unknown element cbc:NoSuchThing/);
  });
});
