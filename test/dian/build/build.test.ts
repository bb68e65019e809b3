/**
 * The DIAN builder on every kind: the XML the official XSDs accept (with the unsigned placeholder until signing),
 * the same bytes for the same input, the element order of the XSD sequences, and codes that recompute from the
 * XML written.
 */
import { describe, expect, it } from 'vitest';
import { buildDianDocument } from '../../../src/dian/build/build.js';
import { cude, cufe, cuds } from '../../../src/dian/codes/invoice.js';
import { softwareSecurityCode } from '../../../src/dian/codes/security-code.js';
import { DIAN_KIND_IDS, DIAN_KINDS, DOCUMENT_TYPES } from '../../../src/dian/spec/kinds.js';
import { readUbl } from '../../../src/dian/ubl/read.js';
import { all, attr, textAt } from '../../../src/dian/ubl/tree.js';
import { createDianSchemaValidator, detectDianSchemaId } from '../../../src/dian/xsd/index.js';
import { CONTEXT, minimalRequest } from '../helpers/build-fixtures.js';
import { dianXsdDir } from '../helpers/env.js';

const validator = createDianSchemaValidator(dianXsdDir());

function build(kind: (typeof DIAN_KIND_IDS)[number], lines = 2) {
  const r = buildDianDocument(kind, minimalRequest(kind, lines), CONTEXT);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r;
}

describe('buildDianDocument', () => {
  it.each(DIAN_KIND_IDS)('%s: builds XML the official XSDs accept, with the root and literals of its kind', (kind) => {
    const r = build(kind);
    const schema = detectDianSchemaId(r.xml);
    expect(schema).toBe(DIAN_KINDS[kind].root);
    expect(validator.validate(r.xml, schema!, { unsigned: true })).toEqual({ valid: true, violations: [] });
    const read = readUbl(r.xml);
    if (!read.ok) throw new Error(read.message);
    const type = DOCUMENT_TYPES[minimalRequest(kind).document_type_code as string]!;
    expect(textAt(read.root, 'cbc:ProfileID')).toBe(type.profileId);
    expect(
      attr(
        read.root.children.find((c) => c.name === 'cbc:UUID'),
        'schemeName',
      ),
    ).toBe(type.uuidScheme);
    expect(textAt(read.root, 'cbc:IssueTime')).toBe('10:15:00-05:00');
    expect(textAt(read.root, 'cbc:ProfileExecutionID')).toBe('2');
    // Two extensions (DianExtensions, then the signature's empty place), plus three before them on a POS document.
    const exts = all(read.root, 'ext:UBLExtensions/ext:UBLExtension');
    expect(exts).toHaveLength(kind === 'pos' ? 5 : 2);
    expect(exts.at(-1)!.children).toEqual([{ name: 'ext:ExtensionContent', attrs: [], children: [] }]);
    expect(all(exts.at(-2), 'ext:ExtensionContent/sts:DianExtensions')).toHaveLength(1);
    expect(all(read.root, 'ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/sts:DianExtensions/sts:InvoiceControl')).toHaveLength(
      DIAN_KINDS[kind].invoiceControl ? 1 : 0,
    );
  });

  it("names places from DIAN's code lists: city, department and country of a Colombian address, the country elsewhere", () => {
    const r = build('invoice');
    expect(r.xml).toContain(
      '<cac:Address><cbc:ID>05001</cbc:ID><cbc:CityName>Medellín</cbc:CityName><cbc:CountrySubentity>Antioquia</cbc:CountrySubentity><cbc:CountrySubentityCode>05</cbc:CountrySubentityCode>',
    );
    const req = minimalRequest('export-invoice');
    req.customer = { ...(req.customer as object), country_code: 'US', municipality_code: undefined };
    const x = buildDianDocument('export-invoice', JSON.parse(JSON.stringify(req)), CONTEXT);
    if (!x.ok) throw new Error(JSON.stringify(x.issues));
    const customer = x.xml.slice(x.xml.indexOf('<cac:AccountingCustomerParty>'));
    expect(customer).toContain('<cac:Country><cbc:IdentificationCode>US</cbc:IdentificationCode><cbc:Name languageID="es">Estados Unidos</cbc:Name>');
    expect(customer.slice(0, customer.indexOf('</cac:PhysicalLocation>'))).not.toContain('CityName');
  });

  it('gives the same bytes for the same input', () => {
    for (const kind of DIAN_KIND_IDS) expect(build(kind).xml).toBe(build(kind).xml);
  });

  it('puts elements in XSD order whatever the mapping order: CreditNoteLine has TaxTotal before AllowanceCharge, InvoiceLine after', () => {
    const withDiscount = (kind: 'invoice' | 'credit-note') => {
      const req = minimalRequest(kind);
      const lines = req[DIAN_KINDS[kind].linesField] as Record<string, unknown>[];
      lines[0]!.allowance_charges = [{ charge_indicator: false, allowance_charge_reason: 'Descuento', amount: 100, base_amount: 1000 }];
      const r = buildDianDocument(kind, req, CONTEXT);
      if (!r.ok) throw new Error(JSON.stringify(r.issues));
      const line = r.root.children.find((c) => c.name === (kind === 'invoice' ? 'cac:InvoiceLine' : 'cac:CreditNoteLine'))!;
      const xmlLine = r.xml.slice(r.xml.indexOf(kind === 'invoice' ? '<cac:InvoiceLine>' : '<cac:CreditNoteLine>'));
      expect(line.children.some((c) => c.name === 'cac:AllowanceCharge')).toBe(true);
      return xmlLine.indexOf('<cac:AllowanceCharge>') < xmlLine.indexOf('<cac:TaxTotal>');
    };
    expect(withDiscount('invoice')).toBe(true);
    expect(withDiscount('credit-note')).toBe(false);
  });

  it.each(DIAN_KIND_IDS)('%s: the UUID, security code and QR recompute from the XML written', (kind) => {
    const r = build(kind);
    const read = readUbl(r.xml);
    if (!read.ok) throw new Error(read.message);
    const root = read.root;
    const total = DIAN_KINDS[kind].root === 'DebitNote' ? 'cac:RequestedMonetaryTotal' : 'cac:LegalMonetaryTotal';
    const fields = {
      id: textAt(root, 'cbc:ID')!,
      issueDate: textAt(root, 'cbc:IssueDate')!,
      issueTime: textAt(root, 'cbc:IssueTime')!,
      lineExtensionAmount: textAt(root, `${total}/cbc:LineExtensionAmount`)!,
      ivaTaxAmount: textAt(root, 'cac:TaxTotal/cbc:TaxAmount')!,
      payableAmount: textAt(root, `${total}/cbc:PayableAmount`)!,
      supplierCompanyId: textAt(root, 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID')!,
      customerCompanyId: textAt(root, 'cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID')!,
      environment: '2' as const,
    };
    const type = DOCUMENT_TYPES[minimalRequest(kind).document_type_code as string]!;
    const expected =
      type.hash === 'cufe'
        ? cufe({ ...fields, technicalKey: CONTEXT.resolution!.technical_key! })
        : type.hash === 'cude'
          ? cude({ ...fields, softwarePin: CONTEXT.software.pin })
          : cuds({ ...fields, softwarePin: CONTEXT.software.pin });
    expect(textAt(root, 'cbc:UUID')).toBe(expected.hash);
    expect(r.codes.hash).toBe(expected.hash);
    const dian = 'ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/sts:DianExtensions';
    const ext = all(root, dian)[0];
    expect(textAt(ext, 'sts:SoftwareSecurityCode')).toBe(
      softwareSecurityCode({ softwareId: CONTEXT.software.id, softwarePin: CONTEXT.software.pin, number: fields.id }).hash,
    );
    expect(textAt(ext, 'sts:QRCode')).toBe(`https://catalogo-vpfe-hab.dian.gov.co/document/searchqr?documentkey=${expected.hash}`);
    // The supplier of a support document is the seller (the request's customer); elsewhere the company.
    const seller = DIAN_KINDS[kind].customerRole === 'supplier' ? '900108281' : '900508908';
    expect(fields.supplierCompanyId).toBe(seller);
  });

  it('writes amounts rounded half-to-even to 2 decimals, with the document currency', () => {
    const req = minimalRequest('invoice');
    (req.legal_monetary_totals as Record<string, number>).payable_amount = 476000.125;
    const r = buildDianDocument('invoice', req, CONTEXT);
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(r.xml).toContain('<cbc:PayableAmount currencyID="COP">476000.12</cbc:PayableAmount>');
  });

  it('takes the Bogotá date and time from the clock when the request has none (never the UTC day)', () => {
    const req = minimalRequest('invoice');
    delete req.date;
    delete req.time;
    // 03:30 UTC on the 25th is 22:30 on the 24th in Bogotá.
    const r = buildDianDocument('invoice', req, { ...CONTEXT, now: () => new Date('2026-11-25T03:30:00Z') });
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(r.xml).toContain('<cbc:IssueDate>2026-11-24</cbc:IssueDate><cbc:IssueTime>22:30:00-05:00</cbc:IssueTime>');
    expect(buildDianDocument('invoice', req, CONTEXT)).toMatchObject({ ok: false, issues: [{ path: 'date' }] });
  });

  it("refuses a request whose issuer NIT is not the configured company's, when the profile states it", () => {
    const withNit = { ...CONTEXT, company: { ...CONTEXT.company, nit: '900508908' } };
    expect(buildDianDocument('invoice', minimalRequest('invoice'), withNit)).toMatchObject({ ok: true });
    expect(buildDianDocument('invoice', { ...minimalRequest('invoice'), identification_number: 800197268 }, withNit)).toMatchObject({
      ok: false,
      issues: [{ path: 'identification_number', message: expect.stringContaining('900508908') }],
    });
  });

  it('refuses a type code of another kind and a CUFE without technical key, as values', () => {
    expect(buildDianDocument('invoice', { ...minimalRequest('invoice'), document_type_code: '91' }, CONTEXT)).toMatchObject({
      ok: false,
      issues: [{ path: 'document_type_code' }],
    });
    const noKey = { ...CONTEXT, resolution: { ...CONTEXT.resolution!, technical_key: undefined } };
    expect(buildDianDocument('invoice', minimalRequest('invoice'), noKey)).toMatchObject({
      ok: false,
      issues: [{ message: expect.stringContaining('clave técnica') }],
    });
  });
});
