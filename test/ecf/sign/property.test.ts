import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readP12 } from '../../../src/shared/xmldsig/p12.js';
import { p12Signer } from '../../../src/shared/xmldsig/signer.js';
import { signXml } from '../../../src/ecf/sign/sign-xml.js';
import { verifyXml } from '../../../src/ecf/sign/verify-xml.js';
import { modernP12, TEST_PASSWORD } from '../helpers/certs.js';
import { dropWhitespaceByRegex, signWithXmlCrypto, splitSigned, xmlCryptoKeepsSerialisation, xmlsecVerify } from './reference.js';

const NAMES = ['ECF', 'Encabezado', 'Item', 'a', 'B_2', 'x.y', 'z-9'];
const TEXT_PIECES = ['a', 'ñ', 'é', ' ', '\n', '\t', '"', "'", '>', '&amp;', '&lt;', '&gt;', '&quot;', '&apos;', '😀', '1180.00', '¿?', ']]'];
const WHITESPACE = [' ', '\n', '\t', '\r\n', '  \n  '];

const text = fc.array(fc.constantFrom(...TEXT_PIECES), { minLength: 1, maxLength: 6 }).map((parts) => parts.join(''));
const whitespace = fc.constantFrom(...WHITESPACE);

const element: fc.Memo<string> = fc.memo((depth) => {
  const leaf = fc
    .tuple(fc.constantFrom(...NAMES), fc.oneof(text, fc.constant(''), fc.constant('/')))
    .map(([n, t]) => (t === '/' ? `<${n}/>` : `<${n}>${t}</${n}>`));
  if (depth <= 1) return leaf;
  const child = fc.oneof(leaf, element(depth - 1), text, whitespace);
  return fc.tuple(fc.constantFrom(...NAMES), fc.array(child, { maxLength: 5 })).map(([n, children]) => `<${n}>${children.join('')}</${n}>`);
});

const documentArb = fc
  .tuple(fc.boolean(), element(4), fc.boolean())
  .map(([decl, root, trailing]) => `${decl ? '<?xml version="1.0" encoding="utf-8"?>' : ''}${root}${trailing ? '\n' : ''}`)
  // Adjacent text pieces may form "]]>", which is not well-formed.
  .filter((xml) => !xml.includes(']]>'));

const ATTR_VALUES = ['1', 'x&quot;y', "it's", '&lt;&amp;&gt;', 'a &gt; b', '&#9;tab&#10;nl', 'ñé', ''];
const attributes = fc
  .uniqueArray(fc.tuple(fc.constantFrom('a', 'z', 'Id', 'b:c', 'xml:lang'), fc.constantFrom(...ATTR_VALUES)), { selector: ([k]) => k, maxLength: 3 })
  .map((pairs) => pairs.map(([k, v]) => ` ${k}="${v}"`).join(''));
const rich: fc.Memo<string> = fc.memo((depth) => {
  const leaf = fc.tuple(fc.constantFrom(...NAMES), attributes, fc.oneof(text, fc.constant(''))).map(([n, a, t]) => `<${n}${a}>${t}</${n}>`);
  if (depth <= 1) return leaf;
  const child = fc.oneof(leaf, rich(depth - 1), text, whitespace, fc.constant('<!-- c -->'), fc.constant('<![CDATA[ <x> & ]]>'));
  return fc
    .tuple(fc.constantFrom(...NAMES), attributes, fc.constantFrom('', ' xmlns="urn:d"', ' xmlns:q="urn:q"'), fc.array(child, { maxLength: 4 }))
    .map(([n, a, ns, children]) => `<${n}${ns}${a}>${children.join('')}</${n}>`);
});
const richDocument = rich(3)
  .map((root) => `<R xmlns:b="urn:b">${root}</R>`)
  .filter((xml) => !xml.includes(']]>') || xml.split(']]>').length - 1 === xml.split('<![CDATA[').length - 1);

describe('property: signXml matches xml-crypto 6 on generated documents', () => {
  it('compact documents: same Signature, the rest is the input minus whitespace-only text, and verifies', async () => {
    const t = modernP12();
    const signer = p12Signer(readP12(t.p12, TEST_PASSWORD));
    await fc.assert(
      fc.asyncProperty(documentArb, async (xml) => {
        const ours = await signXml(xml, signer);
        const normalized = dropWhitespaceByRegex(xml);
        const reference = signWithXmlCrypto(normalized, t.keyPem, t.certificatePem);
        // The Signature is xml-crypto's, byte for byte; the rest is the input minus whitespace-only text.
        expect(splitSigned(ours).signature).toBe(splitSigned(reference).signature);
        expect(splitSigned(ours).rest).toBe(normalized);
        if (xmlCryptoKeepsSerialisation(normalized)) expect(ours).toBe(reference);
        expect(verifyXml(ours).valid).toBe(true);
      }),
      { numRuns: 150, seed: 20260110 },
    );
  });

  it('general path (attributes, namespaces, comments, CDATA): same bytes, and verifies', async () => {
    const t = modernP12();
    const signer = p12Signer(readP12(t.p12, TEST_PASSWORD));
    await fc.assert(
      fc.asyncProperty(richDocument, async (xml) => {
        const ours = await signXml(xml, signer);
        expect(ours).toBe(signWithXmlCrypto(dropWhitespaceByRegex(xml), t.keyPem, t.certificatePem));
        expect(verifyXml(ours).valid).toBe(true);
      }),
      { numRuns: 100, seed: 20260110 },
    );
  });

  it('xmlsec1 verifies generated documents of both kinds', async () => {
    const signer = p12Signer(readP12(modernP12().p12, TEST_PASSWORD));
    await fc.assert(
      fc.asyncProperty(fc.oneof(documentArb, richDocument), async (xml) => {
        const r = xmlsecVerify(await signXml(xml, signer));
        expect(r.ok, r.output).toBe(true);
      }),
      { numRuns: 40, seed: 20260110 },
    );
  });
});
