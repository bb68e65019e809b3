import { verify, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildSemillaXml, parseSemillaXml } from '../../../src/ecf/documents/semilla.js';
import { canonicalSignedInfo } from '../../../src/ecf/sign/profile.js';
import { signXml } from '../../../src/ecf/sign/sign-xml.js';
import { modernP12 } from '../helpers/certs.js';
import { expectSignedAndValid, issuesOf, testSigner } from './support.js';

const VALOR = '5Vv0PqhjOPe7v0mvbMBnQyPJh5Ld6ilpZ9VbHDZjUVr+k0Ua1j4nqUIGa/NtsMG2aSs4aYbB9lx0Va3rA3Y8+RrsyIr6Ce4Ta4Oh6yyM=';
const FECHA = '2026-04-01T10:33:32.8617792-04:00';
const NS = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';

/** The seed as DGII serves it: declaration, CRLF, two-space indentation, xsi declared before xsd. */
const dgiiSeed = `<?xml version="1.0" encoding="utf-8"?>\r\n<SemillaModel ${NS}>\r\n  <valor>${VALOR}</valor>\r\n  <fecha>${FECHA}</fecha>\r\n</SemillaModel>`;

describe('Semilla (authentication seed)', () => {
  it('DGII-style pretty-printed seed: signed, whitespace-only text dropped, namespaces kept; valid against the Semilla XSD; verifies', async () => {
    const signed = await signXml(dgiiSeed, testSigner());
    expect(signed.startsWith(`<?xml version="1.0" encoding="utf-8"?><SemillaModel ${NS}><valor>${VALOR}</valor><fecha>${FECHA}</fecha><Signature `)).toBe(true);
    expectSignedAndValid(signed, 'Semilla');
  });

  it('SignedInfo is canonicalised with the inherited xmlns:xsd and xmlns:xsi, sorted (xsd first)', async () => {
    const signed = await signXml(dgiiSeed, testSigner());
    const digest = /<DigestValue>([^<]+)</.exec(signed)![1]!;
    const value = /<SignatureValue>([^<]+)</.exec(signed)![1]!;
    const canonical = canonicalSignedInfo(digest, ' xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"');
    const key = new X509Certificate(modernP12().certificateDer).publicKey;
    expect(verify('sha256', Buffer.from(canonical), key, Buffer.from(value, 'base64'))).toBe(true);
    expect(verify('sha256', Buffer.from(canonicalSignedInfo(digest)), key, Buffer.from(value, 'base64'))).toBe(false);
  });

  it('buildSemillaXml writes the seed DGII-style (compact); signed and valid', async () => {
    const xml = buildSemillaXml({ valor: VALOR, fecha: FECHA });
    expect(xml).toBe(`<?xml version="1.0" encoding="utf-8"?><SemillaModel ${NS}><valor>${VALOR}</valor><fecha>${FECHA}</fecha></SemillaModel>`);
    const signed = await signXml(xml, testSigner());
    expectSignedAndValid(signed, 'Semilla');
    // Same document once whitespace is dropped: same signature as the pretty-printed seed.
    expect(signed).toBe(await signXml(dgiiSeed, testSigner()));
  });

  it('refuses an empty valor and a fecha that is not an xs:dateTime', () => {
    expect(issuesOf(() => buildSemillaXml({ valor: '', fecha: FECHA })).map((i) => i.path)).toEqual(['valor']);
    for (const fecha of ['01-04-2026 10:00:00', '2026-04-01', '2026-13-01T10:00:00']) {
      expect(issuesOf(() => buildSemillaXml({ valor: VALOR, fecha }))).toEqual([expect.objectContaining({ code: 'date', path: 'fecha' })]);
    }
    for (const fecha of ['2026-04-01T10:00:00', '2026-04-01T10:00:00Z', '2026-04-01T10:00:00.1234567-04:00']) {
      expect(() => buildSemillaXml({ valor: VALOR, fecha })).not.toThrow();
    }
  });

  it('parse: pretty-printed, compact and signed seeds give the same values', async () => {
    const want = { data: { valor: VALOR, fecha: FECHA }, signed: false, issues: [] };
    expect(parseSemillaXml(dgiiSeed)).toEqual(want);
    expect(parseSemillaXml(buildSemillaXml({ valor: VALOR, fecha: FECHA }))).toEqual(want);
    expect(parseSemillaXml(await signXml(dgiiSeed, testSigner()))).toEqual({ ...want, signed: true });
  });
});
