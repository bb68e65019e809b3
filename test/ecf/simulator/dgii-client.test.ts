/**
 * The SDK's own DGII and receptor clients (src/ecf/dgii) against the simulator over loopback: the same
 * client talks to DGII and to the simulator, so every operation of the AuthorityTransport port must
 * work here end to end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityCode } from '../../../src/ecf/derive/security-code.js';
import { createDgiiClient, createReceptorClient, LOOPBACK_RANGES, type DgiiClient } from '../../../src/ecf/dgii/index.js';
import { buildAcecfXml } from '../../../src/ecf/documents/acecf.js';
import { deriveRfceXml } from '../../../src/ecf/rfce/derive.js';
import { signXml } from '../../../src/ecf/sign/sign-xml.js';
import { SIMULATOR_RNC, type Simulator } from '../../../src/ecf/simulator/index.js';
import { anecfSigned, EMISOR, encfIn, signedEcf, startTestSimulator, testSigner } from './support.js';

describe('simulator + createDgiiClient / createReceptorClient', () => {
  let sim: Simulator;
  let dgii: DgiiClient;
  const who = () => ({ rnc: EMISOR, signer: testSigner() });
  beforeAll(async () => {
    sim = await startTestSimulator();
    dgii = createDgiiClient({ environment: 'testecf', baseUrl: sim.url, apiKey: 'clave', retries: 0 });
  });
  afterAll(() => dgii.close());

  async function waitResult(trackId: string) {
    for (let i = 0; i < 200; i++) {
      const r = await dgii.result(who(), trackId);
      if (r.estado !== 'En Proceso') return r;
      await new Promise((ok) => setTimeout(ok, 10));
    }
    throw new Error('still in process');
  }

  it('authenticates, sends an e-CF, reads the result, the status and the track ids', async () => {
    const token = await dgii.authenticate(who());
    expect(token.expiresAt.getTime()).toBeGreaterThan(token.issuedAt.getTime());
    const xml = await signedEcf('31', 1);
    const { trackId } = await dgii.sendEcf(who(), { fileName: `${EMISOR}E310000000001.xml`, xml });
    const result = await waitResult(trackId);
    expect(result).toMatchObject({ trackId, codigo: 1, estado: 'Aceptado', rnc: EMISOR, encf: 'E310000000001', secuenciaUtilizada: true, mensajes: [] });
    expect(result.fechaRecepcion).toBeInstanceOf(Date);
    const status = await dgii.status(who(), { rncEmisor: EMISOR, encf: 'E310000000001', rncComprador: '131880738', codigoSeguridad: securityCode(xml) });
    expect(status).toMatchObject({ codigo: 1, estado: 'Aceptado', montoTotal: '236.00', totalITBIS: '36.00' });
    expect(await dgii.trackIds(who(), { rncEmisor: EMISOR, encf: 'E310000000001' })).toEqual([
      { trackId, estado: 'Aceptado', fechaRecepcion: result.fechaRecepcion },
    ]);
  });

  it('sends an RFCE and queries it by security code', async () => {
    const ecf = await signedEcf('32', 1);
    const rfce = await signXml(deriveRfceXml(ecf), testSigner());
    const verdict = await dgii.sendRfce(who(), { fileName: `${EMISOR}E320000000001.xml`, xml: rfce });
    expect(verdict).toMatchObject({ codigo: 1, estado: 'Aceptado', encf: 'E320000000001', secuenciaUtilizada: true });
    expect(await dgii.rfceStatus(who(), { rncEmisor: EMISOR, encf: 'E320000000001', codigoSeguridad: securityCode(ecf) })).toMatchObject({
      codigo: 1,
      estado: 'Aceptado',
    });
    expect(await dgii.rfceStatus(who(), { rncEmisor: EMISOR, encf: 'E320000000001', codigoSeguridad: 'zzzzzz' })).toMatchObject({
      codigo: 0,
      estado: 'No encontrado',
    });
  });

  it('approval, voiding, directory and service status', async () => {
    const acecf = await signXml(
      buildAcecfXml({
        rnc_emisor: EMISOR,
        encf: 'E310000000001',
        fecha_emision: '01-04-2026',
        monto_total: 236,
        rnc_comprador: '131880738',
        estado: '1',
        fecha_hora_aprobacion_comercial: '02-04-2026 09:00:00',
      }),
      testSigner(),
    );
    expect(await dgii.sendApproval(who(), { fileName: '131880738E310000000001.xml', xml: acecf })).toMatchObject({
      codigo: '1',
      estado: 'Aprobación comercial aprobada',
    });
    const voided = await dgii.voidRanges(who(), { fileName: 'anulacion.xml', xml: await anecfSigned(EMISOR, '31', 10, 20) });
    expect(voided).toMatchObject({ rnc: EMISOR, accepted: true });
    const refused = await dgii.voidRanges(who(), { fileName: 'anulacion.xml', xml: await anecfSigned(EMISOR, '31', 1, 1) });
    expect(refused.accepted).toBe(false);
    expect((await dgii.directory(who())).map((e) => e.rnc)).toContain(SIMULATOR_RNC);
    expect(await dgii.directory(who(), SIMULATOR_RNC)).toHaveLength(1);
    const services = await dgii.serviceStatus();
    expect(services.length).toBeGreaterThan(0);
  });

  it('a reception dropped after processing is an unknown outcome; consultatrackids shows it was received', async () => {
    sim.setFaults({ dropAfterRate: 1, paths: ['facturaselectronicas'], limit: 1 });
    const xml = await signedEcf('31', 2);
    const error = await dgii.sendEcf(who(), { fileName: `${EMISOR}E310000000002.xml`, xml }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'TransportError', outcomeUnknown: true });
    const ids = await dgii.trackIds(who(), { rncEmisor: EMISOR, encf: encfIn(xml) });
    expect(ids).toHaveLength(1);
    sim.setFaults({});
  });

  it("delivers an e-CF to the simulator's receptor with createReceptorClient and reads its signed ARECF", async () => {
    const receptor = createReceptorClient({ retries: 0, receivers: { allowHttp: true, allowAddresses: LOOPBACK_RANGES } });
    try {
      const entry = (await dgii.directory(who(), SIMULATOR_RNC))[0]!;
      const xml = await signedEcf('31', 3, (doc) => {
        doc.comprador.rnc = SIMULATOR_RNC;
      });
      const delivery = await receptor.deliverEcf(entry, who(), { fileName: `${EMISOR}E310000000003.xml`, xml });
      expect(delivery.signatureValid).toBe(true);
      expect(delivery.arecf.data).toMatchObject({ rnc_emisor: EMISOR, rnc_comprador: SIMULATOR_RNC, encf: 'E310000000003', estado: '0' });
    } finally {
      await receptor.close();
    }
  });
});
