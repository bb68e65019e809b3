import { beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/ecf/simulator/index.js';
import { anecfSigned, client, EMISOR, login, signedEcf, startTestSimulator, type TestClient } from './support.js';

const RECEPCION = 'recepcion/api/facturaselectronicas';

describe('simulator: fault injection', () => {
  let sim: Simulator;
  let c: TestClient;
  beforeAll(async () => {
    sim = await startTestSimulator({ seed: 12345 });
    c = client(sim, await login(sim.url));
  });

  it('HTTP 500 and 503 at the configured rates, only on the filtered paths; control paths never fail', async () => {
    sim.setFaults({ http500Rate: 1, paths: ['consultadirectorio'] });
    const r = await c.get('consultadirectorio/api/consultas/listado');
    expect(r.status).toBe(500);
    expect(r.headers.get('content-type')).toMatch(/text\/html/);
    expect(await r.text()).toContain('500 - Internal server error.');
    expect((await c.get('consultaresultado/api/consultas/estado?trackid=x')).status).toBe(200);
    expect((await fetch(`${sim.url}/_simulator/stats`)).status).toBe(200);

    sim.setFaults({ http503Rate: 1, methods: ['POST'] });
    expect((await c.get('consultadirectorio/api/consultas/listado')).status).toBe(200);
    const u = await c.post(RECEPCION, await signedEcf('31', 1), `${EMISOR}E310000000001.xml`);
    expect(u.status).toBe(503);
    expect(u.headers.get('retry-after')).toBe('1');
    expect(sim.stats().receptions[`${EMISOR}E310000000001`]).toBeUndefined();

    const before = sim.stats().faults;
    sim.setFaults({ http500Rate: 0.3, http503Rate: 0.2, paths: ['consultaresultado'] });
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await c.get('consultaresultado/api/consultas/estado?trackid=x')).status);
    const after = sim.stats().faults;
    const n500 = statuses.filter((s) => s === 500).length;
    const n503 = statuses.filter((s) => s === 503).length;
    expect(n500).toBeGreaterThan(0);
    expect(n503).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    expect(after.http500 - before.http500).toBe(n500);
    expect(after.http503 - before.http503).toBe(n503);
    sim.setFaults({});
  });

  it('latency is added and counted', async () => {
    const before = sim.stats().faults.latency;
    sim.setFaults({ latencyMs: 30, jitterMs: 10, paths: ['consultaresultado'] });
    await c.get('consultaresultado/api/consultas/estado?trackid=x');
    await c.get('consultadirectorio/api/consultas/listado');
    expect(sim.stats().faults.latency).toBe(before + 1);
    sim.setFaults({});
  });

  it('drop before processing: the request fails and nothing happened', async () => {
    sim.setFaults({ dropBeforeRate: 1, paths: [RECEPCION] });
    const xml = await signedEcf('31', 2);
    await expect(c.post(RECEPCION, xml, `${EMISOR}E310000000002.xml`)).rejects.toThrow(TypeError);
    sim.setFaults({});
    expect(sim.stats().receptions[`${EMISOR}E310000000002`]).toBeUndefined();
    expect(await c.getJson(`consultatrackids/api/trackids/consulta?rncemisor=${EMISOR}&encf=E310000000002`)).toEqual([]);
    expect(sim.stats().faults.dropBefore).toBeGreaterThanOrEqual(1);
  });

  it('drop after processing, e-CF reception: the caller gets no answer, but the e-CF was received and is processed', async () => {
    sim.setFaults({ dropAfterRate: 1, paths: [RECEPCION], limit: 1 });
    const xml = await signedEcf('31', 3);
    await expect(c.post(RECEPCION, xml, `${EMISOR}E310000000003.xml`)).rejects.toThrow(TypeError);
    expect(sim.stats().receptions[`${EMISOR}E310000000003`]).toBe(1);
    const ids = (await c.getJson(`consultatrackids/api/trackids/consulta?rncemisor=${EMISOR}&encf=E310000000003`)) as unknown as { trackId: string }[];
    expect(ids).toHaveLength(1);
    expect(await c.verdict(ids[0]!.trackId)).toMatchObject({ estado: 'Aceptado' });
    // `limit: 1`: the next request goes through; resending the same e-CF is now a duplicate.
    expect(await c.sendAndWait(xml)).toMatchObject({ estado: 'Rechazado', mensajes: [{ valor: expect.stringContaining('duplicado') }] });
    sim.setFaults({});
  });

  it('drop after processing, voiding: the range is voided although the caller never heard back', async () => {
    sim.setFaults({ dropAfterRate: 1, paths: ['anulacionrangos'] });
    const anecf = await anecfSigned(EMISOR, '31', 500, 510);
    await expect(c.post('anulacionrangos/api/operaciones/anularrango', anecf, 'anulacion.xml')).rejects.toThrow(TypeError);
    sim.setFaults({});
    expect(sim.stats().voids).toBe(1);
    const again = (await (await c.post('anulacionrangos/api/operaciones/anularrango', anecf, 'anulacion.xml')).json()) as {
      codigo: string;
      mensajes: string[];
    };
    expect(again.codigo).toBe('2');
    expect(again.mensajes.join(' ')).toContain('ya fue anulado');
    expect(await c.sendAndWait(await signedEcf('31', 505))).toMatchObject({ estado: 'Rechazado', mensajes: [{ valor: expect.stringContaining('anulado') }] });
  });

  it('the in-process handler rejects like fetch on a dropped connection', async () => {
    sim.setFaults({ dropAfterRate: 1, paths: ['semilla'] });
    await expect(sim.handler(new Request(`${sim.url}/testecf/autenticacion/api/autenticacion/semilla`))).rejects.toThrow(TypeError);
    sim.setFaults({ dropBeforeRate: 1, paths: ['semilla'] });
    await expect(sim.handler(new Request(`${sim.url}/testecf/autenticacion/api/autenticacion/semilla`))).rejects.toThrow(/before processing/);
    sim.setFaults({});
    expect((await sim.handler(new Request(`${sim.url}/testecf/autenticacion/api/autenticacion/semilla`))).status).toBe(200);
  });

  it('the same seed gives the same fault sequence', async () => {
    const run = async () => {
      const s = await startTestSimulator({ seed: 99, faults: { http500Rate: 0.5, paths: ['semilla'] } });
      const out: number[] = [];
      for (let i = 0; i < 12; i++) out.push((await fetch(`${s.url}/testecf/autenticacion/api/autenticacion/semilla`)).status);
      await s.close();
      return out;
    };
    const a = await run();
    expect(new Set(a)).toEqual(new Set([200, 500]));
    expect(await run()).toEqual(a);
  });
});
