/**
 * `POST` / `GET /api/v1/certificate`: upload (multipart) with every refusal, the size limit, the switch to
 * the issuer's own certificate (also from provider mode), validity from the clock, and isolation.
 */
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../../src/ecf/server/app/index.js';
import { formatDateTimeDO } from '../../../../src/ecf/index.js';
import { createSelfSignedIdentity, readP12 } from '../../../../src/ecf/sign/index.js';
import { rncP12, TEST_PASSWORD } from '../../helpers/certs.js';
import { schemaValidator } from '../../helpers/xsd.js';
import { body, createV2Harness, NOW, OTHER_RNC, type V2Harness } from './harness.js';

let h: V2Harness;
let own: ReturnType<typeof createSelfSignedIdentity>;
beforeAll(async () => {
  h = await createV2Harness();
  own = createSelfSignedIdentity({ commonName: 'DISTRIBUIDORA PENA', serialNumber: h.issuer.rnc, now: NOW, days: 365 });
});
afterAll(async () => {
  await h?.close();
});

function upload(p12: Uint8Array | string | null, password: string | null, token?: string): Promise<Response> {
  const form = new FormData();
  if (p12 !== null) form.set('certificate', new Blob([typeof p12 === 'string' ? p12 : new Uint8Array(p12)]), 'certificado.p12');
  if (password !== null) form.set('password', password);
  return h.call('/api/v1/certificate', { method: 'POST', body: form, ...(token !== undefined ? { token } : {}) });
}

async function refusal(res: Response, code: string, field: string): Promise<string> {
  expect(res.status).toBe(422);
  const b = await body(res);
  expect(b.status).toBe('error');
  expect(b.document.code).toBe(code);
  expect(Object.keys(b.document.detailed_errors)).toEqual([field]);
  expect(b.document.errors[0]).toContain(b.document.detailed_errors[field][0]);
  return b.message;
}

describe('GET /api/v1/certificate before any upload', () => {
  it('a provider-mode issuer gets its mode and a note; nothing to upload', async () => {
    h.now.value = NOW;
    const res = await h.call('/api/v1/certificate');
    expect(res.status).toBe(200);
    const b = await body(res);
    expect(b.data).toMatchObject({
      signing_mode: 'provider',
      has_certificate: false,
      subject: null,
      tax_id: null,
      serial_number: null,
      valid_from: null,
      valid_to: null,
      days_remaining: null,
      expired: null,
    });
    expect(b.data.note).toMatch(/certificado del proveedor.*no necesita subir un certificado/);
  });
});

describe('POST /api/v1/certificate refusals', () => {
  it('wrong password → 422 on the password field', async () => {
    const message = await refusal(await upload(own.p12, 'otra-clave'), 'wrong_password', 'password');
    expect(message).toMatch(/La contraseña no abre el certificado/);
  });

  it('a file that is not PKCS#12 → 422', async () => {
    const message = await refusal(await upload('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n', 'x'), 'invalid_file', 'certificate');
    expect(message).toMatch(/no es un certificado PKCS#12/);
    await refusal(await upload(new Uint8Array(0), 'x'), 'invalid_file', 'certificate');
  });

  it('a certificate of another RNC → 422 naming both', async () => {
    const message = await refusal(await upload(rncP12().p12, TEST_PASSWORD), 'tax_id_mismatch', 'certificate');
    expect(message).toContain(`pertenece a ${OTHER_RNC}`);
    expect(message).toContain(`no al RNC ${h.issuer.rnc}`);
  });

  it('an expired certificate → 422', async () => {
    const old = createSelfSignedIdentity({ commonName: 'DISTRIBUIDORA PENA', serialNumber: h.issuer.rnc, now: new Date('2024-01-01T00:00:00Z'), days: 30 });
    const message = await refusal(await upload(old.p12, old.password), 'expired', 'certificate');
    expect(message).toMatch(/^El certificado venció el 2024-01-31/);
  });

  it('missing fields → 422; not multipart → 415; above 1 MB → 413', async () => {
    const res = await upload(null, null);
    expect(res.status).toBe(422);
    expect(Object.keys((await body(res)).document.detailed_errors).sort()).toEqual(['certificate', 'password']);
    const asText = new FormData();
    asText.set('certificate', 'no soy un archivo');
    asText.set('password', 'x');
    const textRes = await h.call('/api/v1/certificate', { method: 'POST', body: asText });
    expect((await body(textRes)).document.detailed_errors.certificate[0]).toMatch(/como archivo/);

    const json = await h.call('/api/v1/certificate', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(json.status).toBe(415);

    for (const size of [1024 * 1024 + 1, 3 * 1024 * 1024]) {
      const big = await upload(new Uint8Array(size), 'x');
      expect(big.status).toBe(413);
      expect((await body(big)).message).toMatch(/excede el límite de 1 MB/);
    }
    // None of the refusals changed the issuer.
    const stored = (await h.storage.getIssuer(h.issuer.id))!;
    expect(stored.signingMode).toBe('provider');
    expect(stored.certificate).toBeNull();
  });

  it('without a certificate key the service cannot store certificates → 503', async () => {
    const app = createApp({ storage: h.storage, transport: h.client, signers: h.signers, schemas: schemaValidator(), clock: h.clock, environment: 'testecf' });
    const form = new FormData();
    form.set('certificate', new Blob([new Uint8Array(own.p12)]), 'c.p12');
    form.set('password', own.password);
    const res = await app.request('/api/v1/certificate', { method: 'POST', body: form, headers: { authorization: `Bearer ${h.token}` } });
    expect(res.status).toBe(503);
    expect((await body(res)).message).toMatch(/ECF_CERT_KEY/);
  });
});

describe('POST /api/v1/certificate accepted', () => {
  it('a provider-mode issuer uploads its own: stored encrypted, never returned, signing switches to it', async () => {
    h.now.value = NOW;
    const res = await upload(own.p12, own.password);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(Buffer.from(own.p12).toString('base64').slice(0, 40));
    expect(text).not.toContain(own.password);
    const b = JSON.parse(text);
    const info = readP12(own.p12, own.password).info;
    expect(b.status).toBe('success');
    expect(b.data).toMatchObject({
      signing_mode: 'own',
      has_certificate: true,
      tax_id: h.issuer.rnc,
      serial_number: info.certificateSerial,
      valid_from: formatDateTimeDO(info.notBefore),
      valid_to: formatDateTimeDO(info.notAfter),
      days_remaining: 365,
      expired: false,
      uploaded_at: formatDateTimeDO(NOW),
    });
    expect(b.data.subject).toContain('DISTRIBUIDORA PENA');

    const stored = (await h.storage.getIssuer(h.issuer.id))!;
    expect(stored.signingMode).toBe('own');
    expect(Buffer.from(stored.certificate!).includes(Buffer.from(own.p12.slice(0, 64)))).toBe(false);
    const signer = await h.signers.signerFor(stored);
    expect(new X509Certificate(Buffer.from(signer.certificate, 'base64')).subject).toContain('DISTRIBUIDORA PENA');
  });

  it('GET reports validity and the days remaining from the clock, then expiry', async () => {
    h.now.value = new Date(NOW.getTime() + 100 * 86_400_000);
    let b = await body(await h.call('/api/v1/certificate'));
    expect(b.data).toMatchObject({ signing_mode: 'own', days_remaining: 265, expired: false });
    expect(b.data.note).toBe('Certificado vigente.');
    h.now.value = new Date(NOW.getTime() + 400 * 86_400_000);
    b = await body(await h.call('/api/v1/certificate'));
    expect(b.data).toMatchObject({ days_remaining: 0, expired: true });
    expect(b.data.note).toMatch(/venció/);
    h.now.value = NOW;
  });

  it('a replacement overwrites the previous certificate', async () => {
    const next = createSelfSignedIdentity({ commonName: 'DISTRIBUIDORA PENA RENOVADO', serialNumber: h.issuer.rnc, now: NOW, days: 730 });
    const res = await upload(next.p12, next.password);
    expect(res.status).toBe(200);
    expect((await body(res)).data).toMatchObject({ days_remaining: 730, subject: expect.stringContaining('RENOVADO') });
    const signer = await h.signers.signerFor((await h.storage.getIssuer(h.issuer.id))!);
    expect(new X509Certificate(Buffer.from(signer.certificate, 'base64')).subject).toContain('RENOVADO');
  });

  it('each issuer sees and replaces only its own certificate', async () => {
    const res = await upload(rncP12().p12, TEST_PASSWORD, h.other.token);
    expect(res.status).toBe(200);
    expect((await body(res)).data.tax_id).toBe(OTHER_RNC);
    const mine = (await body(await h.call('/api/v1/certificate'))).data;
    expect(mine.tax_id).toBe(h.issuer.rnc);
    expect(mine.subject).toContain('RENOVADO');
    expect((await h.call('/api/v1/certificate', { token: null })).status).toBe(401);
  });
});
