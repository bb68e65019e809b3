import { beforeAll, describe, expect, it } from 'vitest';
import { securityCode } from '../../../src/ecf/derive/security-code.js';
import { deriveRfceXml } from '../../../src/ecf/rfce/derive.js';
import { signXml } from '../../../src/ecf/sign/sign-xml.js';
import type { Simulator } from '../../../src/ecf/simulator/index.js';
import { client, EMISOR, login, replaceOnce, signedEcf, startTestSimulator, testSigner, type TestClient } from './support.js';

const PATH = 'recepcionfc/api/recepcion/ecf';

/** A signed type 32 (below the threshold) and its signed RFCE. */
async function rfceOf(n: number, edit?: (rfce: string) => string): Promise<{ ecf: string; rfce: string; code: string; encf: string }> {
  const ecf = await signedEcf('32', n);
  const unsigned = deriveRfceXml(ecf);
  const rfce = await signXml(edit ? edit(unsigned) : unsigned, testSigner());
  return { ecf, rfce, code: securityCode(ecf), encf: `E32${String(n).padStart(10, '0')}` };
}

describe('simulator: RFCE (consumer-invoice summaries)', () => {
  let sim: Simulator;
  let c: TestClient;
  beforeAll(async () => {
    sim = await startTestSimulator();
    c = client(sim, await login(sim.url));
  });
  const send = async (rfce: string, encf: string, json = true) => c.post(PATH, rfce, `${EMISOR}${encf}.xml`, json);

  it('answers a synchronous verdict; later queries find it only with the declared security code', async () => {
    const { rfce, code, encf } = await rfceOf(1);
    const r = await send(rfce, encf);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ codigo: 1, estado: 'Aceptado', mensajes: [], encf, secuenciaUtilizada: true });
    expect(sim.stats().rfce[`${EMISOR}${encf}`]).toBe(1);

    const rfceQuery = (cod: string) =>
      c.getJson(`consultarfce/api/Consultas/Consulta?RNC_Emisor=${EMISOR}&ENCF=${encf}&Cod_Seguridad_eCF=${encodeURIComponent(cod)}`);
    expect(await rfceQuery(code)).toEqual({ rnc: EMISOR, encf, secuenciaUtilizada: true, codigo: 1, estado: 'Aceptado', mensajes: [] });
    const other = (await rfceOf(2)).code;
    expect(other).not.toBe(code);
    expect(await rfceQuery(other)).toMatchObject({ codigo: 0, estado: 'No encontrado' });

    const status = (cod: string) =>
      c.getJson(`consultaestado/api/consultas/estado?rncemisor=${EMISOR}&ncfelectronico=${encf}&codigoseguridad=${encodeURIComponent(cod)}`);
    expect(await status(code)).toMatchObject({ codigo: 1, estado: 'Aceptado', montoTotal: '236.00', codigoSeguridad: code, fechaEmision: '01-04-2026' });
    expect(await status(other)).toMatchObject({ codigo: 0, estado: 'No encontrado' });

    // The timbre (QR) of a consumer invoice: public, JSON or an HTML page.
    const timbre = (cod: string, monto = '236.00', json = true) =>
      fetch(`${sim.url}/testecf/consultatimbrefc?rncemisor=${EMISOR}&encf=${encf}&montototal=${monto}&codigoseguridad=${encodeURIComponent(cod)}`, {
        headers: json ? { accept: 'application/json' } : {},
      });
    expect(await (await timbre(code)).json()).toMatchObject({ estado: 'Aceptado', codigo: 1 });
    expect(await (await timbre(other)).json()).toMatchObject({ estado: 'No encontrado', codigo: 0 });
    expect(await (await timbre(code, '237.00')).json()).toMatchObject({ estado: 'No encontrado' });
    const page = await timbre(code, '236', false);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('<dd id="estado">Aceptado</dd>');
    // An unencoded "+" in the code reads as a space and is not found, as at DGII.
    if (code.includes('+')) expect(await (await timbre(code.replace('+', ' '))).json()).toMatchObject({ estado: 'No encontrado' });
  });

  it('rejects a duplicate (sequence used) and answers XML when JSON is not asked', async () => {
    const { rfce, encf } = await rfceOf(3);
    expect(await (await send(rfce, encf)).json()).toMatchObject({ estado: 'Aceptado' });
    const again = await send(rfce, encf, false);
    const text = await again.text();
    expect(text).toMatch(
      new RegExp(
        `^<\\?xml version="1.0" encoding="utf-8"\\?><RespuestaRecepcionFC><Codigo>2</Codigo><Estado>Rechazado</Estado><Mensajes><Mensaje><Valor>[^<]*duplicado[^<]*</Valor></Mensaje></Mensajes><Encf>${encf}</Encf><SecuenciaUtilizada>true</SecuenciaUtilizada></RespuestaRecepcionFC>$`,
      ),
    );
    expect(sim.stats().rfce[`${EMISOR}${encf}`]).toBe(2);
  });

  it('rejects a bad signature, an XSD-invalid summary, a total at or above the threshold and another type (sequence reusable)', async () => {
    const a = await rfceOf(4);
    const tampered = replaceOnce(a.rfce, '<MontoTotal>236.00</MontoTotal>', '<MontoTotal>230.00</MontoTotal>');
    expect(await (await send(tampered, a.encf)).json()).toMatchObject({
      estado: 'Rechazado',
      secuenciaUtilizada: false,
      mensajes: [{ valor: expect.stringMatching(/firma digital/i) }],
    });

    const b = await rfceOf(5, (x) => x.replace(/<CodigoSeguridadeCF>.{6}<\/CodigoSeguridadeCF>/, '<CodigoSeguridadeCF>abc</CodigoSeguridadeCF>'));
    const bv = (await (await send(b.rfce, b.encf)).json()) as { estado: string; secuenciaUtilizada: boolean; mensajes: { valor: string }[] };
    expect(bv).toMatchObject({ estado: 'Rechazado', secuenciaUtilizada: false });
    expect(bv.mensajes[0]!.valor).toMatch(/XSD.*CodigoSeguridadeCF/);

    const big = await rfceOf(6, (x) => replaceOnce(x, '<MontoTotal>236.00</MontoTotal>', '<MontoTotal>250000.00</MontoTotal>'));
    expect(await (await send(big.rfce, big.encf)).json()).toMatchObject({
      estado: 'Rechazado',
      secuenciaUtilizada: false,
      mensajes: [{ valor: expect.stringContaining('o más') }],
    });

    const t31 = await rfceOf(7, (x) =>
      replaceOnce(replaceOnce(x, '<TipoeCF>32</TipoeCF>', '<TipoeCF>31</TipoeCF>'), '<eNCF>E320000000007</eNCF>', '<eNCF>E310000000007</eNCF>'),
    );
    expect(await (await c.post(PATH, t31.rfce, `${EMISOR}E310000000007.xml`)).json()).toMatchObject({ estado: 'Rechazado', secuenciaUtilizada: false });

    // Reusable: the proper RFCE of sequence 4 is then accepted.
    expect(await (await send(a.rfce, a.encf)).json()).toMatchObject({ estado: 'Aceptado' });
  });

  it('scenario switches apply to summaries too', async () => {
    sim.setScenarios({ rejectEncfSuffixes: ['8'], forceState: { E320000000009: 'Aceptado Condicional' } });
    try {
      const a = await rfceOf(8);
      expect(await (await send(a.rfce, a.encf)).json()).toMatchObject({ codigo: 2, estado: 'Rechazado', secuenciaUtilizada: true });
      const b = await rfceOf(9);
      expect(await (await send(b.rfce, b.encf)).json()).toMatchObject({ codigo: 4, estado: 'Aceptado Condicional' });
    } finally {
      sim.setScenarios({});
    }
  });

  it('checks the file name (3243) and needs a token', async () => {
    const { rfce, encf } = await rfceOf(10);
    expect(await (await c.post(PATH, rfce, `${encf}.xml`)).json()).toMatchObject({ mensajes: [{ codigo: '3243' }] });
    const anonymous = new FormData();
    anonymous.append('xml', new Blob([rfce], { type: 'text/xml' }), `${EMISOR}${encf}.xml`);
    expect((await fetch(`${sim.url}/testecf/${PATH}`, { method: 'POST', body: anonymous })).status).toBe(401);
  });

  it('consultaestado prefers the accepted RFCE over the same 32 sent whole to Recepción by mistake', async () => {
    const { ecf, rfce, code, encf } = await rfceOf(11);
    expect(await c.sendAndWait(ecf)).toMatchObject({ estado: 'Rechazado', secuenciaUtilizada: false });
    expect(await (await send(rfce, encf)).json()).toMatchObject({ estado: 'Aceptado' });
    expect(
      await c.getJson(`consultaestado/api/consultas/estado?rncemisor=${EMISOR}&ncfelectronico=${encf}&codigoseguridad=${encodeURIComponent(code)}`),
    ).toMatchObject({ codigo: 1, estado: 'Aceptado' });
  });

  it('consultatimbre of a full e-CF checks dates, amount, buyer and code', async () => {
    const ecf = await signedEcf('31', 1);
    await c.sendAndWait(ecf);
    const code = securityCode(ecf);
    const url = (over: Record<string, string> = {}) => {
      const p = new URLSearchParams({
        rncemisor: EMISOR,
        rnccomprador: '131880738',
        encf: 'E310000000001',
        fechaemision: '01-04-2026',
        montototal: '236.00',
        fechafirma: '01-04-2026 10:00:00',
        codigoseguridad: code,
        ...over,
      });
      return `${sim.url}/testecf/ConsultaTimbre?${p}`;
    };
    const get = async (u: string) => (await (await fetch(u, { headers: { accept: 'application/json' } })).json()) as { estado: string };
    expect(await get(url())).toMatchObject({ estado: 'Aceptado' });
    expect(await get(url({ fechafirma: '01-04-2026 10:00:01' }))).toMatchObject({ estado: 'No encontrado' });
    expect(await get(url({ rnccomprador: '101010101' }))).toMatchObject({ estado: 'No encontrado' });
  });
});
