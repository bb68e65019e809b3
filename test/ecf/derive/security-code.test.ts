import { describe, expect, it } from 'vitest';
import { securityCode, securityCodeFromSignatureValue } from '../../../src/ecf/derive/security-code.js';
import { readP12 } from '../../../src/shared/xmldsig/p12.js';
import { p12Signer } from '../../../src/shared/xmldsig/signer.js';
import { signEcf } from '../../../src/ecf/sign/sign-xml.js';
import { modernP12, TEST_PASSWORD } from '../helpers/certs.js';
import { compactEcf31 } from '../sign/fixtures.js';

describe('securityCode', () => {
  it('is the first six characters of the base64 SignatureValue', async () => {
    const signed = await signEcf(compactEcf31, p12Signer(readP12(modernP12().p12, TEST_PASSWORD)), () => new Date('2026-01-10T12:00:00Z'));
    const value = /<SignatureValue>([^<]+)<\/SignatureValue>/.exec(signed)![1]!;
    expect(securityCode(signed)).toBe(value.slice(0, 6));
    expect(securityCode(signed)).toHaveLength(6);
  });

  it('ignores whitespace and line breaks inside SignatureValue (line-wrapped signers)', () => {
    const xml =
      '<ECF><A>1</A><Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignatureValue>\n  gG/\r\n XY Z+abc==\n</SignatureValue></Signature></ECF>';
    expect(securityCode(xml)).toBe('gG/XYZ');
    expect(securityCodeFromSignatureValue(' m+t\nPLrQQ ')).toBe('m+tPLr');
  });

  it('an unsigned document → not_signed', () => {
    expect(() => securityCode('<ECF><A>1</A></ECF>')).toThrow(expect.objectContaining({ code: 'not_signed' }));
    // A Signature outside the XMLDSig namespace does not count.
    expect(() => securityCode('<ECF><Signature><SignatureValue>abcdefgh</SignatureValue></Signature></ECF>')).toThrow(
      expect.objectContaining({ code: 'not_signed' }),
    );
  });

  it('not well-formed → not_well_formed', () => {
    expect(() => securityCode('<ECF>')).toThrow(expect.objectContaining({ code: 'not_well_formed' }));
  });
});
