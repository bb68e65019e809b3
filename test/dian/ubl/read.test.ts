/** The UBL reader: every official toolbox sample reads, names are canonical whatever the prefixes, bad input is a value. */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readUbl } from '../../../src/dian/ubl/read.js';
import { all, attr, textAt } from '../../../src/dian/ubl/tree.js';

const dir = resolve(import.meta.dirname, '../fixtures/toolbox');
const samples = readdirSync(dir).filter((f) => f.endsWith('.xml'));

describe('readUbl', () => {
  it.each(samples)('reads the toolbox sample %s', (file) => {
    const r = readUbl(readFileSync(resolve(dir, file), 'utf8'));
    if (!r.ok) throw new Error(r.message);
    expect(['Invoice', 'CreditNote', 'DebitNote', 'ApplicationResponse', 'NominaIndividual', 'NominaIndividualDeAjuste']).toContain(r.root.name);
    expect(r.root.children.length).toBeGreaterThan(3);
  });

  it('maps any prefix to the canonical one by namespace, and the sts alternates to sts:', () => {
    const xml =
      '<inv:Invoice xmlns:inv="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:b="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"' +
      ' xmlns:e="urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2" xmlns:s="http://www.dian.gov.co/contratos/facturaelectronica/v1/Structures">' +
      '<e:UBLExtensions><e:UBLExtension><e:ExtensionContent><s:DianExtensions/></e:ExtensionContent></e:UBLExtension></e:UBLExtensions>' +
      '<b:ID schemeID="x"> SETP1 </b:ID></inv:Invoice>';
    const r = readUbl(xml);
    if (!r.ok) throw new Error(r.message);
    expect(r.root.name).toBe('Invoice');
    expect(r.namespace).toBe('urn:oasis:names:specification:ubl:schema:xsd:Invoice-2');
    expect(textAt(r.root, 'cbc:ID')).toBe('SETP1');
    expect(attr(r.root.children[1], 'schemeID')).toBe('x');
    expect(all(r.root, 'ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/sts:DianExtensions')).toHaveLength(1);
  });

  it('keeps CDATA as text, drops whitespace between children, and strips a leading BOM', () => {
    const r = readUbl('\uFEFF<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">\n  <x><![CDATA[<a>&</a>]]></x>\n</Invoice>');
    if (!r.ok) throw new Error(r.message);
    expect(r.root.text).toBeUndefined();
    expect(r.root.children[0]).toMatchObject({ name: 'x', text: '<a>&</a>' });
  });

  it('refuses a DOCTYPE, malformed text and an over-deep signature with a Spanish message, never throwing', () => {
    expect(readUbl('<!DOCTYPE r [<!ENTITY e "x">]><r>&e;</r>')).toMatchObject({ ok: false, message: expect.stringContaining('DOCTYPE') });
    expect(readUbl('<Invoice><a></Invoice>')).toMatchObject({ ok: false });
    expect(readUbl('')).toMatchObject({ ok: false });
    const deep = `<r><ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#">${'<a>'.repeat(12)}${'</a>'.repeat(12)}</ds:Signature></r>`;
    expect(readUbl(deep)).toMatchObject({ ok: false, message: expect.stringContaining('más de 12 niveles') });
  });
});
