import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildSemillaXml } from '../../../src/ecf/documents/semilla.js';
import { readP12 } from '../../../src/shared/xmldsig/p12.js';
import { createSelfSignedIdentity } from '../../../src/shared/xmldsig/self-signed.js';
import { signXml } from '../../../src/ecf/sign/sign-xml.js';
import { verifyXml } from '../../../src/ecf/sign/verify-xml.js';
import { schemaValidator } from '../helpers/xsd.js';

const SEED = buildSemillaXml({ valor: 'c2VtaWxsYS1kZS1wcnVlYmE=', fecha: '2026-04-01T10:00:00.0000000-04:00' });

describe('createSelfSignedIdentity', () => {
  it('signs a seed that verifyXml accepts with the identity certificate, XSD-valid', async () => {
    const id = createSelfSignedIdentity({ commonName: 'DGII SIMULADOR', serialNumber: '132000001' });
    const signed = await signXml(SEED, id.signer);
    const v = verifyXml(signed);
    expect(v.valid).toBe(true);
    expect(v.certificate).toBe(id.signer.certificate);
    expect(schemaValidator().validate(signed, 'Semilla').valid).toBe(true);
    // A different identity's signature is a different one: the key is fresh each time.
    const other = createSelfSignedIdentity({ commonName: 'DGII SIMULADOR', serialNumber: '132000001' });
    expect(await signXml(SEED, other.signer)).not.toBe(signed);
  });

  it('puts serialNumber and commonName in the subject; the .p12 opens with the returned password', () => {
    const now = new Date('2026-04-01T14:00:00Z');
    const id = createSelfSignedIdentity({ commonName: 'JOSÉ PEÑA SIMULADO', serialNumber: 'IDCDO-00199999996', days: 30, now });
    const read = readP12(id.p12, id.password);
    expect(read.info.serialNumber).toBe('IDCDO-00199999996');
    expect(read.info.subject.attributes.CN).toBe('JOSÉ PEÑA SIMULADO');
    expect(read.certificate).toBe(id.signer.certificate);
    expect(read.info.notAfter.toISOString()).toBe('2026-05-01T14:00:00.000Z');
    expect(read.info.notBefore.getTime()).toBeLessThanOrEqual(now.getTime());
    const x509 = new X509Certificate(id.certificatePem);
    expect(x509.raw.toString('base64')).toBe(id.signer.certificate);
    expect(x509.subject).toContain('serialNumber=IDCDO-00199999996');
    expect(() => readP12(id.p12, `${id.password}x`)).toThrow(/password/i);
  });

  it('omits serialNumber when not given and rejects bad options', () => {
    const id = createSelfSignedIdentity({ commonName: 'SIN SERIAL' });
    expect(readP12(id.p12, id.password).info.serialNumber).toBeNull();
    expect(() => createSelfSignedIdentity({ commonName: 'X', days: 0 })).toThrow(RangeError);
    expect(() => createSelfSignedIdentity({ commonName: 'X', now: new Date('nope') })).toThrow(RangeError);
  });
});
