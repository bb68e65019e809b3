/**
 * Where each request field, context value and literal goes in the UBL document: the one mapping the builder
 * applies, the inverse parser reads backwards, and the generator checks against the official XSDs (every path
 * step must be a child the schema allows; the element order comes from the XSDs, never from this file).
 *
 * A {@link MapRow} writes one value at a path relative to its scope; a {@link MapGroup} writes one element per
 * item of a request array (or one element, for a single object); paths may hold the placeholders of
 * {@link PLACEHOLDERS}, resolved per kind from the kind's row (`{line}` is `cac:InvoiceLine` on an invoice,
 * `cac:CreditNoteLine` on a credit note). Kinds differ by rows (`kinds`), never by code.
 */
import type { DianKind, DianKindId } from './kinds.js';
import { ROOT_NAMES } from './kinds.js';

/** How a value is written (and read back). */
export type ValueFormat =
  /** Text as given. */
  | 'text'
  /** Rounded half-to-even to 2 decimals, with `currencyID` = the document currency. */
  | 'amount'
  /** A quantity or rate: exact decimal, at least 2 decimals. */
  | 'decimal'
  /** A percentage with 2 decimals (rounded half-to-even). */
  | 'percent'
  | 'integer'
  | 'boolean'
  | 'date'
  /** `HH:mm:ss` written with Bogotá's offset `-05:00`. */
  | 'time'
  /** A code of two digits or more: an integer is written zero-padded to 2 (`6` → `06`), a string as it is. */
  | 'code2';

/** Where a value comes from. */
export type Source =
  /** A request field, by dotted path relative to the scope (the group's item, or the request). */
  | { field: string }
  /** A context value, by dotted path (`company.name`, `software.id`, `environment`). */
  | { ctx: string }
  /** A literal. */
  | { lit: string }
  /** Computed by the builder (see the `calc` table of src/dian/build/); the parser reads it back when it can. */
  | { calc: CalcId }
  /** The 1-based position of the group's item. */
  | { index: true };

export type CalcId =
  | 'documentId'
  | 'profileId'
  | 'issueDate'
  | 'issueTime'
  | 'typeCode'
  | 'lineCount'
  | 'taxName'
  | 'taxTotalAmount'
  | 'prepaidAmount'
  | 'uuid'
  | 'uuidScheme'
  | 'securityCode'
  | 'qrCode'
  | 'referenceScheme'
  | 'item'
  | 'transmissionName'
  | 'currency'
  | 'countryName'
  | 'departmentCode'
  | 'cityName'
  | 'departmentName';

export interface MapRow {
  /** Path relative to the scope, `/`-separated; `@name` at the end for an attribute; `''` the scope element itself. */
  at: string;
  from: Source;
  format?: ValueFormat;
  /** Kinds the row applies to; absent: every kind. */
  kinds?: readonly DianKindId[];
  /** Written only; the parser takes the value from another row (the same field written twice). */
  copy?: true;
  /** Written only when the request field at this path (relative to the scope) is present. */
  if?: string;
  /** Written when the source has no value (and a value equal to it reads back as absent). */
  default?: string;
  /** Not written (nor read back) when the request field at this path (relative to the scope) is present. */
  unless?: string;
}

export interface MapGroup {
  /** Path of the repeated element, relative to the scope; every step before the last is shared. */
  group: string;
  /**
   * The request array (one element per item), object (one element when present), or `null`: one element
   * always. Dotted path relative to the scope.
   */
  each: string | null;
  rows: readonly MapItem[];
  kinds?: readonly DianKindId[];
  /** When parsing, only elements with a descendant at this path belong to this group. */
  has?: string;
  /**
   * Items are grouped by this field into one element each (their rows see the first item), and `sub` writes
   * one child per item (the TaxTotal of a tax with its TaxSubtotals).
   */
  groupBy?: string;
  sub?: MapGroup;
  /** `each` is a string holding several values separated by this text, one element each (joined back on parsing). */
  split?: string;
  /** Name/Value pairs written as alternating sibling elements under `at`: `[Name literal, field]`. */
  pairs?: { at: string; list: readonly (readonly [string, string])[] };
  /** Written only for items where this field is present. */
  if?: string;
  /**
   * The group adds to the items of an array another group wrote: when parsing, each element joins the first
   * item whose `field` equals the element's text at `at` and that has not joined yet.
   */
  joinOn?: { at: string; field: string };
}

export type MapItem = MapRow | MapGroup;

export const isGroup = (i: MapItem): i is MapGroup => 'group' in i;

/** Placeholders a path may hold, resolved per kind. */
export const PLACEHOLDERS = {
  '{line}': (k: DianKind) => ROOT_NAMES[k.root].line,
  '{quantity}': (k: DianKind) => ROOT_NAMES[k.root].quantity,
  '{total}': (k: DianKind) => ROOT_NAMES[k.root].total,
  '{typeCode}': (k: DianKind) => ROOT_NAMES[k.root].typeCode ?? '',
  /** The party the request's `customer` is: the buyer, or the seller of a support document. */
  '{customerParty}': (k: DianKind) => (k.customerRole === 'customer' ? 'cac:AccountingCustomerParty' : 'cac:AccountingSupplierParty'),
  /** The party the issuing company is. */
  '{companyParty}': (k: DianKind) => (k.customerRole === 'customer' ? 'cac:AccountingSupplierParty' : 'cac:AccountingCustomerParty'),
  /** The request field of the lines and of the totals. */
  '{lines}': (k: DianKind) => k.linesField,
  '{totals}': (k: DianKind) => k.totalsField,
} as const;

/** A path with the kind's names in place of the placeholders. */
export function resolvePath(path: string, kind: DianKind): string {
  return path.replace(/\{[a-zA-Z]+\}/g, (p) => {
    const f = PLACEHOLDERS[p as keyof typeof PLACEHOLDERS];
    if (!f) throw new Error(`unknown placeholder ${p}`);
    return f(kind);
  });
}

const AGENCY: MapRow[] = [
  { at: '@schemeAgencyID', from: { lit: '195' } },
  { at: '@schemeAgencyName', from: { lit: 'CO, DIAN (Dirección de Impuestos y Aduanas Nacionales)' } },
];
const NOTE_KINDS = ['credit-note', 'debit-note', 'note-support-invoice', 'credit-note-equivalent'] as const;
const NOT_CREDIT_ROOT = ['invoice', 'export-invoice', 'contingency-invoice', 'support-invoice', 'pos', 'debit-note'] as const;
const INVOICE_ROOT = ['invoice', 'export-invoice', 'contingency-invoice', 'support-invoice', 'pos'] as const;

/** An identifier element with DIAN's agency attributes, check digit and identification type. */
function companyId(at: string, id: Source, dv: Source, type: Source, copy?: true): MapItem[] {
  const c = copy ? { copy } : {};
  return [
    { at, from: id, ...c },
    ...AGENCY.map((r) => ({ ...r, at: `${at}${r.at}` })),
    { at: `${at}@schemeID`, from: dv, ...c },
    { at: `${at}@schemeName`, from: type, ...c },
  ];
}

/** An address block (`cac:Address`, `cac:RegistrationAddress`) of a party from a source prefix. */
function address(at: string, src: (f: string) => Source, copy?: true): MapItem[] {
  const c = copy ? { copy } : {};
  return [
    { at: `${at}/cbc:ID`, from: src('municipality_code'), ...c },
    { at: `${at}/cac:AddressLine/cbc:Line`, from: src('address'), ...c },
    { at: `${at}/cac:Country/cbc:IdentificationCode`, from: src('country_code'), ...c },
    { at: `${at}/cbc:CountrySubentityCode`, from: { calc: 'departmentCode' } },
    // Names from DIAN's code lists (src/dian/spec/places.gen.ts), for an address in Colombia.
    { at: `${at}/cbc:CityName`, from: { calc: 'cityName' } },
    { at: `${at}/cbc:CountrySubentity`, from: { calc: 'departmentName' } },
    { at: `${at}/cac:Country/cbc:Name`, from: { calc: 'countryName' } },
    { at: `${at}/cac:Country/cbc:Name@languageID`, from: { lit: 'es' } },
  ];
}

/**
 * A party (`cac:Party` content) from the request's `customer` object or the context's `company`: the same
 * shape, so one function writes both; the field names are the customer's, the company profile uses the same.
 */
function party(src: (f: string) => Source, nameSrc: Source, idSrc: Source): MapItem[] {
  const P = 'cac:Party';
  return [
    { at: 'cbc:AdditionalAccountID', from: src('organization_type_code') },
    { at: `${P}/cac:PartyIdentification/cbc:ID`, from: idSrc, copy: true },
    { at: `${P}/cac:PartyIdentification/cbc:ID@schemeID`, from: src('dv'), copy: true },
    { at: `${P}/cac:PartyIdentification/cbc:ID@schemeName`, from: src('identification_type_code'), copy: true },
    { at: `${P}/cac:PartyName/cbc:Name`, from: src('trade_name') },
    ...address(`${P}/cac:PhysicalLocation/cac:Address`, src),
    { at: `${P}/cac:PartyTaxScheme/cbc:RegistrationName`, from: nameSrc },
    ...companyId(`${P}/cac:PartyTaxScheme/cbc:CompanyID`, idSrc, src('dv'), src('identification_type_code')),
    { at: `${P}/cac:PartyTaxScheme/cbc:TaxLevelCode`, from: src('liability_type_code') },
    { at: `${P}/cac:PartyTaxScheme/cbc:TaxLevelCode@listName`, from: src('regime_type_code') },
    ...address(`${P}/cac:PartyTaxScheme/cac:RegistrationAddress`, src, true),
    // UBL requires TaxScheme in PartyTaxScheme; a customer without tax data is `ZZ` (no aplica).
    { at: `${P}/cac:PartyTaxScheme/cac:TaxScheme/cbc:ID`, from: src('tax_code'), default: 'ZZ' },
    { at: `${P}/cac:PartyTaxScheme/cac:TaxScheme/cbc:Name`, from: { calc: 'taxName' } },
    { at: `${P}/cac:PartyLegalEntity/cbc:RegistrationName`, from: nameSrc, copy: true },
    ...companyId(`${P}/cac:PartyLegalEntity/cbc:CompanyID`, idSrc, src('dv'), src('identification_type_code'), true),
    { at: `${P}/cac:PartyLegalEntity/cac:CorporateRegistrationScheme/cbc:Name`, from: src('merchant_registration') },
    { at: `${P}/cac:Contact/cbc:Telephone`, from: src('phone') },
    { at: `${P}/cac:Contact/cbc:ElectronicMail`, from: src('email') },
  ];
}

const field = (f: string): Source => ({ field: f });
const customerSrc = (f: string): Source => ({ field: `customer.${f}` });
const companySrc = (f: string): Source => ({ ctx: `company.${f}` });

/** A tax entry's TaxTotal (grouped by tax code) and TaxSubtotal rows: document and line level share them. */
function taxTotals(group: string, each: string, withRounding: boolean): MapGroup {
  return {
    group,
    each,
    groupBy: 'tax_code',
    rows: [
      { at: 'cbc:TaxAmount', from: { calc: 'taxTotalAmount' }, format: 'amount' },
      ...(withRounding ? [{ at: 'cbc:RoundingAmount', from: field('rounding_amount'), format: 'amount' } as MapRow] : []),
    ],
    sub: {
      group: 'cac:TaxSubtotal',
      each: null,
      rows: [
        { at: 'cbc:TaxableAmount', from: field('taxable_amount'), format: 'amount' },
        { at: 'cbc:TaxAmount', from: field('tax_amount'), format: 'amount' },
        { at: 'cbc:BaseUnitMeasure', from: field('base_unit_measure'), format: 'decimal' },
        { at: 'cbc:BaseUnitMeasure@unitCode', from: field('unit_measure_code'), if: 'base_unit_measure' },
        { at: 'cbc:PerUnitAmount', from: field('per_unit_amount'), format: 'amount' },
        { at: 'cac:TaxCategory/cbc:Percent', from: field('percent'), format: 'percent' },
        { at: 'cac:TaxCategory/cac:TaxScheme/cbc:ID', from: field('tax_code'), format: 'code2' },
        { at: 'cac:TaxCategory/cac:TaxScheme/cbc:Name', from: { calc: 'taxName' } },
      ],
    },
  };
}

function documentReference(group: string, each: string, has: string, kinds: readonly DianKindId[]): MapGroup {
  return {
    group,
    each,
    has,
    kinds,
    rows: [
      { at: `${has}/cbc:ID`, from: field('number') },
      { at: `${has}/cbc:UUID`, from: field('uuid') },
      { at: `${has}/cbc:UUID@schemeName`, from: { calc: 'referenceScheme' } },
      { at: `${has}/cbc:IssueDate`, from: field('issue_date'), format: 'date' },
      { at: `${has}/cbc:DocumentTypeCode`, from: field('document_reference_type_code'), format: 'integer' },
    ],
  };
}

const LINE: readonly MapItem[] = [
  { at: 'cbc:ID', from: { index: true } },
  { group: 'cbc:Note', each: 'notes', rows: [{ at: '', from: field('text') }] },
  { at: '{quantity}', from: field('invoiced_quantity'), format: 'decimal' },
  { at: '{quantity}@unitCode', from: field('unit_measure_code') },
  { at: 'cbc:LineExtensionAmount', from: field('line_extension_amount'), format: 'amount' },
  // UBL's DebitNoteLine has no FreeOfChargeIndicator: the (obsolete) field is accepted there but not written.
  {
    at: 'cbc:FreeOfChargeIndicator',
    from: field('free_of_charge_indicator'),
    format: 'boolean',
    kinds: [...INVOICE_ROOT, 'credit-note', 'note-support-invoice', 'credit-note-equivalent'],
  },
  {
    group: 'cac:InvoicePeriod',
    each: 'invoice_period',
    kinds: ['support-invoice', 'note-support-invoice'],
    rows: [
      { at: 'cbc:StartDate', from: field('start_date'), format: 'date' },
      { at: 'cbc:DescriptionCode', from: field('form_generation_transmission_code'), format: 'integer' },
      { at: 'cbc:Description', from: { calc: 'transmissionName' } },
    ],
  },
  {
    group: 'cac:OrderLineReference',
    each: 'order_line_reference',
    kinds: ['support-invoice'],
    rows: [
      { at: 'cbc:LineID', from: field('id') },
      { at: 'cac:OrderReference/cbc:ID', from: field('id'), copy: true },
      { at: 'cac:OrderReference/cbc:IssueDate', from: field('issue_date'), format: 'date' },
    ],
  },
  {
    group: 'cac:ReceiptLineReference',
    each: 'receipt_line_reference',
    kinds: ['support-invoice'],
    rows: [
      { at: 'cbc:LineID', from: field('id') },
      { at: 'cac:DocumentReference/cbc:ID', from: field('id'), copy: true },
      { at: 'cac:DocumentReference/cbc:IssueDate', from: field('issue_date'), format: 'date' },
    ],
  },
  {
    group: 'cac:PricingReference/cac:AlternativeConditionPrice',
    each: null,
    rows: [
      // A line with a reference price (a free sample) states the item's commercial value here, and a price of 0.
      { at: 'cbc:PriceAmount', from: field('price_amount'), format: 'amount', if: 'reference_price_code' },
      { at: 'cbc:PriceTypeCode', from: field('reference_price_code') },
    ],
    has: 'cbc:PriceTypeCode',
    if: 'reference_price_code',
  },
  {
    group: 'cac:AllowanceCharge',
    each: 'allowance_charges',
    rows: [
      { at: 'cbc:ID', from: { index: true } },
      { at: 'cbc:ChargeIndicator', from: field('charge_indicator'), format: 'boolean' },
      { at: 'cbc:AllowanceChargeReason', from: field('allowance_charge_reason') },
      { at: 'cbc:MultiplierFactorNumeric', from: field('multiplier_factor_numeric'), format: 'decimal' },
      { at: 'cbc:Amount', from: field('amount'), format: 'amount' },
      { at: 'cbc:BaseAmount', from: field('base_amount'), format: 'amount' },
    ],
  },
  taxTotals('cac:TaxTotal', 'tax_totals', true),
  { ...taxTotals('cac:WithholdingTaxTotal', 'withholding_tax_totals', false), kinds: INVOICE_ROOT },
  { group: 'cac:Item/cbc:Description', each: 'description', split: ';', rows: [{ at: '', from: { calc: 'item' } }] },
  { at: 'cac:Item/cbc:BrandName', from: field('brand_name') },
  { at: 'cac:Item/cbc:ModelName', from: field('model_name') },
  { at: 'cac:Item/cac:SellersItemIdentification/cbc:ID', from: field('vendor_code') },
  { at: 'cac:Item/cac:StandardItemIdentification/cbc:ID', from: field('code') },
  { at: 'cac:Item/cac:StandardItemIdentification/cbc:ID@schemeID', from: field('item_identification_type_code') },
  {
    group: 'cac:Item/cac:AdditionalItemProperty',
    each: 'additional_item_properties',
    rows: [
      { at: 'cbc:Name', from: field('name') },
      { at: 'cbc:Value', from: field('value') },
      { at: 'cbc:ValueQuantity', from: field('value_quantity'), format: 'decimal' },
      { at: 'cbc:ValueQuantity@unitCode', from: field('unit_measure_code'), if: 'value_quantity' },
    ],
  },
  {
    group: 'cac:Item/cac:InformationContentProviderParty/cac:PowerOfAttorney/cac:AgentParty/cac:PartyIdentification/cbc:ID',
    each: 'information_content_provider_party',
    rows: [
      { at: '', from: field('identification_number'), format: 'integer' },
      { at: '@schemeAgencyID', from: { lit: '195' } },
      { at: '@schemeName', from: field('identification_type_code'), format: 'integer' },
    ],
  },
  { at: 'cac:Price/cbc:PriceAmount', from: field('price_amount'), format: 'amount', unless: 'reference_price_code' },
  { at: 'cac:Price/cbc:PriceAmount', from: { lit: '0' }, format: 'amount', if: 'reference_price_code' },
  { at: 'cac:Price/cbc:BaseQuantity', from: field('base_quantity'), format: 'decimal' },
  { at: 'cac:Price/cbc:BaseQuantity@unitCode', from: field('unit_measure_code'), copy: true },
];

const TOTALS: readonly MapRow[] = [
  { at: 'cbc:LineExtensionAmount', from: field('line_extension_amount'), format: 'amount' },
  { at: 'cbc:TaxExclusiveAmount', from: field('tax_exclusive_amount'), format: 'amount' },
  { at: 'cbc:TaxInclusiveAmount', from: field('tax_inclusive_amount'), format: 'amount' },
  { at: 'cbc:AllowanceTotalAmount', from: field('allowance_total_amount'), format: 'amount' },
  { at: 'cbc:ChargeTotalAmount', from: field('charge_total_amount'), format: 'amount' },
  { at: 'cbc:PrepaidAmount', from: { calc: 'prepaidAmount' }, format: 'amount' },
  { at: 'cbc:PayableRoundingAmount', from: field('payable_rounding_amount'), format: 'amount' },
  { at: 'cbc:PayableAmount', from: field('payable_amount'), format: 'amount' },
];

const DIAN_EXT = 'ext:ExtensionContent/sts:DianExtensions';

/** The whole document, header to lines. */
export const UBL_MAP: readonly MapItem[] = [
  // ---- UBLExtensions: the POS extensions (§1.3, [C]), DianExtensions, then the empty one the signature fills.
  {
    group: 'ext:UBLExtensions/ext:UBLExtension',
    each: 'software_manufacturer',
    kinds: ['pos'],
    has: 'ext:ExtensionContent/FabricanteSoftware',
    rows: [],
    pairs: {
      at: 'ext:ExtensionContent/FabricanteSoftware/InformacionDelFabricanteDelSoftware',
      list: [
        ['NombreApellido', 'software_developer'],
        ['RazonSocial', 'registration_name'],
        ['NombreSoftware', 'software_name'],
      ],
    },
  },
  {
    group: 'ext:UBLExtensions/ext:UBLExtension',
    each: 'customer_benefits',
    kinds: ['pos'],
    has: 'ext:ExtensionContent/BeneficiosComprador',
    rows: [],
    pairs: {
      at: 'ext:ExtensionContent/BeneficiosComprador/InformacionBeneficiosComprador',
      list: [
        ['Codigo', 'identification_number'],
        ['NombresApellidos', 'name'],
        ['Puntos', 'points'],
      ],
    },
  },
  {
    group: 'ext:UBLExtensions/ext:UBLExtension',
    each: 'cash_register',
    kinds: ['pos'],
    has: 'ext:ExtensionContent/PuntoVenta',
    rows: [],
    pairs: {
      at: 'ext:ExtensionContent/PuntoVenta/InformacionCajaVenta',
      list: [
        ['PlacaCaja', 'name'],
        ['UbicaciónCaja', 'ubication'],
        ['Cajero', 'cashier'],
        ['TipoCaja', 'type'],
        ['CódigoVenta', 'sale_reference'],
        ['SubTotal', 'subtotal'],
      ],
    },
  },
  {
    group: 'ext:UBLExtensions/ext:UBLExtension',
    each: null,
    has: DIAN_EXT,
    rows: [
      { at: `${DIAN_EXT}/sts:InvoiceControl/sts:InvoiceAuthorization`, from: field('resolution_number'), format: 'integer', kinds: INVOICE_ROOT },
      { at: `${DIAN_EXT}/sts:InvoiceControl/sts:AuthorizationPeriod/cbc:StartDate`, from: { ctx: 'resolution.start_date' }, kinds: INVOICE_ROOT },
      { at: `${DIAN_EXT}/sts:InvoiceControl/sts:AuthorizationPeriod/cbc:EndDate`, from: { ctx: 'resolution.end_date' }, kinds: INVOICE_ROOT },
      { at: `${DIAN_EXT}/sts:InvoiceControl/sts:AuthorizedInvoices/sts:Prefix`, from: { ctx: 'resolution.prefix' }, kinds: INVOICE_ROOT },
      { at: `${DIAN_EXT}/sts:InvoiceControl/sts:AuthorizedInvoices/sts:From`, from: { ctx: 'resolution.from' }, kinds: INVOICE_ROOT },
      { at: `${DIAN_EXT}/sts:InvoiceControl/sts:AuthorizedInvoices/sts:To`, from: { ctx: 'resolution.to' }, kinds: INVOICE_ROOT },
      { at: `${DIAN_EXT}/sts:InvoiceSource/cbc:IdentificationCode`, from: { lit: 'CO' } },
      { at: `${DIAN_EXT}/sts:InvoiceSource/cbc:IdentificationCode@listAgencyID`, from: { lit: '6' } },
      { at: `${DIAN_EXT}/sts:InvoiceSource/cbc:IdentificationCode@listAgencyName`, from: { lit: 'United Nations Economic Commission for Europe' } },
      {
        at: `${DIAN_EXT}/sts:InvoiceSource/cbc:IdentificationCode@listSchemeURI`,
        from: { lit: 'urn:oasis:names:specification:ubl:codelist:gc:CountryIdentificationCode-2.1' },
      },
      ...companyId(`${DIAN_EXT}/sts:SoftwareProvider/sts:ProviderID`, { ctx: 'software.provider_nit' }, { ctx: 'software.provider_dv' }, { lit: '31' }),
      { at: `${DIAN_EXT}/sts:SoftwareProvider/sts:SoftwareID`, from: { ctx: 'software.id' } },
      ...AGENCY.map((r) => ({ ...r, at: `${DIAN_EXT}/sts:SoftwareProvider/sts:SoftwareID${r.at}` })),
      { at: `${DIAN_EXT}/sts:SoftwareSecurityCode`, from: { calc: 'securityCode' } },
      ...AGENCY.map((r) => ({ ...r, at: `${DIAN_EXT}/sts:SoftwareSecurityCode${r.at}` })),
      ...companyId(`${DIAN_EXT}/sts:AuthorizationProvider/sts:AuthorizationProviderID`, { lit: '800197268' }, { lit: '4' }, { lit: '31' }),
      { at: `${DIAN_EXT}/sts:QRCode`, from: { calc: 'qrCode' } },
    ],
  },
  // The signature's place: an empty ExtensionContent, always last.
  { group: 'ext:UBLExtensions/ext:UBLExtension', each: null, has: 'ext:ExtensionContent', rows: [{ at: 'ext:ExtensionContent', from: { lit: '' } }] },
  // ---- header
  { at: 'cbc:UBLVersionID', from: { lit: 'UBL 2.1' } },
  { at: 'cbc:CustomizationID', from: field('operation_type_code') },
  { at: 'cbc:ProfileID', from: { calc: 'profileId' } },
  { at: 'cbc:ProfileExecutionID', from: { ctx: 'environment' } },
  { at: 'cbc:ID', from: { calc: 'documentId' } },
  { at: 'cbc:UUID', from: { calc: 'uuid' } },
  { at: 'cbc:UUID@schemeID', from: { ctx: 'environment' } },
  { at: 'cbc:UUID@schemeName', from: { calc: 'uuidScheme' } },
  { at: 'cbc:IssueDate', from: { calc: 'issueDate' } },
  { at: 'cbc:IssueTime', from: { calc: 'issueTime' } },
  { at: 'cbc:DueDate', from: field('due_date'), format: 'date', kinds: INVOICE_ROOT },
  {
    at: '{typeCode}',
    from: { calc: 'typeCode' },
    kinds: ['invoice', 'export-invoice', 'contingency-invoice', 'support-invoice', 'pos', 'credit-note', 'note-support-invoice', 'credit-note-equivalent'],
  },
  { group: 'cbc:Note', each: 'notes', rows: [{ at: '', from: field('text') }] },
  { at: 'cbc:DocumentCurrencyCode', from: field('currency_type_code') },
  { at: 'cbc:LineCountNumeric', from: { calc: 'lineCount' } },
  {
    group: 'cac:InvoicePeriod',
    each: 'invoice_period',
    rows: [
      { at: 'cbc:StartDate', from: field('start_date'), format: 'date' },
      { at: 'cbc:StartTime', from: field('start_time'), format: 'time' },
      { at: 'cbc:EndDate', from: field('end_date'), format: 'date' },
      { at: 'cbc:EndTime', from: field('end_time'), format: 'time' },
    ],
  },
  {
    group: 'cac:DiscrepancyResponse',
    each: 'discrepancy_response',
    kinds: NOTE_KINDS,
    rows: [
      { at: 'cbc:ReferenceID', from: field('reference') },
      { at: 'cbc:ResponseCode', from: field('correction_concept_code') },
      { at: 'cbc:Description', from: field('description') },
    ],
  },
  {
    group: 'cac:OrderReference',
    each: 'order_reference',
    rows: [
      { at: 'cbc:ID', from: field('id') },
      { at: 'cbc:IssueDate', from: field('issue_date'), format: 'date' },
    ],
  },
  {
    group: 'cac:BillingReference',
    each: 'billing_reference',
    kinds: NOTE_KINDS,
    has: 'cac:InvoiceDocumentReference',
    rows: [
      { at: 'cac:InvoiceDocumentReference/cbc:ID', from: field('number') },
      { at: 'cac:InvoiceDocumentReference/cbc:UUID', from: field('uuid') },
      { at: 'cac:InvoiceDocumentReference/cbc:UUID@schemeName', from: { calc: 'referenceScheme' } },
      { at: 'cac:InvoiceDocumentReference/cbc:IssueDate', from: field('issue_date'), format: 'date' },
      { at: 'cac:InvoiceDocumentReference/cbc:DocumentTypeCode', from: field('type_document_code') },
    ],
  },
  documentReference('cac:BillingReference', 'invoice_document_references', 'cac:InvoiceDocumentReference', ['support-invoice']),
  documentReference('cac:BillingReference', 'credit_note_document_references', 'cac:CreditNoteDocumentReference', [
    'support-invoice',
    'pos',
    'contingency-invoice',
  ]),
  documentReference('cac:BillingReference', 'debit_note_document_references', 'cac:DebitNoteDocumentReference', [
    'support-invoice',
    'pos',
    'contingency-invoice',
  ]),
  {
    group: 'cac:ReceiptDocumentReference',
    each: 'receipt_document_references',
    kinds: ['support-invoice'],
    rows: [
      { at: 'cbc:ID', from: field('id') },
      { at: 'cbc:IssueDate', from: field('issue_date'), format: 'date' },
    ],
  },
  {
    group: 'cac:AdditionalDocumentReference',
    each: 'additional_document_references',
    rows: [
      { at: 'cbc:ID', from: field('number') },
      { at: 'cbc:IssueDate', from: field('issue_date'), format: 'date' },
      { at: 'cbc:DocumentTypeCode', from: field('type_of_non_tax_document_id') },
    ],
  },
  // ---- parties
  { group: '{companyParty}', each: null, rows: party(companySrc, { ctx: 'company.name' }, { field: 'identification_number' }) },
  {
    group: '{companyParty}/cac:Party/cac:PartyLegalEntity/cac:ShareholderParty',
    each: 'supplier.shareholder',
    rows: [
      { at: 'cbc:PartecipationPercent', from: field('partecipation_percent'), format: 'integer' },
      { at: 'cac:Party/cac:PartyTaxScheme/cbc:RegistrationName', from: field('name') },
      ...companyId('cac:Party/cac:PartyTaxScheme/cbc:CompanyID', field('identification_number'), field('dv'), field('identification_type_code')),
      { at: 'cac:Party/cac:PartyTaxScheme/cbc:TaxLevelCode', from: field('liability_type_code') },
      { at: 'cac:Party/cac:PartyTaxScheme/cac:TaxScheme/cbc:ID', from: field('tax_code') },
      { at: 'cac:Party/cac:PartyTaxScheme/cac:TaxScheme/cbc:Name', from: { calc: 'taxName' } },
    ],
  },
  { group: '{customerParty}', each: null, rows: party(customerSrc, field('customer.name'), field('customer.identification_number')) },
  // ---- delivery, payment
  {
    group: 'cac:Delivery',
    each: 'delivery',
    rows: [
      { at: 'cbc:ActualDeliveryDate', from: field('actual_delivery_date'), format: 'date' },
      { at: 'cbc:ActualDeliveryTime', from: field('actual_delivery_time'), format: 'time' },
    ],
  },
  {
    group: 'cac:DeliveryTerms',
    each: 'delivery.delivery_terms',
    rows: [
      { at: 'cbc:SpecialTerms', from: field('special_terms') },
      { at: 'cbc:LossRisk', from: field('loss_risk') },
    ],
  },
  {
    group: 'cac:PaymentMeans',
    each: 'payment_forms',
    rows: [
      { at: 'cbc:ID', from: field('payment_form_code') },
      { at: 'cbc:PaymentMeansCode', from: field('payment_method_code') },
      { at: 'cbc:PaymentDueDate', from: field('payment_due_date'), format: 'date' },
    ],
  },
  {
    group: 'cac:PaymentTerms',
    each: 'payment_forms',
    if: 'duration_measure',
    joinOn: { at: 'cbc:PaymentMeansID', field: 'payment_form_code' },
    rows: [
      { at: 'cbc:PaymentMeansID', from: field('payment_form_code') },
      { at: 'cac:SettlementPeriod/cbc:DurationMeasure', from: field('duration_measure'), format: 'integer' },
      { at: 'cac:SettlementPeriod/cbc:DurationMeasure@unitCode', from: { lit: 'DAY' } },
    ],
  },
  {
    group: 'cac:PrepaidPayment',
    each: 'prepaid_payments',
    kinds: NOT_CREDIT_ROOT,
    rows: [
      { at: 'cbc:ID', from: field('identifier') },
      { at: 'cbc:PaidAmount', from: field('paid_amount'), format: 'amount' },
      { at: 'cbc:ReceivedDate', from: field('received_date'), format: 'date' },
      { at: 'cbc:PaidDate', from: field('paid_date'), format: 'date' },
      { at: 'cbc:InstructionID', from: field('instruction_id') },
    ],
  },
  {
    group: 'cac:AllowanceCharge',
    each: 'allowance_charges',
    rows: [
      { at: 'cbc:ID', from: { index: true } },
      { at: 'cbc:ChargeIndicator', from: field('charge_indicator'), format: 'boolean' },
      { at: 'cbc:AllowanceChargeReasonCode', from: field('discount_code') },
      { at: 'cbc:AllowanceChargeReason', from: field('allowance_charge_reason') },
      { at: 'cbc:Amount', from: field('amount'), format: 'amount' },
      { at: 'cbc:BaseAmount', from: field('base_amount'), format: 'amount' },
    ],
  },
  {
    group: 'cac:PaymentExchangeRate',
    each: 'payment_exchange_rate',
    rows: [
      { at: 'cbc:SourceCurrencyCode', from: field('currency_type_code') },
      { at: 'cbc:SourceCurrencyBaseRate', from: { lit: '1.00' } },
      { at: 'cbc:TargetCurrencyCode', from: { calc: 'currency' } },
      { at: 'cbc:TargetCurrencyBaseRate', from: { lit: '1.00' } },
      { at: 'cbc:CalculationRate', from: field('calculation_rate'), format: 'decimal' },
      { at: 'cbc:Date', from: field('date'), format: 'date' },
    ],
  },
  taxTotals('cac:TaxTotal', 'tax_totals', true),
  { ...taxTotals('cac:WithholdingTaxTotal', 'withholding_tax_totals', false), kinds: INVOICE_ROOT },
  { group: '{total}', each: '{totals}', rows: TOTALS },
  { group: '{line}', each: '{lines}', rows: LINE },
];
