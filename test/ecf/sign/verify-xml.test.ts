import { generateKeyPairSync, sign as rsaSign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readP12 } from '../../../src/shared/xmldsig/p12.js';
import { p12Signer } from '../../../src/shared/xmldsig/signer.js';
import { signXml } from '../../../src/ecf/sign/sign-xml.js';
import { verifyXml } from '../../../src/ecf/sign/verify-xml.js';
import { modernP12, TEST_PASSWORD } from '../helpers/certs.js';
import { compactEcf31, prettySeed } from './fixtures.js';
import { signWithXmlCrypto } from './reference.js';

const sign = (xml: string) => signXml(xml, p12Signer(readP12(modernP12().p12, TEST_PASSWORD)));

describe('verifyXml', () => {
  it('accepts a document we signed and returns the embedded certificate', async () => {
    expect(verifyXml(await sign(compactEcf31))).toEqual({ valid: true, certificate: modernP12().certificate });
    expect(verifyXml(await sign(prettySeed)).valid).toBe(true);
  });

  it('accepts a document xml-crypto signed', () => {
    const t = modernP12();
    expect(verifyXml(signWithXmlCrypto(compactEcf31, t.keyPem, t.certificatePem)).valid).toBe(true);
  });

  it('detects altered content → digest_mismatch', async () => {
    const signed = await sign(compactEcf31);
    const r = verifyXml(signed.replace('<MontoTotal>1180.00</MontoTotal>', '<MontoTotal>118.00</MontoTotal>'));
    expect(r).toMatchObject({ valid: false, code: 'digest_mismatch', certificate: modernP12().certificate });
    expect(r.reason).toMatch(/digest/);
  });

  it('detects added whitespace (the signed document must not be reformatted)', async () => {
    const signed = await sign(compactEcf31);
    expect(verifyXml(signed.replace('<Encabezado>', '<Encabezado>\n  ')).code).toBe('digest_mismatch');
  });

  it('detects an altered DigestValue (reference check fails first) or SignatureValue → bad_signature', async () => {
    const signed = await sign(compactEcf31);
    const digest = /<DigestValue>([^<]+)</.exec(signed)![1]!;
    expect(verifyXml(signed.replace(digest, `A${digest.slice(1)}`)).code).toBe('digest_mismatch');
    const value = /<SignatureValue>([^<]+)</.exec(signed)![1]!;
    const flipped = (value[0] === 'A' ? 'B' : 'A') + value.slice(1);
    expect(verifyXml(signed.replace(value, flipped))).toMatchObject({ valid: false, code: 'bad_signature' });
  });

  it('detects a signature made with another key than the embedded certificate → bad_signature', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = await signXml(compactEcf31, { certificate: modernP12().certificate, sign: (d) => rsaSign('sha256', d, privateKey) });
    expect(verifyXml(forged)).toMatchObject({ valid: false, code: 'bad_signature' });
  });

  it('no signature → no_signature', () => {
    expect(verifyXml(compactEcf31)).toMatchObject({ valid: false, code: 'no_signature' });
  });

  it('two signatures → multiple_signatures', async () => {
    const signed = await sign(compactEcf31);
    const sig = signed.slice(signed.indexOf('<Signature '), signed.lastIndexOf('</ECF>'));
    expect(verifyXml(signed.replace('</ECF>', `${sig}</ECF>`))).toMatchObject({ valid: false, code: 'multiple_signatures' });
  });

  it('a Reference to something else than the whole document → wrong_reference_uri', async () => {
    const signed = await sign(compactEcf31);
    expect(verifyXml(signed.replace('<Reference URI="">', '<Reference URI="#x">'))).toMatchObject({ valid: false, code: 'wrong_reference_uri' });
  });

  it('no certificate → no_certificate', async () => {
    const signed = await sign(compactEcf31);
    expect(verifyXml(signed.replace(/<KeyInfo>.*<\/KeyInfo>/, ''))).toMatchObject({ valid: false, code: 'no_certificate' });
  });

  it('a Signature that is not a child of the document element → unsupported (the profile is enveloped at the root)', async () => {
    const signed = await sign(compactEcf31);
    const sig = signed.slice(signed.indexOf('<Signature '), signed.lastIndexOf('</ECF>'));
    const moved = signed.replace(sig, '').replace('<Encabezado>', `<Encabezado>${sig}`);
    expect(verifyXml(moved)).toMatchObject({ valid: false, code: 'unsupported' });
  });

  it('algorithms outside the profile (RSA-SHA1, exclusive C14N, extra transforms) → unsupported, before any cryptography', async () => {
    const signed = await sign(compactEcf31);
    const variants = [
      signed.replace('xmldsig-more#rsa-sha256', 'xmldsig#rsa-sha1'),
      signed.replace(
        '<CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"',
        '<CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"',
      ),
      signed.replace('</Transforms>', '<Transform Algorithm="http://www.w3.org/TR/1999/REC-xpath-19991116"/></Transforms>'),
      signed.replace('</SignedInfo>', '<Reference URI=""/></SignedInfo>'),
    ];
    for (const v of variants) expect(verifyXml(v)).toMatchObject({ valid: false, code: expect.stringMatching(/^(unsupported|wrong_reference_uri)$/) });
  });

  it('not well-formed → not_well_formed', () => {
    expect(verifyXml('<ECF><a></ECF>')).toMatchObject({ valid: false, code: 'not_well_formed' });
  });
});

describe('XML 1.0 line ends in signed values', () => {
  // Regression: xmldom normalised U+0085/U+2028/U+2029 to LF (XML 1.1), so verifyXml reported digest_mismatch
  // on documents xmlsec1 accepts.
  it.each([
    ['U+0085', '\u0085'],
    ['U+2028', '\u2028'],
    ['U+2029', '\u2029'],
  ])('a value with %s verifies', async (_n, c) => {
    const t = modernP12();
    const signer = p12Signer(readP12(t.p12, TEST_PASSWORD));
    const signed = await signXml(`<?xml version="1.0" encoding="utf-8"?><Doc><A>uno${c}dos</A></Doc>`, signer);
    expect(verifyXml(signed)).toMatchObject({ valid: true });
  });
});
