/**
 * Signed DIAN documents validate against the official XSDs without the `unsigned` option. Certificates made by
 * createSelfSignedIdentity have 16-byte serials (37–39 decimal digits), beyond the 24 digits libxml2 accepts in an
 * `xs:integer` (protocol §15): the validator zero-pads such serials in memory, and only those.
 */
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildDianXml, DIAN_KINDS, type DianKindId } from '../../../src/dian/index.js';
import { createSelfSignedIdentity, signDianXml, verifyDianXml } from '../../../src/dian/sign/index.js';
import { createDianSchemaValidator, detectDianSchemaId } from '../../../src/dian/xsd/index.js';
import { LIBXML_INTEGER_DIGITS, relaxLongSerials } from '../../../src/dian/xsd/serials.js';
import { CONTEXT } from '../helpers/build-fixtures.js';
import { dianXsdDir } from '../helpers/env.js';
import { minimalDianRequest } from '../helpers/requests.js';

const validator = createDianSchemaValidator(dianXsdDir());
const identity = createSelfSignedIdentity({ commonName: 'Proveedor de prueba' });
const serial = BigInt(`0x${new X509Certificate(Buffer.from(identity.signer.certificate, 'base64')).serialNumber}`).toString();

async function signedInvoice(): Promise<string> {
  const built = buildDianXml('invoice', minimalDianRequest('invoice'), CONTEXT);
  if (!built.ok) throw new Error(JSON.stringify(built.issues));
  const r = await signDianXml(built.xml, identity.signer, { clock: () => new Date('2024-05-10T15:00:00Z'), newId: () => 'x' });
  if (!r.ok) throw new Error(r.message);
  return r.xml;
}

describe('signed documents against the DIAN XSDs', () => {
  it('a signed invoice with a long-serial certificate validates (no unsigned option)', async () => {
    expect(serial.length).toBeGreaterThan(LIBXML_INTEGER_DIGITS);
    const signed = await signedInvoice();
    expect(signed).toContain(`<ds:X509SerialNumber>${serial}</ds:X509SerialNumber>`);
    expect(validator.validate(signed, 'Invoice')).toEqual({ valid: true, violations: [] });
  });

  it('a serial that is not an integer is still refused, at its own line and column', async () => {
    const signed = (await signedInvoice()).replace(`>${serial}<`, `>${serial}x<`);
    const r = validator.validate(signed, 'Invoice');
    expect(r.valid).toBe(false);
    expect(r.violations[0]!.message).toContain('X509SerialNumber');
    // the document is one line: the column is the offset of the element, as in the text given (padding keeps lengths)
    const column = r.violations[0]!.column!;
    expect(signed.slice(column - 1, column - 1 + 40)).toMatch(/^<ds:X509SerialNumber>/);
  });

  it('relaxLongSerials pads only long digit serials and keeps the length', () => {
    const long = '<ds:X509SerialNumber>1234567890123456789012345</ds:X509SerialNumber>';
    expect(relaxLongSerials(long)).toEqual({ text: '<ds:X509SerialNumber>0000000000000000000000005</ds:X509SerialNumber>', count: 1 });
    const short = '<ds:X509SerialNumber>123456789012345678901234</ds:X509SerialNumber>';
    expect(relaxLongSerials(short)).toEqual({ text: short, count: 0 });
    const text = '<X509SerialNumber>1234567890123456789012345x</X509SerialNumber>';
    expect(relaxLongSerials(text)).toEqual({ text, count: 0 });
  });

  it('every kind buildDianXml writes signs, verifies and validates', async () => {
    const kinds = Object.keys(DIAN_KINDS) as DianKindId[];
    expect(kinds.length).toBeGreaterThanOrEqual(9);
    for (const kind of kinds) {
      const built = buildDianXml(kind, minimalDianRequest(kind), CONTEXT);
      if (!built.ok) throw new Error(`${kind}: ${JSON.stringify(built.issues)}`);
      const r = await signDianXml(built.xml, identity.signer, { clock: () => new Date('2024-05-10T15:00:00Z') });
      if (!r.ok) throw new Error(`${kind}: ${r.message}`);
      expect(verifyDianXml(r.xml), kind).toMatchObject({ valid: true });
      expect(validator.validate(r.xml, detectDianSchemaId(r.xml)!), kind).toEqual({ valid: true, violations: [] });
    }
  });
});
