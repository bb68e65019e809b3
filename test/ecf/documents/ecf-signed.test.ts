/**
 * Every e-CF type, built, signed with `signEcf` and a fixed clock, is valid against its official XSD
 * and verifies with xmlsec1 and verifyXml; signing changes nothing but FechaHoraFirma and the
 * Signature; signing twice gives the same bytes.
 *
 * Golden files: `test/ecf/fixtures/signed/ecf-<tipo>.xml` hold the signed document with the contents of
 * `SignatureValue` and `X509Certificate` replaced by `[key-dependent]`. The test key is generated at
 * test time (nothing secret is committed), so those two values change from run to run; everything
 * else, including `DigestValue` and the `SignedInfo` that the signature covers, depends only on the
 * document and the clock and is pinned here. That the masked SignatureValue is right for the pinned
 * SignedInfo is proven in the same test by xmlsec1 and verifyXml.
 * `UPDATE_GOLDEN=1 npx vitest run test/ecf/documents/ecf-signed.test.ts` rewrites them; review the diff.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signEcf } from '../../../src/ecf/sign/sign-xml.js';
import { ECF_TYPES } from '../../../src/ecf/spec/model.js';
import { buildEcfXmlFromJson } from '../../../src/ecf/xml/ecf.js';
import { modernP12 } from '../helpers/certs.js';
import { caseContext, loadExamples } from '../helpers/corpus.js';
import { baseContext, baseDoc } from '../helpers/docs.js';
import { repoRoot } from '../helpers/env.js';
import { signWithXmlCrypto, splitSigned, withSigningTime } from '../sign/reference.js';
import { expectSignedAndValid, SIGNING_CLOCK, SIGNING_TIME, testSigner } from './support.js';

const UPDATE = process.env.UPDATE_GOLDEN === '1';
const goldenDir = join(repoRoot, 'test/ecf/fixtures/signed');

/** The signed document without its two key-dependent values. */
function keyIndependent(signed: string): string {
  return signed
    .replace(/<SignatureValue>[^<]*<\/SignatureValue>/, '<SignatureValue>[key-dependent]</SignatureValue>')
    .replace(/<X509Certificate>[^<]*<\/X509Certificate>/, '<X509Certificate>[key-dependent]</X509Certificate>');
}

describe('e-CF of all ten types, signed', () => {
  for (const tipo of ECF_TYPES) {
    it(`${tipo}: XSD-valid, verifies, only FechaHoraFirma and the Signature added, deterministic, golden`, async () => {
      const xml = buildEcfXmlFromJson(tipo, baseDoc(tipo), baseContext(tipo));
      const signed = await signEcf(xml, testSigner(), SIGNING_CLOCK);
      expectSignedAndValid(signed, `ECF-${tipo}`);

      const stamped = withSigningTime(xml, SIGNING_TIME);
      expect(splitSigned(signed).rest).toBe(stamped);
      const t = modernP12();
      expect(splitSigned(signed).signature).toBe(splitSigned(signWithXmlCrypto(stamped, t.keyPem, t.certificatePem)).signature);

      expect(await signEcf(xml, testSigner(), SIGNING_CLOCK)).toBe(signed);

      const golden = join(goldenDir, `ecf-${tipo}.xml`);
      if (UPDATE) {
        mkdirSync(goldenDir, { recursive: true });
        writeFileSync(golden, keyIndependent(signed));
      }
      expect(existsSync(golden), `${golden} missing: run with UPDATE_GOLDEN=1`).toBe(true);
      expect(keyIndependent(signed), `${golden} differs: review, then UPDATE_GOLDEN=1`).toBe(readFileSync(golden, 'utf8'));
    });
  }
});

describe('maximal examples of all ten types, signed (every field, every escaped character)', () => {
  for (const ex of loadExamples().filter((e) => e.variant === 'maximal')) {
    it(`${ex.tipo}: XSD-valid, verifies, the builder's bytes kept`, async () => {
      const xml = buildEcfXmlFromJson(ex.tipo, ex.doc, caseContext(ex.tipo, ex.variant));
      const signed = await signEcf(xml, testSigner(), SIGNING_CLOCK);
      expectSignedAndValid(signed, `ECF-${ex.tipo}`);
      expect(splitSigned(signed).rest).toBe(withSigningTime(xml, SIGNING_TIME));
    });
  }
});
