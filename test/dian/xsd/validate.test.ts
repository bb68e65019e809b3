/** createDianSchemaValidator over the shared DIAN XSD set, with hand-written minimal documents. */
import { describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { createDianSchemaValidator, isSchemaError } from '../../../src/dian/xsd/index.js';
import { dianXsdDir } from '../helpers/env.js';
import { invoice, payrollPlaceholder } from './fixtures.js';

const dir = dianXsdDir();
const v = createDianSchemaValidator(dir);
/** 1-based line of the first occurrence of `needle` (the fixtures use CRLF line ends). */
const lineOf = (doc: string, needle: string) => doc.slice(0, doc.indexOf(needle)).split('\n').length;

describe('createDianSchemaValidator', () => {
  it('accepts a minimal Invoice with an sts:DianExtensions in the lax extension content', () => {
    expect(v.validate(invoice(), 'Invoice')).toEqual({ valid: true, violations: [] });
    expect(v.validate(invoice({ lines: 3 }), 'Invoice').valid).toBe(true);
  });

  it('accepts the older sts namespace DIAN uses in its note samples (extension content is lax)', () => {
    const old = invoice().replace(/dian:gov:co:facturaelectronica:Structures-2-1/, 'http://www.dian.gov.co/contratos/facturaelectronica/v1/Structures');
    expect(v.validate(old, 'Invoice').valid).toBe(true);
  });

  it('names the element out of order by path, with the line of its start tag', () => {
    const doc = invoice({ swapIdAndDate: true });
    const r = v.validate(doc, 'Invoice');
    expect(r.valid).toBe(false);
    expect(lineOf(doc, '<cbc:IssueDate>')).toBe(9);
    expect(r.violations[0]).toMatchObject({ xpath: '/Invoice/cbc:IssueDate', line: 9, column: 1 });
    expect(r.violations[0]!.message).toMatch(
      /^Element '\{urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2\}IssueDate': This element is not expected/,
    );
  });

  it('locates a bad value in the nth invoice line', () => {
    const r = v.validate(invoice({ lines: 3, badLine: 2 }), 'Invoice');
    expect(r.violations.map((x) => x.xpath)).toEqual(['/Invoice/cac:InvoiceLine[2]/cbc:LineExtensionAmount']);
    expect(r.violations[0]!.message).toMatch(/'abc' is not a valid value of the local atomic type/);
  });

  it('validates ds:Signature inside the extension content (xmldsig is in the import tree)', () => {
    const sig =
      '<ext:UBLExtensions><ext:UBLExtension><ext:ExtensionContent><ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:Bogus/></ds:Signature></ext:ExtensionContent></ext:UBLExtension></ext:UBLExtensions>';
    const r = v.validate(invoice({ extensions: sig }), 'Invoice');
    expect(r.valid).toBe(false);
    expect(r.violations[0]!.xpath).toBe('/Invoice/ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/ds:Signature/ds:Bogus');
  });

  it('refuses an empty ext:UBLExtensions as shipped, and accepts it with { unsigned: true }', () => {
    const doc = invoice({ extensions: '<ext:UBLExtensions/>' });
    const strict = v.validate(doc, 'Invoice');
    expect(strict.violations).toHaveLength(1);
    expect(strict.violations[0]).toMatchObject({ xpath: '/Invoice/ext:UBLExtensions', line: lineOf(doc, '<ext:UBLExtensions/>') });
    expect(strict.violations[0]!.message).toMatch(/Missing child element\(s\)\. Expected is .*UBLExtension/);
    expect(v.validate(doc, 'Invoice', { unsigned: true })).toEqual({ valid: true, violations: [] });
    expect(v.validate(invoice({ extensions: '<ext:UBLExtensions>\r\n</ext:UBLExtensions>' }), 'Invoice', { unsigned: true }).valid).toBe(true);
    // Violations elsewhere keep the document's own paths and lines.
    const swapped = invoice({ extensions: '<ext:UBLExtensions/>', swapIdAndDate: true });
    const bad = v.validate(swapped, 'Invoice', { unsigned: true });
    expect(bad.violations[0]).toMatchObject({ xpath: '/Invoice/cbc:IssueDate', line: lineOf(swapped, '<cbc:IssueDate>') });
  });

  it('payroll: the toolbox placeholder fails as shipped and passes with { unsigned: true }', () => {
    const strict = v.validate(payrollPlaceholder(), 'NominaIndividual');
    expect(strict.violations.map((x) => x.xpath)).toContain('/NominaIndividual/ext:UBLExtensions');
    const unsigned = v.validate(payrollPlaceholder(), 'NominaIndividual', { unsigned: true });
    expect(unsigned.valid).toBe(false); // the rest of the payroll is missing
    expect(unsigned.violations.map((x) => x.xpath)).not.toContain('/NominaIndividual/ext:UBLExtensions');
    expect(unsigned.violations[0]!.xpath).toBe('/NominaIndividual');
  });

  it('compiles all seven schemas; the entry schemas had their imports anchored to the XSD directory', () => {
    v.compile('all');
    const fixes = v.fixesApplied();
    expect(fixes.map((f) => f.file)).toEqual([
      'maindoc/UBL-Invoice-2.1.xsd',
      'maindoc/UBL-CreditNote-2.1.xsd',
      'maindoc/UBL-DebitNote-2.1.xsd',
      'maindoc/UBL-ApplicationResponse-2.1.xsd',
      'maindoc/UBL-AttachedDocument-2.1.xsd',
      'payroll/NominaIndividualElectronicaXSDV1.0.6.xsd',
      'payroll/NominaIndividualDeAjusteElectronicaXSDV1.0.6.xsd',
    ]);
    expect(fixes[0]).toMatchObject({ kind: 'anchor-imports', count: 3 });
    expect(fixes[0]!.detail).toContain(
      `../common/UBL-CommonAggregateComponents-2.1.xsd → ${pathToFileURL(join(dir, 'common/UBL-CommonAggregateComponents-2.1.xsd')).href}`,
    );
    expect(v.check().ok).toBe(true);
  });

  it('a document of another kind is checked against the schema asked for', () => {
    const r = v.validate(invoice(), 'CreditNote');
    expect(r.violations[0]!.message).toMatch(/No matching global declaration available for the validation root/);
  });

  it('throws a SchemaError for an unknown schema or a missing directory', () => {
    expect(() => v.validate(invoice(), 'Factura' as never)).toThrow(/Unknown schema "Factura"/);
    try {
      createDianSchemaValidator(join(dir, 'nope'));
      expect.unreachable();
    } catch (e) {
      expect(isSchemaError(e)).toBe(true);
      expect((e as Error).message).toMatch(/XSD directory not found.*ecf dian xsd install/s);
    }
  });

  it('reports an empty document and a well-formedness error', () => {
    expect(v.validate('  ', 'Invoice').violations[0]!.message).toBe('Document is empty');
    const r = v.validate(invoice().replace('</cac:LegalMonetaryTotal>', '</cac:LegalMonetary>'), 'Invoice');
    expect(r.valid).toBe(false);
    expect(r.violations).toHaveLength(1);
  });
});
