/**
 * Tenant isolation (issue 8, part 5, item 2). Two issuers, A and B, hold data of identical shape on one
 * server: documents with the same e-NCF numbers (E310000000001, E310000000002), received documents, void
 * batches, certificates, sequences, commercial approvals. A additionally holds data B has no counterpart
 * of (E330000000001…3, received E310000000002, a void of 31 600–609).
 *
 * For every operation of the app's OpenAPI document and every inbound service under `/t/{rnc}`, B acts
 * and the test proves that B never sees A's data (B's answers are built from B's rows only), never learns
 * of it (an e-NCF only A holds gets exactly the answer of one nobody holds), and never changes it (A's raw
 * rows, read directly from the database, are identical before and after). Runs on SQLite and on
 * PostgreSQL (a fresh schema in the shared cluster).
 *
 * The list of operations comes from the served OpenAPI document and from the inbound service table: a
 * new route without an isolation case here fails the inventory test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../../src/ecf/server/app/index.js';
import { INBOUND_SERVICES } from '../../../../src/ecf/server/inbound/index.js';
import type { DocumentRecord } from '../../../../src/ecf/server/storage/types.js';
import { buildEcfXmlFromJson, buildSemillaXml } from '../../../../src/ecf/index.js';
import { signXml } from '../../../../src/ecf/sign/index.js';
import { baseContext, baseDoc } from '../../helpers/docs.js';
import {
  A,
  B,
  BACKENDS,
  buyerApproval,
  createTenantHarness,
  deliver,
  FOREIGN,
  foreignEcf,
  inboundLogin,
  issueJson,
  json,
  sendApproval,
  uploadCertificate,
  xmlForm,
  type TenantHarness,
} from './harness.js';

/** Shared e-NCFs (both tenants issued them) and ones only A holds. */
const SHARED = 'E310000000001';
const A_ONLY = 'E330000000003';
const NOBODY = 'E330000000999';
/** Received: both got E310000000001 from the foreign issuer; only A got E310000000002. */
const RECEIVED_SHARED = 'E310000000001';
const RECEIVED_A_ONLY = 'E310000000002';
const RECEIVED_NOBODY = 'E310000000999';

const textOf = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1] ?? null;

interface World {
  h: TenantHarness;
  /** A's raw rows after seeding (compared at the end). */
  before: Record<string, unknown>;
  aDocs: DocumentRecord[];
  bDocs: DocumentRecord[];
  aLotes: string[];
  /** Inbound tokens the foreign issuer and the buyer got under each tenant's prefix. */
  foreignToken: { a: string; b: string };
  buyerToken: { a: string; b: string };
}

/** Every row of A, straight from the database. */
async function snapshotOf(h: TenantHarness, issuerId: number): Promise<Record<string, unknown>> {
  const id = Number(issuerId);
  const q = (sql: string) => h.raw.all(sql);
  return {
    issuers: await q(`SELECT * FROM issuers WHERE id = ${id}`),
    tokens: await q(`SELECT * FROM tokens WHERE issuer_id = ${id} ORDER BY id`),
    sequences: await q(`SELECT * FROM sequences WHERE issuer_id = ${id} ORDER BY id`),
    documents: await q(`SELECT * FROM documents WHERE issuer_id = ${id} ORDER BY id`),
    submissions: await q(`SELECT s.* FROM submissions s JOIN documents d ON d.id = s.document_id WHERE d.issuer_id = ${id} ORDER BY s.id`),
    approvals: await q(`SELECT p.* FROM document_approvals p JOIN documents d ON d.id = p.document_id WHERE d.issuer_id = ${id} ORDER BY p.id`),
    received: await q(`SELECT * FROM received_documents WHERE issuer_id = ${id} ORDER BY id`),
    voidBatches: await q(`SELECT * FROM void_batches WHERE issuer_id = ${id} ORDER BY id`),
    voidRanges: await q(`SELECT * FROM void_ranges WHERE issuer_id = ${id} ORDER BY id`),
  };
}

async function seed(h: TenantHarness): Promise<World> {
  const { a, b } = h;
  for (const t of [a, b]) expect((await uploadCertificate(h, t.token, t.identity.p12, t.identity.password)).status).toBe(200);
  for (const t of [a, b]) for (let i = 0; i < 2; i++) expect((await issueJson(h, t, '31')).status).toBe(202);
  for (let i = 0; i < 3; i++) expect((await issueJson(h, a, '33')).status).toBe(202);
  await h.settle();
  const aDocs = await h.storage.listDocuments(a.issuer.id, { limit: 100 });
  const bDocs = await h.storage.listDocuments(b.issuer.id, { limit: 100 });
  expect(aDocs.map((d) => d.encf).sort()).toEqual(['E310000000001', 'E310000000002', 'E330000000001', 'E330000000002', 'E330000000003']);
  expect(bDocs.map((d) => d.encf).sort()).toEqual(['E310000000001', 'E310000000002']);
  expect([...aDocs, ...bDocs].every((d) => d.status === 'accepted_authority')).toBe(true);

  // The foreign issuer delivers E310000000001 to both, E310000000002 to A only.
  const foreignToken = { a: await inboundLogin(h, `/t/${A.rnc}`, h.foreign), b: await inboundLogin(h, `/t/${B.rnc}`, h.foreign) };
  for (const [rnc, token, n] of [
    [A.rnc, foreignToken.a, 1],
    [B.rnc, foreignToken.b, 1],
    [A.rnc, foreignToken.a, 2],
  ] as const) {
    const res = await deliver(h, rnc, token, await foreignEcf(h, rnc, n));
    expect(res.status).toBe(200);
    expect(textOf(await res.text(), 'Estado')).toBe('0');
  }

  // The buyer approves A's E310000000001 and rejects B's.
  const buyerToken = { a: await inboundLogin(h, `/t/${A.rnc}`, h.buyer), b: await inboundLogin(h, `/t/${B.rnc}`, h.buyer) };
  for (const [t, token, estado] of [
    [a, buyerToken.a, '1'],
    [b, buyerToken.b, '2'],
  ] as const) {
    const d = (await h.storage.getDocumentByEncf(t.issuer.id, SHARED))!;
    const xml = await buyerApproval(h, {
      issuerRnc: t.profile.rnc,
      encf: d.encf,
      fecha: d.issuedAt,
      monto: Number(d.totalAmount),
      estado,
      motivo: estado === '2' ? 'Mercancía dañada' : undefined,
    });
    expect((await sendApproval(h, t.profile.rnc, token, xml)).status).toBe(200);
  }

  // Both void 31 500–509; A also 31 600–609.
  const voidRanges = (token: string, desde: number, hasta: number) =>
    h.api(token, '/api/v1/voided-sequences', {
      method: 'POST',
      body: JSON.stringify({ rangos: [{ tipo: '31', desde, hasta }] }),
      headers: { 'content-type': 'application/json' },
    });
  expect((await voidRanges(a.token, 500, 509)).status).toBe(201);
  expect((await voidRanges(b.token, 500, 509)).status).toBe(201);
  expect((await voidRanges(a.token, 600, 609)).status).toBe(201);
  const aLotes = (await h.storage.listVoidBatches(a.issuer.id, 100)).map((v) => v.lote);

  return { h, before: await snapshotOf(h, a.issuer.id), aDocs, bDocs, aLotes, foreignToken, buyerToken };
}

/** B's answers about something only A holds are exactly B's answers about something nobody holds. */
async function sameAsMissing(call: (id: string) => Promise<Response>, aOnly: string, nobody: string, status: number): Promise<void> {
  const [x, y] = [await call(aOnly), await call(nobody)];
  const [tx, ty] = [await x.text(), await y.text()];
  expect(x.status).toBe(status);
  expect(y.status).toBe(status);
  expect(x.headers.get('content-type')).toBe(y.headers.get('content-type'));
  expect(tx.split(aOnly).join('<id>')).toBe(ty.split(nobody).join('<id>'));
}

const get = (w: World, path: string) => w.h.api(w.h.b.token, path);
const bDoc = (w: World, encf: string) => w.bDocs.find((d) => d.encf === encf)!;
const aDoc = (w: World, encf: string) => w.aDocs.find((d) => d.encf === encf)!;

/** One case per API operation, keyed `METHOD path` as in the OpenAPI document. B is the caller throughout. */
const API_CASES: Record<string, (w: World) => Promise<void>> = {
  'POST /api/v1/documents/{tipo}': async (w) => {
    const { h } = w;
    // Passthrough of an e-NCF A already used (E330000000002): free for B.
    const ctx = { ...baseContext('33'), emisor: B, encf: 'E330000000002', fecha_vencimiento_secuencia: '31-12-2099' };
    const xml = buildEcfXmlFromJson('33', baseDoc('33'), ctx);
    const own = await h.api(h.b.token, '/api/v1/documents/33', { method: 'POST', body: xml, headers: { 'content-type': 'application/xml' } });
    expect(own.status, await own.clone().text()).toBe(202);
    expect((await json(own)).document.e_ncf).toBe('E330000000002');
    // A passthrough naming A as the issuer is refused.
    const forged = await h.api(h.b.token, '/api/v1/documents/33', {
      method: 'POST',
      body: buildEcfXmlFromJson('33', baseDoc('33'), { ...ctx, emisor: A, encf: 'E330000000004' }),
      headers: { 'content-type': 'application/xml' },
    });
    expect(forged.status).toBe(422);
    expect(JSON.stringify(await json(forged))).toContain('no corresponde al emisor de la credencial');
    // JSON: B's own sequence pointer, untouched by A's three 33s.
    const issued = await issueJson(h, h.b, '33');
    expect(issued.status).toBe(202);
    expect((await json(issued)).document.e_ncf).toBe('E330000000001');
    w.bDocs = await h.storage.listDocuments(h.b.issuer.id, { limit: 100 });
  },

  'GET /api/v1/documents': async (w) => {
    const aIds = new Set(w.aDocs.map((d) => d.id));
    for (const query of ['', '?tipo=33', '?tipo=31&limit=200', `?cursor=${Math.max(...aIds) + 1000}`, '?status=accepted_authority']) {
      const body = await json(await get(w, `/api/v1/documents${query}`));
      const ids: number[] = body.data.items.map((i: any) => i.document_id);
      const own = (await w.h.storage.listDocuments(w.h.b.issuer.id, { limit: 500 })).map((d) => d.id);
      expect(
        ids.every((id) => own.includes(id)),
        query,
      ).toBe(true);
      expect(
        ids.some((id) => aIds.has(id)),
        query,
      ).toBe(false);
    }
    const all = await json(await get(w, '/api/v1/documents?limit=200'));
    expect(all.data.items.map((i: any) => i.e_ncf)).not.toContain(A_ONLY);
  },

  'GET /api/v1/documents/{eNCF}': async (w) => {
    const body = await json(await get(w, `/api/v1/documents/${SHARED}`));
    expect(body.document.document_id).toBe(bDoc(w, SHARED).id);
    expect(body.document.security_code).toBe(bDoc(w, SHARED).securityCode);
    expect(body.document.commercial_approvals.map((x: any) => x.estado)).toEqual([2]);
    await sameAsMissing((e) => get(w, `/api/v1/documents/${e}`), A_ONLY, NOBODY, 404);
  },

  'GET /api/v1/documents/{eNCF}/track-ids': async (w) => {
    const body = await json(await get(w, `/api/v1/documents/${SHARED}/track-ids`));
    const own = (await w.h.storage.listSubmissions(bDoc(w, SHARED).id)).map((s) => s.trackId);
    const theirs = (await w.h.storage.listSubmissions(aDoc(w, SHARED).id)).map((s) => s.trackId);
    expect(body.data.envios.map((e: any) => e.track_id)).toEqual(own);
    for (const t of theirs) expect(JSON.stringify(body)).not.toContain(String(t));
    await sameAsMissing((e) => get(w, `/api/v1/documents/${e}/track-ids`), A_ONLY, NOBODY, 404);
  },

  'GET /api/v1/documents/{eNCF}/authority-status': async (w) => {
    const res = await get(w, `/api/v1/documents/${SHARED}/authority-status`);
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(body.data.rnc_emisor).toBe(B.rnc);
    expect(body.data.codigo_seguridad).toBe(bDoc(w, SHARED).securityCode);
    await sameAsMissing((e) => get(w, `/api/v1/documents/${e}/authority-status`), A_ONLY, NOBODY, 404);
  },

  'GET /api/v1/documents/{eNCF}/xml': async (w) => {
    const res = await get(w, `/api/v1/documents/${SHARED}/xml`);
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toBe(bDoc(w, SHARED).signedXml);
    expect(textOf(xml, 'RNCEmisor')).toBe(B.rnc);
    expect(xml).not.toContain(A.rnc);
    await sameAsMissing((e) => get(w, `/api/v1/documents/${e}/xml`), A_ONLY, NOBODY, 404);
  },

  'GET /api/v1/documents/{eNCF}/pdf': async (w) => {
    const res = await get(w, `/api/v1/documents/${SHARED}/pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    await sameAsMissing((e) => get(w, `/api/v1/documents/${e}/pdf`), A_ONLY, NOBODY, 404);
  },

  'GET /api/v1/statuses': async (w) => {
    // A fixed catalog: no tenant data, the same for everyone.
    const [x, y] = [await get(w, '/api/v1/statuses'), await w.h.api(w.h.a.token, '/api/v1/statuses')];
    expect(x.status).toBe(200);
    expect(await x.text()).toBe(await y.text());
  },

  'POST /api/v1/voided-sequences': async (w) => {
    // A voided 31 600–609 and issued E330000000003: neither blocks B, whose numbers they are too.
    const res = await w.h.api(w.h.b.token, '/api/v1/voided-sequences', {
      method: 'POST',
      body: JSON.stringify({
        rangos: [
          { tipo: '31', desde: 600, hasta: 609 },
          { tipo: '33', desde: 3, hasta: 3 },
        ],
      }),
      headers: { 'content-type': 'application/json' },
    });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.data.cantidad_anulada).toBe(11);
    expect(w.aLotes).not.toContain(body.data.lote);
  },

  'GET /api/v1/voided-sequences': async (w) => {
    const body = await json(await get(w, '/api/v1/voided-sequences'));
    const own = (await w.h.storage.listVoidBatches(w.h.b.issuer.id, 100)).map((v) => v.lote);
    expect(body.data.map((v: any) => v.lote).sort()).toEqual([...own].sort());
    for (const lote of w.aLotes) expect(JSON.stringify(body)).not.toContain(lote);
  },

  'GET /api/v1/certificate': async (w) => {
    const body = await json(await get(w, '/api/v1/certificate'));
    expect(body.data.tax_id).toBe(B.rnc);
    const a = await json(await w.h.api(w.h.a.token, '/api/v1/certificate'));
    expect(a.data.tax_id).toBe(A.rnc);
    expect(body.data.serial_number).not.toBe(a.data.serial_number);
    expect(JSON.stringify(body)).not.toContain(a.data.serial_number);
  },

  'POST /api/v1/certificate': async (w) => {
    const before = (await w.h.storage.getIssuer(w.h.b.issuer.id))!;
    // B uploading A's certificate is refused; B keeps its own, A's is untouched (final snapshot).
    const res = await uploadCertificate(w.h, w.h.b.token, w.h.a.identity.p12, w.h.a.identity.password);
    expect(res.status).toBe(422);
    expect((await json(res)).document.code).toBe('tax_id_mismatch');
    expect((await w.h.storage.getIssuer(w.h.b.issuer.id))!.certificate).toEqual(before.certificate);
  },

  'GET /api/v1/directory': async (w) => {
    // The authority's public directory, queried as the caller: no tenant data, the same for everyone.
    const [x, y] = [await get(w, '/api/v1/directory'), await w.h.api(w.h.a.token, '/api/v1/directory')];
    expect(x.status).toBe(200);
    expect(await x.text()).toBe(await y.text());
  },

  'GET /api/v1/directory/{rnc}': async (w) => {
    for (const rnc of [A.rnc, B.rnc, FOREIGN]) {
      const [x, y] = [await get(w, `/api/v1/directory/${rnc}`), await w.h.api(w.h.a.token, `/api/v1/directory/${rnc}`)];
      expect(x.status).toBe(y.status);
      expect(await x.text()).toBe(await y.text());
    }
  },

  'GET /api/v1/received-documents': async (w) => {
    const own = (await w.h.storage.listReceivedDocuments(w.h.b.issuer.id, { limit: 100 })).map((d) => d.id);
    const theirs = (await w.h.storage.listReceivedDocuments(w.h.a.issuer.id, { limit: 100 })).map((d) => d.id);
    for (const query of ['', `?rnc_emisor=${FOREIGN}`, '?tipo=31', `?cursor=${Math.max(...theirs) + 1000}`]) {
      const body = await json(await get(w, `/api/v1/received-documents${query}`));
      expect(body.data.items.map((i: any) => i.id).sort(), query).toEqual([...own].sort());
      expect(
        body.data.items.map((i: any) => i.e_ncf),
        query,
      ).not.toContain(RECEIVED_A_ONLY);
    }
  },

  'GET /api/v1/received-documents/{eNCF}': async (w) => {
    const body = await json(await get(w, `/api/v1/received-documents/${RECEIVED_SHARED}`));
    const own = (await w.h.storage.getReceivedDocument(w.h.b.issuer.id, RECEIVED_SHARED))!;
    expect(body.data.id).toBe(own.id);
    expect(textOf(body.data.xml_ecf, 'RNCComprador')).toBe(B.rnc);
    await sameAsMissing((e) => get(w, `/api/v1/received-documents/${e}`), RECEIVED_A_ONLY, RECEIVED_NOBODY, 404);
    await sameAsMissing((e) => get(w, `/api/v1/received-documents/${e}?rnc_emisor=${FOREIGN}`), RECEIVED_A_ONLY, RECEIVED_NOBODY, 404);
  },

  'POST /api/v1/received-documents/{eNCF}/commercial-approval': async (w) => {
    const approve = (e: string) =>
      w.h.api(w.h.b.token, `/api/v1/received-documents/${e}/commercial-approval`, {
        method: 'POST',
        body: JSON.stringify({ estado: 1 }),
        headers: { 'content-type': 'application/json' },
      });
    await sameAsMissing(approve, RECEIVED_A_ONLY, RECEIVED_NOBODY, 404);
    const res = await approve(RECEIVED_SHARED);
    // The foreign issuer publishes no approval URL: 502 (partial), but B's approval is recorded on B's row only.
    expect([200, 502]).toContain(res.status);
    expect((await w.h.storage.getReceivedDocument(w.h.b.issuer.id, RECEIVED_SHARED))!.approvalEstado).toBe(1);
    expect((await w.h.storage.getReceivedDocument(w.h.a.issuer.id, RECEIVED_SHARED))!.approvalEstado).toBeNull();
  },

  'GET /api/v1/received-documents/{eNCF}/authority-status': async (w) => {
    expect((await get(w, `/api/v1/received-documents/${RECEIVED_SHARED}/authority-status`)).status).toBe(200);
    await sameAsMissing((e) => get(w, `/api/v1/received-documents/${e}/authority-status`), RECEIVED_A_ONLY, RECEIVED_NOBODY, 404);
  },

  'GET /api/v1/openapi.json': async (w) => {
    const answers = await Promise.all([get(w, '/api/v1/openapi.json'), w.h.api(w.h.a.token, '/api/v1/openapi.json'), w.h.api(null, '/api/v1/openapi.json')]);
    const texts = await Promise.all(answers.map((r) => r.text()));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(texts).size).toBe(1);
    // Built from the route declarations alone (no storage behind it): it cannot carry tenant data.
    expect(JSON.parse(texts[0]!)).toEqual(openApiDocument());
  },

  'GET /api/v1/docs': async (w) => {
    const answers = await Promise.all([get(w, '/api/v1/docs'), w.h.api(w.h.a.token, '/api/v1/docs'), w.h.api(null, '/api/v1/docs')]);
    const texts = await Promise.all(answers.map((r) => r.text()));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(texts).size).toBe(1);
  },
};

/** One case per inbound service (keyed by its path below `/fe/`), exercised under the tenants' `/t/{rnc}` prefixes. */
const INBOUND_CASES: Record<string, (w: World) => Promise<void>> = {
  'autenticacion/api/semilla': async (w) => {
    const { h } = w;
    // A seed handed out under A's prefix does not log in under B's: the same answer as a seed never issued.
    const seedOfA = await (await h.request(`/t/${A.rnc}/fe/autenticacion/api/semilla`)).text();
    const signedOfA = await signXml(seedOfA, h.foreign.signer);
    const forged = await signXml(buildSemillaXml({ valor: 'x'.repeat(64), fecha: textOf(seedOfA, 'fecha')! }), h.foreign.signer);
    const validate = (xml: string) =>
      h.request(`/t/${B.rnc}/fe/autenticacion/api/validacioncertificado`, { method: 'POST', body: xmlForm(xml), headers: { accept: 'application/json' } });
    const [x, y] = [await validate(signedOfA), await validate(forged)];
    expect(x.status).toBe(401);
    expect(y.status).toBe(401);
    expect(await x.text()).toBe(await y.text());
    // Under its own prefix the same signed seed is good (what failed was only the tenant).
    const own = await h.request(`/t/${A.rnc}/fe/autenticacion/api/validacioncertificado`, {
      method: 'POST',
      body: xmlForm(signedOfA),
      headers: { accept: 'application/json' },
    });
    expect(own.status).toBe(200);
  },

  'autenticacion/api/validacioncertificado': async (w) => {
    const { h } = w;
    // A token obtained under B's prefix does not open A's reception: the same answer as a forged token.
    const xml = await foreignEcf(h, A.rnc, 7);
    const [x, y] = [await deliver(h, A.rnc, w.foreignToken.b, xml), await deliver(h, A.rnc, 'a'.repeat(43), xml)];
    expect(x.status).toBe(401);
    expect(y.status).toBe(401);
    expect(await x.text()).toBe(await y.text());
    // It opens B's (a duplicate delivery: answered, nothing recorded).
    const ok = await deliver(h, B.rnc, w.foreignToken.b, await foreignEcf(h, B.rnc, 1));
    expect(ok.status).toBe(200);
    expect(textOf(await ok.text(), 'CodigoMotivoNoRecibido')).toBe('3');
  },

  'recepcion/api/ecf': async (w) => {
    const { h } = w;
    // Delivered to B's address but bought by A: refused (motivo 4), signed as B, recorded for nobody.
    const wrong = await deliver(h, B.rnc, w.foreignToken.b, await foreignEcf(h, A.rnc, 8));
    const arecf = await wrong.text();
    expect(wrong.status).toBe(200);
    expect(textOf(arecf, 'Estado')).toBe('1');
    expect(textOf(arecf, 'CodigoMotivoNoRecibido')).toBe('4');
    expect(textOf(arecf, 'RNCComprador')).toBe(B.rnc);
    // What A received does not make B's copy a duplicate.
    const res = await deliver(h, B.rnc, w.foreignToken.b, await foreignEcf(h, B.rnc, 2));
    expect(textOf(await res.text(), 'Estado')).toBe('0');
    expect((await h.storage.getReceivedDocument(h.b.issuer.id, RECEIVED_A_ONLY))!.issuerId).toBe(h.b.issuer.id);
  },

  'aprobacioncomercial/api/ecf': async (w) => {
    const { h } = w;
    const d = aDoc(w, SHARED);
    // At B's address, an approval of A's document is refused.
    const ofA = await buyerApproval(h, { issuerRnc: A.rnc, encf: d.encf, fecha: d.issuedAt, monto: Number(d.totalAmount), estado: '1' });
    const refused = await sendApproval(h, B.rnc, w.buyerToken.b, ofA);
    expect(refused.status).toBe(400);
    // Naming B for an e-NCF only A issued gets the answer of an e-NCF nobody issued.
    const onlyA = aDoc(w, A_ONLY);
    await sameAsMissing(
      async (encf) =>
        sendApproval(
          h,
          B.rnc,
          w.buyerToken.b,
          await buyerApproval(h, { issuerRnc: B.rnc, encf, fecha: onlyA.issuedAt, monto: Number(onlyA.totalAmount), estado: '1' }),
        ),
      A_ONLY,
      NOBODY,
      400,
    );
  },
};

describe.each(BACKENDS)('tenant isolation on %s', (backend) => {
  let w: World;
  beforeAll(async () => {
    const h = await createTenantHarness(backend, 'iso');
    try {
      w = await seed(h);
    } catch (e) {
      await h.close();
      throw e;
    }
  }, 180_000);
  afterAll(async () => {
    await w?.h.close();
  });

  it('has a case for every operation of the OpenAPI document and every inbound service', async () => {
    const doc = await json(await w.h.api(null, '/api/v1/openapi.json'));
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(operations.length).toBeGreaterThan(15);
    expect([...operations].sort()).toEqual(Object.keys(API_CASES).sort());
    expect(Object.keys(INBOUND_SERVICES).sort()).toEqual(Object.keys(INBOUND_CASES).sort());
  });

  for (const [operation, run] of Object.entries(API_CASES)) {
    it(`B cannot see, change or detect A's data: ${operation}`, () => run(w));
  }
  for (const [service, run] of Object.entries(INBOUND_CASES)) {
    it(`B's inbound address cannot reach A's data: /t/{rnc}/fe/${service}`, () => run(w));
  }

  it("after all of B's requests, A's rows are byte for byte what they were", async () => {
    expect(await snapshotOf(w.h, w.h.a.issuer.id)).toEqual(w.before);
    // And B's requests did land on B's side (the comparison above is not vacuous).
    expect((await w.h.storage.listDocuments(w.h.b.issuer.id, { limit: 100 })).length).toBeGreaterThan(2);
    expect((await w.h.storage.listReceivedDocuments(w.h.b.issuer.id, { limit: 100 })).length).toBe(2);
  });
});
