/** Shared by the signed-document tests: the test signer, and "valid against the official XSD + verifies twice". */
import { expect } from 'vitest';
import type { SchemaId } from '../../../src/ecf/ports.js';
import type { Signer } from '../../../src/shared/ports.js';
import { readP12 } from '../../../src/shared/xmldsig/p12.js';
import { p12Signer } from '../../../src/shared/xmldsig/signer.js';
import { verifyXml } from '../../../src/ecf/sign/verify-xml.js';
import { modernP12, TEST_PASSWORD, xmlsecVerify } from '../helpers/certs.js';
import { formatViolations, schemaValidator } from '../helpers/xsd.js';

/** Signer over the generated test certificate (serialNumber IDCDO-00199999996). */
export function testSigner(): Signer {
  return p12Signer(readP12(modernP12().p12, TEST_PASSWORD));
}

/** The fixed signing instant of these tests: 01-04-2026 10:00:00 in GMT-4. */
export const SIGNING_CLOCK = () => new Date('2026-04-01T14:00:00Z');
export const SIGNING_TIME = '01-04-2026 10:00:00';

/** Asserts the official XSD accepts the signed document. */
export function expectXsdValid(xml: string, schema: SchemaId): void {
  const r = schemaValidator().validate(xml, schema);
  expect(r.violations.length === 0 && r.valid, `${schema}:\n${formatViolations(r)}`).toBe(true);
}

/** Asserts the signed document is XSD-valid and verifies with xmlsec1 and with verifyXml. */
export function expectSignedAndValid(signed: string, schema: SchemaId): void {
  expectXsdValid(signed, schema);
  const x = xmlsecVerify(signed);
  expect(x.ok, `xmlsec1: ${x.output}`).toBe(true);
  expect(verifyXml(signed)).toEqual({ valid: true, certificate: modernP12().certificate });
}

/** Issues of an EcfValidationError thrown by `fn` (fails the test when nothing is thrown). */
export function issuesOf(fn: () => unknown): { code: string; path: string; message: string }[] {
  try {
    fn();
  } catch (e) {
    expect((e as { name?: string }).name).toBe('EcfValidationError');
    return (e as { issues: { code: string; path: string; message: string }[] }).issues;
  }
  throw new Error('expected an EcfValidationError');
}
