/**
 * `POST` / `GET /api/v1/voided-sequences` against the real simulator: every request rule (422 before
 * transmission), acceptance (pointer jump, skip ahead), rejection (numbers stay available), unknown
 * outcomes (numbers withheld until a retry of the same ranges settles the same lote), and issuer isolation.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildAnecfXml, buildEcfXmlFromJson, type BuildContext, type IssuerProfile } from '../../../../src/ecf/index.js';
import { signXml } from '../../../../src/ecf/sign/index.js';
import { baseDoc } from '../../helpers/docs.js';
import { body, createV2Harness, foreignEcf, ISSUER_PROFILE, sendToAuthority, voidRanges, type V2Harness } from './harness.js';

let h: V2Harness;
beforeAll(async () => {
  h = await createV2Harness();
});
afterAll(async () => {
  await h?.close();
});
afterEach(() => {
  h.sim.setFaults({});
});

/** Next e-NCF the issuer gets for a type (issues a document). */
async function nextEncf(tipo: '31' | '32' | '33' | '34' | '41' | '43' | '44' | '45' | '46' | '47', token?: string): Promise<string> {
  const res = await h.issue(tipo, token);
  expect(res.status).toBe(202);
  return (await body(res)).document.e_ncf;
}

/** A rule failure: 422, nothing sent to the authority, nothing recorded. */
async function expectRefused(rangos: unknown, token?: string): Promise<any> {
  const voidsBefore = h.sim.stats().voids;
  const batchesBefore = (await h.storage.listVoidBatches(h.issuer.id, 1000)).length;
  const res = await voidRanges(h, rangos, token);
  expect(res.status).toBe(422);
  const b = await body(res);
  expect(b.status).toBe('error');
  expect(b.message).toMatch(/no se transmitió/);
  expect(b.data).toBeUndefined();
  expect(h.sim.stats().voids).toBe(voidsBefore);
  expect((await h.storage.listVoidBatches(h.issuer.id, 1000)).length).toBe(batchesBefore);
  return b.document;
}

/** Voids a range directly at the simulator (out of band), signed as the issuer. */
async function voidAtAuthority(tipo: string, desde: number, hasta: number): Promise<void> {
  const xml = buildAnecfXml({
    rnc_emisor: h.issuer.rnc,
    fecha_hora_anulacion_encf: '01-04-2026 10:00:00',
    anulaciones: [{ tipo_ecf: tipo, rangos: [{ desde, hasta }] }],
  });
  const signed = await signXml(xml, h.providerSigner);
  const r = await h.client.voidRanges(
    { rnc: h.issuer.rnc, signer: h.providerSigner },
    { fileName: `${h.issuer.rnc}E${tipo}${String(desde).padStart(10, '0')}.xml`, xml: signed },
  );
  expect(r.accepted).toBe(true);
}

/** A passthrough issue of a given e-NCF of type 31. */
function passthrough(encf: string): Promise<Response> {
  const ctx: BuildContext = {
    emisor: ISSUER_PROFILE as unknown as IssuerProfile,
    encf,
    fecha_emision: '01-04-2026',
    fecha_vencimiento_secuencia: '31-12-2027',
  };
  return h.call('/api/v1/documents/31', {
    method: 'POST',
    body: buildEcfXmlFromJson('31', baseDoc('31'), ctx),
    headers: { 'content-type': 'application/xml' },
  });
}

describe('voiding: request rules (422 before transmission)', () => {
  it('needs application/json and a JSON object with a non-empty rangos list', async () => {
    const res = await h.call('/api/v1/voided-sequences', { method: 'POST', body: 'rangos', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
    const bad = await h.call('/api/v1/voided-sequences', { method: 'POST', body: '{rangos:', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(422);
    expect((await body(bad)).document.errors).toEqual(['El cuerpo no es un JSON válido.']);
    expect((await h.postJson('/api/v1/voided-sequences', [1, 2])).status).toBe(422);
    expect((await expectRefused(undefined)).detailed_errors.rangos[0]).toMatch(/rangos es requerido/);
    expect((await expectRefused([])).detailed_errors.rangos).toEqual(['Debe indicar al menos un rango.']);
  });

  it('tipo is one of the ten types as a 2-character string', async () => {
    const d = await expectRefused([
      { tipo: 31, desde: 1, hasta: 1 },
      { tipo: '30', desde: 1, hasta: 1 },
      { tipo: '031', desde: 1, hasta: 1 },
    ]);
    for (const i of [0, 1, 2]) expect(d.detailed_errors[`rangos.${i}.tipo`][0]).toMatch(/Tipo de e-CF inválido: un texto de 2 caracteres/);
  });

  it('desde and hasta are integers between 1 and 9,999,999,999', async () => {
    const d = await expectRefused([
      { tipo: '31', desde: 0, hasta: 5 },
      { tipo: '31', desde: 6, hasta: 10_000_000_000 },
      { tipo: '31', desde: 1.5, hasta: 20 },
      { tipo: '31', desde: '30', hasta: 31 },
      { tipo: '31', desde: 40 },
    ]);
    expect(d.detailed_errors['rangos.0.desde'][0]).toMatch(/entero entre 1 y 9,999,999,999/);
    expect(d.detailed_errors['rangos.1.hasta'][0]).toMatch(/entero entre 1 y 9,999,999,999/);
    expect(d.detailed_errors['rangos.2.desde']).toBeDefined();
    expect(d.detailed_errors['rangos.3.desde']).toBeDefined();
    expect(d.detailed_errors['rangos.4.hasta'][0]).toMatch(/hasta es requerido/);
    expect(Object.keys(d.detailed_errors).sort()).toEqual(['rangos.0.desde', 'rangos.1.hasta', 'rangos.2.desde', 'rangos.3.desde', 'rangos.4.hasta']);
    // The upper bound itself is a valid consecutive (refused later only because no sequence holds it).
    const top = await expectRefused([{ tipo: '31', desde: 9_999_999_999, hasta: 9_999_999_999 }]);
    expect(top.detailed_errors['rangos.0'][0]).toMatch(/no está dentro de una secuencia autorizada/);
  });

  it('an inverted range', async () => {
    const d = await expectRefused([
      { tipo: '31', desde: 1, hasta: 2 },
      { tipo: '31', desde: 9, hasta: 5 },
    ]);
    expect(d.detailed_errors).toEqual({ 'rangos.1': ['Rango invertido: desde (9) es mayor que hasta (5).'] });
    expect(d.errors).toEqual(['rangos.1: Rango invertido: desde (9) es mayor que hasta (5).']);
  });

  it('ranges overlapping within a type (the same numbers of another type do not overlap)', async () => {
    const d = await expectRefused([
      { tipo: '31', desde: 100, hasta: 110 },
      { tipo: '32', desde: 100, hasta: 110 },
      { tipo: '31', desde: 110, hasta: 120 },
      { tipo: '31', desde: 50, hasta: 60 },
      { tipo: '31', desde: 55, hasta: 55 },
    ]);
    expect(d.detailed_errors).toEqual({
      'rangos.2': ['El rango E310000000110–E310000000120 se solapa con el rango E310000000100–E310000000110 (rangos.0) del mismo tipo.'],
      'rangos.4': ['El rango E310000000055–E310000000055 se solapa con el rango E310000000050–E310000000060 (rangos.3) del mismo tipo.'],
    });
  });

  it('at most 10,000 ranges per type', async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => ({ tipo: '33', desde: 2 * i + 1, hasta: 2 * i + 1 }));
    const d = await expectRefused(many);
    expect(d.detailed_errors.rangos).toEqual(['Admite como máximo 10,000 rangos por tipo; el tipo 33 trae 10,001.']);
  });

  it('a range outside the authorized sequences of the issuer for the type', async () => {
    const d = await expectRefused([
      { tipo: '41', desde: 990, hasta: 1010 },
      { tipo: '43', desde: 2000, hasta: 2000 },
    ]);
    expect(d.detailed_errors['rangos.0']).toEqual([
      'El rango E410000000990–E410000001010 no está dentro de una secuencia autorizada del emisor para el tipo 41.',
    ]);
    expect(d.detailed_errors['rangos.1'][0]).toMatch(/no está dentro de una secuencia autorizada del emisor para el tipo 43/);
  });

  it('a range holding an issued e-CF names it and points to the credit note (type 34)', async () => {
    const encf = await nextEncf('44');
    const d = await expectRefused([{ tipo: '44', desde: 1, hasta: 10 }]);
    expect(d.detailed_errors['rangos.0']).toEqual([
      `El e-NCF ${encf} ya fue emitido: un comprobante emitido no se anula por rango. Revértalo con una nota de crédito electrónica (tipo 34) que lo referencie.`,
    ]);
  });

  it('an issuer without a usable certificate gets 409 and nothing is recorded', async () => {
    const x = await h.addIssuer('101000009', [{ tipo: '31', size: 100 }]);
    await h.storage.updateIssuer(x.issuer.id, { signingMode: 'own' });
    const res = await voidRanges(h, [{ tipo: '31', desde: 1, hasta: 5 }], x.token);
    expect(res.status).toBe(409);
    expect((await body(res)).message).toMatch(/certificado/);
    expect(await h.storage.listVoidBatches(x.issuer.id, 10)).toEqual([]);
  });
});

describe('voiding: the authority accepts', () => {
  it('201 with the spec’s data; the next issue skips the voided numbers (pointer jump)', async () => {
    expect(await nextEncf('45')).toBe('E450000000001');
    const res = await voidRanges(h, [{ tipo: '45', desde: 2, hasta: 4 }]);
    expect(res.status).toBe(201);
    const b = await body(res);
    expect(b.status).toBe('success');
    expect(b.message).toMatch(/^Anulación aceptada por la autoridad tributaria \(lote ANU\d{14}[0-9A-F]{6}\): 3 e-NCF anulados/);
    expect(b.data).toEqual({
      lote: expect.stringMatching(/^ANU20260401100000[0-9A-F]{6}$/),
      cantidad_anulada: 3,
      aceptada_por_autoridad: true,
      mensajes_autoridad: ['Se anularon 3 e-NCF.'],
      rangos: [{ tipo: '45', desde: 'E450000000002', hasta: 'E450000000004', cantidad: 3 }],
    });
    expect(await nextEncf('45')).toBe('E450000000005');
  });

  it('a range ahead of the pointer is skipped on arrival; several types in one request', async () => {
    const res = await voidRanges(h, [
      { tipo: '46', desde: 3, hasta: 4 },
      { tipo: '47', desde: 1, hasta: 1 },
      { tipo: '46', desde: 6, hasta: 6 },
    ]);
    expect(res.status).toBe(201);
    const b = await body(res);
    expect(b.data.cantidad_anulada).toBe(4);
    expect(b.data.rangos.map((r: any) => `${r.desde}-${r.hasta}:${r.cantidad}`)).toEqual([
      'E460000000003-E460000000004:2',
      'E470000000001-E470000000001:1',
      'E460000000006-E460000000006:1',
    ]);
    const issued = [];
    for (let i = 0; i < 4; i++) issued.push(await nextEncf('46'));
    expect(issued).toEqual(['E460000000001', 'E460000000002', 'E460000000005', 'E460000000007']);
    expect(await nextEncf('47')).toBe('E470000000002');
  });

  it('GET lists the attempts newest first with the authority’s result', async () => {
    const res = await h.call('/api/v1/voided-sequences');
    expect(res.status).toBe(200);
    const b = await body(res);
    expect(b.status).toBe('success');
    const items = b.data as any[];
    expect(items.length).toBeGreaterThanOrEqual(2);
    expect(items[0].rangos[0].tipo).toBe('46');
    expect(items[0]).toMatchObject({ estado: 'aceptada', aceptada_por_autoridad: true, cantidad_anulada: 4, cantidad_solicitada: 4 });
    expect(items[0].solicitada_en).toMatch(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/);
    expect(items[1]).toMatchObject({ estado: 'aceptada', rangos: [{ tipo: '45', desde: 'E450000000002', hasta: 'E450000000004', cantidad: 3 }] });
  });
});

describe('voiding: the authority rejects', () => {
  it('422 with aceptada_por_autoridad false, the attempt recorded and the numbers still available', async () => {
    await voidAtAuthority('43', 1, 3);
    const res = await voidRanges(h, [{ tipo: '43', desde: 1, hasta: 2 }]);
    expect(res.status).toBe(422);
    const b = await body(res);
    expect(b.status).toBe('error');
    expect(b.message).toMatch(/rechazó la anulación \(lote ANU.*la secuencia queda intacta/);
    expect(b.data).toMatchObject({
      cantidad_anulada: 0,
      aceptada_por_autoridad: false,
      rangos: [{ tipo: '43', desde: 'E430000000001', hasta: 'E430000000002', cantidad: 2 }],
    });
    expect(b.data.mensajes_autoridad[0]).toMatch(/ya fue anulado/);
    expect(b.document.errors).toEqual(b.data.mensajes_autoridad);
    expect(await nextEncf('43')).toBe('E430000000001');
    const list = (await body(await h.call('/api/v1/voided-sequences'))).data;
    expect(list[0]).toMatchObject({ lote: b.data.lote, estado: 'rechazada', aceptada_por_autoridad: false });
  });
});

describe('voiding: unknown outcome', () => {
  it('connection dropped after the authority processed it: pending, numbers withheld; the retry resolves the same lote as voided', async () => {
    h.sim.setFaults({ dropAfterRate: 1, paths: ['anularrango'], limit: 1 });
    const voidsBefore = h.sim.stats().voids;
    const res = await voidRanges(h, [{ tipo: '34', desde: 1, hasta: 3 }]);
    expect([502, 503]).toContain(res.status);
    const b = await body(res);
    expect(b.status).toBe('error');
    expect(b.message).toMatch(/No se conoce el resultado de la anulación .*reintente la misma solicitud con los mismos rangos/);
    expect(b.data).toMatchObject({
      aceptada_por_autoridad: null,
      cantidad_anulada: 0,
      rangos: [{ tipo: '34', desde: 'E340000000001', hasta: 'E340000000003', cantidad: 3 }],
    });
    expect(h.sim.stats().voids).toBe(voidsBefore + 1);
    const lote = b.data.lote;
    const [pending] = await h.storage.listVoidBatches(h.issuer.id, 1);
    expect(pending).toMatchObject({ lote, accepted: null });

    // Withheld while unknown: JSON and passthrough skip / refuse them.
    expect(await nextEncf('34')).toBe('E340000000004');
    // A different request overlapping the pending attempt is refused, naming it.
    const overlap = await voidRanges(h, [{ tipo: '34', desde: 3, hasta: 3 }]);
    expect(overlap.status).toBe(422);
    expect((await body(overlap)).document.detailed_errors['rangos.0'][0]).toContain(`lote ${lote}, cuya anulación quedó pendiente`);

    const retry = await voidRanges(h, [{ tipo: '34', desde: 1, hasta: 3 }]);
    expect(retry.status).toBe(201);
    const r = await body(retry);
    expect(r.data).toMatchObject({ lote, aceptada_por_autoridad: true, cantidad_anulada: 3 });
    expect(r.data.mensajes_autoridad).toContain('La autoridad informa que los rangos ya estaban anulados: el envío anterior de este lote fue aceptado.');
    expect((await h.storage.listVoidBatches(h.issuer.id, 1))[0]).toMatchObject({ lote, accepted: true });
    expect(await nextEncf('34')).toBe('E340000000005');
  });

  it('connection dropped before processing: the retry is accepted by the authority under the same lote', async () => {
    h.sim.setFaults({ dropBeforeRate: 1, paths: ['anularrango'], limit: 1 });
    const res = await voidRanges(h, [
      { tipo: '33', desde: 1, hasta: 1 },
      { tipo: '33', desde: 2, hasta: 2 },
    ]);
    expect([502, 503]).toContain(res.status);
    const lote = (await body(res)).data.lote;
    const list = (await body(await h.call('/api/v1/voided-sequences'))).data;
    expect(list[0]).toMatchObject({ lote, estado: 'pendiente', aceptada_por_autoridad: null });
    // The same ranges in another order are the same attempt.
    const retry = await voidRanges(h, [
      { tipo: '33', desde: 2, hasta: 2 },
      { tipo: '33', desde: 1, hasta: 1 },
    ]);
    expect(retry.status).toBe(201);
    const r = await body(retry);
    expect(r.data).toMatchObject({ lote, aceptada_por_autoridad: true, mensajes_autoridad: ['Se anularon 2 e-NCF.'] });
    expect(await nextEncf('33')).toBe('E330000000003');
  });

  it('the authority rejects the retry: the numbers become available again', async () => {
    h.sim.setFaults({ dropBeforeRate: 1, paths: ['anularrango'], limit: 1 });
    const res = await voidRanges(h, [{ tipo: '31', desde: 20, hasta: 22 }]);
    expect([502, 503]).toContain(res.status);
    const lote = (await body(res)).data.lote;
    const refused = await passthrough('E310000000021');
    expect(refused.status).toBe(422);
    expect(JSON.stringify(await body(refused))).toMatch(/pertenece a un rango anulado \(o en proceso de anulación\)/);

    // Meanwhile the authority received E310000000021 from elsewhere: it refuses to void the range.
    const xml = await foreignEcf({ rnc: h.issuer.rnc, buyerRnc: '131880738', encf: 'E310000000021', signer: h.providerSigner, clock: h.clock });
    expect(await sendToAuthority(h, h.issuer.rnc, xml, h.providerSigner)).toBe(1);

    const retry = await voidRanges(h, [{ tipo: '31', desde: 20, hasta: 22 }]);
    expect(retry.status).toBe(422);
    const r = await body(retry);
    expect(r.data).toMatchObject({ lote, aceptada_por_autoridad: false });
    expect(r.data.mensajes_autoridad[0]).toMatch(/contiene e-NCF ya recibidos/);
    expect((await passthrough('E310000000020')).status).toBe(202);
  });
});

describe('voiding: issuers are isolated', () => {
  it('another issuer’s voiding touches only its own sequences and history', async () => {
    const res = await voidRanges(h, [{ tipo: '32', desde: 1, hasta: 2 }], h.other.token);
    expect(res.status).toBe(201);
    const otherLote = (await body(res)).data.lote;
    expect(await nextEncf('32', h.other.token)).toBe('E320000000003');
    expect(await nextEncf('32')).toBe('E320000000001');
    const mine = (await body(await h.call('/api/v1/voided-sequences'))).data as any[];
    expect(mine.map((b) => b.lote)).not.toContain(otherLote);
    const theirs = (await body(await h.call('/api/v1/voided-sequences', { token: h.other.token }))).data as any[];
    expect(theirs.map((b) => b.lote)).toEqual([otherLote]);
  });

  it('401 without a token', async () => {
    expect((await h.call('/api/v1/voided-sequences', { token: null })).status).toBe(401);
    expect((await voidRanges(h, [{ tipo: '31', desde: 1, hasta: 1 }], 'ecf_invalid')).status).toBe(401);
  });
});
