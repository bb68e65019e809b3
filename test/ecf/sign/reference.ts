/** Test-only helpers: xml-crypto 6 as the reference signer, xmlsec1 as an independent verifier. */
import { SignedXml } from 'xml-crypto';

/**
 * Drops whitespace-only text between tags (DGII's preserveWhitespace = false) by splitting on
 * markup (tags, comments, CDATA), an implementation independent of the one under test. Valid for
 * the test documents (no raw `>` inside attribute values).
 */
export function dropWhitespaceByRegex(xml: string): string {
  return xml
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|<[^>]*>)/)
    .filter((part, i) => i % 2 === 1 || !/^[ \t\r\n]+$/.test(part))
    .join('');
}

/** Signs with xml-crypto 6 exactly as DGII's profile says. */
export function signWithXmlCrypto(xml: string, keyPem: string, certificatePem: string): string {
  const sig = new SignedXml({
    privateKey: keyPem,
    publicCert: certificatePem,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
  });
  sig.addReference({
    xpath: '/*',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    isEmptyUri: true,
  });
  sig.computeSignature(xml, { location: { reference: '/*', action: 'append' } });
  return sig.getSignedXml();
}

/** xmlsec1 verification lives with the test certificates (it needs the same temp-dir helper). */
export { xmlsecVerify } from '../helpers/certs.js';

const SIGNATURE_START = '<Signature xmlns="http://www.w3.org/2000/09/xmldsig#">';

/** Splits a signed document into its (last) `Signature` element and the rest of the document. */
export function splitSigned(signed: string): { signature: string; rest: string } {
  const start = signed.lastIndexOf(SIGNATURE_START);
  if (start < 0) throw new Error('splitSigned: no <Signature xmlns="…xmldsig#"> in the document');
  const end = signed.indexOf('</Signature>', start) + '</Signature>'.length;
  return { signature: signed.slice(start, end), rest: signed.slice(0, start) + signed.slice(end) };
}

/**
 * True when xml-crypto / xmldom serialise the (whitespace-free, compact) document exactly as
 * written: no `&quot;` / `&apos;` (written back as characters), no raw `>` in text (written back
 * as `&gt;`), no `<a></a>` (written back as `<a/>`), no `\r` (the parser reads it as `\n`).
 */
export function xmlCryptoKeepsSerialisation(xml: string): boolean {
  if (/\r|&quot;|&apos;|<([A-Za-z_][\w.-]*)><\/\1>/.test(xml)) return false;
  return xml.split(/(<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|<[^>]*>)/).every((part, i) => i % 2 === 1 || !part.includes('>'));
}

/** Inserts `<FechaHoraFirma>` as the last child of ECF, the way signEcf does. */
export function withSigningTime(xml: string, time: string): string {
  const end = xml.lastIndexOf('</ECF>');
  return `${xml.slice(0, end)}<FechaHoraFirma>${time}</FechaHoraFirma>${xml.slice(end)}`;
}

/**
 * The verification ecf-kit did before issue 13 item 4, kept as a test oracle: xml-crypto 6 (with its own
 * xmldom 0.8) checks the single Signature against the certificate embedded in it. Returns true when
 * xml-crypto accepts the document, false when it refuses or throws.
 */
export function verifyWithXmlCrypto(xml: string): boolean {
  const signature = /<Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">[\s\S]*<\/Signature>/.exec(xml)?.[0];
  const certificate = signature && /<X509Certificate>([^<]+)<\/X509Certificate>/.exec(signature)?.[1]?.replace(/\s+/g, '');
  if (!signature || !certificate) return false;
  const pem = `-----BEGIN CERTIFICATE-----\n${certificate.replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`;
  try {
    const checker = new SignedXml({ publicCert: pem });
    checker.loadSignature(signature);
    return checker.checkSignature(xml);
  } catch {
    return false;
  }
}
