/**
 * Issue 13, findings 1, 2 and 7 (inbound trust and inbound storage), in process over SQLite:
 * - who may approve commercially (the buyer named, or its configured delegate), one generic refusal for
 *   whatever depends on stored data, one approval per document and buyer;
 * - who may deliver an e-CF (a trusted certificate acting for RNCEmisor, a token of that RNC), and that a
 *   forgery neither occupies the e-NCF nor turns the genuine delivery into "envío duplicado";
 * - what is stored (no comments, a size cap) and how much (a quota per sender).
 * The storage side (unique key, both engines) is in test/ecf/server/security/inbound-trust.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArecfXml } from '../../../../src/ecf/index.js';
import { loadConfig, ConfigError } from '../../../../src/ecf/server/config.js';
import { NOT_MATCHED } from '../../../../src/ecf/server/inbound/approval.js';
import { checkSigner, DEVELOPMENT_TRUST, normalizeIdentifier, type InboundTrust } from '../../../../src/ecf/server/inbound/trust.js';
import { stripComments } from '../../../../src/ecf/server/inbound/xml.js';
import { createSelfSignedIdentity, verifyXml, type SelfSignedIdentity } from '../../../../src/ecf/sign/index.js';
import { createTestCa } from './ca.js';
import {
  acecfFor,
  createHarness,
  login,
  ourDocument,
  postXml,
  RECEPTOR_A,
  RECEPTOR_B,
  REMOTE,
  remoteEcf,
  remoteIdentity,
  replaceOnce,
  T0,
  type Harness,
} from './harness.js';

const RECEPCION = '/fe/recepcion/api/ecf';
const APROBACION = '/fe/aprobacioncomercial/api/ecf';
const CERT_START = new Date('2026-03-01T00:00:00Z');
const STRANGER = '401000002';

const selfSigned = (serialNumber: string, commonName = `TITULAR ${serialNumber}`): SelfSignedIdentity =>
  createSelfSignedIdentity({ commonName, serialNumber, now: CERT_START, days: 3650 });

async function ackOf(res: Response) {
  expect(res.status).toBe(200);
  const text = await res.text();
  expect(verifyXml(text).valid).toBe(true);
  return parseArecfXml(text).data;
}

describe('certificate identifiers (issue 13 finding 1/2)', () => {
  it('reads the plain RNC, the ETSI-prefixed forms and dashed cédulas; nothing else', () => {
    expect(normalizeIdentifier('101672919')).toBe('101672919');
    expect(normalizeIdentifier('IDCDO-00199999996')).toBe('00199999996');
    expect(normalizeIdentifier('VATDO-131880738')).toBe('131880738');
    expect(normalizeIdentifier('TINDO-131880738')).toBe('131880738');
    expect(normalizeIdentifier('001-9999999-6')).toBe('00199999996');
    for (const bad of ['', 'ABC', '1018', 'IDCDO-', '1316729190000', 'CN=101672919']) expect(normalizeIdentifier(bad)).toBeNull();
  });

  it('acts for the RNC in serialNumber or organizationIdentifier, and for the RNCs it is a configured delegate of', () => {
    const ca = createTestCa();
    const company = ca.issue({ commonName: 'EMPRESA', organizationIdentifier: 'VATDO-131880738', serialNumber: 'IDCDO-00199999996' });
    const b64 = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, '');
    const trust: InboundTrust = { mode: 'ca', anchors: [ca.anchor], delegates: { '101672919': ['00199999996'] } };
    const check = checkSigner(trust, b64(company.certificatePem), T0);
    expect(check.ok && check.identity.principals.sort()).toEqual(['00199999996', '101672919', '131880738']);
    // A self-signed certificate is nobody in `ca` mode, and anybody it claims in development mode.
    const forged = selfSigned('131880738');
    expect(checkSigner(trust, forged.signer.certificate, T0)).toMatchObject({ ok: false });
    expect(checkSigner(DEVELOPMENT_TRUST, forged.signer.certificate, T0)).toMatchObject({ ok: true, identity: { principals: ['131880738'] } });
    // Outside its validity.
    expect(checkSigner(DEVELOPMENT_TRUST, forged.signer.certificate, new Date('2040-01-01T00:00:00Z'))).toMatchObject({ ok: false });
  });

  it('configuration: development trust with the in-process simulator only; a DGII authority needs ca', () => {
    expect(loadConfig({}).inbound).toMatchObject({ trust: 'development', trustCa: null, maxStoredBytes: 8 * 1024 * 1024, senderQuota: 10_000 });
    expect(loadConfig({ ECF_AUTHORITY: 'ecf', ECF_CERT_KEY: 'ab'.repeat(32) }).inbound.trust).toBe('ca');
    expect(loadConfig({ ECF_AUTHORITY: 'http://127.0.0.1:9/' }).inbound.trust).toBe('ca');
    expect(() => loadConfig({ ECF_AUTHORITY: 'testecf', ECF_INBOUND_TRUST: 'development' })).toThrow(ConfigError);
    expect(() => loadConfig({ ECF_INBOUND_TRUST: 'maybe' })).toThrow(/ECF_INBOUND_TRUST must be/);
    expect(() => loadConfig({ ECF_INBOUND_SENDER_QUOTA: '-1' })).toThrow(/ECF_INBOUND_SENDER_QUOTA/);
    expect(loadConfig({ ECF_INBOUND_TRUST_CA: 'ca.pem', ECF_INBOUND_SENDER_QUOTA: '0', ECF_INBOUND_MAX_STORED_BYTES: '2MB' }).inbound).toMatchObject({
      trustCa: expect.stringMatching(/\/ca\.pem$/),
      senderQuota: 0,
      maxStoredBytes: 2 * 1024 * 1024,
    });
  });
});

describe('finding 1: commercial approvals only from the buyer they name; one generic refusal; one per document and buyer', () => {
  let h: Harness;
  let token: string;
  const stranger = selfSigned(STRANGER, 'EXTRAÑO');
  let strangerToken: string;
  beforeAll(async () => {
    h = await createHarness();
    token = await login(h);
    strangerToken = await login(h, '', stranger);
  });
  afterAll(() => h.close());

  it('refuses an ACECF naming a buyer that did not sign it, with any token, and records nothing', async () => {
    const doc = await ourDocument(h, h.a, REMOTE);
    // The stranger signs an approval in the buyer's name: with its own token (401) and without token checks (400).
    const forged = await acecfFor(doc, RECEPTOR_A, {}, { signer: stranger });
    expect((await postXml(h, APROBACION, forged, { token: strangerToken })).status).toBe(401);
    expect((await postXml(h, APROBACION, forged, { token })).status).toBe(400);
    expect(await h.storage.getDocumentApprovals(doc.id)).toEqual([]);
    // The buyer itself is recorded, with its certificate's fingerprint.
    expect((await postXml(h, APROBACION, await acecfFor(doc, RECEPTOR_A), { token })).status).toBe(200);
    expect((await h.storage.getDocumentApprovals(doc.id)).map((a) => a.signerFingerprint)).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
  });

  it('answers every refusal that depends on stored data with the same status and body, echoing nothing stored', async () => {
    const doc = await ourDocument(h, h.a, REMOTE);
    const strangersDoc = await ourDocument(h, h.a, '401000009');
    const cases: [string, string][] = [
      [await acecfFor(doc, RECEPTOR_A, { encf: 'E310000009998' }), APROBACION],
      [await acecfFor(doc, RECEPTOR_A, { monto_total: Number(doc.totalAmount) + 1 }), APROBACION],
      [await acecfFor(doc, RECEPTOR_A, { fecha_emision: '02-04-2026' }), APROBACION],
      // A's document at B's address.
      [await acecfFor(doc, RECEPTOR_A), `/t/${RECEPTOR_B}${APROBACION}`],
      [await acecfFor(doc, '401000001'), APROBACION],
      // A document of ours whose buyer is someone else.
      [await acecfFor(strangersDoc, RECEPTOR_A), APROBACION],
    ];
    const answers = await Promise.all(
      cases.map(async ([xml, path]) => {
        const res = await postXml(h, path, xml, { token });
        return `${res.status} ${await res.text()}`;
      }),
    );
    expect(new Set(answers).size, answers.join('\n')).toBe(1);
    expect(answers[0]).toBe(`400 ${JSON.stringify({ estado: 'Error', mensaje: NOT_MATCHED, mensajes: [NOT_MATCHED] })}`);
    for (const leak of [doc.totalAmount, doc.issuedAt, strangersDoc.encf, '401000009']) expect(answers[0]).not.toContain(leak);
    expect(await h.storage.getDocumentApprovals(doc.id)).toEqual([]);
  });

  it('a configured delegate of the buyer may approve in its name', async () => {
    const ca = createTestCa();
    const delegate = ca.issue({ commonName: 'DELEGADO', serialNumber: 'IDCDO-00199999996' });
    const d = await createHarness({ trust: { mode: 'ca', anchors: [ca.anchor], delegates: { [REMOTE]: ['00199999996'] } } });
    try {
      const doc = await ourDocument(d, d.a, REMOTE);
      const delegateToken = await login(d, '', delegate as SelfSignedIdentity);
      const res = await postXml(d, APROBACION, await acecfFor(doc, RECEPTOR_A, {}, { signer: delegate as SelfSignedIdentity }), { token: delegateToken });
      expect(res.status).toBe(200);
      // The buyer's own self-signed certificate is not trusted in `ca` mode: no token.
      await expect(login(d)).rejects.toThrow(/401/);
    } finally {
      await d.close();
    }
  });

  it('one decision per buyer under concurrent submissions: exactly one recorded, the rest same (200) or refused (409)', async () => {
    const doc = await ourDocument(h, h.a, REMOTE);
    const xmls = await Promise.all(
      Array.from({ length: 8 }, (_, k) => acecfFor(doc, RECEPTOR_A, k % 2 ? {} : { estado: '2', detalle_motivo_rechazo: 'Precio' })),
    );
    const statuses = await Promise.all(xmls.map(async (xml) => (await postXml(h, APROBACION, xml, { token })).status));
    const approvals = await h.storage.getDocumentApprovals(doc.id);
    expect(approvals).toHaveLength(1);
    const winner = approvals[0]!.estado;
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    expect(statuses.filter((s) => s === 409)).toHaveLength(4);
    expect(winner === 1 || winner === 2).toBe(true);
  });
});

describe('finding 2: an e-CF is received only from a trusted certificate of its RNCEmisor', () => {
  let h: Harness;
  const stranger = selfSigned(STRANGER, 'EXTRAÑO');
  let strangerToken: string;
  let n = 500;
  beforeAll(async () => {
    h = await createHarness();
    await login(h);
    strangerToken = await login(h, '', stranger);
  });
  afterAll(() => h.close());

  it("a token of another RNC cannot deliver in the RNCEmisor's name (401), whoever signed", async () => {
    const xml = await remoteEcf('31', { buyer: RECEPTOR_A, n: ++n });
    const res = await postXml(h, RECEPCION, xml, { token: strangerToken });
    expect(res.status).toBe(401);
    expect(await h.storage.listReceivedDocuments(h.a.id, { limit: 100, emisorRnc: REMOTE })).not.toContainEqual(
      expect.objectContaining({ encf: `E31${String(n).padStart(10, '0')}` }),
    );
  });

  it('a forgery signed by another certificate is not received (motivo 2), occupies nothing, and the genuine one is then received', async () => {
    const encf = `E31${String(++n).padStart(10, '0')}`;
    const forged = await remoteEcf('31', { buyer: RECEPTOR_A, n, signer: stranger });
    const open = await createHarness({ requireAuth: false });
    try {
      const ack = await ackOf(await postXml(open, RECEPCION, forged, {}));
      expect(ack).toMatchObject({ estado: '1', codigo_motivo_no_recibido: '2', rnc_emisor: REMOTE });
      expect(await open.storage.getReceivedDocument(open.a.id, encf, REMOTE)).toBeNull();
      const genuine = await remoteEcf('31', { buyer: RECEPTOR_A, n });
      expect(await ackOf(await postXml(open, RECEPCION, genuine, {}))).toMatchObject({ estado: '0' });
      const rec = await open.storage.getReceivedDocument(open.a.id, encf, REMOTE);
      expect(rec!.xml).toBe(genuine);
      expect(rec!.senderFingerprint).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await open.close();
    }
  });

  it("with a trust store, a self-signed certificate in the RNCEmisor's name is refused; a CA-issued one is received", async () => {
    const ca = createTestCa();
    const genuineId = ca.issue({ commonName: 'EMISOR REMOTO', serialNumber: REMOTE }) as SelfSignedIdentity;
    const strict = await createHarness({ trust: { mode: 'ca', anchors: [ca.anchor], delegates: {} } });
    const strictOpen = await createHarness({ requireAuth: false, trust: { mode: 'ca', anchors: [ca.anchor], delegates: {} } });
    try {
      await expect(login(strict, '', remoteIdentity())).rejects.toThrow(/401/);
      const forged = await remoteEcf('31', { buyer: RECEPTOR_A, n: ++n });
      expect(await ackOf(await postXml(strictOpen, RECEPCION, forged, {}))).toMatchObject({ estado: '1', codigo_motivo_no_recibido: '2' });
      const genuine = await remoteEcf('31', { buyer: RECEPTOR_A, n, signer: genuineId });
      const strictToken = await login(strict, '', genuineId);
      expect(await ackOf(await postXml(strict, RECEPCION, genuine, { token: strictToken }))).toMatchObject({ estado: '0' });
      expect(await ackOf(await postXml(strictOpen, RECEPCION, genuine, {}))).toMatchObject({ estado: '0' });
    } finally {
      await strict.close();
      await strictOpen.close();
    }
  });
});

describe('finding 7: stored without comments, size capped, quota per sender', () => {
  it('stripping comments keeps the signature valid (C14N without comments), wherever they are', async () => {
    const signed = await remoteEcf('31', { buyer: RECEPTOR_A, n: 900 });
    const padded =
      signed
        .replace('<Encabezado>', `<!-- ${'x'.repeat(1000)} --><Encabezado><!--a-->`)
        .replace('</RNCEmisor>', '</RNCEmisor><!--<RNCEmisor>999999999</RNCEmisor>-->')
        .replace('<SignatureValue>', '<SignatureValue><!--sv-->')
        .replace(/^(<\?xml[^>]*\?>)/, '$1<!-- prolog -->\n') + '\n<!-- after -->\n   ';
    expect(verifyXml(padded).valid).toBe(true);
    const stripped = stripComments(padded);
    expect(stripped).not.toContain('<!--');
    expect(verifyXml(stripped).valid).toBe(true);
    expect(stripped.length).toBeLessThan(padded.length - 1000);
    // CDATA and processing instructions are kept as they are.
    expect(stripComments('<a><![CDATA[<!--x-->]]><?p <!--y-- ?><!--z--></a>')).toBe('<a><![CDATA[<!--x-->]]><?p <!--y-- ?></a>');
  });

  it('stores a comment-padded document without its comments, and the stored text verifies', async () => {
    const h = await createHarness();
    try {
      const token = await login(h);
      const signed = await remoteEcf('31', { buyer: RECEPTOR_A, n: 901 });
      const pad = `<!--${'relleno '.repeat(128 * 1024)}-->`; // 1 MB
      const padded = replaceOnce(signed, '<Encabezado>', `${pad}<Encabezado>${pad}`);
      expect(verifyXml(padded).valid).toBe(true);
      expect(await ackOf(await postXml(h, RECEPCION, padded, { token }))).toMatchObject({ estado: '0' });
      const rec = (await h.storage.getReceivedDocument(h.a.id, 'E310000000901', REMOTE))!;
      expect(rec.xml).toBe(signed);
      expect(verifyXml(rec.xml).valid).toBe(true);
      // ACECF likewise, with padding that fits the approval body limit (64 KB since finding 3).
      const doc = await ourDocument(h, h.a, REMOTE);
      const acecf = await acecfFor(doc, RECEPTOR_A);
      const smallPad = `<!--${'relleno '.repeat(4 * 1024)}-->`; // 32 KB
      expect(
        (await postXml(h, APROBACION, replaceOnce(acecf, '<DetalleAprobacionComercial>', `<DetalleAprobacionComercial>${smallPad}`), { token })).status,
      ).toBe(200);
      expect((await h.storage.getDocumentApprovals(doc.id))[0]!.acecfXml).toBe(acecf);
    } finally {
      await h.close();
    }
  });

  it('refuses (motivo 1, nothing stored) a document above the stored-size cap once its comments are gone', async () => {
    const small = await remoteEcf('31', { buyer: RECEPTOR_A, n: 902 });
    // The cap is exactly the size of `small`: one more byte of signed content is over it.
    const h = await createHarness({ maxStoredBytes: Buffer.byteLength(small), requireAuth: false });
    try {
      // Big only by its comments: received.
      expect(await ackOf(await postXml(h, RECEPCION, replaceOnce(small, '<Encabezado>', `<!--${'c'.repeat(64 * 1024)}--><Encabezado>`), {}))).toMatchObject({
        estado: '0',
      });
      // Big by its signed content (a longer buyer name).
      const big = await remoteEcf('31', {
        buyer: RECEPTOR_A,
        n: 903,
        change: (d) => {
          d.comprador.razon_social = `${d.comprador.razon_social} Y ASOCIADOS`;
        },
      });
      expect(await ackOf(await postXml(h, RECEPCION, big, {}))).toMatchObject({ estado: '1', codigo_motivo_no_recibido: '1' });
      expect(await h.storage.getReceivedDocument(h.a.id, 'E310000000903', REMOTE)).toBeNull();
    } finally {
      await h.close();
    }
  });

  it('answers 429 (nothing stored, nothing signed) past the quota per sender, across our issuers, for 24 hours', async () => {
    const h = await createHarness({ senderQuota: 2 });
    try {
      const token = await login(h);
      expect(await ackOf(await postXml(h, RECEPCION, await remoteEcf('31', { buyer: RECEPTOR_A, n: 1 }), { token }))).toMatchObject({ estado: '0' });
      expect(await ackOf(await postXml(h, RECEPCION, await remoteEcf('31', { buyer: RECEPTOR_B, n: 2 }), { token }))).toMatchObject({ estado: '0' });
      const over = await postXml(h, RECEPCION, await remoteEcf('31', { buyer: RECEPTOR_A, n: 3 }), { token });
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toBe('3600');
      expect(((await over.json()) as { mensaje: string }).mensaje).toMatch(/máximo de 2 e-CF/);
      expect(await h.storage.getReceivedDocument(h.a.id, 'E310000000003', REMOTE)).toBeNull();
      // Another sender is not affected.
      const other = selfSigned('132000001', 'OTRO EMISOR');
      const otherXml = await remoteEcf('31', {
        buyer: RECEPTOR_A,
        n: 3,
        signer: other,
        editXml: (x) => replaceOnce(x, `<RNCEmisor>${REMOTE}</RNCEmisor>`, '<RNCEmisor>132000001</RNCEmisor>'),
      });
      expect(await ackOf(await postXml(h, RECEPCION, otherXml, { token: await login(h, '', other) }))).toMatchObject({ estado: '0' });
      // A day later the sender may deliver again.
      h.advance(24 * 3_600_000 + 1);
      const fresh = await login(h);
      expect(await ackOf(await postXml(h, RECEPCION, await remoteEcf('31', { buyer: RECEPTOR_A, n: 3 }), { token: fresh }))).toMatchObject({ estado: '0' });
    } finally {
      await h.close();
    }
  });
});
