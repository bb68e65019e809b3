import { DOMParser } from '@xmldom/xmldom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseUntrustedXml, XmlInputError } from '../../../src/ecf/server/inbound/xml.js';
import { ECF_TABLE } from '../../../src/ecf/spec/ecf-table.gen.js';
import { DGII_XML_LIMITS, MAX_SIGNATURE_TEXT, prescanXml } from '../../../src/ecf/xml/prescan.js';

const L = DGII_XML_LIMITS;
const doc = (inner: string) => `<?xml version="1.0" encoding="utf-8"?><ECF><Encabezado>${inner}</Encabezado></ECF>`;

describe('DGII_XML_LIMITS, derived from the generated field tables', () => {
  it('the longest value is the largest maxLength of the e-CF simple types (1000)', () => {
    const lengths = Object.values(ECF_TABLE.simpleTypes).map((f) => f.maxLength ?? 0);
    expect(L.maxValueLength).toBe(Math.max(...lengths));
    expect(L.maxValueLength).toBe(1000);
  });
  it('depth covers the deepest table path and the Signature; elements per root; 10,000 Item under one parent', () => {
    const deepest = Math.max(...ECF_TABLE.rows.map((r) => r.xml.split('/').length + 1));
    expect(L.maxDepth).toBe(Math.max(deepest, 6));
    expect(L.maxChildren).toBe(10_001);
    expect(L.maxElements.ACECF).toBeLessThan(100);
    expect(L.maxElements.ECF).toBeGreaterThan(10_000 * 10);
  });
});

describe('prescanXml', () => {
  it('lets a document at every limit through', () => {
    expect(prescanXml(doc(`<A>${'x'.repeat(L.maxValueLength)}</A>`))).toBeNull();
    expect(prescanXml(doc(`<A>${'&amp;'.repeat(L.maxValueLength)}</A>`))).toBeNull();
    expect(prescanXml(doc(`<A>${'😀'.repeat(L.maxValueLength)}</A>`))).toBeNull(); // code points, not UTF-16 units
    expect(prescanXml(doc(`<A b="${'y'.repeat(L.maxValueLength)}"/>`))).toBeNull();
    expect(prescanXml('<ECF><a><b><c><d><e>x</e></d></c></b></a></ECF>')).toBeNull(); // depth 6
    expect(prescanXml(`<ECF><D>${'<I/>'.repeat(L.maxChildren)}</D></ECF>`)).toBeNull();
  });

  it('a value one character too long → value_too_long with its path, in Spanish', () => {
    const r = prescanXml(doc(`<Emisor><RazonSocialEmisor>${'x'.repeat(L.maxValueLength + 1)}</RazonSocialEmisor></Emisor>`));
    expect(r).toMatchObject({ code: 'value_too_long', path: '/ECF/Encabezado/Emisor/RazonSocialEmisor' });
    expect(r!.message).toMatch(/más de 1000 caracteres .*XSD oficiales/);
  });

  it('more references in one value than its length allows; CDATA and comments do not split a value', () => {
    expect(prescanXml(doc(`<A>${'&amp;'.repeat(L.maxValueLength + 1)}</A>`))).toMatchObject({ code: 'value_too_long' });
    expect(prescanXml(doc(`<A>${'&#233;'.repeat(L.maxValueLength + 1)}</A>`))).toMatchObject({ code: 'value_too_long' });
    expect(prescanXml(doc(`<A>${'x'.repeat(600)}<!-- c --><![CDATA[${'y'.repeat(401)}]]></A>`))).toMatchObject({ code: 'value_too_long' });
  });

  it('an attribute value too long → value_too_long', () => {
    expect(prescanXml(doc(`<A b='${'y'.repeat(L.maxValueLength + 1)}'/>`))).toMatchObject({ code: 'value_too_long', path: '/ECF/Encabezado/A' });
  });

  it('inside the XMLDSig Signature the certificate may be longer, up to MAX_SIGNATURE_TEXT', () => {
    const sig = (n: number) =>
      doc(
        `</Encabezado><Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><KeyInfo><X509Data><X509Certificate>${'A'.repeat(n)}</X509Certificate></X509Data></KeyInfo></Signature><Encabezado>`,
      );
    expect(prescanXml(sig(MAX_SIGNATURE_TEXT))).toBeNull();
    expect(prescanXml(sig(MAX_SIGNATURE_TEXT + 1))).toMatchObject({ code: 'value_too_long' });
    // after the Signature the XSD limit applies again
    expect(prescanXml(sig(10) + `<Z>${'x'.repeat(L.maxValueLength + 1)}</Z>`)).toMatchObject({ code: 'value_too_long' });
  });

  it('nesting one level too deep → too_deep', () => {
    expect(prescanXml('<ECF><a><b><c><d><e><f/></e></d></c></b></a></ECF>')).toMatchObject({ code: 'too_deep', path: '/ECF/a/b/c/d/e/f' });
  });

  it('too many children, and too many elements for the root type', () => {
    expect(prescanXml(`<ECF><D>${'<I/>'.repeat(L.maxChildren + 1)}</D></ECF>`)).toMatchObject({ code: 'too_many_elements', path: '/ECF/D/I' });
    const acecf = `<ACECF>${'<a><b/></a>'.repeat(L.maxElements.ACECF!)}</ACECF>`;
    expect(prescanXml(acecf)).toMatchObject({ code: 'too_many_elements' });
  });

  it('an end tag that does not close the open element → not_well_formed (the scan never goes on past it)', () => {
    expect(prescanXml(`<ECF><A></B>${'&amp;'.repeat(5000)}</ECF>`)).toMatchObject({ code: 'not_well_formed', detail: 'se esperaba </A> y se encontró </B>' });
  });

  it('DOCTYPE or ENTITY → doctype; too many attributes → too_many_attributes', () => {
    expect(prescanXml('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "y">]><ECF>&e;</ECF>')).toMatchObject({ code: 'doctype' });
    expect(prescanXml(`<ECF ${Array.from({ length: 65 }, (_, i) => `a${i}="1"`).join(' ')}/>`)).toMatchObject({ code: 'too_many_attributes' });
  });
});

describe('parseUntrustedXml refuses before the parser runs', () => {
  afterEach(() => vi.restoreAllMocks());
  it.each([
    ['2.3 million &amp; in one value', `<ECF><A>${'&amp;'.repeat(2_300_000)}</A></ECF>`],
    ['100,000 levels of nesting', `<ECF>${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</ECF>`],
    ['3 million empty elements', `<ECF>${'<a/>'.repeat(3_000_000)}</ECF>`],
  ])('%s: XmlInputError, xmldom never called', (_name, xml) => {
    const parse = vi.spyOn(DOMParser.prototype, 'parseFromString');
    expect(() => parseUntrustedXml(xml)).toThrow(XmlInputError);
    expect(parse).not.toHaveBeenCalled();
  });
});
