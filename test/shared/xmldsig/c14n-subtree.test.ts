/**
 * Inclusive C14N 1.0 of a document subset apex (src/shared/xmldsig/c14n.ts): the element carries every namespace
 * in scope from its ancestors (sorted, the default one first) and the `xml:*` attributes it inherits (attributes
 * sorted by namespace URI, then local name), and its
 * descendants do not repeat them. Signed properties referenced by Id are digested this way.
 */
import { describe, expect, it } from 'vitest';
import { canonicalSubtreeString } from '../../../src/shared/xmldsig/c14n.js';
import { parseXmlStrictly } from '../../../src/shared/xml/strict-parser.js';

function element(xml: string, localName: string) {
  const doc = parseXmlStrictly(xml).doc!;
  return doc.getElementsByTagNameNS('*', localName).item(0)!;
}

describe('canonicalSubtreeString', () => {
  const xml =
    '<r xmlns="urn:d" xmlns:z="urn:z" xmlns:a="urn:a" xml:lang="es"><a:p xmlns:b="urn:b" xml:space="preserve">' +
    '<b:q Id="x" z:k="1"><a:s xmlns:a="urn:a">t</a:s></b:q></a:p></r>';

  it('the apex gets the inherited namespaces and xml attributes; nothing is repeated below it', () => {
    expect(canonicalSubtreeString(element(xml, 'q'))).toBe(
      '<b:q xmlns="urn:d" xmlns:a="urn:a" xmlns:b="urn:b" xmlns:z="urn:z" Id="x" xml:lang="es" xml:space="preserve" z:k="1"><a:s>t</a:s></b:q>',
    );
  });

  it('a declaration on the apex that an ancestor also made is written once, with the apex value', () => {
    const redeclared = xml.replace('<b:q Id="x"', '<b:q xmlns:z="urn:z2" Id="x"');
    expect(canonicalSubtreeString(element(redeclared, 'q'))).toContain('xmlns:z="urn:z2" Id="x"');
    expect(canonicalSubtreeString(element(redeclared, 'q')).match(/xmlns:z=/g)).toHaveLength(1);
  });
});
