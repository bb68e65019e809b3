/**
 * DIAN document kinds as data (dian-protocol.md §1.1). Two tables:
 *
 * - {@link DOCUMENT_TYPES}: one row per document type code (the `document_type_code` a request carries): the UBL
 *   root, the ProfileID literal, the UUID scheme and which code (CUFE, CUDE, CUDS) it carries.
 * - {@link DIAN_KINDS}: one row per service endpoint (dian-service.md) plus the plain invoice and credit note the
 *   service adds: the root, the names that differ between roots (lines, quantity, monetary total), the type codes
 *   the endpoint takes, and its extra UBL extensions.
 *
 * Nothing else in the DIAN core branches on a kind: builder, parser, validation and docs read these rows.
 */

export type DianRoot = 'Invoice' | 'CreditNote' | 'DebitNote';
export type DianCodeKind = 'cufe' | 'cude' | 'cuds';

export interface DocumentTypeRow {
  code: string;
  root: DianRoot;
  /** `cbc:ProfileID` literal (§1.1). */
  profileId: string;
  /** `cbc:UUID/@schemeName`. */
  uuidScheme: 'CUFE-SHA384' | 'CUDE-SHA384' | 'CUDS-SHA384';
  hash: DianCodeKind;
  /** Written as `cbc:InvoiceTypeCode` / `cbc:CreditNoteTypeCode`; a DebitNote has no type code element. */
  writesTypeCode: boolean;
  /** Spanish name, for messages and the PDF. */
  name: string;
  /** Title of the printed representation (the PDF's document box). */
  printTitle: string;
  /** Confidence of the row's literals (§1.1 marks). */
  confidence: 'V' | 'C';
}

const FEV = 'DIAN 2.1: Factura Electrónica de Venta';

export const DOCUMENT_TYPES: Readonly<Record<string, DocumentTypeRow>> = {
  '01': {
    code: '01',
    root: 'Invoice',
    profileId: FEV,
    uuidScheme: 'CUFE-SHA384',
    hash: 'cufe',
    writesTypeCode: true,
    name: 'Factura electrónica de venta',
    printTitle: 'Factura electrónica de venta',
    confidence: 'V',
  },
  '02': {
    code: '02',
    root: 'Invoice',
    profileId: FEV,
    uuidScheme: 'CUFE-SHA384',
    hash: 'cufe',
    writesTypeCode: true,
    name: 'Factura de exportación',
    printTitle: 'Factura electrónica de venta - exportación',
    confidence: 'V',
  },
  '03': {
    code: '03',
    root: 'Invoice',
    profileId: FEV,
    uuidScheme: 'CUDE-SHA384',
    hash: 'cude',
    writesTypeCode: true,
    name: 'Instrumento electrónico de transmisión (contingencia del facturador)',
    printTitle: 'Factura electrónica de venta - contingencia del facturador',
    confidence: 'C',
  },
  '04': {
    code: '04',
    root: 'Invoice',
    profileId: FEV,
    uuidScheme: 'CUFE-SHA384',
    hash: 'cufe',
    writesTypeCode: true,
    name: 'Factura de contingencia DIAN',
    printTitle: 'Factura electrónica de venta - contingencia DIAN',
    confidence: 'V',
  },
  '05': {
    code: '05',
    root: 'Invoice',
    profileId: 'DIAN 2.1: documento soporte en adquisiciones efectuadas a no obligados a facturar.',
    uuidScheme: 'CUDS-SHA384',
    hash: 'cuds',
    writesTypeCode: true,
    name: 'Documento soporte',
    printTitle: 'Documento soporte en adquisiciones a no obligados a facturar',
    confidence: 'C',
  },
  '20': {
    code: '20',
    root: 'Invoice',
    profileId: 'DIAN 2.1: Documento Equivalente POS',
    uuidScheme: 'CUDE-SHA384',
    hash: 'cude',
    writesTypeCode: true,
    name: 'Documento equivalente P.O.S.',
    printTitle: 'Documento equivalente electrónico P.O.S.',
    confidence: 'C',
  },
  '91': {
    code: '91',
    root: 'CreditNote',
    profileId: 'DIAN 2.1: Nota Crédito de Factura Electrónica de Venta',
    uuidScheme: 'CUDE-SHA384',
    hash: 'cude',
    writesTypeCode: true,
    name: 'Nota crédito',
    printTitle: 'Nota crédito electrónica',
    confidence: 'V',
  },
  '92': {
    code: '92',
    root: 'DebitNote',
    profileId: 'DIAN 2.1: Nota Débito de Factura Electrónica de Venta',
    uuidScheme: 'CUDE-SHA384',
    hash: 'cude',
    writesTypeCode: false,
    name: 'Nota débito',
    printTitle: 'Nota débito electrónica',
    confidence: 'V',
  },
  '94': {
    code: '94',
    root: 'CreditNote',
    profileId: 'DIAN 2.1: Nota de ajuste crédito al documento equivalente',
    uuidScheme: 'CUDE-SHA384',
    hash: 'cude',
    writesTypeCode: true,
    name: 'Nota de ajuste crédito al documento equivalente',
    printTitle: 'Nota de ajuste crédito del documento equivalente electrónico',
    confidence: 'C',
  },
  '95': {
    code: '95',
    root: 'CreditNote',
    profileId: 'DIAN 2.1: Nota de ajuste al documento soporte en adquisiciones efectuadas a sujetos no obligados a expedir factura o documento equivalente',
    uuidScheme: 'CUDS-SHA384',
    hash: 'cuds',
    writesTypeCode: true,
    name: 'Nota de ajuste al documento soporte',
    printTitle: 'Nota de ajuste del documento soporte',
    confidence: 'C',
  },
};

export type DianKindId =
  | 'invoice'
  | 'export-invoice'
  | 'contingency-invoice'
  | 'credit-note'
  | 'debit-note'
  | 'support-invoice'
  | 'note-support-invoice'
  | 'pos'
  | 'credit-note-equivalent';

export interface DianKind {
  id: DianKindId;
  /** Service path (dian-service.md; `/service/invoice` and `/service/credit-note` are the two the service adds). */
  path: string;
  root: DianRoot;
  /** Type codes the endpoint takes in `document_type_code`; the first is the default when parsing. */
  typeCodes: readonly string[];
  /** Request field holding the lines. */
  linesField: 'invoice_lines' | 'credit_note_lines' | 'debit_note_lines';
  /** Request field holding the totals. */
  totalsField: 'legal_monetary_totals' | 'requested_monetary_totals';
  /** Which party of the UBL document the request's `customer` is (a support document's `customer` is the seller). */
  customerRole: 'customer' | 'supplier';
  /** Whether `sts:InvoiceControl` (the numbering resolution) is written (§1.4: invoices, DS, POS). */
  invoiceControl: boolean;
  /** The POS extensions (§1.3, [C]) before DianExtensions. */
  posExtensions: boolean;
  /** Spanish name for messages. */
  name: string;
}

export const DIAN_KINDS: Readonly<Record<DianKindId, DianKind>> = {
  invoice: {
    id: 'invoice',
    path: '/service/invoice',
    root: 'Invoice',
    typeCodes: ['01'],
    linesField: 'invoice_lines',
    totalsField: 'legal_monetary_totals',
    customerRole: 'customer',
    invoiceControl: true,
    posExtensions: false,
    name: 'factura electrónica de venta',
  },
  'export-invoice': {
    id: 'export-invoice',
    path: '/service/export-invoice',
    root: 'Invoice',
    typeCodes: ['02'],
    linesField: 'invoice_lines',
    totalsField: 'legal_monetary_totals',
    customerRole: 'customer',
    invoiceControl: true,
    posExtensions: false,
    name: 'factura de exportación',
  },
  'contingency-invoice': {
    id: 'contingency-invoice',
    path: '/service/contingency-invoice',
    root: 'Invoice',
    typeCodes: ['04', '03'],
    linesField: 'invoice_lines',
    totalsField: 'legal_monetary_totals',
    customerRole: 'customer',
    invoiceControl: true,
    posExtensions: false,
    name: 'factura de contingencia',
  },
  'credit-note': {
    id: 'credit-note',
    path: '/service/credit-note',
    root: 'CreditNote',
    typeCodes: ['91'],
    linesField: 'credit_note_lines',
    totalsField: 'legal_monetary_totals',
    customerRole: 'customer',
    invoiceControl: false,
    posExtensions: false,
    name: 'nota crédito',
  },
  'debit-note': {
    id: 'debit-note',
    path: '/service/debit-note',
    root: 'DebitNote',
    typeCodes: ['92'],
    linesField: 'debit_note_lines',
    totalsField: 'requested_monetary_totals',
    customerRole: 'customer',
    invoiceControl: false,
    posExtensions: false,
    name: 'nota débito',
  },
  'support-invoice': {
    id: 'support-invoice',
    path: '/service/support-invoice',
    root: 'Invoice',
    typeCodes: ['05'],
    linesField: 'invoice_lines',
    totalsField: 'legal_monetary_totals',
    customerRole: 'supplier',
    invoiceControl: true,
    posExtensions: false,
    name: 'documento soporte',
  },
  'note-support-invoice': {
    id: 'note-support-invoice',
    path: '/service/note-support-invoice',
    root: 'CreditNote',
    typeCodes: ['95'],
    linesField: 'credit_note_lines',
    totalsField: 'legal_monetary_totals',
    customerRole: 'supplier',
    invoiceControl: false,
    posExtensions: false,
    name: 'nota de ajuste al documento soporte',
  },
  pos: {
    id: 'pos',
    path: '/service/pos',
    root: 'Invoice',
    typeCodes: ['20'],
    linesField: 'invoice_lines',
    totalsField: 'legal_monetary_totals',
    customerRole: 'customer',
    invoiceControl: true,
    posExtensions: true,
    name: 'documento equivalente P.O.S.',
  },
  'credit-note-equivalent': {
    id: 'credit-note-equivalent',
    path: '/service/credit-note-equivalent',
    root: 'CreditNote',
    typeCodes: ['94'],
    linesField: 'credit_note_lines',
    totalsField: 'legal_monetary_totals',
    customerRole: 'customer',
    invoiceControl: false,
    posExtensions: false,
    name: 'nota de ajuste del documento equivalente',
  },
};

export const DIAN_KIND_IDS = Object.keys(DIAN_KINDS) as DianKindId[];

/** Element names that differ by root. */
export const ROOT_NAMES: Readonly<Record<DianRoot, { line: string; quantity: string; total: string; typeCode: string | null }>> = {
  Invoice: { line: 'cac:InvoiceLine', quantity: 'cbc:InvoicedQuantity', total: 'cac:LegalMonetaryTotal', typeCode: 'cbc:InvoiceTypeCode' },
  CreditNote: { line: 'cac:CreditNoteLine', quantity: 'cbc:CreditedQuantity', total: 'cac:LegalMonetaryTotal', typeCode: 'cbc:CreditNoteTypeCode' },
  DebitNote: { line: 'cac:DebitNoteLine', quantity: 'cbc:DebitedQuantity', total: 'cac:RequestedMonetaryTotal', typeCode: null },
};
