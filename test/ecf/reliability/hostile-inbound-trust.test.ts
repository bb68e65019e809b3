/**
 * Hostile senders against the inbound trust and storage rules (issue 13 findings 1, 2 and 7): strangers with
 * their own self-signed certificates and tokens forge e-CF in another issuer's name, forge commercial
 * approvals in the buyer's name with right and wrong values, repeat and contradict decisions, and pad
 * everything with comments.
 *
 * Properties: never a 500; nothing a stranger forged is recorded (every received document of REMOTE carries
 * REMOTE's certificate fingerprint, every approval was signed by the buyer it names); at most one approval
 * per document and buyer; nothing stored carries a comment and everything stored verifies; refusals that
 * depend on stored data all carry the one generic message; after the attack the genuine issuer's delivery of
 * each e-NCF it never delivered is received (no forged "envío duplicado").
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_MATCHED } from '../../../src/ecf/server/inbound/approval.js';
import { fingerprintOf } from '../../../src/ecf/server/inbound/trust.js';
import { createSelfSignedIdentity, verifyXml, type SelfSignedIdentity } from '../../../src/ecf/sign/index.js';
import type { DocumentRecord } from '../../../src/ecf/server/storage/types.js';
import { X509Certificate } from 'node:crypto';
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
  type Harness,
} from '../server/inbound/harness.js';
import { fuzzSeed } from './hostile/oracle.js';
import { scale } from './mode.js';

const SEED = fuzzSeed('hostile-inbound-trust');
const RUNS = { reception: scale(40, 1_500), approval: scale(40, 1_500) };
const TIMEOUT = scale(110_000, 3_600_000);
const CERT_START = new Date('2026-03-01T00:00:00Z');

const fp = (id: SelfSignedIdentity) => fingerprintOf(new X509Certificate(id.certificatePem));

let h: Harness;
let open: Harness;
let remoteToken: string;
const strangers: { id: SelfSignedIdentity; rnc: string; token: string }[] = [];
let docs: DocumentRecord[];

beforeAll(async () => {
  h = await createHarness();
  // The same rules without the token layer: the signature binding alone must hold.
  open = await createHarness({ requireAuth: false });
  remoteToken = await login(h);
  // (A self-signed certificate claiming REMOTE's RNC would *be* REMOTE under development trust, which is what
  // that mode means; test/ecf/server/inbound/trust.test.ts shows a trust store refusing it.)
  for (const rnc of ['401000011', '401000012', '401000013']) {
    const id = createSelfSignedIdentity({ commonName: `EXTRAÑO ${rnc}`, serialNumber: rnc, now: CERT_START, days: 3650 });
    strangers.push({ id, rnc, token: await login(h, '', id) });
  }
  docs = [await ourDocument(h, h.a, REMOTE), await ourDocument(h, h.a, REMOTE), await ourDocument(h, h.b, REMOTE)];
}, 120_000);
afterAll(async () => {
  await h?.close();
  await open?.close();
});

const padding = fc.record({
  where: fc.constantFrom('none', 'prolog', 'inside', 'after'),
  bytes: fc.integer({ min: 1, max: scale(16_384, 262_144) }),
});
function pad(xml: string, p: { where: string; bytes: number }, inside: string): string {
  const c = `<!--${'~'.repeat(p.bytes)}-->`;
  if (p.where === 'prolog') return xml.replace(/^(<\?xml[^>]*\?>)/, `$1${c}`);
  if (p.where === 'inside') return replaceOnce(xml, inside, `${inside}${c}`);
  if (p.where === 'after') return `${xml}${c}\n`;
  return xml;
}

async function checkStored(target: Harness): Promise<void> {
  const remoteFp = fp(remoteIdentity());
  for (const issuer of [target.a, target.b]) {
    for (const r of await target.storage.listReceivedDocuments(issuer.id, { limit: 10_000 })) {
      expect(r.xml.includes('<!--'), `${r.encf}: stored without comments`).toBe(false);
      if (r.emisorRnc === REMOTE) expect(r.senderFingerprint, `${r.encf}: only REMOTE's certificate delivers as REMOTE`).toBe(remoteFp);
    }
  }
}

describe('forged e-CF deliveries', () => {
  it(
    'never records a forgery, never answers 500, stores no comment, and the genuine delivery is received afterwards',
    async () => {
      const used = new Set<number>();
      const arb = fc.record({
        stranger: fc.integer({ min: 0, max: strangers.length - 1 }),
        claim: fc.constantFrom('remote', 'self', 'other'),
        buyer: fc.constantFrom(RECEPTOR_A, RECEPTOR_B),
        n: fc.integer({ min: 1, max: 12 }),
        withToken: fc.boolean(),
        pad: padding,
      });
      await fc.assert(
        fc.asyncProperty(arb, async (x) => {
          const s = strangers[x.stranger]!;
          const claimed = x.claim === 'remote' ? REMOTE : x.claim === 'self' ? s.rnc : '132000005';
          const xml = pad(
            await remoteEcf('31', {
              buyer: x.buyer,
              n: 5_000 + x.n,
              signer: s.id,
              editXml: (t) => replaceOnce(t, `<RNCEmisor>${REMOTE}</RNCEmisor>`, `<RNCEmisor>${claimed}</RNCEmisor>`),
            }),
            x.pad,
            '<Encabezado>',
          );
          const target = x.withToken ? h : open;
          const res = await postXml(target, '/fe/recepcion/api/ecf', xml, x.withToken ? { token: s.token } : {});
          expect(res.status, `${JSON.stringify(x)}`).not.toBe(500);
          const text = await res.text();
          const received = res.status === 200 && /<Estado>0<\/Estado>/.test(text);
          // Only a stranger delivering in its own name may be received.
          if (claimed !== s.rnc) expect(received, `forgery received: ${JSON.stringify(x)}`).toBe(false);
          if (claimed === REMOTE) used.add(x.n);
          await checkStored(target);
        }),
        { seed: SEED, numRuns: RUNS.reception, endOnFailure: true },
      );

      // The genuine issuer's documents are received at last, never as duplicates of a forgery.
      for (const n of used) {
        const genuine = await remoteEcf('31', { buyer: RECEPTOR_A, n: 5_000 + n });
        const res = await postXml(h, '/fe/recepcion/api/ecf', genuine, { token: remoteToken });
        expect(await res.text()).toMatch(/<Estado>0<\/Estado>/);
      }
      await checkStored(h);
    },
    TIMEOUT,
  );
});

describe('forged and repeated commercial approvals', () => {
  it(
    'records at most one approval per document and buyer, only from the buyer, and refuses with one generic answer',
    async () => {
      const buyerFp = fp(remoteIdentity());
      const arb = fc.record({
        doc: fc.integer({ min: 0, max: docs.length - 1 }),
        signer: fc.constantFrom('buyer', 'buyer', 'stranger'),
        tokenOf: fc.constantFrom('buyer', 'stranger'),
        stranger: fc.integer({ min: 0, max: strangers.length - 1 }),
        estado: fc.constantFrom<'1' | '2'>('1', '2'),
        wrong: fc.constantFrom('none', 'none', 'monto', 'fecha', 'encf', 'emisor'),
        prefix: fc.constantFrom('', `/t/${RECEPTOR_A}`, `/t/${RECEPTOR_B}`),
        pad: padding,
      });
      await fc.assert(
        fc.asyncProperty(arb, async (x) => {
          const d = docs[x.doc]!;
          const s = strangers[x.stranger]!;
          const issuerRnc = d.issuerId === h.a.id ? RECEPTOR_A : RECEPTOR_B;
          const over = {
            ...(x.estado === '2' ? { estado: '2' as const, detalle_motivo_rechazo: 'Mercancía no recibida' } : {}),
            ...(x.wrong === 'monto' ? { monto_total: Number(d.totalAmount) + 1 } : {}),
            ...(x.wrong === 'fecha' ? { fecha_emision: '02-04-2026' } : {}),
            ...(x.wrong === 'encf' ? { encf: 'E310000009990' } : {}),
          };
          const xml = pad(
            await acecfFor(d, x.wrong === 'emisor' ? '401000001' : issuerRnc, over, x.signer === 'stranger' ? { signer: s.id } : {}),
            x.pad,
            '<DetalleAprobacionComercial>',
          );
          const res = await postXml(h, `${x.prefix}/fe/aprobacioncomercial/api/ecf`, xml, { token: x.tokenOf === 'buyer' ? remoteToken : s.token });
          expect([200, 400, 401, 409], JSON.stringify(x)).toContain(res.status);
          const body = (await res.json()) as { mensaje: string };
          if (res.status === 200) {
            expect(
              x.signer === 'buyer' && x.tokenOf === 'buyer' && x.wrong === 'none' && (x.prefix === '' || x.prefix === `/t/${issuerRnc}`),
              `accepted: ${JSON.stringify(x)}`,
            ).toBe(true);
          }
          // A refusal about stored data from the genuine buyer is always the one generic answer.
          if (res.status === 400 && x.signer === 'buyer') expect(body.mensaje).toBe(NOT_MATCHED);
          for (const doc of docs) {
            const approvals = await h.storage.getDocumentApprovals(doc.id);
            expect(approvals.length, `approvals of ${doc.encf}`).toBeLessThanOrEqual(1);
            for (const a of approvals) {
              expect(a.rncComprador).toBe(REMOTE);
              expect(a.signerFingerprint).toBe(buyerFp);
              expect(a.acecfXml.includes('<!--')).toBe(false);
              expect(verifyXml(a.acecfXml).valid).toBe(true);
            }
          }
        }),
        { seed: SEED, numRuns: RUNS.approval, endOnFailure: true },
      );
    },
    TIMEOUT,
  );
});
