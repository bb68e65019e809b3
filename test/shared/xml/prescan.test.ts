/**
 * The kit's XML pre-scan on its own, with small made-up limits (no DGII tables): each limit refuses one step
 * past it and lets the limit itself through, with the kit's wording or a product's.
 */
import { describe, expect, it } from 'vitest';
import {
  DOCTYPE_MESSAGE,
  MAX_SIGNATURE_DEPTH,
  MAX_SIGNATURE_TEXT,
  PRESCAN_MESSAGES,
  prescanXml,
  type PrescanMessages,
  type XmlLimits,
} from '../../../src/shared/xml/prescan.js';

const LIMITS: XmlLimits = {
  maxValueLength: 5,
  maxDepth: 3,
  maxElements: { note: 4, '*': 10 },
  maxChildren: 3,
  maxAttributes: 2,
};
const scan = (xml: string) => prescanXml(xml, LIMITS);
const nest = (depth: number) =>
  Array.from({ length: depth }, (_, i) => `<e${i}>`).join('') + Array.from({ length: depth }, (_, i) => `</e${depth - 1 - i}>`).join('');

describe('prescanXml with custom limits', () => {
  it('maxDepth 3: three levels pass, a fourth is refused with its path', () => {
    expect(scan(nest(3))).toBeNull();
    expect(scan(nest(4))).toEqual({
      code: 'too_deep',
      path: '/e0/e1/e2/e3',
      message: 'El XML excede los límites admitidos: /e0/e1/e2/e3 está anidado a más de 3 niveles.',
    });
  });

  it('maxValueLength 5: counts code points and references, in text, CDATA and attributes', () => {
    expect(scan('<r>abcde</r>')).toBeNull();
    expect(scan('<r>&amp;&#233;&lt;😀x</r>')).toBeNull();
    expect(scan('<r a="12345"/>')).toBeNull();
    expect(scan('<r>abcdef</r>')).toEqual({
      code: 'value_too_long',
      path: '/r',
      message: 'El XML excede los límites admitidos: el valor de /r tiene más de 5 caracteres.',
    });
    expect(scan('<r>abc<!-- note --><![CDATA[def]]></r>')).toMatchObject({ code: 'value_too_long', path: '/r' });
    expect(scan('<r><s a="123456"/></r>')).toMatchObject({ code: 'value_too_long', path: '/r/s', message: expect.stringContaining('un atributo de /r/s') });
  });

  it('maxElements per document element name, `*` for the others', () => {
    expect(scan('<note><a/><b/><c/></note>')).toBeNull(); // 4 elements
    expect(scan('<note><a/><b/><c><d/></c></note>')).toMatchObject({
      code: 'too_many_elements',
      path: '/note/c/d',
      message: expect.stringContaining('más de 4 elementos (el máximo para <note>)'),
    });
    expect(scan('<memo><a><x/><y/><z/></a><b><x/><y/><z/></b><c/></memo>')).toBeNull(); // 10 of 10
    expect(scan('<memo><a><x/><y/><z/></a><b><x/><y/><z/></b><c><x/></c></memo>')).toMatchObject({
      code: 'too_many_elements',
      path: '/memo/c/x',
      message: expect.stringContaining('<memo>'),
    });
  });

  it('maxChildren 3: a fourth child of one element is refused, naming the parent', () => {
    expect(scan('<r><a/><a/><a/></r>')).toBeNull();
    expect(scan('<r><a/><a/><a/><a/></r>')).toEqual({
      code: 'too_many_elements',
      path: '/r/a',
      message: 'El XML excede los límites admitidos: /r tiene más de 3 elementos hijos.',
    });
  });

  it('maxAttributes 2: the message states the limit given', () => {
    expect(scan('<r a="1" b="2"/>')).toBeNull();
    expect(scan('<r a="1" b="2" c="3"/>')).toEqual({ code: 'too_many_attributes', path: '/r', message: 'El XML tiene un elemento con más de 2 atributos.' });
  });

  it('refuses a DOCTYPE and an end tag that closes nothing open, whatever the limits', () => {
    expect(scan('<!DOCTYPE r [<!ENTITY e "x">]><r>&e;</r>')).toEqual({ code: 'doctype', message: DOCTYPE_MESSAGE });
    expect(scan('<r><a></b></r>')).toMatchObject({ code: 'not_well_formed', path: '/r/a', detail: 'se esperaba </a> y se encontró </b>' });
    expect(scan('</r>')).toMatchObject({ code: 'not_well_formed', detail: '</r> no cierra ningún elemento' });
  });

  it('an XMLDSig Signature below the document element keeps its own bounds', () => {
    const sig = (inner: string) => `<r><Signature>${inner}</Signature></r>`;
    expect(scan(sig(`<X>${'z'.repeat(MAX_SIGNATURE_TEXT)}</X>`))).toBeNull();
    expect(scan(sig(`<X>${'z'.repeat(MAX_SIGNATURE_TEXT + 1)}</X>`))).toMatchObject({
      code: 'value_too_long',
      message: expect.stringContaining(`más de ${MAX_SIGNATURE_TEXT}`),
    });
    expect(scan(sig(nest(MAX_SIGNATURE_DEPTH - 1)))).toBeNull(); // deeper than maxDepth 3, within the Signature's own depth
    expect(scan(sig(nest(MAX_SIGNATURE_DEPTH)))).toMatchObject({ code: 'too_deep' });
    expect(scan(`<r><Signature/><x>abcdef</x></r>`)).toMatchObject({ code: 'value_too_long', path: '/r/x' }); // after it, the usual bound
  });

  it('a product may allow a deeper signature (XAdES), and the refusal names that limit', () => {
    const sig = (inner: string) => `<r><Signature>${inner}</Signature></r>`;
    const xades: XmlLimits = { ...LIMITS, maxElements: { '*': 100 }, maxSignatureDepth: 9 };
    expect(prescanXml(sig(nest(MAX_SIGNATURE_DEPTH)), xades)).toBeNull();
    expect(prescanXml(sig(nest(8)), xades)).toBeNull();
    expect(prescanXml(sig(nest(9)), xades)).toMatchObject({ code: 'too_deep', message: expect.stringContaining('más de 9 niveles') });
    expect(scan(sig(nest(MAX_SIGNATURE_DEPTH)))).toMatchObject({ message: expect.stringContaining(`más de ${MAX_SIGNATURE_DEPTH} niveles`) });
  });

  it('words the limit refusals with the messages given, and names no product by default', () => {
    const mine: PrescanMessages = {
      valueTooLong: (what, path, limit) => `long:${what}:${path}:${limit}`,
      tooManyElements: (limit, root) => `elements:${root}:${limit}`,
      tooDeep: (path, limit) => `deep:${path}:${limit}`,
      tooManyChildren: (path, limit) => `children:${path}:${limit}`,
      tooManyAttributes: (limit) => `attributes:${limit}`,
    };
    const cases = ['<r>abcdef</r>', '<note><a/><b/><c/><d/></note>', nest(4), '<r><a/><a/><a/><a/></r>', '<r a="1" b="2" c="3"/>'];
    expect(cases.map((x) => prescanXml(x, LIMITS, mine)?.message)).toEqual([
      'long:el valor:/r:5',
      'elements:note:4',
      'deep:/e0/e1/e2/e3:3',
      'children:/r:3',
      'attributes:2',
    ]);
    for (const x of cases) {
      const message = prescanXml(x, LIMITS)?.message;
      expect(message).toMatch(/^El XML (excede los límites admitidos|tiene un elemento)/);
      expect(message).not.toMatch(/DGII|XSD/);
      expect(prescanXml(x, LIMITS, PRESCAN_MESSAGES)?.message).toBe(message);
    }
  });
});
