import { describe, expect, it } from 'vitest';
import { DIAN_SCHEMA_IDS, DIAN_SCHEMA_NAMESPACES, detectDianSchemaId, fillEmptyUblExtensions, xmlRoot } from '../../../src/dian/xsd/index.js';
import { invoice, NS } from './fixtures.js';

describe('detectDianSchemaId', () => {
  it('tells each document from its root element and namespace, prefixed or not', () => {
    expect(detectDianSchemaId(invoice())).toBe('Invoice');
    for (const id of DIAN_SCHEMA_IDS) {
      expect(detectDianSchemaId(`<?xml version="1.0"?>\n<!-- c --><${id} xmlns="${DIAN_SCHEMA_NAMESPACES[id]}"/>`)).toBe(id);
      expect(detectDianSchemaId(`\uFEFF<p:${id} a="1>2" xmlns:p='${DIAN_SCHEMA_NAMESPACES[id]}'><x/></p:${id}>`)).toBe(id);
    }
  });

  it('returns null for a wrong root, a known name in the wrong namespace, or no root', () => {
    expect(detectDianSchemaId(`<Factura xmlns="${NS.invoice}"/>`)).toBeNull();
    expect(detectDianSchemaId('<Invoice/>')).toBeNull();
    expect(detectDianSchemaId(`<Invoice xmlns="${NS.nomina}"/>`)).toBeNull();
    expect(detectDianSchemaId(`<NominaIndividual xmlns="${NS.invoice}"/>`)).toBeNull();
    expect(detectDianSchemaId(`<x:Invoice xmlns="${NS.invoice}"/>`)).toBeNull();
    expect(detectDianSchemaId('<?xml version="1.0"?>')).toBeNull();
    expect(detectDianSchemaId('')).toBeNull();
  });

  it('xmlRoot reports the qualified name, local name and namespace', () => {
    expect(xmlRoot(`<ns0:Invoice xmlns:ns0="${NS.invoice}">`)).toMatchObject({
      qname: 'ns0:Invoice',
      localName: 'Invoice',
      namespace: NS.invoice,
      empty: false,
    });
  });
});

describe('fillEmptyUblExtensions', () => {
  it('fills only an empty UBLExtensions of the UBL namespace that is the first child of the root', () => {
    const empty = invoice({ extensions: '<ext:UBLExtensions />' });
    const { text, filled } = fillEmptyUblExtensions(empty);
    expect(filled).toBe(true);
    expect(text.split('\r\n')).toHaveLength(empty.split('\r\n').length);
    expect(text).toContain('<ext:UBLExtensions ><ext:UBLExtension><ext:ExtensionContent><u:Unsigned xmlns:u="urn:ecf-kit:unsigned-placeholder"/>');
    expect(fillEmptyUblExtensions(invoice()).filled).toBe(false);
    expect(fillEmptyUblExtensions(invoice({ extensions: '<ext:UBLExtensions><!-- x --></ext:UBLExtensions>' })).filled).toBe(false);
    expect(fillEmptyUblExtensions(invoice({ extensions: '<foo:UBLExtensions xmlns:foo="urn:other"/>' })).filled).toBe(false);
    const dflt = `<Invoice xmlns="${NS.invoice}"><!-- a --><UBLExtensions xmlns="${NS.ext}"></UBLExtensions></Invoice>`;
    expect(fillEmptyUblExtensions(dflt).text).toContain(`<UBLExtensions xmlns="${NS.ext}"><UBLExtension><ExtensionContent>`);
  });

  it("fills the signature's empty ExtensionContent when it is the last one, and nothing else", () => {
    const dian = '<ext:UBLExtension><ext:ExtensionContent><x:D xmlns:x="urn:x"/></ext:ExtensionContent></ext:UBLExtension>';
    const slot = '<ext:UBLExtension><ext:ExtensionContent></ext:ExtensionContent></ext:UBLExtension>';
    const built = invoice({ extensions: `<ext:UBLExtensions>${dian}${slot}</ext:UBLExtensions>` });
    const { text, filled } = fillEmptyUblExtensions(built);
    expect(filled).toBe(true);
    expect(text).toContain(`${dian}<ext:UBLExtension><ext:ExtensionContent><u:Unsigned xmlns:u="urn:ecf-kit:unsigned-placeholder"/></ext:ExtensionContent>`);
    // An empty ExtensionContent followed by a filled one is not the signature's place.
    expect(fillEmptyUblExtensions(invoice({ extensions: `<ext:UBLExtensions>${slot}${dian}</ext:UBLExtensions>` })).filled).toBe(false);
  });
});
