/**
 * Issue 13, findings 1, 2 and 7, over the whole app on both storage engines (what is really stored is read
 * with a second connection): a stranger with its own inbound token can neither approve another tenant's
 * document in the buyer's name nor deliver an e-CF in another issuer's name; refusals that depend on stored
 * data all look the same; one approval per document and buyer; received documents are stored without
 * comments. (Details and trust-store cases: test/ecf/server/inbound/trust.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAcecfXml, formatDateTimeDO } from '../../../../src/ecf/index.js';
import { signXml, verifyXml } from '../../../../src/ecf/sign/index.js';
import {
  A,
  BACKENDS,
  BUYER,
  buyerApproval,
  createTenantHarness,
  deliver,
  FOREIGN,
  foreignEcf,
  identityOf,
  inboundLogin,
  issueJson,
  json,
  sendApproval,
  type TenantHarness,
} from './harness.js';

const STRANGER = '401000003';
const textOf = (xml: string, tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1] ?? null;

describe.each(BACKENDS)('inbound trust on %s', (backend) => {
  let h: TenantHarness;
  let doc: { encf: string; issuedAt: string; totalAmount: string; id: number };
  let strangerToken: string;
  let buyerToken: string;
  let foreignToken: string;

  beforeAll(async () => {
    h = await createTenantHarness(backend, 'trust');
    const issued = await issueJson(h, h.a, '31');
    expect(issued.status).toBe(202);
    await h.settle();
    const record = (await h.storage.getDocumentByEncf(h.a.issuer.id, (await json(issued)).document.e_ncf))!;
    doc = { encf: record.encf, issuedAt: record.issuedAt, totalAmount: record.totalAmount, id: record.id };
    strangerToken = await inboundLogin(h, `/t/${A.rnc}`, identityOf(STRANGER, 'EXTRAÑO SRL'));
    buyerToken = await inboundLogin(h, `/t/${A.rnc}`, h.buyer);
    foreignToken = await inboundLogin(h, `/t/${A.rnc}`, h.foreign);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const approvalsOf = async (id: number) => h.raw.all(`SELECT estado, rnc_comprador FROM document_approvals WHERE document_id = ${id}`);
  const approval = (over: Partial<{ encf: string; fecha: string; monto: number; estado: '1' | '2' }> = {}) =>
    buyerApproval(h, {
      issuerRnc: A.rnc,
      encf: doc.encf,
      fecha: doc.issuedAt,
      monto: Number(doc.totalAmount),
      estado: '1',
      ...over,
      ...(over.estado === '2' ? { motivo: 'Precio' } : {}),
    });

  it("finding 1: a stranger's token cannot record an approval in the buyer's name", async () => {
    // Signed by the stranger's own certificate, naming the real buyer (as the attack run did).
    const forged = await signXml(
      buildAcecfXml({
        rnc_emisor: A.rnc,
        encf: doc.encf,
        fecha_emision: doc.issuedAt,
        monto_total: Number(doc.totalAmount),
        rnc_comprador: BUYER,
        estado: '2',
        detalle_motivo_rechazo: 'Falso',
        fecha_hora_aprobacion_comercial: formatDateTimeDO(new Date()),
      }),
      identityOf(STRANGER, 'EXTRAÑO SRL').signer,
    );
    const res = await sendApproval(h, A.rnc, strangerToken, forged);
    expect(res.status).not.toBe(200);
    expect(await approvalsOf(doc.id)).toEqual([]);
  });

  it('finding 1: refusals that depend on stored data are identical and echo nothing stored', async () => {
    const wrongTotal = await sendApproval(h, A.rnc, buyerToken, await approval({ monto: Number(doc.totalAmount) + 1 }));
    const wrongDate = await sendApproval(h, A.rnc, buyerToken, await approval({ fecha: '31-12-2025' }));
    const unknown = await sendApproval(h, A.rnc, buyerToken, await approval({ encf: 'E310000000999' }));
    const bodies = [await wrongTotal.text(), await wrongDate.text(), await unknown.text()];
    expect([wrongTotal.status, wrongDate.status, unknown.status]).toEqual([400, 400, 400]);
    expect(new Set(bodies).size).toBe(1);
    expect(bodies[0]).not.toContain(doc.totalAmount);
    expect(bodies[0]).not.toContain(doc.issuedAt);
    expect(bodies[0]).not.toMatch(/no fue emitido/);
  });

  it('finding 1: one approval per document and buyer, under repeats and concurrency', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 6 }, async (_, k) => (await sendApproval(h, A.rnc, buyerToken, await approval({ estado: k % 2 ? '1' : '2' }))).status),
    );
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect((await approvalsOf(doc.id)).length).toBe(1);
    expect((await sendApproval(h, A.rnc, buyerToken, await approval())).status).not.toBe(500);
    expect((await approvalsOf(doc.id)).length).toBe(1);
  });

  it("finding 2: a stranger's token cannot deliver in another issuer's name, and the genuine delivery is then received", async () => {
    const xml = await foreignEcf(h, A.rnc, 41);
    const forged = await deliver(h, A.rnc, strangerToken, xml);
    const forgedText = await forged.text();
    expect(forged.status === 200 && textOf(forgedText, 'Estado') === '0').toBe(false);
    expect(await h.raw.all(`SELECT id FROM received_documents WHERE encf = 'E310000000041'`)).toEqual([]);
    const genuine = await deliver(h, A.rnc, foreignToken, xml);
    const text = await genuine.text();
    expect(genuine.status).toBe(200);
    expect(textOf(text, 'Estado')).toBe('0');
    const rows = await h.raw.all(`SELECT emisor_rnc, sender_fingerprint FROM received_documents WHERE encf = 'E310000000041'`);
    expect(rows).toEqual([{ emisor_rnc: FOREIGN, sender_fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
  });

  it('finding 7: a comment-padded e-CF is stored without its comments, and what is stored verifies', async () => {
    const xml = await foreignEcf(h, A.rnc, 42);
    const pad = `<!--${'x'.repeat(512 * 1024)}-->`;
    const res = await deliver(h, A.rnc, foreignToken, xml.replace('<Encabezado>', `${pad}<Encabezado>`));
    expect(textOf(await res.text(), 'Estado')).toBe('0');
    const [row] = await h.raw.all(`SELECT xml FROM received_documents WHERE encf = 'E310000000042'`);
    const stored = String(row!.xml);
    expect(stored).not.toContain('<!--');
    expect(stored.length).toBeLessThan(xml.length + 16);
    expect(verifyXml(stored).valid).toBe(true);
  });
});
