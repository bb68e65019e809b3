/**
 * Full flows against the real simulator through the real DGII client: issue (JSON and passthrough) → the
 * worker signs and transmits → accepted / rejected; then the record, the signed XML, the PDF, the live
 * track ids and the live status through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDgiiClient, type DgiiClient } from '../../../../src/ecf/dgii/index.js';
import { buildEcfXmlFromJson, type BuildContext, type IssuerProfile } from '../../../../src/ecf/index.js';
import { verifyXml } from '../../../../src/ecf/sign/index.js';
import { startSimulator, type Simulator } from '../../../../src/ecf/simulator/index.js';
import { createWorker, type Worker } from '../../../../src/ecf/server/worker/index.js';
import { baseDoc } from '../../helpers/docs.js';
import { xsdDir } from '../../helpers/env.js';
import { schemaValidator } from '../../helpers/xsd.js';
import { body, createHarness, ISSUER_PROFILE, runningClock, type Harness } from './harness.js';

let sim: Simulator;
let client: DgiiClient;
let h: Harness;
let worker: Worker;
const clock = runningClock();

beforeAll(async () => {
  sim = await startSimulator({ xsdDir: xsdDir(), processingDelayMs: 10, clock, scenarios: { rejectEncfSuffixes: ['0000000009'] } });
  client = createDgiiClient({ environment: 'testecf', baseUrl: sim.url, clock, retries: 1, backoffMs: 10 });
  h = await createHarness({ transport: client, clock });
  worker = createWorker({ storage: h.storage, transport: client, signers: h.signers, schemas: schemaValidator(), clock, pollIntervalMs: 10 });
});
afterAll(async () => {
  await worker?.stop();
  await h?.close();
  await client?.close();
  await sim?.close();
});

/** Runs the worker until the document reaches a terminal status (or gives up after ~15 s). */
async function settle(encf: string): Promise<any> {
  for (let i = 0; i < 300; i++) {
    await worker.runOnce();
    const b = await body(await h.call(`/api/v1/documents/${encf}`));
    if (['accepted_authority', 'rejected_authority'].includes(b.document.status)) return b.document;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`document ${encf} did not settle`);
}

describe('issue → worker → authority → API', () => {
  it('a 31 in JSON: accepted; record, signed XML, PDF, live track ids and live status', async () => {
    const issued = await body(await h.post('31', baseDoc('31')));
    const encf = issued.document.e_ncf as string;
    const doc = await settle(encf);
    expect(doc).toMatchObject({ status: 'accepted_authority', status_code: 4, is_valid_fiscally: true, e_ncf: encf });
    expect(doc.track_id).toEqual(expect.any(String));
    expect(doc.security_code).toMatch(/^.{6}$/);
    expect(doc.signed_at).toMatch(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/);

    const xml = await h.call(`/api/v1/documents/${encf}/xml`);
    expect(xml.status).toBe(200);
    const signed = await xml.text();
    expect(verifyXml(signed).valid).toBe(true);
    expect(signed).toContain(`<eNCF>${encf}</eNCF>`);

    const pdf = await h.call(`/api/v1/documents/${encf}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');

    const tracks = await body(await h.call(`/api/v1/documents/${encf}/track-ids`));
    expect(tracks.data.e_ncf).toBe(encf);
    expect(tracks.data.envios.map((e: any) => e.track_id)).toContain(doc.track_id);
    expect(tracks.data.autoridad.consultada).toBe(true);
    expect(tracks.data.autoridad.error).toBeNull();
    expect(tracks.data.autoridad.track_ids.map((t: any) => t.track_id)).toContain(doc.track_id);
    expect(tracks.data.autoridad.track_ids[0].estado).toBe('Aceptado');

    const live = await h.call(`/api/v1/documents/${encf}/authority-status`);
    expect(live.status).toBe(200);
    const st = await body(live);
    expect(st.data).toMatchObject({ e_ncf: encf, servicio: 'estado_ecf', codigo: 1, valido_fiscalmente: true, codigo_seguridad: doc.security_code });
    expect(st.data.consultado_en).toMatch(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/);
  });

  it('a 32 below the threshold travels as a summary: the live status is the summary verdict', async () => {
    const encf = (await body(await h.post('32', baseDoc('32')))).document.e_ncf as string;
    const doc = await settle(encf);
    expect(doc.status).toBe('accepted_authority');
    const st = await body(await h.call(`/api/v1/documents/${encf}/authority-status`));
    expect(st.data).toMatchObject({ e_ncf: encf, servicio: 'resumen_rfce', valido_fiscalmente: true });
    expect(st.data.codigo).toBe(1);
    expect((await h.call(`/api/v1/documents/${encf}/pdf`)).status).toBe(200);
  });

  it('a passthrough XML is signed without other changes and accepted', async () => {
    const ctx: BuildContext = {
      emisor: ISSUER_PROFILE as unknown as IssuerProfile,
      encf: 'E310000000500',
      fecha_emision: '01-04-2026',
      fecha_vencimiento_secuencia: '31-12-2027',
    };
    const xml = buildEcfXmlFromJson('31', baseDoc('31'), ctx);
    expect((await h.post('31', xml, { contentType: 'application/xml' })).status).toBe(202);
    const doc = await settle('E310000000500');
    expect(doc.status).toBe('accepted_authority');
    const signed = await (await h.call('/api/v1/documents/E310000000500/xml')).text();
    // The signed document is the sent one plus FechaHoraFirma and the signature.
    expect(signed.slice(0, signed.indexOf('<FechaHoraFirma>'))).toBe(xml.slice(0, xml.lastIndexOf('</ECF>')));
  });

  it('a rejection by the authority: rejected_authority with reasons, no PDF', async () => {
    const t = await h.storage.listSequences(h.issuer.id);
    expect(t.length).toBeGreaterThan(0);
    // Consecutive 9 of type 45 is rejected by the simulator's scenario.
    let encf = '';
    while (!encf.endsWith('0000000009')) encf = (await body(await h.post('45', baseDoc('45')))).document.e_ncf;
    const doc = await settle(encf);
    expect(doc).toMatchObject({ status: 'rejected_authority', status_code: 5, is_valid_fiscally: false });
    expect(doc.errors.length).toBeGreaterThan(0);
    const pdf = await h.call(`/api/v1/documents/${encf}/pdf`);
    expect(pdf.status).toBe(409);
    const st = await body(await h.call(`/api/v1/documents/${encf}/authority-status`));
    expect(st.data.valido_fiscalmente).toBe(false);
  });
});
