/** The generic XMLDSig core digests with SHA-384 when a profile asks for it (checked by our verifier and xmlsec1). */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSelfSignedIdentity } from '../../../src/shared/xmldsig/self-signed.js';
import {
  appendToDocumentElement,
  C14N_ALGORITHM,
  DIGEST_ALGORITHM,
  DIGEST_ALGORITHM_SHA384,
  ENVELOPED_TRANSFORM,
  SIGNATURE_ALGORITHM,
  type SignatureProfile,
} from '../../../src/shared/xmldsig/signature-profile.js';
import { signXmlWithProfile } from '../../../src/shared/xmldsig/xmldsig-sign.js';
import { verifyXmlWithProfile } from '../../../src/shared/xmldsig/xmldsig-verify.js';
import { xmlsecVerify } from '../../ecf/helpers/certs.js';

const profile: SignatureProfile = {
  name: 'SHA-384 test',
  canonicalization: C14N_ALGORITHM,
  signatureAlgorithm: SIGNATURE_ALGORITHM,
  digestAlgorithm: DIGEST_ALGORITHM_SHA384,
  references: [{ target: 'document', transforms: [ENVELOPED_TRANSFORM] }],
  placement: appendToDocumentElement(),
  keyInfo: {},
  dsPrefix: '',
  dropWhitespace: false,
};

describe('SHA-384 digests in the generic core', () => {
  const identity = createSelfSignedIdentity({ commonName: 'Prueba' });
  const xml = '<doc><a>1</a></doc>';

  it('digests the document with SHA-384 and both verifiers accept it', async () => {
    const signed = await signXmlWithProfile(xml, profile, identity.signer);
    expect(signed).toContain(`<DigestMethod Algorithm="${DIGEST_ALGORITHM_SHA384}"/>`);
    expect(signed).toContain(`<DigestValue>${createHash('sha384').update(xml).digest('base64')}</DigestValue>`);
    expect(verifyXmlWithProfile(signed, profile)).toMatchObject({ valid: true });
    const r = xmlsecVerify(signed, identity.certificatePem);
    expect(r.ok, r.output).toBe(true);
  });

  it('a SHA-256 profile refuses a SHA-384 signature, and a change is caught', async () => {
    const signed = await signXmlWithProfile(xml, profile, identity.signer);
    expect(verifyXmlWithProfile(signed, { ...profile, digestAlgorithm: DIGEST_ALGORITHM })).toMatchObject({ valid: false, code: 'unsupported' });
    expect(verifyXmlWithProfile(signed.replace('<a>1', '<a>2'), profile)).toMatchObject({ valid: false, code: 'digest_mismatch' });
  });
});
