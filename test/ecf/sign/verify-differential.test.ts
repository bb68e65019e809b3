/**
 * Differential tests of ecf-kit's own XMLDSig verifier (src/ecf/sign/verify-xml.ts, src/shared/xmldsig/c14n.ts) against
 * xml-crypto 6 (the verifier it replaced, kept as a test oracle) and xmlsec1, on fixtures and on
 * fast-check-mutated signed documents; and the linear C14N against xml-crypto's and the signer's compact one.
 */
import { DOMParser } from '@xmldom/xmldom';
import fc from 'fast-check';
import { C14nCanonicalization } from 'xml-crypto';
import { describe, expect, it } from 'vitest';
import { canonicalizeDocument } from '../../../src/shared/xmldsig/c14n.js';
import { scanCompact } from '../../../src/shared/xmldsig/compact-c14n.js';
import { readP12 } from '../../../src/shared/xmldsig/p12.js';
import { p12Signer } from '../../../src/shared/xmldsig/signer.js';
import { signXml } from '../../../src/ecf/sign/sign-xml.js';
import { verifyXml } from '../../../src/ecf/sign/verify-xml.js';
import { modernP12, TEST_PASSWORD } from '../helpers/certs.js';
import { compactEcf31, compactOddities, generalFeatures, namespacedEcf, noDeclaration, plainEcf32, prettyEcf, prettySeed } from './fixtures.js';
import { dropWhitespaceByRegex, signWithXmlCrypto, verifyWithXmlCrypto, xmlsecVerify } from './reference.js';

const FIXTURES = { compactEcf31, compactOddities, generalFeatures, namespacedEcf, noDeclaration, plainEcf32, prettyEcf, prettySeed };
const signer = () => p12Signer(readP12(modernP12().p12, TEST_PASSWORD));

function ours(xml: string): string {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const parts: string[] = [];
  canonicalizeDocument(doc, null, (s) => parts.push(s));
  return parts.join('');
}
function xmlCryptos(xml: string): string {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  return new C14nCanonicalization().process(doc.documentElement as unknown as globalThis.Node, { ancestorNamespaces: [] });
}

describe('linear C14N (src/shared/xmldsig/c14n.ts)', () => {
  it.each(Object.entries(FIXTURES))('%s: same canonical form as xml-crypto, and as the compact scanner when compact', (_name, xml) => {
    const normalized = dropWhitespaceByRegex(xml);
    expect(ours(normalized)).toBe(xmlCryptos(normalized));
    const compact = scanCompact(normalized);
    if (compact) expect(ours(normalized)).toBe(compact.canonical);
  });
});

describe('verifyXml against xml-crypto 6 and xmlsec1', () => {
  it.each(Object.entries(FIXTURES))('%s signed by ecf-kit and by xml-crypto: all three accept', async (_name, xml) => {
    const t = modernP12();
    for (const signed of [await signXml(xml, signer()), signWithXmlCrypto(dropWhitespaceByRegex(xml), t.keyPem, t.certificatePem)]) {
      expect(verifyXml(signed)).toMatchObject({ valid: true });
      expect(verifyWithXmlCrypto(signed)).toBe(true);
      const sec = xmlsecVerify(signed);
      expect(sec.ok, sec.output).toBe(true);
    }
  });

  it('a 10,000-line e-CF 32 verifies, on the compact path and on the DOM path', async () => {
    const item = (n: number) =>
      `<Item><NumeroLinea>${n}</NumeroLinea><IndicadorFacturacion>4</IndicadorFacturacion><NombreItem>Artículo ${n} &amp; Cía</NombreItem>` +
      `<IndicadorBienoServicio>1</IndicadorBienoServicio><CantidadItem>1</CantidadItem><PrecioUnitarioItem>10.00</PrecioUnitarioItem><MontoItem>10.00</MontoItem></Item>`;
    const xml = plainEcf32.replace('</ECF>', `<DetallesItems>${Array.from({ length: 10_000 }, (_, i) => item(i + 1)).join('')}</DetallesItems></ECF>`);
    const signed = await signXml(xml, signer());
    expect(verifyXml(signed)).toMatchObject({ valid: true });
    // The same infoset written with character references leaves the compact subset: the DOM path decides.
    expect(verifyXml(signed.replaceAll('&amp;', '&#38;'))).toMatchObject({ valid: true });
    expect(verifyXml(signed.replace('<NumeroLinea>9999</NumeroLinea>', '<NumeroLinea>9998</NumeroLinea>'))).toMatchObject({
      valid: false,
      code: 'digest_mismatch',
    });
  });
});

/** A mutation of a signed document and whether it keeps the signed infoset (so the signature stays valid). */
interface Mutation {
  name: string;
  apply: (signed: string, at: number) => string;
}
const between = (signed: string, at: number): number => {
  // a position right after a '>' (between two pieces of markup or before text)
  const positions: number[] = [];
  for (let i = signed.indexOf('>'); i >= 0 && i < signed.length - 1; i = signed.indexOf('>', i + 1)) positions.push(i + 1);
  return positions[at % positions.length]!;
};
const MUTATIONS: Mutation[] = [
  {
    name: 'insert a comment',
    apply: (s, at) => {
      const p = between(s, at);
      return s.slice(0, p) + '<!-- x -->' + s.slice(p);
    },
  },
  {
    name: 'insert whitespace',
    apply: (s, at) => {
      const p = between(s, at);
      return s.slice(0, p) + '\n  ' + s.slice(p);
    },
  },
  {
    name: 'change a digit',
    apply: (s, at) => {
      const digits = [...s.matchAll(/>[^<]*?(\d)/g)].map((m) => m.index! + m[0].length - 1);
      if (digits.length === 0) return s;
      const p = digits[at % digits.length]!;
      return s.slice(0, p) + (s[p] === '7' ? '8' : '7') + s.slice(p + 1);
    },
  },
  { name: 'write &amp; as a character reference', apply: (s) => s.replace('&amp;', '&#38;') },
  { name: 'write an empty element as <a/>', apply: (s) => s.replace(/<([A-Za-z_][\w.-]*)><\/\1>/, '<$1/>') },
  {
    name: 'duplicate an element',
    apply: (s, at) => {
      const els = [...s.matchAll(/<([A-Za-z][\w.-]*)>[^<]*<\/\1>/g)].filter((m) => !['DigestValue', 'SignatureValue', 'X509Certificate'].includes(m[1]!));
      if (els.length === 0) return s;
      const m = els[at % els.length]!;
      return s.slice(0, m.index!) + m[0] + s.slice(m.index!);
    },
  },
  {
    name: 'move the Signature into the first child',
    apply: (s) => {
      const start = s.indexOf('<Signature ');
      const end = s.indexOf('</Signature>') + '</Signature>'.length;
      const sig = s.slice(start, end);
      const rest = s.slice(0, start) + s.slice(end);
      const firstChildEnd = /<([A-Za-z][\w.-]*)>/g;
      const root = firstChildEnd.exec(rest.replace(/^<\?xml[^>]*\?>/, (d) => ' '.repeat(d.length)));
      const child = root ? firstChildEnd.exec(rest) : null;
      if (!child) return s;
      const p = child.index! + child[0].length;
      return rest.slice(0, p) + sig + rest.slice(p);
    },
  },
];

const NAMES = ['ECF', 'Item', 'a', 'B_2'];
const TEXT = ['a', 'ñ', ' ', '&amp;', '&lt;', '&quot;', '>', '1180.00', '😀', 'x\ny'];
const textArb = fc.array(fc.constantFrom(...TEXT), { minLength: 1, maxLength: 4 }).map((p) => p.join(''));
const elementArb: fc.Memo<string> = fc.memo((depth) => {
  const leaf = fc.tuple(fc.constantFrom(...NAMES), fc.oneof(textArb, fc.constant(''))).map(([n, t]) => `<${n}>${t}</${n}>`);
  if (depth <= 1) return leaf;
  return fc
    .tuple(
      fc.constantFrom(...NAMES),
      fc.constantFrom('', ' xmlns="urn:d"', ' a="1" xml:lang="es"'),
      fc.array(fc.oneof(leaf, elementArb(depth - 1), textArb), { minLength: 1, maxLength: 4 }),
    )
    .map(([n, attrs, children]) => `<${n}${attrs}>${children.join('')}</${n}>`);
});
const docArb = elementArb(3).map((root) => `<?xml version="1.0" encoding="utf-8"?><Doc>${root}<Total>1180.00</Total></Doc>`);

describe('property: verifyXml agrees with xml-crypto 6 and xmlsec1 on mutated signed documents', () => {
  it('same verdict as xml-crypto on every mutation; never accepts what either oracle refuses', async () => {
    const s = signer();
    await fc.assert(
      fc.asyncProperty(docArb, fc.constantFrom(...MUTATIONS), fc.nat(), async (xml, mutation, at) => {
        const mutated = mutation.apply(await signXml(xml, s), at);
        const verdict = verifyXml(mutated).valid;
        const reference = verifyWithXmlCrypto(mutated);
        if (mutation.name === 'move the Signature into the first child') {
          // xml-crypto's enveloped transform accepts a Signature anywhere; DGII's profile wants it under the root.
          expect(verdict).toBe(false);
        } else {
          expect(verdict, `${mutation.name}: ${mutated}`).toBe(reference);
        }
      }),
      { numRuns: 150, seed: 20260113 },
    );
  });

  it('same verdict as xmlsec1 on every mutation', async () => {
    const s = signer();
    await fc.assert(
      fc.asyncProperty(docArb, fc.constantFrom(...MUTATIONS.filter((m) => !m.name.startsWith('move'))), fc.nat(), async (xml, mutation, at) => {
        const mutated = mutation.apply(await signXml(xml, s), at);
        const sec = xmlsecVerify(mutated);
        expect(verifyXml(mutated).valid, `${mutation.name}: ${sec.output}\n${mutated}`).toBe(sec.ok);
      }),
      { numRuns: 40, seed: 20260113 },
    );
  });
});
