import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSemillaXml, parseSemillaXml } from '../../../../src/ecf/index.js';
import { createSelfSignedIdentity, signXml } from '../../../../src/ecf/sign/index.js';
import { schemaValidator } from '../../helpers/xsd.js';
import { hashToken } from '../../../../src/shared/server-kit/tokens.js';
import { call, createHarness, form, login, postXml, RECEPTOR_A, RECEPTOR_B, remoteEcf, remoteIdentity, replaceOnce, T0, type Harness } from './harness.js';

const SEMILLA = '/fe/autenticacion/api/semilla';
const VALIDAR = '/fe/autenticacion/api/validacioncertificado';
const RECEPCION = '/fe/recepcion/api/ecf';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

async function seed(prefix = ''): Promise<string> {
  const res = await call(h, `${prefix}${SEMILLA}`);
  expect(res.status).toBe(200);
  return res.text();
}

async function validate(signedSeed: string, prefix = '', accept = 'application/json'): Promise<Response> {
  return postXml(h, `${prefix}${VALIDAR}`, signedSeed, { accept });
}

async function errorOf(res: Response): Promise<string> {
  return ((await res.json()) as { mensaje: string }).mensaje;
}

describe('inbound seed', () => {
  it('hands out a fresh SemillaModel each time, valid against the XSD once signed', async () => {
    const res = await call(h, SEMILLA);
    expect(res.headers.get('content-type')).toMatch(/xml/);
    const xml = await res.text();
    const other = await seed();
    const parsed = parseSemillaXml(xml);
    expect(parsed.issues).toEqual([]);
    expect(parsed.data.valor.length).toBeGreaterThanOrEqual(40);
    expect(parseSemillaXml(other).data.valor).not.toBe(parsed.data.valor);
    // fecha in GMT−4, as DGII writes it.
    expect(parsed.data.fecha).toBe('2026-04-01T15:30:05.0000000-04:00');
    expect(xml).toContain('xmlns:xsd="http://www.w3.org/2001/XMLSchema"');
    expect(schemaValidator().validate(await signXml(xml, remoteIdentity().signer), 'Semilla').valid).toBe(true);
  });
});

describe('inbound certificate validation', () => {
  it('answers {token, expira, expedido} in JSON, with the dates as yyyy-MM-ddTHH:mm:ssZ', async () => {
    const res = await validate(await signXml(await seed(), remoteIdentity().signer));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await res.json()) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['expedido', 'expira', 'token']);
    expect(body.expedido).toBe('2026-04-01T19:30:05Z');
    expect(body.expira).toBe('2026-04-01T20:30:05Z');
    expect(body.token!.length).toBeGreaterThanOrEqual(40);
    // The token opens reception.
    const ecf = await remoteEcf('31', { buyer: RECEPTOR_A });
    expect((await postXml(h, RECEPCION, ecf, { token: body.token })).status).toBe(200);
    // Only its hash is stored, with the subject of the certificate that signed the seed.
    expect(await h.storage.findInboundToken(body.token!, T0.getTime())).toBeNull();
    const stored = await h.storage.findInboundToken(hashToken(body.token!), T0.getTime());
    expect(stored).toMatchObject({ scope: '', expiresAt: T0.getTime() + 3_600_000 });
    expect(stored!.subject).toContain('CN=EMISOR REMOTO PRUEBAS');
  });

  it('answers XML with PascalCase tags when the caller accepts only XML', async () => {
    const res = await validate(await signXml(await seed(), remoteIdentity().signer), '', 'application/xml');
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toMatch(
      /^<\?xml[^>]*\?><RespuestaAutenticacion><Token>[^<]{40,}<\/Token><Expira>2026-04-01T20:30:05Z<\/Expira><Expedido>2026-04-01T19:30:05Z<\/Expedido><\/RespuestaAutenticacion>$/,
    );
  });

  it('refuses a seed replay: a signed seed opens one session only', async () => {
    const signed = await signXml(await seed(), remoteIdentity().signer);
    expect((await validate(signed)).status).toBe(200);
    const again = await validate(signed);
    expect(again.status).toBe(401);
    expect(await errorOf(again)).toMatch(/ya fue utilizada/);
  });

  it('refuses concurrent replays: exactly one validation of a seed succeeds', async () => {
    const signed = await signXml(await seed(), remoteIdentity().signer);
    const results = await Promise.all(Array.from({ length: 6 }, () => validate(signed)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401, 401]);
  });

  it('refuses an expired seed', async () => {
    const signed = await signXml(await seed(), remoteIdentity().signer);
    h.advance(5 * 60_000 + 1);
    const res = await validate(signed);
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatch(/expirado/);
  });

  it('refuses a seed we never issued, even when well signed', async () => {
    const forged = buildSemillaXml({ valor: 'inventada-por-el-cliente', fecha: '2026-04-01T15:30:05.0000000-04:00' });
    const res = await validate(await signXml(forged, remoteIdentity().signer));
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatch(/no fue emitida/);
  });

  it('verifies the signature cryptographically: a seed altered after signing or signed by another key fails', async () => {
    const issued = await seed();
    const valor = parseSemillaXml(issued).data.valor;
    const signed = await signXml(issued, remoteIdentity().signer);
    // The value of another issued seed put into this signed one: the digest no longer matches.
    const otherValor = parseSemillaXml(await seed()).data.valor;
    const altered = replaceOnce(signed, valor, otherValor);
    const res = await validate(altered);
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatch(/Firma del certificado inválida/);
    // The certificate swapped for another one: the SignatureValue does not verify with its key.
    const mallory = createSelfSignedIdentity({ commonName: 'MALLORY', now: new Date('2026-03-01T00:00:00Z'), days: 3650 });
    const swapped = replaceOnce(signed, /<X509Certificate>[^<]+<\/X509Certificate>/, `<X509Certificate>${mallory.signer.certificate}</X509Certificate>`);
    expect((await validate(swapped)).status).toBe(401);
    // Neither attempt consumed the seed: the genuine signed seed still works.
    expect((await validate(signed)).status).toBe(200);
  });

  it('refuses a seed signed with an expired certificate', async () => {
    const old = createSelfSignedIdentity({ commonName: 'VENCIDO', now: new Date('2024-01-01T00:00:00Z'), days: 30 });
    const res = await validate(await signXml(await seed(), old.signer));
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatch(/venció/);
  });

  it('answers 400 for an unsigned seed, another document, malformed XML, a DOCTYPE or an empty form', async () => {
    const unsigned = await validate(await seed());
    expect(unsigned.status).toBe(400);
    expect(await errorOf(unsigned)).toMatch(/esquema/);
    const ecf = await validate(await remoteEcf('31', { buyer: RECEPTOR_A }));
    expect(ecf.status).toBe(400);
    expect(await errorOf(ecf)).toMatch(/SemillaModel/);
    expect((await validate('<SemillaModel><valor>x</valor>')).status).toBe(400);
    const doctype = await validate(
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><SemillaModel><valor>&e;</valor></SemillaModel>',
    );
    expect(doctype.status).toBe(400);
    expect(await errorOf(doctype)).toMatch(/DOCTYPE/);
    const empty = await call(h, VALIDAR, { method: 'POST', body: new FormData() });
    expect(empty.status).toBe(400);
    expect(await errorOf(empty)).toMatch(/Multipart cannot be empty/);
  });

  it('keeps seeds of a tenant prefix to that prefix', async () => {
    const tenantSeed = await signXml(await seed(`/t/${RECEPTOR_A}`), remoteIdentity().signer);
    expect((await validate(tenantSeed)).status).toBe(401);
    expect((await validate(tenantSeed, `/t/${RECEPTOR_B}`)).status).toBe(401);
    expect((await validate(tenantSeed, `/t/${RECEPTOR_A}`)).status).toBe(200);
  });
});

describe('inbound bearer tokens', () => {
  it('reception requires a token: missing, malformed, forged and expired tokens get 401', async () => {
    const ecf = await remoteEcf('31', { buyer: RECEPTOR_A });
    const none = await postXml(h, RECEPCION, ecf);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(await errorOf(none)).toMatch(/No autorizado/);
    const token = await login(h);
    expect((await postXml(h, RECEPCION, ecf, { token: `${token}x` })).status).toBe(401);
    expect((await postXml(h, RECEPCION, ecf, { token: 'ecf_inventado' })).status).toBe(401);
    expect((await call(h, RECEPCION, { method: 'POST', body: new FormData(), headers: { authorization: token } })).status).toBe(401);
    // Nothing was recorded by refused calls.
    expect(await h.storage.listReceivedDocuments(h.a.id, { limit: 10 })).toEqual([]);
    h.advance(3_600_000 - 1_000);
    expect((await postXml(h, RECEPCION, ecf, { token })).status).toBe(200);
    h.advance(1_000);
    const expired = await postXml(h, RECEPCION, await remoteEcf('31', { buyer: RECEPTOR_A, n: 2 }), { token });
    expect(expired.status).toBe(401);
  });

  it('accepts the scheme name in any case, as DGII writes "bearer"', async () => {
    const token = await login(h);
    const res = await call(h, RECEPCION, {
      method: 'POST',
      body: form(await remoteEcf('31', { buyer: RECEPTOR_A })),
      headers: { authorization: `bearer ${token}` },
    });
    expect(res.status).toBe(200);
  });

  it('a token from the root opens every tenant; a tenant token only its own', async () => {
    const root = await login(h);
    const tenantA = await login(h, `/t/${RECEPTOR_A}`);
    const toB = await remoteEcf('31', { buyer: RECEPTOR_B });
    expect((await postXml(h, `/t/${RECEPTOR_B}${RECEPCION}`, toB, { token: tenantA })).status).toBe(401);
    expect((await postXml(h, `/t/${RECEPTOR_B}${RECEPCION}`, toB, { token: root })).status).toBe(200);
    expect((await postXml(h, `/t/${RECEPTOR_A}${RECEPCION}`, await remoteEcf('31', { buyer: RECEPTOR_A }), { token: tenantA })).status).toBe(200);
  });

  it('a tenant token does not open the root paths either', async () => {
    const tenantA = await login(h, `/t/${RECEPTOR_A}`);
    expect((await postXml(h, RECEPCION, await remoteEcf('31', { buyer: RECEPTOR_A }), { token: tenantA })).status).toBe(401);
  });

  it('with requireAuth false no token is needed', async () => {
    const open = await createHarness({ requireAuth: false });
    try {
      expect((await postXml(open, RECEPCION, await remoteEcf('31', { buyer: RECEPTOR_A }))).status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it('prunes expired seeds and tokens as new seeds are requested', async () => {
    const token = await login(h);
    await seed();
    h.advance(2 * 3_600_000);
    await seed(); // triggers pruning
    expect(await h.storage.pruneInboundAuth(h.now().getTime() - 1)).toBe(0);
    expect((await postXml(h, RECEPCION, await remoteEcf('31', { buyer: RECEPTOR_A }), { token })).status).toBe(401);
  });
});
