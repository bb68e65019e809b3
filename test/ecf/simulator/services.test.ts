import { beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_RNC, type Simulator } from '../../../src/ecf/simulator/index.js';
import { client, login, startTestSimulator, type TestClient } from './support.js';

const ACME = {
  nombre: 'ACME SRL',
  rnc: '131880738',
  urlRecepcion: 'https://acme.example/fe/recepcion/api/ecf',
  urlAceptacion: 'https://acme.example/fe/aprobacioncomercial/api/ecf',
  urlOpcional: null,
};

describe('simulator: directory, service status and control API', () => {
  let sim: Simulator;
  let c: TestClient;
  beforeAll(async () => {
    sim = await startTestSimulator({ directory: [ACME] });
    c = client(sim, await login(sim.url));
  });

  it('listado lists every entry (the simulator own receptor included); by RNC answers a single object', async () => {
    const list = (await c.getJson('consultadirectorio/api/consultas/listado')) as unknown as Record<string, unknown>[];
    expect(list).toContainEqual(ACME);
    expect(list.find((e) => e.rnc === SIMULATOR_RNC)).toMatchObject({ urlRecepcion: `${sim.url}/testecf/emisorreceptor/fe/recepcion/api/ecf` });
    expect(await c.getJson('consultadirectorio/api/consultas/obtenerdirectorioporrnc?RNC=131880738')).toEqual(ACME);
    expect(await c.getJson('consultadirectorio/api/consultas/obtenerdirectorioporrnc?RNC=999999999')).toEqual([]);
    const xml = await (await c.get('consultadirectorio/api/consultas/obtenerdirectorioporrnc?rnc=131880738', false)).text();
    expect(xml).toBe(
      '<?xml version="1.0" encoding="utf-8"?><DirectorioContribuyente><Nombre>ACME SRL</Nombre><Rnc>131880738</Rnc><UrlRecepcion>https://acme.example/fe/recepcion/api/ecf</UrlRecepcion><UrlAceptacion>https://acme.example/fe/aprobacioncomercial/api/ecf</UrlAceptacion></DirectorioContribuyente>',
    );
    const listXml = await (await c.get('consultadirectorio/api/consultas/listado', false)).text();
    expect(listXml).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?><ArrayOfDirectorioContribuyente><DirectorioContribuyente><Nombre>/);
  });

  it('entries added in process and over /_simulator/directory are served', async () => {
    sim.addDirectoryEntry({ nombre: 'BETA SA', rnc: '401000001', urlRecepcion: null, urlAceptacion: null, urlOpcional: null });
    const r = await fetch(`${sim.url}/_simulator/directory`, {
      method: 'POST',
      body: JSON.stringify([{ nombre: 'GAMMA SRL', rnc: '40100000299', urlRecepcion: 'https://gamma.example' }]),
    });
    expect(r.status).toBe(200);
    expect(await c.getJson('consultadirectorio/api/consultas/obtenerdirectorioporrnc?RNC=401000001')).toMatchObject({ nombre: 'BETA SA' });
    expect(await c.getJson('consultadirectorio/api/consultas/obtenerdirectorioporrnc?RNC=40100000299')).toMatchObject({
      nombre: 'GAMMA SRL',
      urlRecepcion: 'https://gamma.example',
      urlOpcional: null,
    });
    const bad = await fetch(`${sim.url}/_simulator/directory`, { method: 'POST', body: JSON.stringify({ nombre: 'SIN RNC' }) });
    expect(bad.status).toBe(400);
  });

  it('statusecf paths need Authorization: Apikey; services, windows and environments follow the scenario', async () => {
    const status = (path: string) =>
      fetch(`${sim.url}/api/estatusservicios/${path}`, { headers: { authorization: 'Apikey clave-de-prueba', accept: 'application/json' } });
    expect((await fetch(`${sim.url}/api/estatusservicios/obtenerestatus`)).status).toBe(401);
    const all = (await (await status('obtenerestatus')).json()) as { servicio: string; estatus: string; ambiente: string }[];
    expect(all.length).toBeGreaterThan(3);
    expect(all.every((s) => s.estatus === 'Disponible')).toBe(true);
    expect(new Set(all.map((s) => s.ambiente))).toEqual(new Set(['PreCertificación', 'Producción', 'Certificación']));
    expect(await (await status('verificarestado?ambiente=2')).json()).toEqual({ estado: 'Disponible' });
    expect((await status('verificarestado?ambiente=9')).status).toBe(400);

    sim.setScenarios({
      unavailableServices: ['Recepción e-CF'],
      maintenanceWindows: [{ ambiente: 'Producción', horaInicio: '22:00', horaFin: '23:59', dias: ['Domingo'] }],
    });
    const some = (await (await status('obtenerestatus')).json()) as { servicio: string; estatus: string }[];
    expect(some.filter((s) => s.estatus === 'No Disponible').map((s) => s.servicio)).toEqual(['Recepción e-CF', 'Recepción e-CF', 'Recepción e-CF']);
    expect(await (await status('obtenerventanasmantenimiento')).json()).toEqual({
      ventanaMantenimientos: [{ ambiente: 'Producción', horaInicio: '22:00', horaFin: '23:59', dias: ['Domingo'] }],
    });
    const xml = await (await fetch(`${sim.url}/api/estatusservicios/obtenerventanasmantenimiento`, { headers: { authorization: 'Apikey x' } })).text();
    expect(xml).toContain(
      '<VentanaMantenimientos><VentanaMantenimiento><Ambiente>Producción</Ambiente><HoraInicio>22:00</HoraInicio><HoraFin>23:59</HoraFin><Dias><string>Domingo</string></Dias></VentanaMantenimiento></VentanaMantenimientos>',
    );
    sim.setScenarios({ unavailableServices: ['*'] });
    expect(await (await status('verificarestado?ambiente=1')).json()).toEqual({ estado: 'No Disponible' });
    sim.setScenarios({});
  });

  it('control API: faults and scenarios round-trip over HTTP, nonsense is a 400, stats count requests but not control calls', async () => {
    const put = (what: string, body: unknown) => fetch(`${sim.url}/_simulator/${what}`, { method: 'PUT', body: JSON.stringify(body) });
    const faults = { latencyMs: 1, http503Rate: 0.5, paths: ['consultaresultado'] };
    expect(await (await put('faults', faults)).json()).toEqual(faults);
    expect(await (await fetch(`${sim.url}/_simulator/faults`)).json()).toEqual(faults);
    expect((await put('faults', { http500Rate: 0.8, http503Rate: 0.5 })).status).toBe(400);
    expect((await put('faults', { latencyMs: -1 })).status).toBe(400);
    expect((await put('faults', {})).status).toBe(200);

    const scenarios = { rejectEncfSuffixes: ['7'], forceState: { E310000000001: 'Aceptado Condicional' } };
    expect(await (await put('scenarios', scenarios)).json()).toEqual(scenarios);
    expect((await put('scenarios', { forceState: { E310000000001: 'Quizás' } })).status).toBe(400);
    expect((await fetch(`${sim.url}/_simulator/scenarios`, { method: 'PUT', body: '{no es json' })).status).toBe(400);
    expect(await (await put('scenarios', {})).json()).toEqual({});
    expect((await fetch(`${sim.url}/_simulator/nada`)).status).toBe(404);

    const before = ((await (await fetch(`${sim.url}/_simulator/stats`)).json()) as { requests: number }).requests;
    await c.getJson('consultadirectorio/api/consultas/listado');
    await fetch(`${sim.url}/_simulator/stats`);
    const after = (await (await fetch(`${sim.url}/_simulator/stats`)).json()) as { requests: number; tokens: number };
    expect(after.requests).toBe(before + 1);
    expect(after.tokens).toBeGreaterThanOrEqual(1);
  });

  it('in-process handler: the same protocol without a socket', async () => {
    const r = await sim.handler(new Request('http://simulador/testecf/autenticacion/api/autenticacion/semilla'));
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('<SemillaModel');
    const four = await sim.handler(new Request('http://simulador/testecf/no/existe'));
    expect(four.status).toBe(404);
  });
});
