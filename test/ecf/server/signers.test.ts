import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { prepareCertificate } from '../../../src/ecf/server/certificates.js';
import { SecretKey } from '../../../src/ecf/server/secrets.js';
import { createSignerProvider, SignerUnavailableError } from '../../../src/ecf/server/signers.js';
import type { Issuer } from '../../../src/ecf/server/storage/types.js';
import { createSelfSignedIdentity } from '../../../src/shared/xmldsig/self-signed.js';
import { signXml, verifyXml } from '../../../src/ecf/sign/index.js';

const RNC = '131880738';
const NOW = new Date('2026-04-01T12:00:00Z');
const clock = () => NOW;
const key = new Uint8Array(randomBytes(32));

const own = createSelfSignedIdentity({ commonName: 'EMISOR PROPIO', serialNumber: RNC, now: new Date('2026-01-01T00:00:00Z') });
const renewed = createSelfSignedIdentity({ commonName: 'EMISOR PROPIO RENOVADO', serialNumber: RNC, now: new Date('2026-02-01T00:00:00Z') });
const providerId = createSelfSignedIdentity({ commonName: 'PROVEEDOR', serialNumber: '101000001', now: new Date('2026-01-01T00:00:00Z') });

function issuerWith(certificate: Uint8Array | null, signingMode: 'own' | 'provider' = 'own', id = 1): Issuer {
  return { id, rnc: RNC, name: 'Emisor', profile: {}, signingMode, certificate, certificateInfo: null, createdAt: 0 };
}
const seal = (identity: typeof own, k: Uint8Array = key) =>
  prepareCertificate({ issuer: { rnc: RNC }, p12: identity.p12, password: identity.password, key: k, now: NOW }).certificate;

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(SignerUnavailableError);
    return (e as SignerUnavailableError).code;
  }
  throw new Error('expected a SignerUnavailableError');
}

describe('createSignerProvider', () => {
  it('own mode: signs with the issuer certificate decrypted from storage', async () => {
    const signers = createSignerProvider({ key, clock });
    const signer = await signers.signerFor(issuerWith(seal(own)));
    expect(signer.certificate).toBe(own.signer.certificate);
    const signed = await signXml('<Doc><A>1</A></Doc>', signer);
    expect(verifyXml(signed)).toMatchObject({ valid: true, certificate: own.signer.certificate });
  });

  it('caches per issuer and replaces the signer when the certificate bytes change', async () => {
    const signers = createSignerProvider({ key, clock });
    const first = seal(own);
    const a = await signers.signerFor(issuerWith(first));
    expect(await signers.signerFor(issuerWith(first))).toBe(a);
    // Same certificate sealed again (new IV): different bytes, a fresh signer with the same certificate.
    const resealed = await signers.signerFor(issuerWith(seal(own)));
    expect(resealed).not.toBe(a);
    expect(resealed.certificate).toBe(a.certificate);
    const b = await signers.signerFor(issuerWith(seal(renewed)));
    expect(b.certificate).toBe(renewed.signer.certificate);
    // Another issuer has its own entry.
    const other = await signers.signerFor(issuerWith(first, 'own', 2));
    expect(other.certificate).toBe(own.signer.certificate);
  });

  it('own mode without a certificate: no_certificate with a Spanish message', async () => {
    const signers = createSignerProvider({ key, clock });
    expect(await codeOf(signers.signerFor(issuerWith(null)))).toBe('no_certificate');
    await expect(signers.signerFor(issuerWith(null))).rejects.toThrow(/no ha subido ninguno/);
  });

  it('forgets a cached signer when the certificate is removed', async () => {
    const signers = createSignerProvider({ key, clock });
    await signers.signerFor(issuerWith(seal(own)));
    expect(await codeOf(signers.signerFor(issuerWith(null)))).toBe('no_certificate');
  });

  it('a certificate sealed with another key is unreadable; with the previous key in the ring it works', async () => {
    const old = new Uint8Array(randomBytes(32));
    const blob = seal(own, old);
    expect(await codeOf(createSignerProvider({ key, clock }).signerFor(issuerWith(blob)))).toBe('certificate_unreadable');
    expect(await codeOf(createSignerProvider({ key: null, clock }).signerFor(issuerWith(blob)))).toBe('certificate_unreadable');
    const ring = new SecretKey(key, [old]);
    expect((await createSignerProvider({ key: ring, clock }).signerFor(issuerWith(blob))).certificate).toBe(own.signer.certificate);
  });

  it('refuses to sign with an expired certificate', async () => {
    const blob = seal(own);
    let now = NOW;
    const signers = createSignerProvider({ key, clock: () => now });
    await signers.signerFor(issuerWith(blob));
    now = new Date('2027-06-01T00:00:00Z');
    expect(await codeOf(signers.signerFor(issuerWith(blob)))).toBe('certificate_expired');
  });

  it('provider mode: signs with the provider certificate, whatever the issuer uploaded', async () => {
    const signers = createSignerProvider({ key, clock, provider: { p12: providerId.p12, password: providerId.password } });
    const signer = await signers.signerFor(issuerWith(seal(own), 'provider'));
    expect(signer.certificate).toBe(providerId.signer.certificate);
    expect(await signers.signerFor(issuerWith(null, 'provider'))).toBe(signer);
  });

  it('provider mode without a provider certificate: no_certificate; a wrong provider password: unreadable', async () => {
    expect(await codeOf(createSignerProvider({ key, clock }).signerFor(issuerWith(null, 'provider')))).toBe('no_certificate');
    const bad = createSignerProvider({ key, clock, provider: { p12: providerId.p12, password: 'otra' } });
    expect(await codeOf(bad.signerFor(issuerWith(null, 'provider')))).toBe('certificate_unreadable');
  });
});
