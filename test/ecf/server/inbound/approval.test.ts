import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSelfSignedIdentity, type SelfSignedIdentity } from '../../../../src/ecf/sign/index.js';
import { NOT_MATCHED } from '../../../../src/ecf/server/inbound/approval.js';
import type { DocumentRecord } from '../../../../src/ecf/server/storage/types.js';
import { acecfFor, call, createHarness, form, login, ourDocument, postXml, RECEPTOR_A, RECEPTOR_B, REMOTE, replaceOnce, T0, type Harness } from './harness.js';

const APROBACION = '/fe/aprobacioncomercial/api/ecf';

let h: Harness;
let token: string;
/** Another buyer, with its own certificate and token (its approvals of documents not bought by it are refused). */
const OTHER_BUYER = '401000001';
let otherBuyer: SelfSignedIdentity;
let otherToken: string;
beforeAll(async () => {
  h = await createHarness();
  token = await login(h);
  otherBuyer = createSelfSignedIdentity({ commonName: 'OTRO COMPRADOR', serialNumber: OTHER_BUYER, now: new Date('2026-03-01T00:00:00Z'), days: 3650 });
  otherToken = await login(h, '', otherBuyer);
});
afterAll(() => h.close());

async function send(xml: string, path = APROBACION, accept?: string, as = token): Promise<Response> {
  return postXml(h, path, xml, { token: as, fileName: `${REMOTE}E310000000001.xml`, ...(accept ? { accept } : {}) });
}

async function refusedWith(xml: string, pattern: RegExp, doc?: DocumentRecord, path = APROBACION, as = token): Promise<void> {
  const res = await send(xml, path, undefined, as);
  expect(res.status).toBe(400);
  const body = (await res.json()) as { estado: string; mensaje: string; mensajes: string[] };
  expect(body.estado).toBe('Error');
  expect(body.mensaje).toMatch(pattern);
  if (doc) expect(await h.storage.getDocumentApprovals(doc.id)).toEqual([]);
}

describe('inbound commercial approval (ACECF) of our documents', () => {
  it('records an approval that matches our document and answers 200 OK', async () => {
    const doc = await ourDocument(h, h.a, REMOTE);
    const xml = await acecfFor(doc, RECEPTOR_A);
    const res = await send(xml);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ estado: 'OK', mensaje: 'Aprobación comercial recibida (aceptado).', mensajes: [] });
    const approvals = await h.storage.getDocumentApprovals(doc.id);
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({ documentId: doc.id, estado: 1, motivo: null, rncComprador: REMOTE, acecfXml: xml, receivedAt: T0.getTime() });
  });

  it('records a rejection with its reason; XML answer on request', async () => {
    const doc = await ourDocument(h, h.a, REMOTE);
    const xml = await acecfFor(doc, RECEPTOR_A, { estado: '2', detalle_motivo_rechazo: 'Mercancía llegó dañada' });
    const res = await send(xml, APROBACION, 'application/xml');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<RespuestaAprobacionComercial><Estado>OK</Estado>');
    expect(await h.storage.getDocumentApprovals(doc.id)).toMatchObject([{ estado: 2, motivo: 'Mercancía llegó dañada' }]);
  });

  it('matches the amount by value, not by its writing (236 = 236.00)', async () => {
    const doc = await ourDocument(h, h.a, REMOTE, '31', { storedAmount: (a) => a.replace(/\.00$/, '') });
    expect(doc.totalAmount).toMatch(/^\d+$/);
    const xml = await acecfFor(doc, RECEPTOR_A);
    expect(xml).toContain(`<MontoTotal>${doc.totalAmount}.00</MontoTotal>`);
    expect((await send(xml)).status).toBe(200);
  });

  // Issue 13 finding 1: every refusal that depends on stored data gets the one generic answer (NOT_MATCHED).
  it('refuses each mismatch with our document (buyer, issue date, total) with the one answer that reveals nothing', async () => {
    const doc = await ourDocument(h, h.a, REMOTE);
    const generic = new RegExp(`^${NOT_MATCHED.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
    // Another buyer, signing as itself, about a document it did not buy.
    await refusedWith(await acecfFor(doc, RECEPTOR_A, { rnc_comprador: OTHER_BUYER }, { signer: otherBuyer }), generic, doc, APROBACION, otherToken);
    await refusedWith(await acecfFor(doc, RECEPTOR_A, { fecha_emision: '02-04-2026' }), generic, doc);
    await refusedWith(await acecfFor(doc, RECEPTOR_A, { monto_total: Number(doc.totalAmount) + 1 }), generic, doc);
  });

  it('refuses an e-NCF we did not issue, and an RNCEmisor that is not ours, with the same answer', async () => {
    const doc = await ourDocument(h, h.a, REMOTE);
    const generic = new RegExp(`^${NOT_MATCHED.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
    await refusedWith(await acecfFor(doc, RECEPTOR_A, { encf: 'E310000009999' }), generic);
    // The same e-NCF under our other issuer, which never issued it.
    await refusedWith(await acecfFor(doc, RECEPTOR_B), generic, doc);
    await refusedWith(await acecfFor(doc, '401000001'), generic, doc);
  });

  it('refuses a type that admits no commercial approval, and a document the authority rejected', async () => {
    const consumer = await ourDocument(h, h.a, REMOTE, '41');
    // The SDK builder refuses an ACECF for a 41; a sender could still write one (the XSD allows it).
    const for41 = await acecfFor(
      consumer,
      RECEPTOR_A,
      { encf: 'E310000000001' },
      { editXml: (x) => replaceOnce(x, '<eNCF>E310000000001</eNCF>', `<eNCF>${consumer.encf}</eNCF>`) },
    );
    await refusedWith(for41, /no corresponde a un e-CF emitido/, consumer);
    const rejected = await ourDocument(h, h.a, REMOTE);
    await h.storage.updateDocument(rejected.id, { status: 'rejected_authority' });
    await refusedWith(await acecfFor(rejected, RECEPTOR_A), /no corresponde a un e-CF emitido/, rejected);
  });

  it('refuses a bad signature, an XSD-invalid ACECF, another document and malformed XML', async () => {
    const doc = await ourDocument(h, h.a, REMOTE);
    const good = await acecfFor(doc, RECEPTOR_A);
    await refusedWith(replaceOnce(good, '<Estado>1</Estado>', '<Estado>2</Estado>'), /firma digital de la aprobación comercial no es válida/, doc);
    const other = createSelfSignedIdentity({ commonName: 'OTRO', now: new Date('2026-03-01T00:00:00Z'), days: 3650 });
    await refusedWith(
      replaceOnce(good, /<X509Certificate>[^<]+<\/X509Certificate>/, `<X509Certificate>${other.signer.certificate}</X509Certificate>`),
      /firma digital/,
      doc,
    );
    // MontoTotal needs exactly 2 decimals in the ACECF XSD.
    const amount = /<MontoTotal>([^<]+)<\/MontoTotal>/.exec(good)![1]!;
    await refusedWith(
      replaceOnce(good, `<MontoTotal>${amount}</MontoTotal>`, `<MontoTotal>${amount.replace(/\.\d+$/, '')}.5</MontoTotal>`),
      /esquema ACECF/,
      doc,
    );
    await refusedWith(good.replace('</DetalleAprobacionComercial>', ''), /bien formado/, doc);
    await refusedWith('<ARECF/>', /Se esperaba una aprobación comercial/);
    await refusedWith(good.replace(/^<\?xml[^>]*\?>/, '<?xml version="1.0"?><!DOCTYPE ACECF>'), /DOCTYPE/, doc);
  });

  it("under a tenant prefix only that issuer's documents are approved there", async () => {
    const doc = await ourDocument(h, h.a, REMOTE);
    await refusedWith(await acecfFor(doc, RECEPTOR_A), /no corresponde a un e-CF emitido/, doc, `/t/${RECEPTOR_B}${APROBACION}`);
    const res = await send(await acecfFor(doc, RECEPTOR_A), `/T/${RECEPTOR_A}/FE/AprobacionComercial/Api/Ecf`);
    expect(res.status).toBe(200);
    expect(await h.storage.getDocumentApprovals(doc.id)).toHaveLength(1);
  });

  it('requires the bearer token', async () => {
    const doc = await ourDocument(h, h.a, REMOTE);
    const res = await call(h, APROBACION, { method: 'POST', body: form(await acecfFor(doc, RECEPTOR_A)) });
    expect(res.status).toBe(401);
    expect(await h.storage.getDocumentApprovals(doc.id)).toEqual([]);
  });

  // Issue 13 finding 1 (was: every approval kept): the buyer's first decision is final.
  it('keeps the first decision of a buyer: the same again answers 200 without a second record, a different one 409', async () => {
    const doc = await ourDocument(h, h.a, REMOTE);
    const first = await acecfFor(doc, RECEPTOR_A, { estado: '2', detalle_motivo_rechazo: 'Precio' });
    expect((await send(first)).status).toBe(200);
    const again = await send(await acecfFor(doc, RECEPTOR_A, { estado: '2', detalle_motivo_rechazo: 'Precio' }));
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ estado: 'OK', mensaje: 'Aprobación comercial recibida (rechazado).', mensajes: [] });
    const other = await send(await acecfFor(doc, RECEPTOR_A));
    expect(other.status).toBe(409);
    expect(((await other.json()) as { mensaje: string }).mensaje).toMatch(/primera decisión es definitiva/);
    const approvals = await h.storage.getDocumentApprovals(doc.id);
    expect(approvals.map((a) => [a.estado, a.acecfXml])).toEqual([[2, first]]);
  });
});
