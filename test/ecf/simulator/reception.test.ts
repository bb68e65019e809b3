import { beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/ecf/simulator/index.js';
import { usDate } from '../../../src/ecf/simulator/respond.js';
import type { EcfType } from '../../../src/ecf/spec/model.js';
import { refill } from '../helpers/docs.js';
import { client, EMISOR, encfIn, replaceOnce, signedEcf, startTestSimulator, login, type TestClient } from './support.js';

const US_DATE = /^\d{1,2}\/\d{1,2}\/\d{4} \d{1,2}:\d{2}:\d{2} [AP]M$/;

/** A type-32 at or above RD$250,000 (sent whole to Recepción): identified buyer, big line. */
async function big32(n: number): Promise<string> {
  return signedEcf('32', n, (doc) => {
    doc.comprador = { rnc: '131880738', razon_social: 'Comprador Identificado SRL' };
    doc.items[0].precio_unitario = 150_000;
    Object.assign(doc, refill('32', doc));
  });
}

describe('simulator: e-CF reception', () => {
  let sim: Simulator;
  let c: TestClient;
  beforeAll(async () => {
    sim = await startTestSimulator({ clock: () => new Date('2026-04-01T14:00:00Z') });
    c = client(sim, await login(sim.url));
  });

  it('accepts a valid e-CF of every type after the processing delay (33/34 once their E31 is accepted)', async () => {
    const first = await c.sendAndWait(await signedEcf('31', 1));
    expect(first).toMatchObject({ codigo: 1, estado: 'Aceptado', rnc: EMISOR, encf: 'E310000000001', secuenciaUtilizada: true, mensajes: [] });
    expect(first.fechaRecepcion).toBe('4/1/2026 10:00:00 AM');
    const types: EcfType[] = ['33', '34', '41', '43', '44', '45', '46', '47'];
    const docs = [await big32(1), ...(await Promise.all(types.map((t) => signedEcf(t, 1))))];
    const verdicts = await Promise.all(docs.map((d) => c.sendAndWait(d)));
    for (const [i, v] of verdicts.entries())
      expect(v, encfIn(docs[i]!)).toMatchObject({ codigo: 1, estado: 'Aceptado', encf: encfIn(docs[i]!), secuenciaUtilizada: true });
    expect(sim.stats().receptions[`${EMISOR}E310000000001`]).toBe(1);
  });

  it('a track id is "En Proceso" (código 3) until its verdict', async () => {
    sim.setScenarios({ forceState: { E310000000020: 'En Proceso' } });
    const id = await c.sendEcf(await signedEcf('31', 20));
    await new Promise((r) => setTimeout(r, 60));
    expect(await c.result(id)).toMatchObject({ trackId: id, codigo: 3, estado: 'En Proceso', encf: 'E310000000020' });
    sim.setScenarios({});
    expect(await c.verdict(id)).toMatchObject({ codigo: 1, estado: 'Aceptado' });
  });

  it('rejects an XSD-invalid e-CF with the violations; the sequence may be reused', async () => {
    const xml = await signedEcf('31', 2, undefined, (x) => replaceOnce(x, '<TipoPago>1</TipoPago>', '<TipoPago>9</TipoPago>'));
    const v = await c.sendAndWait(xml);
    expect(v).toMatchObject({ codigo: 2, estado: 'Rechazado', secuenciaUtilizada: false });
    expect(v.mensajes[0].valor).toMatch(/XSD.*TipoPago/);
    // Reusable: a corrected document with the same e-NCF is accepted.
    expect(await c.sendAndWait(await signedEcf('31', 2))).toMatchObject({ estado: 'Aceptado' });
  });

  it('rejects an invalid signature (document altered after signing); the sequence may be reused', async () => {
    const xml = replaceOnce(await signedEcf('31', 3), '<RazonSocialComprador>Cliente SRL<', '<RazonSocialComprador>Cliente SRX<');
    const v = await c.sendAndWait(xml);
    expect(v).toMatchObject({ estado: 'Rechazado', secuenciaUtilizada: false });
    expect(v.mensajes[0].valor).toMatch(/firma digital/i);
  });

  it('rejects an e-NCF whose type is not TipoeCF', async () => {
    const xml = await signedEcf('31', 4, undefined, (x) => replaceOnce(x, '<eNCF>E310000000004</eNCF>', '<eNCF>E320000000004</eNCF>'));
    const v = await c.sendAndWait(xml);
    expect(v).toMatchObject({ estado: 'Rechazado', secuenciaUtilizada: false, encf: 'E320000000004' });
    expect(v.mensajes[0].valor).toContain('no es válido para el tipo de e-CF 31');
  });

  it('rejects a duplicate of an accepted e-NCF (sequence used); both submissions are listed by consultatrackids', async () => {
    const xml = await signedEcf('31', 5);
    const a = await c.sendEcf(xml);
    expect(await c.verdict(a)).toMatchObject({ estado: 'Aceptado' });
    const b = await c.sendEcf(xml);
    const v = await c.verdict(b);
    expect(v).toMatchObject({ estado: 'Rechazado', secuenciaUtilizada: true });
    expect(v.mensajes[0].valor).toContain('duplicado');
    const list = await c.getJson(`consultatrackids/api/trackids/consulta?rncemisor=${EMISOR}&encf=E310000000005`);
    expect(list).toEqual([
      { trackId: a, estado: 'Aceptado', fechaRecepcion: '4/1/2026 10:00:00 AM' },
      { trackId: b, estado: 'Rechazado', fechaRecepcion: '4/1/2026 10:00:00 AM' },
    ]);
    expect(sim.stats().receptions[`${EMISOR}E310000000005`]).toBe(2);
  });

  it('614: a note whose NCFModificado (series E) was not accepted is rejected', async () => {
    const xml = await signedEcf('34', 6, (doc) => {
      doc.referencia.ncf_modificado = 'E310000009999';
    });
    const v = await c.sendAndWait(xml);
    expect(v).toMatchObject({ estado: 'Rechazado', secuenciaUtilizada: true });
    expect(v.mensajes[0]).toMatchObject({ codigo: '614' });
  });

  it('a type 32 below RD$250,000 must come as RFCE; at or above it, via this service', async () => {
    const v = await c.sendAndWait(await signedEcf('32', 7));
    expect(v).toMatchObject({ estado: 'Rechazado', secuenciaUtilizada: false });
    expect(v.mensajes[0].valor).toContain('RFCE');
    expect(await c.sendAndWait(await big32(8))).toMatchObject({ estado: 'Aceptado' });
  });

  it('amounts beyond the tolerance: Aceptado Condicional (código 4) with the reasons', async () => {
    const xml = await signedEcf('31', 9, undefined, (x) => replaceOnce(x, '<MontoTotal>236.00</MontoTotal>', '<MontoTotal>240.00</MontoTotal>'));
    const v = await c.sendAndWait(xml);
    expect(v).toMatchObject({ codigo: 4, estado: 'Aceptado Condicional', secuenciaUtilizada: true });
    expect(v.mensajes[0].valor).toContain('totales.monto_total');
  });

  it('other business-rule errors reject (sequence used)', async () => {
    const xml = await signedEcf('31', 10, undefined, (x) => replaceOnce(x, '<ITBIS1>18</ITBIS1>', '<ITBIS1>16</ITBIS1>'));
    const v = await c.sendAndWait(xml);
    expect(v).toMatchObject({ estado: 'Rechazado', secuenciaUtilizada: true });
    expect(v.mensajes.map((m: { valor: string }) => m.valor).join(' ')).toContain('totales.itbis1');
  });

  it('scenario switches: rejected and conditional suffixes, forced states', async () => {
    sim.setScenarios({ rejectEncfSuffixes: ['7'], conditionalEncfSuffixes: ['8'], forceState: { [`${EMISOR}E310000000019`]: 'Rechazado' } });
    try {
      expect(await c.sendAndWait(await signedEcf('31', 17))).toMatchObject({ estado: 'Rechazado', secuenciaUtilizada: true });
      expect(await c.sendAndWait(await signedEcf('31', 18))).toMatchObject({ estado: 'Aceptado Condicional', codigo: 4 });
      expect(await c.sendAndWait(await signedEcf('31', 19))).toMatchObject({ estado: 'Rechazado' });
      expect(await c.sendAndWait(await signedEcf('31', 21))).toMatchObject({ estado: 'Aceptado' });
      // The real checks still come first: a broken signature is not "Aceptado Condicional".
      const broken = replaceOnce(await signedEcf('31', 28), 'Cliente SRL<', 'Cliente SRX<');
      expect(await c.sendAndWait(broken)).toMatchObject({ estado: 'Rechazado', secuenciaUtilizada: false });
    } finally {
      sim.setScenarios({});
    }
  });

  it('answers the result and the track ids in XML with PascalCase tags and US dates when JSON is not asked', async () => {
    const id = await c.sendEcf(await signedEcf('31', 30));
    await c.verdict(id);
    const r = await c.get(`consultaresultado/api/consultas/estado?trackid=${id}`, false);
    expect(r.headers.get('content-type')).toMatch(/application\/xml/);
    expect(await r.text()).toBe(
      `<?xml version="1.0" encoding="utf-8"?><RespuestaConsultaTrackId><TrackId>${id}</TrackId><Codigo>1</Codigo><Estado>Aceptado</Estado><Rnc>${EMISOR}</Rnc><Encf>E310000000030</Encf><SecuenciaUtilizada>true</SecuenciaUtilizada><FechaRecepcion>4/1/2026 10:00:00 AM</FechaRecepcion><Mensajes></Mensajes></RespuestaConsultaTrackId>`,
    );
    const t = await c.get(`consultatrackids/api/trackids/consulta?rncemisor=${EMISOR}&encf=E310000000030`, false);
    expect(await t.text()).toBe(
      `<?xml version="1.0" encoding="utf-8"?><ArrayOfRespuestaConsultaTrackIds><RespuestaConsultaTrackIds><TrackId>${id}</TrackId><Estado>Aceptado</Estado><FechaRecepcion>4/1/2026 10:00:00 AM</FechaRecepcion></RespuestaConsultaTrackIds></ArrayOfRespuestaConsultaTrackIds>`,
    );
    const rejected = await c.sendEcf(await signedEcf('31', 31, undefined, (x) => replaceOnce(x, '<ITBIS1>18</ITBIS1>', '<ITBIS1>16</ITBIS1>')));
    await c.verdict(rejected);
    const rx = await (await c.get(`consultaresultado/api/consultas/estado?trackid=${rejected}`, false)).text();
    expect(rx).toMatch(/<Mensajes><Mensaje><Valor>totales\.itbis1: [^<]+<\/Valor><\/Mensaje>/);
    const unknown = await c.getJson('consultaresultado/api/consultas/estado?trackid=no-existe');
    expect(unknown).toMatchObject({ codigo: 0, estado: 'No encontrado' });
  });

  it('US-style dates: 12-hour clock with AM/PM, Dominican time', () => {
    expect(usDate(new Date('2026-05-20T20:38:38Z'))).toBe('5/20/2026 4:38:38 PM');
    expect(usDate(new Date('2026-12-01T04:05:06Z'))).toBe('12/1/2026 12:05:06 AM');
    expect(usDate(new Date('2026-12-01T16:00:00Z'))).toBe('12/1/2026 12:00:00 PM');
    expect(usDate(new Date('2026-04-01T14:00:00Z'))).toMatch(US_DATE);
  });

  it('consultaestado: found with the right security code; "No encontrado" with a wrong code or buyer', async () => {
    const xml = await signedEcf('31', 40);
    await c.sendAndWait(xml);
    const code = /<SignatureValue>(.{6})/.exec(xml)![1]!;
    const q = (codigo: string, comprador = '131880738') =>
      c.getJson(
        `consultaestado/api/consultas/estado?rncemisor=${EMISOR}&ncfelectronico=E310000000040&rnccomprador=${comprador}&codigoseguridad=${encodeURIComponent(codigo)}`,
      );
    expect(await q(code)).toEqual({
      codigo: 1,
      estado: 'Aceptado',
      rncEmisor: EMISOR,
      ncfElectronico: 'E310000000040',
      montoTotal: '236.00',
      totalITBIS: '36.00',
      fechaEmision: '01-04-2026',
      fechaFirma: '01-04-2026 10:00:00',
      rncComprador: '131880738',
      codigoSeguridad: code,
      idExtranjero: null,
    });
    const wrong = code[0] === 'A' ? `B${code.slice(1)}` : `A${code.slice(1)}`;
    expect(await q(wrong)).toMatchObject({ codigo: 0, estado: 'No encontrado', montoTotal: null });
    expect(await q(code, '101010101')).toMatchObject({ codigo: 0, estado: 'No encontrado' });
    const x = await (
      await c.get(`consultaestado/api/consultas/estado?rncemisor=${EMISOR}&ncfelectronico=E310000000040&codigoseguridad=${encodeURIComponent(code)}`, false)
    ).text();
    expect(x).toContain(
      '<RespuestaConsultaEstado><Codigo>1</Codigo><Estado>Aceptado</Estado><RncEmisor>101672919</RncEmisor><NcfElectronico>E310000000040</NcfElectronico><MontoTotal>236.00</MontoTotal><TotalITBIS>36.00</TotalITBIS>',
    );
  });

  it('refuses uploads it cannot take: no xml part, bad file names (3243), unsigned, not XML, another root', async () => {
    const xml = await signedEcf('31', 50);
    const path = 'recepcion/api/facturaselectronicas';
    const empty = await fetch(`${c.base}/${path}`, {
      method: 'POST',
      body: new FormData(),
      headers: { authorization: await authHeader(), accept: 'application/json' },
    });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ trackId: null, mensajes: [{ valor: expect.stringContaining('Multipart cannot be empty') }] });

    const short = await c.post(path, xml, 'E310000000050.xml');
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({ mensajes: [{ codigo: '3243', valor: 'La longitud del nombre del archivo no es válida' }] });
    const other = await c.post(path, xml, `${EMISOR}E310000000051.xml`);
    expect(other.status).toBe(400);
    expect(JSON.stringify(await other.json())).toContain('no corresponde al documento');

    const unsigned = xml.replace(/<Signature[\s\S]*<\/Signature>/, '');
    expect((await c.post(path, unsigned, `${EMISOR}E310000000050.xml`)).status).toBe(400);
    expect((await c.post(path, 'esto no es XML', `${EMISOR}E310000000050.xml`)).status).toBe(400);
    expect((await c.post(path, '<RFCE/>', `${EMISOR}E310000000050.xml`)).status).toBe(400);
    expect(sim.stats().receptions[`${EMISOR}E310000000050`]).toBeUndefined();
    // Nothing was consumed: the same document is then received normally.
    expect(await c.sendAndWait(xml)).toMatchObject({ estado: 'Aceptado' });
  });

  it('reads DGII-style lenient multipart: unquoted name, LF line ends, odd part content type', async () => {
    const xml = await signedEcf('31', 60);
    const body = `--b0undary\nContent-Disposition: form-data; name=xml; filename=${EMISOR}E310000000060.xml; filename*=utf-8''${EMISOR}E310000000060.xml\nContent-Type: multipart/form-data;\n\n${xml}\n--b0undary--\n`;
    const r = await fetch(`${c.base}/recepcion/api/facturaselectronicas`, {
      method: 'POST',
      body,
      headers: { authorization: await authHeader(), 'content-type': 'multipart/form-data', accept: 'application/json' },
    });
    expect(r.status).toBe(200);
    expect(await c.verdict(((await r.json()) as { trackId: string }).trackId)).toMatchObject({ estado: 'Aceptado', encf: 'E310000000060' });
  });

  async function authHeader(): Promise<string> {
    return `Bearer ${await login(sim.url)}`;
  }
});
