import { verify, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SigningError } from '../../../src/shared/errors/index.js';
import { readP12 } from '../../../src/shared/xmldsig/p12.js';
import { p12Signer } from '../../../src/shared/xmldsig/signer.js';
import { signEcf, signXml } from '../../../src/ecf/sign/sign-xml.js';
import { verifyXml } from '../../../src/ecf/sign/verify-xml.js';
import { scanCompact } from '../../../src/shared/xmldsig/compact-c14n.js';
import type { Signer } from '../../../src/shared/ports.js';
import { modernP12, multiCertP12, TEST_PASSWORD } from '../helpers/certs.js';
import { compactEcf31, compactOddities, generalFeatures, namespacedEcf, noDeclaration, plainEcf32, prettyEcf, prettySeed } from './fixtures.js';
import { dropWhitespaceByRegex, signWithXmlCrypto, splitSigned, xmlCryptoKeepsSerialisation, xmlsecVerify } from './reference.js';

const clock = () => new Date('2026-01-01T03:30:00Z');

function testSigner(): Signer {
  return p12Signer(readP12(modernP12().p12, TEST_PASSWORD));
}

/** Fixtures, and the path each takes: fast (bytes kept) or general (re-serialised by xmldom). */
const fixtures: Record<string, { xml: string; path: 'fast' | 'general' }> = {
  'compact e-CF 31 (accents, ñ, &, quotes)': { xml: compactEcf31, path: 'fast' },
  'compact e-CF 32 without quotes, > or empty elements': { xml: plainEcf32, path: 'fast' },
  'compact with raw > and quotes, emoji, tabs, empty elements': { xml: compactOddities, path: 'fast' },
  'no XML declaration (ARECF)': { xml: noDeclaration, path: 'fast' },
  'pretty-printed e-CF with CRLF': { xml: prettyEcf, path: 'fast' },
  'pretty-printed DGII seed (xsi before xsd)': { xml: prettySeed, path: 'general' },
  'attributes, namespaces, comments, CDATA, character references': { xml: generalFeatures, path: 'general' },
  'root with a default namespace': { xml: namespacedEcf, path: 'general' },
};

describe('signXml against xml-crypto 6 (same key, same profile)', () => {
  for (const [name, { xml, path }] of Object.entries(fixtures)) {
    it(`${name}: same Signature element; ${path === 'fast' ? 'the rest is the input, minus whitespace-only text' : 'same bytes'}`, async () => {
      const t = modernP12();
      const ours = await signXml(xml, testSigner());
      const reference = signWithXmlCrypto(dropWhitespaceByRegex(xml), t.keyPem, t.certificatePem);
      expect(splitSigned(ours).signature).toBe(splitSigned(reference).signature);
      if (path === 'fast') {
        expect(scanCompact(xml)).not.toBeNull();
        expect(splitSigned(ours).rest).toBe(dropWhitespaceByRegex(xml));
        if (!/>\s+</.test(xml)) expect(splitSigned(ours).rest).toBe(xml);
      } else {
        expect(scanCompact(xml)).toBeNull();
        expect(ours).toBe(reference);
      }
      if (xmlCryptoKeepsSerialisation(dropWhitespaceByRegex(xml))) expect(ours).toBe(reference);
    });
  }

  it('the fixtures cover both cases: whole document identical, and only the Signature identical', () => {
    expect(xmlCryptoKeepsSerialisation(plainEcf32)).toBe(true);
    expect(xmlCryptoKeepsSerialisation(noDeclaration)).toBe(true);
    expect(xmlCryptoKeepsSerialisation(compactEcf31)).toBe(false);
    expect(xmlCryptoKeepsSerialisation(compactOddities)).toBe(false);
  });

  it('keeps what the builder writes: &quot; &apos; &gt; &lt; &amp;, <a/> and <a></a>, the declaration', async () => {
    const xml = '<?xml version="1.0" encoding="utf-8"?><ECF><A>&quot;x&quot; &apos;y&apos; &gt; &lt; &amp;</A><B/><C></C></ECF>';
    const signed = await signXml(xml, testSigner());
    expect(signed.startsWith('<?xml version="1.0" encoding="utf-8"?><ECF><A>&quot;x&quot; &apos;y&apos; &gt; &lt; &amp;</A><B/><C></C><Signature ')).toBe(true);
    expect(splitSigned(signed).rest).toBe(xml);
    const t = modernP12();
    const reference = signWithXmlCrypto(xml, t.keyPem, t.certificatePem);
    expect(reference).toContain('<A>"x" \'y\' &gt; &lt; &amp;</A><B/><C/>');
    expect(splitSigned(signed).signature).toBe(splitSigned(reference).signature);
    expect(verifyXml(signed).valid).toBe(true);
    expect(xmlsecVerify(signed).ok).toBe(true);
  });
});

describe('signXml: xmlsec1 verifies', () => {
  for (const [name, { xml }] of Object.entries(fixtures)) {
    it(`${name} (--insecure)`, async () => {
      const r = xmlsecVerify(await signXml(xml, testSigner()));
      expect(r.output).toMatch(/OK/);
      expect(r.ok).toBe(true);
    });
  }

  it('with --trusted-pem of the test certificate', async () => {
    const r = xmlsecVerify(await signXml(compactEcf31, testSigner()), modernP12().certificatePem);
    expect(r.ok, r.output).toBe(true);
  });

  it('signEcf output, signed with the leaf of a multi-certificate .p12', async () => {
    const signer = p12Signer(readP12(multiCertP12().p12, TEST_PASSWORD));
    const r = xmlsecVerify(await signEcf(compactEcf31, signer, clock));
    expect(r.ok, r.output).toBe(true);
  });

  it('xml:space="preserve" keeps whitespace-only text, and still verifies', async () => {
    const signed = await signXml('<Doc>\n  <Keep xml:space="preserve">   </Keep>\n  <Drop>   </Drop>\n</Doc>', testSigner());
    expect(signed).toMatch(/^<Doc><Keep xml:space="preserve"> {3}<\/Keep><Drop\/><Signature /);
    expect(xmlsecVerify(signed).ok).toBe(true);
    expect(verifyXml(signed).valid).toBe(true);
  });
});

describe('signXml: profile and shape', () => {
  it('appends one Signature as the last child of the root, keeps the declaration, drops indentation', async () => {
    const signed = await signXml(prettySeed, testSigner());
    expect(signed.startsWith('<?xml version="1.0" encoding="utf-8"?><SemillaModel xmlns:xsi=')).toBe(true);
    expect(signed).not.toMatch(/>\s+</);
    expect(signed).toMatch(/<\/fecha><Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#"><SignedInfo>.*<\/Signature><\/SemillaModel>$/);
    expect(signed.match(/<Signature /g)).toHaveLength(1);
  });

  it('uses exactly the DGII algorithms, Reference URI="" and the leaf certificate', async () => {
    const signed = await signXml(compactEcf31, testSigner());
    const sig = signed.slice(signed.indexOf('<Signature '));
    expect(sig).toContain('<CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/>');
    expect(sig).toContain('<SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>');
    expect(sig).toContain('<Reference URI=""><Transforms><Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/></Transforms>');
    expect(sig).toContain('<DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/>');
    expect(sig).toContain(`<KeyInfo><X509Data><X509Certificate>${modernP12().certificate}</X509Certificate></X509Data></KeyInfo></Signature></ECF>`);
  });

  it('is deterministic: same input and key give the same bytes', async () => {
    const signer = testSigner();
    expect(await signXml(compactEcf31, signer)).toBe(await signXml(compactEcf31, signer));
  });

  it('golden: digest and canonical SignedInfo of a fixed document and clock (key-independent)', async () => {
    const signed = await signEcf('<?xml version="1.0" encoding="utf-8"?><ECF><Encabezado><Version>1.0</Version></Encabezado></ECF>', testSigner(), clock);
    expect(signed).toMatch(
      /^<\?xml version="1\.0" encoding="utf-8"\?><ECF><Encabezado><Version>1\.0<\/Version><\/Encabezado><FechaHoraFirma>31-12-2025 23:30:00<\/FechaHoraFirma><Signature /,
    );
    // printf '%s' '<ECF><Encabezado><Version>1.0</Version></Encabezado><FechaHoraFirma>31-12-2025 23:30:00</FechaHoraFirma></ECF>' | openssl dgst -sha256 -binary | base64
    const digest = 'Jq6IXQZ4aBP5jdB9KjMNEpTtBT4+/qoW1xkjcbFVpYs=';
    expect(signed).toContain(`<DigestValue>${digest}</DigestValue>`);
    const canonicalSignedInfo =
      '<SignedInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"></CanonicalizationMethod>' +
      '<SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"></SignatureMethod><Reference URI=""><Transforms>' +
      '<Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"></Transform></Transforms>' +
      `<DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"></DigestMethod><DigestValue>${digest}</DigestValue></Reference></SignedInfo>`;
    const signatureValue = /<SignatureValue>([^<]+)<\/SignatureValue>/.exec(signed)![1]!;
    const publicKey = new X509Certificate(modernP12().certificateDer).publicKey;
    expect(verify('sha256', Buffer.from(canonicalSignedInfo), publicKey, Buffer.from(signatureValue, 'base64'))).toBe(true);
  });

  it('accepts an asynchronous Signer (HSM / KMS style)', async () => {
    const inner = testSigner();
    const asyncSigner: Signer = { certificate: inner.certificate, sign: async (data) => inner.sign(data) };
    expect(await signXml(compactEcf31, asyncSigner)).toBe(await signXml(compactEcf31, inner));
  });

  it('takes the fast path for compact input, indented or not; whitespace-only text is dropped from the output', () => {
    expect(scanCompact(compactEcf31)).toMatchObject({ text: compactEcf31, droppedWhitespace: false });
    expect(scanCompact(compactOddities)).not.toBeNull();
    expect(scanCompact(prettyEcf)).toMatchObject({ text: compactEcf31, droppedWhitespace: true });
    expect(scanCompact('\n <a> <b>x</b>\t</a>\n')).toMatchObject({ text: '<a><b>x</b></a>', canonical: '<a><b>x</b></a>' });
    expect(scanCompact('<a/>')).toBeNull();
    expect(scanCompact('<a>1</a>x')).toBeNull();
    expect(scanCompact(generalFeatures)).toBeNull();
    expect(scanCompact('<a>x &#233;</a>')).toBeNull();
    expect(scanCompact('<a>1</b>')).toBeNull();
  });

  it('canonicalises the compact subset like C14N: quotes literal, > escaped, empty elements expanded, declaration dropped', () => {
    expect(scanCompact('<?xml version="1.0" encoding="utf-8"?><E><A>&quot;x&quot; &apos;y&apos; &amp; &lt; &gt; ></A><B/><C></C></E>')?.canonical).toBe(
      '<E><A>"x" \'y\' &amp; &lt; &gt; &gt;</A><B></B><C></C></E>',
    );
  });
});

describe('signXml: errors', () => {
  async function signingError(xml: string, signer: Signer = testSigner()): Promise<SigningError> {
    try {
      await signXml(xml, signer);
    } catch (e) {
      expect(e).toBeInstanceOf(SigningError);
      return e as SigningError;
    }
    throw new Error('expected a SigningError');
  }

  it('not well-formed → not_well_formed', async () => {
    expect((await signingError('<ECF><A>1</B></ECF>')).code).toBe('not_well_formed');
    expect((await signingError('<ECF>')).code).toBe('not_well_formed');
    expect((await signingError('just text')).code).toBe('not_well_formed');
    expect((await signingError('<ECF>&nope;</ECF>')).code).toBe('not_well_formed');
  });

  it('already signed → already_signed', async () => {
    const signed = await signXml(compactEcf31, testSigner());
    expect((await signingError(signed)).code).toBe('already_signed');
  });

  it('DOCTYPE and processing instructions inside the root → unsupported_xml', async () => {
    expect((await signingError('<!DOCTYPE ECF><ECF><A>1</A></ECF>')).code).toBe('unsupported_xml');
    expect((await signingError('<ECF><?pi data?><A>1</A></ECF>')).code).toBe('unsupported_xml');
  });

  it('a failing Signer → signer_failed, with the cause', async () => {
    const e = await signingError(compactEcf31, {
      certificate: modernP12().certificate,
      sign: () => {
        throw new Error('HSM offline');
      },
    });
    expect(e.code).toBe('signer_failed');
    expect(e.message).toContain('HSM offline');
  });

  it('a certificate that is not base64 DER → signer_failed', async () => {
    const e = await signingError(compactEcf31, { certificate: modernP12().certificatePem, sign: testSigner().sign });
    expect(e.code).toBe('signer_failed');
  });
});

describe('signXml / verifyXml: repaired syntax is not well-formed', () => {
  it('refuses an unquoted attribute instead of signing a repaired document', async () => {
    await expect(signXml('<ECF><A b=1>x</A></ECF>', p12Signer(readP12(modernP12().p12, TEST_PASSWORD)))).rejects.toMatchObject({ code: 'not_well_formed' });
    expect(verifyXml('<ECF><A b=1>x</A></ECF>')).toMatchObject({ valid: false, code: 'not_well_formed' });
  });

  it('accepts U+FFFD in content', async () => {
    const signed = await signXml('<ECF><A b="\uFFFD">caf\uFFFD</A></ECF>', p12Signer(readP12(modernP12().p12, TEST_PASSWORD)));
    expect(verifyXml(signed).valid).toBe(true);
  });
});
