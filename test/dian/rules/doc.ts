/**
 * A small, internally consistent UBL document for rule tests, written by hand. Every value a rule reads is a
 * parameter, so a test changes exactly one and expects exactly one rule to fire.
 *
 * Line 1: 2 × 50.00 = 100.00, IVA 19 % → 19.00. Line 2: 1 × 200.00 − 20.00 discount = 180.00, IVA 19 % → 34.20,
 * plus the bag tax (22) 30.00 per unit × 1. Header: discount 10.00 on base 280.00; TaxInclusive 280 + 53.20 + 30
 * = 363.20; Payable 363.20 − 10.00 = 353.20.
 *
 * With `line1Icui`, line 1 also pays ICUI (35) 10 % on the same base 100.00 → 10.00, with its header TaxTotal;
 * the caller raises TaxInclusive and Payable by 10.00. TaxExclusive stays 280.00: the base counts once.
 */
export interface DocParams {
  root: 'Invoice' | 'CreditNote' | 'DebitNote';
  typeCode: string;
  id: string;
  issueDate: string;
  signingTime: string | null;
  dianExtensions: number;
  signatures: number;
  billingReference: boolean;
  invoicePeriod: boolean;
  lineExtensionTotal: string;
  taxExclusive: string;
  taxInclusive: string;
  allowanceTotal: string;
  payable: string;
  headerDiscount: string;
  headerDiscountBase: string;
  line1Tax: string;
  line2Price: string;
  bagHeader: boolean;
  line1Icui: boolean;
}

export const BASE: DocParams = {
  root: 'Invoice',
  typeCode: '01',
  id: 'SETP990000002',
  issueDate: '2024-05-10',
  signingTime: '2024-05-10T10:00:00-05:00',
  dianExtensions: 1,
  signatures: 1,
  billingReference: false,
  invoicePeriod: false,
  lineExtensionTotal: '280.00',
  taxExclusive: '280.00',
  taxInclusive: '363.20',
  allowanceTotal: '10.00',
  payable: '353.20',
  headerDiscount: '10.00',
  headerDiscountBase: '280.00',
  line1Tax: '19.00',
  line2Price: '200.00',
  bagHeader: true,
  line1Icui: false,
};

const NS =
  'xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"' +
  ' xmlns:ext="urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2" xmlns:sts="dian:gov:co:facturaelectronica:Structures-2-1"' +
  ' xmlns:ds="http://www.w3.org/2000/09/xmldsig#" xmlns:xades="http://uri.etsi.org/01903/v1.3.2#"';

function subtotal(base: string | null, tax: string, scheme: string, percent: string | null, perUnit?: string): string {
  return (
    '<cac:TaxSubtotal>' +
    (base === null ? '' : `<cbc:TaxableAmount currencyID="COP">${base}</cbc:TaxableAmount>`) +
    `<cbc:TaxAmount currencyID="COP">${tax}</cbc:TaxAmount>` +
    (perUnit === undefined
      ? ''
      : `<cbc:BaseUnitMeasure unitCode="NIU">1</cbc:BaseUnitMeasure><cbc:PerUnitAmount currencyID="COP">${perUnit}</cbc:PerUnitAmount>`) +
    `<cac:TaxCategory>${percent === null ? '' : `<cbc:Percent>${percent}</cbc:Percent>`}<cac:TaxScheme><cbc:ID>${scheme}</cbc:ID></cac:TaxScheme></cac:TaxCategory>` +
    '</cac:TaxSubtotal>'
  );
}

export function docXml(over: Partial<DocParams> = {}): string {
  const p = { ...BASE, ...over };
  const line = p.root === 'Invoice' ? 'InvoiceLine' : p.root === 'CreditNote' ? 'CreditNoteLine' : 'DebitNoteLine';
  const qty = p.root === 'Invoice' ? 'InvoicedQuantity' : p.root === 'CreditNote' ? 'CreditedQuantity' : 'DebitedQuantity';
  const total = p.root === 'DebitNote' ? 'RequestedMonetaryTotal' : 'LegalMonetaryTotal';
  const dianExt =
    '<ext:UBLExtension><ext:ExtensionContent><sts:DianExtensions><sts:InvoiceControl><sts:InvoiceAuthorization>18760000001</sts:InvoiceAuthorization>' +
    '<sts:AuthorizationPeriod><cbc:StartDate>2019-01-19</cbc:StartDate><cbc:EndDate>2030-01-19</cbc:EndDate></sts:AuthorizationPeriod>' +
    '<sts:AuthorizedInvoices><sts:Prefix>SETP</sts:Prefix><sts:From>990000000</sts:From><sts:To>995000000</sts:To></sts:AuthorizedInvoices>' +
    '</sts:InvoiceControl></sts:DianExtensions></ext:ExtensionContent></ext:UBLExtension>';
  const signature =
    '<ext:UBLExtension><ext:ExtensionContent><ds:Signature><ds:Object><xades:QualifyingProperties><xades:SignedProperties><xades:SignedSignatureProperties>' +
    (p.signingTime === null ? '' : `<xades:SigningTime>${p.signingTime}</xades:SigningTime>`) +
    '</xades:SignedSignatureProperties></xades:SignedProperties></xades:QualifyingProperties></ds:Object></ds:Signature></ext:ExtensionContent></ext:UBLExtension>';
  const typeCode =
    p.root === 'Invoice'
      ? `<cbc:InvoiceTypeCode>${p.typeCode}</cbc:InvoiceTypeCode>`
      : p.root === 'CreditNote'
        ? `<cbc:CreditNoteTypeCode>${p.typeCode}</cbc:CreditNoteTypeCode>`
        : '';
  return (
    `<${p.root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${p.root}-2" ${NS}>` +
    `<ext:UBLExtensions>${dianExt.repeat(p.dianExtensions)}${signature.repeat(p.signatures)}</ext:UBLExtensions>` +
    `<cbc:ID>${p.id}</cbc:ID><cbc:IssueDate>${p.issueDate}</cbc:IssueDate>${typeCode}` +
    (p.invoicePeriod ? '<cac:InvoicePeriod><cbc:StartDate>2024-04-01</cbc:StartDate><cbc:EndDate>2024-04-30</cbc:EndDate></cac:InvoicePeriod>' : '') +
    (p.billingReference
      ? '<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>SETP990000001</cbc:ID></cac:InvoiceDocumentReference></cac:BillingReference>'
      : '') +
    `<cac:AllowanceCharge><cbc:ID>1</cbc:ID><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:Amount currencyID="COP">${p.headerDiscount}</cbc:Amount><cbc:BaseAmount currencyID="COP">${p.headerDiscountBase}</cbc:BaseAmount></cac:AllowanceCharge>` +
    `<cac:TaxTotal><cbc:TaxAmount currencyID="COP">53.20</cbc:TaxAmount>${subtotal('280.00', '53.20', '01', '19.00')}</cac:TaxTotal>` +
    (p.line1Icui ? `<cac:TaxTotal><cbc:TaxAmount currencyID="COP">10.00</cbc:TaxAmount>${subtotal('100.00', '10.00', '35', '10.00')}</cac:TaxTotal>` : '') +
    (p.bagHeader ? `<cac:TaxTotal><cbc:TaxAmount currencyID="COP">30.00</cbc:TaxAmount>${subtotal(null, '30.00', '22', null, '30.00')}</cac:TaxTotal>` : '') +
    `<cac:${total}><cbc:LineExtensionAmount currencyID="COP">${p.lineExtensionTotal}</cbc:LineExtensionAmount><cbc:TaxExclusiveAmount currencyID="COP">${p.taxExclusive}</cbc:TaxExclusiveAmount>` +
    `<cbc:TaxInclusiveAmount currencyID="COP">${p.taxInclusive}</cbc:TaxInclusiveAmount><cbc:AllowanceTotalAmount currencyID="COP">${p.allowanceTotal}</cbc:AllowanceTotalAmount>` +
    `<cbc:PayableAmount currencyID="COP">${p.payable}</cbc:PayableAmount></cac:${total}>` +
    `<cac:${line}><cbc:ID>1</cbc:ID><cbc:${qty} unitCode="NIU">2</cbc:${qty}><cbc:LineExtensionAmount currencyID="COP">100.00</cbc:LineExtensionAmount>` +
    `<cac:TaxTotal><cbc:TaxAmount currencyID="COP">${p.line1Tax}</cbc:TaxAmount>${subtotal('100.00', p.line1Tax, '01', '19.00')}</cac:TaxTotal>` +
    (p.line1Icui ? `<cac:TaxTotal><cbc:TaxAmount currencyID="COP">10.00</cbc:TaxAmount>${subtotal('100.00', '10.00', '35', '10.00')}</cac:TaxTotal>` : '') +
    `<cac:Price><cbc:PriceAmount currencyID="COP">50.00</cbc:PriceAmount><cbc:BaseQuantity unitCode="NIU">2</cbc:BaseQuantity></cac:Price></cac:${line}>` +
    `<cac:${line}><cbc:ID>2</cbc:ID><cbc:${qty} unitCode="NIU">1</cbc:${qty}><cbc:LineExtensionAmount currencyID="COP">180.00</cbc:LineExtensionAmount>` +
    '<cac:AllowanceCharge><cbc:ID>1</cbc:ID><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:Amount currencyID="COP">20.00</cbc:Amount><cbc:BaseAmount currencyID="COP">200.00</cbc:BaseAmount></cac:AllowanceCharge>' +
    `<cac:TaxTotal><cbc:TaxAmount currencyID="COP">34.20</cbc:TaxAmount>${subtotal('180.00', '34.20', '01', '19.00')}</cac:TaxTotal>` +
    `<cac:TaxTotal><cbc:TaxAmount currencyID="COP">30.00</cbc:TaxAmount>${subtotal(null, '30.00', '22', null, '30.00')}</cac:TaxTotal>` +
    `<cac:Price><cbc:PriceAmount currencyID="COP">${p.line2Price}</cbc:PriceAmount></cac:Price></cac:${line}>` +
    `</${p.root}>`
  );
}
