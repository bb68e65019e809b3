/** Hand-written minimal DIAN documents for the XSD tests (only what the UBL 2.1 schemas require). */

export const NS = {
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  ext: 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
  nomina: 'dian:gov:co:facturaelectronica:NominaIndividual',
};

export interface InvoiceOptions {
  /** Replaces the `ext:UBLExtensions` element (default: one extension holding an `sts:DianExtensions`). */
  extensions?: string;
  /** Swap cbc:IssueDate before cbc:ID (an element out of order). */
  swapIdAndDate?: boolean;
  /** Number of invoice lines (default 1). */
  lines?: number;
  /** Line whose LineExtensionAmount gets the invalid value `abc` (1-based). */
  badLine?: number;
}

const DIAN_EXTENSIONS =
  '<ext:UBLExtensions>\r\n  <ext:UBLExtension>\r\n    <ext:ExtensionContent>' +
  '<sts:DianExtensions xmlns:sts="dian:gov:co:facturaelectronica:Structures-2-1"><sts:InvoiceControl/></sts:DianExtensions>' +
  '</ext:ExtensionContent>\r\n  </ext:UBLExtension>\r\n</ext:UBLExtensions>';

/** A minimal UBL 2.1 Invoice: ID, IssueDate, both parties, LegalMonetaryTotal and the invoice lines (CRLF line ends). */
export function invoice(o: InvoiceOptions = {}): string {
  const id = '<cbc:ID>SETP990000001</cbc:ID>';
  const date = '<cbc:IssueDate>2026-11-24</cbc:IssueDate>';
  const lines: string[] = [];
  for (let i = 1; i <= (o.lines ?? 1); i++) {
    lines.push(
      `<cac:InvoiceLine>\r\n  <cbc:ID>${i}</cbc:ID>\r\n  <cbc:LineExtensionAmount currencyID="COP">${i === o.badLine ? 'abc' : '100.00'}</cbc:LineExtensionAmount>\r\n` +
        `  <cac:Item><cbc:Description>Artículo ${i}</cbc:Description></cac:Item>\r\n</cac:InvoiceLine>`,
    );
  }
  return [
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
    `<Invoice xmlns="${NS.invoice}" xmlns:cac="${NS.cac}" xmlns:cbc="${NS.cbc}" xmlns:ext="${NS.ext}">`,
    o.extensions ?? DIAN_EXTENSIONS,
    '<cbc:UBLVersionID>UBL 2.1</cbc:UBLVersionID>',
    ...(o.swapIdAndDate ? [date, id] : [id, date]),
    '<cac:AccountingSupplierParty><cac:Party><cac:PartyName><cbc:Name>Emisor S.A.S.</cbc:Name></cac:PartyName></cac:Party></cac:AccountingSupplierParty>',
    '<cac:AccountingCustomerParty><cac:Party><cac:PartyName><cbc:Name>Cliente Ñandú</cbc:Name></cac:PartyName></cac:Party></cac:AccountingCustomerParty>',
    '<cac:LegalMonetaryTotal><cbc:PayableAmount currencyID="COP">100.00</cbc:PayableAmount></cac:LegalMonetaryTotal>',
    ...lines,
    '</Invoice>',
    '',
  ].join('\r\n');
}

/** A payroll document that carries the toolbox's empty `<ext:UBLExtensions/>` placeholder and nothing else. */
export function payrollPlaceholder(): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<NominaIndividual xmlns="${NS.nomina}" xmlns:ext="${NS.ext}">\n  <ext:UBLExtensions/>\n</NominaIndividual>\n`;
}
