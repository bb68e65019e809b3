import { beforeAll, describe, expect, it } from 'vitest';
import { buildAcecfXml, type AcecfInput } from '../../../src/ecf/documents/acecf.js';
import { buildAnecfXml, type AnecfInput } from '../../../src/ecf/documents/anecf.js';
import { signXml } from '../../../src/ecf/sign/sign-xml.js';
import type { Simulator } from '../../../src/ecf/simulator/index.js';
import { client, EMISOR, login, replaceOnce, signedEcf, startTestSimulator, testSigner, type TestClient } from './support.js';

const BUYER = '131880738';
const APPROVAL = 'aprobacioncomercial/api/aprobacioncomercial';
const VOIDING = 'anulacionrangos/api/operaciones/anularrango';

function acecf(over: Partial<AcecfInput> = {}): AcecfInput {
  return {
    rnc_emisor: EMISOR,
    encf: 'E310000000001',
    fecha_emision: '01-04-2026',
    monto_total: 236,
    rnc_comprador: BUYER,
    estado: '1',
    fecha_hora_aprobacion_comercial: '02-04-2026 09:00:00',
    ...over,
  };
}

function anecf(anulaciones: AnecfInput['anulaciones']): string {
  return buildAnecfXml({ rnc_emisor: EMISOR, fecha_hora_anulacion_encf: '02-04-2026 09:00:00', anulaciones });
}

describe('simulator: commercial approval (ACECF) and range voiding (ANECF)', () => {
  let sim: Simulator;
  let c: TestClient;
  beforeAll(async () => {
    sim = await startTestSimulator();
    c = client(sim, await login(sim.url));
    expect(await c.sendAndWait(await signedEcf('31', 1))).toMatchObject({ estado: 'Aceptado' });
    expect(await c.sendAndWait(await signedEcf('41', 1))).toMatchObject({ estado: 'Aceptado' });
  });

  const approve = async (xml: string, fileName = `${BUYER}${/<eNCF>([^<]+)/.exec(xml)![1]}.xml`, json = true) => c.post(APPROVAL, xml, fileName, json);

  it('accepts an approval that matches an accepted e-CF; a second one for the same e-CF is refused', async () => {
    const xml = await signXml(buildAcecfXml(acecf()), testSigner());
    const r = await approve(xml);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ mensaje: ['Aprobación comercial recibida.'], estado: 'Aprobación comercial aprobada', codigo: '1' });
    const again = await approve(xml, undefined, false);
    expect(await again.text()).toMatch(
      /^<\?xml version="1.0" encoding="utf-8"\?><RespuestaAprobacionComercial><Mensaje><string>Ya existe una aprobación comercial para el e-CF E310000000001\.<\/string><\/Mensaje><Estado>Aprobación comercial rechazada<\/Estado><Codigo>2<\/Codigo><\/RespuestaAprobacionComercial>$/,
    );
  });

  it('refuses approvals whose fields do not match the e-CF, of unknown e-CF, of types without approval, or badly signed', async () => {
    const ok = await c.sendAndWait(await signedEcf('31', 2));
    expect(ok.estado).toBe('Aceptado');
    const refused = async (xml: string, fileName?: string) => {
      const body = (await (await approve(xml, fileName)).json()) as { codigo: string; mensaje: string[] };
      expect(body.codigo).toBe('2');
      return body.mensaje.join(' ');
    };
    const sign = (x: string) => signXml(x, testSigner());
    expect(await refused(await sign(buildAcecfXml(acecf({ encf: 'E310000000002', monto_total: 230, fecha_emision: '02-04-2026' }))))).toMatch(
      /FechaEmision.*MontoTotal/,
    );
    expect(await refused(await sign(buildAcecfXml(acecf({ encf: 'E310000000002', rnc_comprador: '101010101' }))), `101010101E310000000002.xml`)).toContain(
      'RNCComprador',
    );
    expect(await refused(await sign(buildAcecfXml(acecf({ encf: 'E310000000099' }))))).toContain('no existe o no ha sido aceptado');
    const type41 = await sign(replaceOnce(buildAcecfXml(acecf({ encf: 'E310000000001' })), '<eNCF>E310000000001</eNCF>', '<eNCF>E410000000001</eNCF>'));
    expect(await refused(type41)).toContain('El tipo 41 no admite aprobación comercial');
    const tampered = replaceOnce(await sign(buildAcecfXml(acecf({ encf: 'E310000000002' }))), '<Estado>1</Estado>', '<Estado>2</Estado>');
    expect(await refused(tampered)).toContain('firma digital');
    // The file is named after the buyer (RNCComprador + e-NCF), not the issuer.
    const named = await approve(await sign(buildAcecfXml(acecf({ encf: 'E310000000002' }))), `${EMISOR}E310000000002.xml`);
    expect(named.status).toBe(400);
    expect(sim.stats().approvals).toBeGreaterThanOrEqual(7);
  });

  it('voids unused ranges; the e-NCF of a voided range are then refused', async () => {
    const r = await c.post(
      VOIDING,
      await signXml(
        anecf([
          { tipo_ecf: '31', rangos: [{ desde: 100, hasta: 110 }] },
          { tipo_ecf: '34', rangos: [{ desde: 5, hasta: 5 }] },
        ]),
        testSigner(),
      ),
      'anulacion.xml',
    );
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ rnc: EMISOR, codigo: '1', nombre: 'Aceptado', mensajes: ['Se anularon 12 e-NCF.'] });
    const v = await c.sendAndWait(await signedEcf('31', 105));
    expect(v).toMatchObject({ estado: 'Rechazado', secuenciaUtilizada: true, mensajes: [{ valor: expect.stringContaining('anulado') }] });
    expect(sim.stats().voids).toBe(1);
  });

  it('refuses ranges already voided, ranges holding received e-CF, counts that do not add up, overlapping ranges, bad signatures', async () => {
    const sign = (x: string) => signXml(x, testSigner());
    const refused = async (xml: string) => {
      const r = await c.post(VOIDING, xml, 'anulacion.xml', false);
      expect(r.status).toBe(200);
      const text = await r.text();
      expect(text).toContain('<Codigo>2</Codigo><Nombre>Rechazado</Nombre>');
      return text;
    };
    expect(await refused(await sign(anecf([{ tipo_ecf: '31', rangos: [{ desde: 108, hasta: 120 }] }])))).toContain('ya fue anulado');
    expect(await refused(await sign(anecf([{ tipo_ecf: '41', rangos: [{ desde: 1, hasta: 3 }] }])))).toContain('E410000000001');
    const miscounted = replaceOnce(
      anecf([{ tipo_ecf: '31', rangos: [{ desde: 200, hasta: 205 }] }]),
      '<CantidadeNCFAnulados>6</CantidadeNCFAnulados><FechaHoraAnulacioneNCF>',
      '<CantidadeNCFAnulados>7</CantidadeNCFAnulados><FechaHoraAnulacioneNCF>',
    );
    expect(await refused(await sign(miscounted))).toContain('no coincide con la suma de los rangos');
    const overlapping = replaceOnce(
      anecf([
        {
          tipo_ecf: '31',
          rangos: [
            { desde: 200, hasta: 205 },
            { desde: 300, hasta: 305 },
          ],
        },
      ]),
      '<SecuenciaeNCFDesde>E310000000300</SecuenciaeNCFDesde>',
      '<SecuenciaeNCFDesde>E310000000203</SecuenciaeNCFDesde>',
    );
    expect(await refused(await sign(overlapping))).toContain('se solapa');
    const tampered = replaceOnce(await sign(anecf([{ tipo_ecf: '31', rangos: [{ desde: 400, hasta: 401 }] }])), 'E310000000401', 'E310000000402');
    expect(await refused(tampered)).toContain('firma digital');
    expect((await c.post(VOIDING, '<ANECF><nada/></ANECF>', 'anulacion.xml')).status).toBe(200);
    expect((await c.post(VOIDING, await signedEcf('31', 3), 'anulacion.xml')).status).toBe(400);
  });

  it('a sequence rejected as reusable (secuenciaUtilizada false) can still be voided', async () => {
    const bad = await signedEcf('31', 150, undefined, (x) => replaceOnce(x, '<TipoPago>1</TipoPago>', '<TipoPago>9</TipoPago>'));
    expect(await c.sendAndWait(bad)).toMatchObject({ estado: 'Rechazado', secuenciaUtilizada: false });
    const r = await c.post(VOIDING, await signXml(anecf([{ tipo_ecf: '31', rangos: [{ desde: 150, hasta: 150 }] }]), testSigner()), 'anulacion.xml');
    expect(await r.json()).toMatchObject({ codigo: '1', nombre: 'Aceptado' });
  });
});
