/**
 * Issue 13, finding 10: values of a received e-CF that feed a decision (the buyer named in our ACECF, the
 * buyer sent to the authority's status query) are read from the parsed document, never by a regex over the
 * raw text: a commented-out `<RNCComprador>`, one inside a CDATA section of an earlier field, or one inside a
 * processing instruction must not name the buyer.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildArecfXml, parseAcecfXml } from '../../../../src/ecf/index.js';
import { signXml } from '../../../../src/ecf/sign/index.js';
import type { ReceivedDocument } from '../../../../src/ecf/server/storage/types.js';
import { body, createV2Harness, foreignEcf, startReceiver, type LoopbackReceiver, type V2Harness } from './harness.js';

const X = '101000001';
const DECOY = '999999999';
const FAKE = `<RNCComprador>${DECOY}</RNCComprador>`;

let h: V2Harness;
let receiver: LoopbackReceiver;

/**
 * Where the decoy goes in the e-CF's text. The document is re-signed after the change, except the processing
 * instruction (our signing profile refuses PIs; another issuer's tool may not), which goes into the signed text.
 */
const PI = 'an element inside a processing instruction';
const VARIANTS: Record<string, (xml: string) => string> = {
  'a comment before the real element': (xml) => xml.replace('<Comprador>', `<Comprador><!--${FAKE}-->`),
  'a comment before the Comprador block': (xml) => xml.replace('<Encabezado>', `<Encabezado><!--<Comprador>${FAKE}</Comprador>-->`),
  'an element inside a CDATA section of an earlier field': (xml) =>
    xml.replace(/<RazonSocialEmisor>[^<]*<\/RazonSocialEmisor>/, `<RazonSocialEmisor><![CDATA[${FAKE}]]></RazonSocialEmisor>`),
  [PI]: (xml) => xml.replace('<Encabezado>', `<Encabezado><?note ${FAKE}?>`),
};

async function record(encf: string, mutate: (xml: string) => string): Promise<ReceivedDocument> {
  const signed = await foreignEcf({ rnc: X, buyerRnc: h.issuer.rnc, encf, signer: h.providerSigner, clock: h.clock });
  const unsigned = signed.replace(/<Signature[\s\S]*<\/Signature>/, '');
  const xml = mutate === VARIANTS[PI] ? mutate(signed) : await signXml(mutate(unsigned), h.providerSigner);
  expect(xml).toContain(FAKE);
  const arecf = await signXml(
    buildArecfXml({ rnc_emisor: X, rnc_comprador: h.issuer.rnc, encf, estado: '0', fecha_hora_acuse_recibo: '01-04-2026 10:00:05' }),
    h.providerSigner,
  );
  return (await h.storage.addReceivedDocument(h.issuer.id, {
    emisorRnc: X,
    emisorName: `Proveedor ${X} SRL`,
    encf,
    tipo: '31',
    fechaEmision: '01-04-2026',
    montoTotal: /<MontoTotal>([^<]+)<\/MontoTotal>/.exec(xml)![1]!,
    totalItbis: null,
    xml,
    arecfXml: arecf,
    estado: 0,
    motivo: null,
    receivedAt: h.now.value.getTime(),
  }))!;
}

beforeAll(async () => {
  h = await createV2Harness();
  receiver = await startReceiver();
  h.sim.addDirectoryEntry({ nombre: 'PROVEEDOR UNO SRL', rnc: X, urlRecepcion: receiver.url, urlAceptacion: receiver.url, urlOpcional: null });
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

describe('received e-CF: decoy RNCComprador outside the real element path', () => {
  let n = 0;
  for (const [name, mutate] of Object.entries(VARIANTS)) {
    it(`${name}: the ACECF and the status query name the real buyer`, async () => {
      const encf = `E3100000001${String(++n).padStart(2, '0')}`;
      await record(encf, mutate);

      const res = await h.postJson(`/api/v1/received-documents/${encf}/commercial-approval`, { estado: 1 });
      expect([200, 502]).toContain(res.status);
      const sent = receiver.requests.filter((r) => r.body.includes(encf));
      expect(sent).toHaveLength(1);
      const acecf = /<ACECF[\s\S]*<\/ACECF>/.exec(sent[0]!.body)![0];
      expect(parseAcecfXml(acecf).data.rnc_comprador).toBe(h.issuer.rnc);
      const stored = (await h.storage.getReceivedDocument(h.issuer.id, encf, X))!;
      expect(stored.approvalXml).not.toContain(DECOY);

      const status = vi.spyOn(h.client, 'status');
      try {
        const q = await h.call(`/api/v1/received-documents/${encf}/authority-status`);
        expect(q.status, JSON.stringify(await body(q.clone()))).toBe(200);
        expect(status).toHaveBeenCalledTimes(1);
        expect(status.mock.calls[0]![1]).toMatchObject({ rncEmisor: X, encf, rncComprador: h.issuer.rnc });
      } finally {
        status.mockRestore();
      }
    });
  }
});
